"""Small SVG drawings for pages: the 3x3 target grid of a card or a deck."""
from __future__ import annotations

from html import escape

from markupsafe import Markup

from deckcheck.grid import SQUARE_NAMES, SQUARES

CELL = 22
GAP = 3


def grid_svg(mask: int | None, label: str, small: bool = False, big: bool = False, coverage: bool = False) -> Markup:
    """The 3x3 grid with covered squares filled; an unknown grid (None) drawn hatched with a question mark.

    `coverage`: what a deck covers, where an uncovered square is a gap to fill: covered squares carry a tick,
    uncovered ones a colour of their own and a cross (told apart without colour)."""
    size = 3 * CELL + 4 * GAP
    shown = size // 2 if small else size * 2 if big else size * 3 // 2
    parts = [f'<svg class="grid" viewBox="0 0 {size} {size}" width="{shown}" height="{shown}" role="img" '
             f'aria-label="{escape(label)}: {escape(_describe(mask))}">',
             f'<title>{escape(label)}: {escape(_describe(mask))}</title>']
    for i, square in enumerate(SQUARES):
        row, col = divmod(i, 3)
        x, y = GAP + col * (CELL + GAP), GAP + row * (CELL + GAP)
        on = mask is not None and bool(mask & (1 << i))
        kind = "unknown" if mask is None else ("on" if on else ("gap" if coverage else "off"))
        said = kind if mask is None else ("covered" if on else ("not covered" if coverage else "open"))
        parts.append(f'<rect class="sq {kind}" x="{x}" y="{y}" width="{CELL}" height="{CELL}" rx="3">'
                     f'<title>{SQUARE_NAMES[square]}: {said}</title></rect>')
        if coverage and mask is not None:
            parts.append(_tick(x, y) if on else _cross(x, y))
    if mask is None:
        parts.append(f'<text x="{size / 2}" y="{size / 2 + 7}" text-anchor="middle" class="q">?</text>')
    parts.append("</svg>")
    return Markup("".join(parts))


def _tick(x: float, y: float) -> str:
    return (f'<path class="mark tick" d="M{x + 6} {y + 11.5} l4 4 l7 -8" fill="none" stroke-width="2.6" '
            'stroke-linecap="round" stroke-linejoin="round"/>')


def _cross(x: float, y: float) -> str:
    return (f'<path class="mark cross" d="M{x + 6} {y + 6} l10 10 M{x + 16} {y + 6} l-10 10" fill="none" '
            'stroke-width="2.6" stroke-linecap="round"/>')


def legend_square(kind: str) -> Markup:
    """One square of the coverage grids' legend: "on" (covered) or "gap" (not covered)."""
    mark = _tick(0, 0) if kind == "on" else _cross(0, 0)
    return Markup(f'<svg class="legend-sq" viewBox="0 0 {CELL} {CELL}" width="18" height="18" aria-hidden="true">'
                  f'<rect class="sq {kind}" x="0" y="0" width="{CELL}" height="{CELL}" rx="3"></rect>{mark}</svg>')


def _describe(mask: int | None) -> str:
    if mask is None:
        return "unknown"
    covered = [SQUARE_NAMES[s] for i, s in enumerate(SQUARES) if mask & (1 << i)]
    return ", ".join(covered) if covered else "nothing"


NAVY = (31, 42, 68)  # --navy of style.css: the heat grids' ink
INK, WHITE = "#1d2333", "#ffffff"
LIGHT_MAX, DARK_MIN = 0.50, 0.70  # the opacities around the middle grey on which neither dark nor white text reads


def heat(p: float) -> tuple[str, str]:
    """(fill opacity of a heat-grid cell for the probability p, its text colour).

    The opacity grows with p, but skips the band of middle greys: below one half the cell stays light
    (dark text), from one half it is dark (white text), so that either text keeps a contrast of at
    least 4.5 to 1 (WCAG AA) against its cell.
    """
    p = min(max(p, 0.0), 1.0)
    if p < 0.5:
        return f"{0.04 + (LIGHT_MAX - 0.04) * p / 0.5:.3f}", INK
    return f"{DARK_MIN + (0.96 - DARK_MIN) * (p - 0.5) / 0.5:.3f}", WHITE
