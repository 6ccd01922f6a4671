"""Where a card's values came from: one Provenance per rules field, as Scryfall and mtgjson keep it.

A provenance is a kind and a reference: the bundled checklist, a named public source (its address),
a derivation (the rule that derived it), the contract's default, a card sheet (file name and time),
an edit in the web app (who and when). Written as text, `kind:reference @ time`:

    checklist
    source:http://www.watcherdatabase.tk/Articles/50.html
    derived:grid from name
    derived:name
    sheet:my-cards.csv @ 2026-11-30T18:05:00+00:00
    web:alice @ 2026-11-30T18:07:00+00:00

Kinds have a strength: a card sheet never silently replaces a value whose source is stronger.
"""
from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass

from .errors import DeckcheckError
from .games import registry

# Weakest first. A card sheet or a web edit is a person's statement: it corrects the checklist and
# what was derived, but a value stated by a named public source is replaced only when asked to.
KINDS = ("default", "derived", "checklist", "sheet", "web", "source")
STRENGTH = {"default": 0, "derived": 1, "checklist": 2, "sheet": 3, "web": 3, "source": 4}
KIND_NAMES = {"default": "the card sheet's default", "derived": "derived",
              "checklist": "the bundled checklist (edforth/ccgdata)",
              "sheet": "a card sheet", "web": "a web edit", "source": "a named public source"}
MAX_TEXT = 2000  # a provenance cell longer than this is refused: an address or a file name is far shorter

# The fields that carry a provenance, named as their card-sheet columns, in card-sheet order (deckcheck.fields:
# Field.sourced; a grid's says where grid_inferred came from too).
FIELDS = tuple(f.name for f in registry().fields if f.sourced)
SUFFIX = "_source"


def column(field: str) -> str:
    """The sheet column holding a field's provenance ('restriction' -> 'restriction_source')."""
    return field + SUFFIX


SOURCE_COLUMNS = tuple(column(f) for f in FIELDS)


def now() -> str:
    """The current UTC time as the provenance of sheets and edits writes it."""
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


@dataclass(frozen=True, slots=True)
class Provenance:
    """Where one value came from."""

    kind: str
    ref: str = ""
    at: str = ""

    def __post_init__(self) -> None:
        if self.kind not in STRENGTH:
            raise DeckcheckError(f"unknown provenance kind {self.kind!r}; known: {', '.join(KINDS)}")

    @property
    def strength(self) -> int:
        """How much the value is to be trusted, by kind (see KINDS)."""
        return STRENGTH[self.kind]

    def __str__(self) -> str:
        text = f"{self.kind}:{self.ref}" if self.ref else self.kind
        return f"{text} @ {self.at}" if self.at else text

    def describe(self) -> str:
        """A sentence-like form for people: 'a card sheet: my.csv, 2026-11-30T18:05:00+00:00'."""
        details = ", ".join(p for p in (self.ref, self.at) if p)
        return f"{KIND_NAMES[self.kind]}: {details}" if details else KIND_NAMES[self.kind]


def parse(text: str) -> Provenance:
    """Read 'kind:reference @ time' (reference and time optional); raise DeckcheckError quoting bad text."""
    raw = text.strip()
    if len(raw) > MAX_TEXT:
        raise DeckcheckError(f"a provenance of {len(raw)} characters is over the limit of {MAX_TEXT}")
    if any(ord(ch) < 32 for ch in raw):
        raise DeckcheckError(f"a provenance holds a control character: {raw[:80]!r}")
    kind, _, rest = raw.partition(":")
    kind = kind.strip().lower()
    if kind not in STRENGTH:
        raise DeckcheckError(f"unknown provenance {raw[:80]!r}: it starts with a kind ({', '.join(KINDS)})")
    ref, sep, at = rest.rpartition(" @ ")
    if not sep:
        ref, at = rest, ""
    return Provenance(kind, ref.strip(), at.strip())


def sheet(name: str, at: str | None = None) -> Provenance:
    """The provenance of a value read from a card sheet: its file name and the time of the import."""
    return Provenance("sheet", name, at or now())


def web(user: str, at: str | None = None) -> Provenance:
    """The provenance of a value edited in the web app: who and when."""
    return Provenance("web", user, at or now())


CHECKLIST = Provenance("checklist")
DEFAULT = Provenance("default")
DERIVED_NAME = Provenance("derived", "name")  # read off the card's name
