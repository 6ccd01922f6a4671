"""Small SVG drawings for pages: the 3x3 target grid of a card or a deck."""
from __future__ import annotations

from html import escape

from markupsafe import Markup

from deckcheck.grid import SQUARE_NAMES, SQUARES

CELL = 22
GAP = 3


def grid_svg(mask: int | None, label: str, small: bool = False, big: bool = False) -> Markup:
    """The 3x3 grid with covered squares filled; an unknown grid (None) drawn hatched with a question mark."""
    size = 3 * CELL + 4 * GAP
    shown = size // 2 if small else size * 2 if big else size * 3 // 2
    parts = [f'<svg class="grid" viewBox="0 0 {size} {size}" width="{shown}" height="{shown}" role="img" '
             f'aria-label="{escape(label)}: {escape(_describe(mask))}">',
             f'<title>{escape(label)}: {escape(_describe(mask))}</title>']
    for i, square in enumerate(SQUARES):
        row, col = divmod(i, 3)
        x, y = GAP + col * (CELL + GAP), GAP + row * (CELL + GAP)
        on = mask is not None and bool(mask & (1 << i))
        kind = "unknown" if mask is None else ("on" if on else "off")
        parts.append(f'<rect class="sq {kind}" x="{x}" y="{y}" width="{CELL}" height="{CELL}" rx="3">'
                     f'<title>{SQUARE_NAMES[square]}: {kind if mask is None else ("covered" if on else "open")}'
                     f'</title></rect>')
    if mask is None:
        parts.append(f'<text x="{size / 2}" y="{size / 2 + 7}" text-anchor="middle" class="q">?</text>')
    parts.append("</svg>")
    return Markup("".join(parts))


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
