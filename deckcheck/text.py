"""Name normalisation shared by titles, card names and suggestions."""
from __future__ import annotations

import re
import unicodedata

_NON_WORD = re.compile(r"[^\w\s]+")
_SPACES = re.compile(r"\s+")


def normalize(text: str) -> str:
    """Fold a name for comparison: case, accents, punctuation and repeated spaces are ignored."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = _NON_WORD.sub(" ", text.casefold()).replace("_", " ")
    return _SPACES.sub(" ", text).strip()


def slug(text: str) -> str:
    """A lower-case, dash-separated identifier fragment made from a name."""
    return normalize(text).replace(" ", "-")


_MASTER = re.compile(r"\bmaster", re.IGNORECASE)


def has_master_word(title: str) -> bool:
    """True when the title holds the word Master in any form (Master, Master's, Masters, Weapon Master)."""
    return bool(_MASTER.search(title))
