"""Name normalisation shared by titles, card names and suggestions; the shape of a written name (`Thrust [ME]`)."""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_NON_WORD = re.compile(r"[\W_]+")
APOSTROPHES = "'\u2019\u2018\u02bc\u00b4`\u2032"
"""Every apostrophe form (RULES.md "Title"): deleted by normalize(), read as ' by the decklist reader."""
_APOSTROPHES = str.maketrans("", "", APOSTROPHES)


def is_digits(text: str) -> bool:
    """Whether text is a whole number in ASCII digits: str.isdigit() alone takes '²' (which int() refuses) and
    str.isdecimal() takes '١' (which int() reads as 1), neither a number a form or a URL means."""
    return bool(text) and text.isascii() and text.isdigit()


def split_written_set(body: str) -> tuple[str, str | None]:
    """`name [SET]` -> (name, SET); a body not ending in `]` is returned as it is."""
    if not body.endswith("]"):
        return body, None
    start = body.rfind("[")
    if start < 0:
        return body, None
    inner = body[start + 1:-1].strip()
    if not inner or "]" in inner:
        return body, None
    return body[:start].rstrip(), inner


def split_set(text: str) -> tuple[str, str | None]:
    """A card name as written anywhere (`Thrust [ME]`) -> (name, set written in brackets or None)."""
    return split_written_set(text.strip())


def ends_in_bare_number(name: str) -> bool:
    """True for `Upper Right Attack 2`, `... - 2`, `... -2`: a number outside round brackets."""
    head, _, last = name.rpartition(" ")
    if not head:
        return False
    return is_digits(last) or (last[:1] in "-–" and is_digits(last[1:]))


def _fold(text: str) -> str:
    if not text.isascii():
        text = unicodedata.normalize("NFKD", text)
        text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return text.casefold()


@lru_cache(maxsize=1 << 16)
def normalize(text: str) -> str:
    """Fold a name for comparison (RULES.md "Title"): case and accents ignored, apostrophes deleted,
    every other run of characters that are not letters or digits one space.

    "Master's Vow" = "Masters Vow" = "MASTERS  VOW". Cached: a tournament's decklists repeat the
    same few hundred names thousands of times.
    """
    return _NON_WORD.sub(" ", _fold(text.translate(_APOSTROPHES)).translate(_APOSTROPHES)).strip()


def slug(text: str) -> str:
    """A lower-case, dash-separated identifier fragment made from a name.

    Ids derived from names must stay what they were when first stored, so an apostrophe still
    splits words here ("master-s-vow"), unlike in normalize().
    """
    return _NON_WORD.sub(" ", _fold(text)).strip().replace(" ", "-")


_MASTER = re.compile(r"\bmaster", re.IGNORECASE)


def has_master_word(title: str) -> bool:
    """True when the title holds the word Master in any form (Master, Master's, Masters, Weapon Master)."""
    return bool(_MASTER.search(title))


def and_more(lines: list[str], shown: int, total: int) -> list[str]:
    """The first lines of a long list, then '… and N more' when only `shown` of `total` are listed."""
    return lines + ([f"… and {total - shown:,} more"] if total > shown else [])
