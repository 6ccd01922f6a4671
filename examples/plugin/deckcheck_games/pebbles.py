"""Pebbles, a made-up game of pouches of stones: the example of a game added as a plugin (README, "Adding a game").

Nothing of deckcheck knows this file: it is found because its folder's parent is on the Python path
(`PYTHONPATH=examples/plugin`) and it defines GAME. Its cards come from a card sheet (`game` = pebbles).
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from types import MappingProxyType

from deckcheck.cards import Card
from deckcheck.decks import Deck, Entry
from deckcheck.formats import Format, Game, Heading, View, number_column
from deckcheck.report import ERROR, Issue
from deckcheck.rules import Params, data_unknown, error, plural, rule, rules_of

NAME = "pebbles"
POUCH, TIDES = "Pouch", "Tides"
SECTION_OF_TYPE = MappingProxyType({"Stone": POUCH, "Shell": POUCH, "Tide": TIDES})


@dataclass(frozen=True)
class PebbleParams(Params):
    """The numbers of the rules: the summaries and the web's formats page show them."""

    pouch_min: int = 20
    pouch_max: int = 30
    copies_max: int = 3
    weight_max: int = 60
    tides: int = 3


class PebbleView(View[PebbleParams]):
    """What the rules read: the deck's entries by section (the base View gives the deck and the parameters)."""

    def __init__(self, deck: Deck, params: PebbleParams):
        super().__init__(deck, params)
        self.sections: dict[str, list[Entry]] = defaultdict(list)
        for e in deck.entries:
            self.sections[e.section].append(e)

    def count(self, section: str) -> int:
        return sum(e.quantity for e in self.sections.get(section, ()))


def weight_of(card: Card) -> int | None:
    """A card's weight (the game's own `weight` column); None when the sheet left it unknown."""
    value = card.extra_value("weight")
    return value if isinstance(value, int) else None


@rule("PB-POUCH-SIZE", ERROR, "The Pouch holds {pouch_min} to {pouch_max} cards.")
def pouch_size(v: PebbleView) -> list[Issue]:
    n, low, high = v.count(POUCH), v.params.pouch_min, v.params.pouch_max
    if n < low:
        return [error(f"the Pouch holds {n} cards; at least {low} are required", limit=low, actual=n,
                      fix=f"add {plural(low - n, 'card')}")]
    if n > high:
        return [error(f"the Pouch holds {n} cards; at most {high} are allowed", limit=high, actual=n,
                      fix=f"remove {plural(n - high, 'card')}")]
    return []


@rule("PB-COPIES", ERROR, "At most {copies_max} copies of a card, unless its max_copies says otherwise.")
def copies(v: PebbleView) -> list[Issue]:
    held: dict[str, list[Entry]] = defaultdict(list)
    for e in v.deck.entries:
        held[e.card.id].append(e)
    out = []
    for entries in held.values():
        card = entries[0].card
        own = card.extra_value("max_copies")
        limit = own if isinstance(own, int) else v.params.copies_max
        n = sum(e.quantity for e in entries)
        if n > limit:
            out.append(error(f"{plural(n, 'copy', 'copies')} of {card.name}; at most {limit} allowed", [card],
                             limit, n, f"remove {n - limit} {card.name}"))
    return out


@rule("PB-SECTION", ERROR, "Stones and Shells go in the Pouch, Tides in the Tides.",
      columns=("type",), words="section of each card not checked")
def section(v: PebbleView) -> list[Issue]:
    out, unknown = [], []
    for e in v.deck.entries:
        belongs = SECTION_OF_TYPE.get(e.card.type or "")
        if e.card.type is None:
            unknown.append(e.card)
        elif belongs != e.section:
            out.append(error(f"{e.card.name} is a {e.card.type} but stands in {e.section}", [e.card],
                             fix=f"move {e.card.name} to {belongs}"))
    if unknown:  # the rule cannot decide: the game's data-unknown warning, never a guess
        out.append(data_unknown("card type unknown", unknown))
    return out


@rule("PB-WEIGHT", ERROR, "The Pouch weighs at most {weight_max}.", columns=("weight",),
      words="weight limit not checked")
def weight(v: PebbleView) -> list[Issue]:
    total, unknown = 0, []
    for e in v.sections.get(POUCH, ()):
        w = weight_of(e.card)
        if w is None:
            unknown.append(e.card)
        else:
            total += w * e.quantity
    limit = v.params.weight_max
    if total > limit:  # broken whatever the unknown weights are
        return [error(f"the Pouch weighs {total}; at most {limit} is allowed",
                      [e.card for e in v.sections.get(POUCH, ())], limit, total,
                      f"remove stones weighing {total - limit}")]
    if unknown:
        return [data_unknown(f"weight unknown ({total} known)", unknown)]
    return []


@rule("PB-TIDES", ERROR, "Exactly {tides:word} Tide cards.")
def tides(v: PebbleView) -> list[Issue]:
    n, want = v.count(TIDES), v.params.tides
    if n == want:
        return []
    fix = f"add {plural(want - n, 'Tide')}" if n < want else f"remove {plural(n - want, 'Tide')}"
    return [error(f"{plural(n, 'Tide')}; exactly {want} are required", limit=want, actual=n, fix=fix)]


PEBBLES = Format(
    name="pebbles-classic", title="Pebbles (classic)", game=NAME,
    rules=rules_of(pouch_size, copies, section, weight, tides), view=PebbleView, params=PebbleParams(),
    aliases=("pebbles",),
    sections=MappingProxyType({POUCH: ("pouch", "bag"), TIDES: ("tides", "tide")}),
    default_section=lambda card: SECTION_OF_TYPE.get(card.type or "", POUCH),
    source="examples/plugin (made up)",
)

COLUMNS = (number_column("weight"), number_column("max_copies"))
GAME = Game(
    NAME, (PEBBLES,), title="Pebbles", full_title="Pebbles: A Game of Pouches",
    card_types=frozenset(SECTION_OF_TYPE),
    columns=tuple(c.name for c in COLUMNS), extra_columns=COLUMNS,
    headings=MappingProxyType({"stone": Heading(POUCH, frozenset({"Stone"})),
                               "shell": Heading(POUCH, frozenset({"Shell"}))}),
    heading_help="Pouch (Stones, Shells), Tides, Sideboard; metadata: Format, Name, Player, Author",
    data_unknown="PB-DATA-UNKNOWN",
    settle={"weight": "the weight printed on the card"},
    limit_words={"pouch_min": "A Pouch of at least {n} cards", "pouch_max": "A Pouch of at most {n} cards",
                 "copies_max": "At most {n} of each card", "weight_max": "A Pouch weighing at most {n}",
                 "tides": "Exactly {n} Tide[s]"},
)
