"""Markup around a pasted decklist taken off before its lines are read (CONTRACTS.md §2, issue 33): a chat's code
fences, forum BBCode, HTML copied as source (tags and entities), a web table's cells.

Each step is linear in the text: the patterns below cannot backtrack (a tag's inside stops at the next `<` or `[`),
and a line is only looked at when it holds a mark of its kind. Every piece keeps the number of the line it came
from, so an error still names the line the person sees; a notice says what was taken off.
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

_FENCE = re.compile(r"\s*(?:`{3,}|~{3,})\s*([\w+#.-]*)\s*$")  # a fence line, with or without a language tag
_HTML_NAMES = ("a|abbr|b|big|blockquote|body|br|caption|center|code|dd|del|div|dl|dt|em|font|h[1-6]|head|hr|html|i|"
               "img|ins|li|mark|meta|ol|p|pre|s|section|small|span|strike|strong|sub|sup|table|tbody|td|tfoot|th|"
               "thead|title|tr|tt|u|ul|article|header|footer|main|nav|label|figure|figcaption|style|script")
_HTML_TAG = re.compile(rf"<(/?)({_HTML_NAMES})\b[^<>]*>|<!--[^<>]*-->|<!doctype[^<>]*>", re.IGNORECASE)
_BB_NAMES = ("b|i|u|s|list|\\*|url|color|colour|size|font|quote|code|spoiler|center|left|right|indent|table|tr|td|"
             "th|li|ul|ol|h[1-6]|strike|sup|sub|hr|img|highlight|noparse")
_BB_TAG = re.compile(rf"\[(/?)({_BB_NAMES})(?:=[^\[\]]*)?\]", re.IGNORECASE)
_ENTITY = re.compile(r"&(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,30});")
_BLOCKS = frozenset({"br", "p", "li", "ul", "ol", "tr", "table", "thead", "tbody", "tfoot", "div", "h1", "h2", "h3",
                     "h4", "h5", "h6", "hr", "list", "*", "dd", "dt", "dl", "blockquote", "section", "caption",
                     "article", "header", "footer", "pre", "title", "figure", "figcaption"})
_CELLS = frozenset({"td", "th"})
_DROPPED = frozenset({"style", "script", "head", "title"})  # their text is no list line ("<title>" a page's)


@dataclass(slots=True)
class Unmarked:
    """A text's lines once markup is off: (line number as written, text) pieces; what was taken off."""

    lines: list[tuple[int, str]]
    taken: dict[str, list[int]] = field(default_factory=dict)  # what kind of markup -> the lines it stood on

    def notice(self) -> str | None:
        """`markup taken off: code fences (lines 1, 9), HTML tags (lines 2-40)`, or None when there was none."""
        if not self.taken:
            return None
        return "markup taken off before the list was read: " + ", ".join(
            f"{what} ({_lines(numbers)})" for what, numbers in self.taken.items())


def _lines(numbers: list[int]) -> str:
    if len(numbers) == 1:
        return f"line {numbers[0]}"
    if numbers == list(range(numbers[0], numbers[-1] + 1)):
        return f"lines {numbers[0]}-{numbers[-1]}"
    shown = ", ".join(map(str, numbers[:6]))
    return f"lines {shown}" + (f" and {len(numbers) - 6} more" if len(numbers) > 6 else "")


def take_off(lines: list[str], limit: int) -> Unmarked:
    """The lines without code fences, BBCode and HTML tags and entities; a tag that ends a block (`<br>`, `</li>`,
    `[*]`) ends the line there, a table cell's (`</td>`) leaves a tab. Lines longer than `limit` are left as they
    are (the reader refuses them unread)."""
    out = Unmarked([])
    dropping = False
    for number, raw in enumerate(lines, start=1):
        if len(raw) > limit or not ("`" in raw or "~~~" in raw or "<" in raw or "[" in raw or "&" in raw):
            out.lines.append((number, raw))
            continue
        fence = _FENCE.match(raw) if ("```" in raw or "~~~" in raw) else None
        if fence is not None:
            out.taken.setdefault("code fences", []).append(number)
            continue
        if dropping and "<" not in raw:  # inside a `<style>` or `<script>` element
            continue
        text = raw
        if "```" in text:
            text = _fence_edges(text)
            out.taken.setdefault("code fences", []).append(number)
        if "<" in text:
            text, dropping = _tags(text, _HTML_TAG, out, number, "HTML tags", dropping)
        if "[" in text:
            text, _ = _tags(text, _BB_TAG, out, number, "BBCode tags", False)
        if "&" in text and _ENTITY.search(text):
            text = html.unescape(text)
            out.taken.setdefault("HTML entities", []).append(number)
        if text is raw:
            out.lines.append((number, raw))
        else:
            out.lines.extend((number, piece) for piece in text.split("\n"))
    return out


def _fence_edges(text: str) -> str:
    """A line with a fence opening or closing it (```` ```3 Thrust ````) without the fence."""
    text = text.strip()
    if text.startswith("```"):
        text = text.lstrip("`")
    if text.endswith("```"):
        text = text.rstrip("`")
    return text


def _tags(text: str, pattern: re.Pattern[str], out: Unmarked, number: int, what: str,
          dropping: bool) -> tuple[str, bool]:
    """The text with the tags of one kind off (blocks as line ends, cells as tabs); whether a dropped element
    (`<style>`) is still open at the line's end."""
    parts: list[str] = []
    at = 0
    for found in pattern.finditer(text):
        if not dropping:
            parts.append(text[at:found.start()])
        at = found.end()
        name = (found.group(2) or "").lower()
        closing = found.group(1) == "/"
        if name in _DROPPED:
            dropping = not closing
        elif name in _CELLS:
            parts.append("\t" if closing else "")
        elif name in _BLOCKS:
            parts.append("\n")
    if at == 0 and not parts:
        return text, dropping
    if not dropping:
        parts.append(text[at:])
    out.taken.setdefault(what, []).append(number)
    return "".join(parts), dropping
