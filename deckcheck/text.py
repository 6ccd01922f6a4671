"""Name normalisation shared by titles, card names and suggestions."""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_NON_WORD = re.compile(r"[\W_]+")


@lru_cache(maxsize=1 << 16)
def normalize(text: str) -> str:
    """Fold a name for comparison: case, accents, punctuation and repeated spaces are ignored.

    Cached: a tournament's decklists repeat the same few hundred names thousands of times.
    """
    if not text.isascii():
        text = unicodedata.normalize("NFKD", text)
        text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return _NON_WORD.sub(" ", text.casefold()).strip()


def slug(text: str) -> str:
    """A lower-case, dash-separated identifier fragment made from a name."""
    return normalize(text).replace(" ", "-")


_MASTER = re.compile(r"\bmaster", re.IGNORECASE)


def has_master_word(title: str) -> bool:
    """True when the title holds the word Master in any form (Master, Master's, Masters, Weapon Master)."""
    return bool(_MASTER.search(title))
