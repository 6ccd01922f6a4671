"""What a kept deck's page shows beside its report (issue 31 item 4): the list grouped by section and type in
deck-check order with counts, the Persona, the statistics at the hand size and Exertion asked for, a sample opening
hand by a shown seed, the versions. No routes here (web/check.py's deck page and web/deckpage.py's exports use it),
so the check page's and the facts form's modules may both import it.
"""
from __future__ import annotations

import random
import re
import secrets
from typing import Any

from deckcheck.decks import Deck
from deckcheck.errors import DeckcheckError
from deckcheck.formats import AnyFormat
from deckcheck.library.decks import DeckBook
from deckcheck.library.people import Person
from deckcheck.library.statsapi import stats_in
from deckcheck.stats import TYPE_ORDER, DeckStats, check_draw, in_endurance

from .errors import BadRequest

SEED = re.compile(r"[A-Za-z0-9]{1,16}")
VERSIONS_SHOWN = 50  # the newest versions listed on the page (all of them at /api/decks/{id}/versions)
PREGAME_ORDER = ("Persona", "Quickening", "Pre-Game")  # a Persona first: a deck check starts with it


def type_order(kind: str) -> tuple[int, int, str]:
    """Deck-check order of card types: the Persona first, then the statistics' order of kinds, then by name."""
    for rank, order in enumerate((PREGAME_ORDER, TYPE_ORDER)):
        if kind in order:
            return rank, order.index(kind), ""
    return 2, 0, kind.casefold()


def grouped(cards: list[dict[str, Any]]) -> list[tuple[str, list[tuple[str, int, list[Any]]]]]:
    """Lines ({"section", "type", "name", "quantity", ...}) by section, then by type in deck-check order, with
    counts: [(section, [(type, copies, lines by name)])]."""
    out: dict[str, dict[str, list[Any]]] = {}
    for line in cards:
        out.setdefault(line["section"], {}).setdefault(line["type"], []).append(line)
    return [(section, [(kind, sum(x["quantity"] for x in types[kind]),
                        sorted(types[kind], key=lambda x: str(x["name"]).casefold()))
                       for kind in sorted(types, key=type_order)]) for section, types in out.items()]


def lines_of(deck: Deck) -> list[dict[str, Any]]:
    """A resolved deck's lines as the pages show them."""
    return [{"id": e.card.id, "name": e.card.name, "set": e.card.set or "", "quantity": e.quantity,
             "section": e.section, "type": e.card.type or "other"} for e in deck.entries]


def seed_of(text: str | None) -> str:
    """A sample hand's seed as given (1-16 letters and digits), or a new one; BadRequest for anything else."""
    if text is None or text == "":
        return secrets.token_hex(4)
    if not SEED.fullmatch(text):
        raise BadRequest(f"seed {text[:40]!r} is 1 to 16 letters and digits")
    return text


def sample_hand(deck: Deck, size: int, seed: str) -> list[str]:
    """An opening hand of `size` cards drawn from the deck's Endurance, the same for the same seed (each name once
    per copy drawn, in the order drawn); the whole Endurance when it holds fewer cards."""
    pool = [e.card.name for e in deck.entries if in_endurance(e) for _ in range(e.quantity)]
    return random.Random(f"deckcheck hand {seed}").sample(pool, min(check_draw("hand", size), len(pool)))


def stats_or_none(deck: Deck, fmt: AnyFormat, hand: int, exertion: int) -> DeckStats | None:
    """The deck's §7 statistics, or None for a game without them."""
    try:
        return stats_in(deck, fmt, hand, exertion)
    except DeckcheckError:
        return None


def deck_page(book: DeckBook, person: Person, key: str, hand: int, exertion: int, seed: str | None
              ) -> dict[str, Any]:
    """What a kept deck's page shows beside its report: {"kept", "groups", "persona", "totals", "stats", "hand",
    "seed", "next_seed", "hand_size", "exertion", "versions", "owner"}."""
    hand, exertion = check_draw("hand", hand), check_draw("exertion", exertion)
    kept = book.get(person, key)
    deck, fmt = book.deck_at(person, key)
    lines = lines_of(deck)
    groups = grouped(lines)
    stats = stats_or_none(deck, fmt, hand, exertion)
    chosen = seed_of(seed)
    return {"kept": kept, "groups": groups, "totals": {s: sum(n for _k, n, _l in types) for s, types in groups},
            "persona": [x["name"] for x in lines if x["type"] == "Persona"], "stats": stats,
            "hand": sample_hand(deck, hand, chosen) if stats is not None else [], "seed": chosen,
            "next_seed": secrets.token_hex(4), "hand_size": hand, "exertion": exertion,
            "versions": list(reversed(book.history(person, key)))[:VERSIONS_SHOWN],
            "owner": person.owns(kept.owner_id)}
