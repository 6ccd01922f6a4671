"""Deck statistics (CONTRACTS.md §7): counts, exact odds against independent computations and a simulation."""
from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest

import deckcheck
from deckcheck.cards import Card
from deckcheck.decks import Deck
from deckcheck.grid import SQUARES, parse_grid
from deckcheck.stats import MAX_DRAW, DrawSizeError, chance_of_any, stats_of, stats_of_entries
from deckcheck.library.statsapi import UnreadableDeckError


def card(name: str, type: str | None, grid: str | None, subtype: tuple[str, ...] = ()) -> Card:
    return Card(id="T-" + name, name=name, title=name, type=type, subtype=subtype,
                grid=None if grid is None else parse_grid(grid))


ULA = card("Upper Left Attack", "Attack", "UL")
THRUST = card("Thrust", "Attack", "MC")
SLASH = card("Slash (UL & LR)", "Attack", "UL LR")
SPECIAL = card("Shooting Blade", "Special Attack", "UC")
RANGED = card("Pistol", "Attack", "LC", ("Ranged",))
ULB = card("Upper Left Block", "Block", "UL UC ML MC")
LCB = card("Lower Center Block", "Block", "LL LC LR")
GUARD = card("Left Guard", "Block", "UL ML LL", ("Guard",))
STANCE = card("Low Stance", "Situation", "LL LC", ("Standing Defense", "Guard"))
DODGE = card("Side Step", "Dodge", "UR MR")
BACK_AWAY = card("Back Away", "Dodge", None)
FLURRY = card("Flurry Strike (Left)", "Attack", None)
MYSTERY = card("Mystery Card", None, None)
BLOCK_STRIKE = card("Block and Strike (UL-MC)", "Attack/Defense", "UL MC")
EVENT = card("Power Blow", "Event", None)
PERSONA = card("Connor MacLeod Persona", "Persona", None)

DECK = [(ULA, 4), (THRUST, 3), (SLASH, 2), (SPECIAL, 3), (RANGED, 2), (ULB, 3), (LCB, 3), (GUARD, 1),
        (STANCE, 1), (DODGE, 2), (BACK_AWAY, 2), (FLURRY, 1), (MYSTERY, 1), (BLOCK_STRIKE, 1), (EVENT, 21)]


def independent(deck_size: int, hits: int, draws: int) -> Fraction:
    """1 - P(no hit), the no-hit chance as a product of draw-by-draw fractions (no binomial coefficients)."""
    draws = min(draws, deck_size)
    miss = Fraction(1)
    for i in range(draws):
        miss *= Fraction(deck_size - hits - i, deck_size - i)
    return 1 - miss


def covers(c: Card, square: str) -> bool:
    return c.grid is not None and bool(c.grid & parse_grid(square))


# What each figure counts, written out per card rather than with the module's predicates.
ATTACKS = {ULA, THRUST, SLASH}
BLOCKS = {ULB, LCB, GUARD, STANCE}
DODGES = {DODGE}


def expected_hits(kinds: set[Card], square: str) -> int:
    return sum(n for c, n in DECK if c in kinds and covers(c, square))


@pytest.fixture(scope="module")
def stats():
    return stats_of_entries(DECK, deck="test", format="type1e")


def test_counts_by_type_and_square(stats):
    assert stats.endurance == 50
    assert dict(stats.by_type) == {"Attack": 12, "Special Attack": 3, "Block": 7, "Dodge": 4, "Attack/Defense": 1,
                                   "Event": 21, "Situation": 1, "unknown": 1}
    assert stats.squares["UL"].as_dict() == {"attacks": 6, "blocks": 4, "dodges": 0}  # ULA 4 + Slash 2; ULB 3 + Guard
    assert stats.squares["UC"].as_dict() == {"attacks": 0, "blocks": 3, "dodges": 0}  # the Special Attack excluded
    assert stats.squares["LC"].as_dict() == {"attacks": 0, "blocks": 4, "dodges": 0}  # Ranged excluded; the stance
    assert stats.squares["LR"].as_dict() == {"attacks": 2, "blocks": 3, "dodges": 0}
    assert stats.squares["MR"].as_dict() == {"attacks": 0, "blocks": 0, "dodges": 2}
    for square in SQUARES:
        assert stats.squares[square].attacks == expected_hits(ATTACKS, square)
        assert stats.squares[square].blocks == expected_hits(BLOCKS, square)
        assert stats.squares[square].dodges == expected_hits(DODGES, square)


def test_unknown_grids_are_listed_and_count_nothing(stats):
    assert stats.unknown_grid == ("Back Away", "Block and Strike (UL-MC)", "Flurry Strike (Left)", "Mystery Card")
    known = stats_of_entries([(c, n) for c, n in DECK if c not in (BACK_AWAY, FLURRY, MYSTERY, BLOCK_STRIKE)]
                             + [(EVENT, 5)])
    assert known.endurance == stats.endurance and known.unknown_grid == ()
    assert known.squares == stats.squares and known.odds == stats.odds


def test_odds_equal_an_independent_exact_computation(stats):
    for square in SQUARES:
        assert stats.opening_block[square] == independent(50, expected_hits(BLOCKS, square), 15)
        assert stats.exertion_attack[square] == independent(50, expected_hits(ATTACKS, square), 5)
        assert stats.exertion_defense[square] == independent(50, expected_hits(BLOCKS | DODGES, square), 5)
    assert stats.exertion_attack["UL"] == 1 - Fraction(44 * 43 * 42 * 41 * 40, 50 * 49 * 48 * 47 * 46)
    assert 0 < stats.exertion_defense["MR"] < stats.exertion_defense["UL"] < 1


def test_odds_agree_with_a_seeded_simulation_of_shuffles(stats):
    """20,000 seeded shuffles; the tolerance 0.015 is over 4 standard deviations (at most 0.0036 here)."""
    rng = random.Random(20261130)

    def mask(c: Card, kinds: set[Card]) -> int:
        return sum(1 << i for i, square in enumerate(SQUARES) if c in kinds and covers(c, square))
    # Each copy as (block squares, attack squares, defense squares): the top cards' union is what was found.
    pile = [(mask(c, BLOCKS), mask(c, ATTACKS), mask(c, BLOCKS | DODGES)) for c, n in DECK for _ in range(n)]
    trials = 20_000
    found = {kind: [0] * 9 for kind in ("opening_block", "exertion_attack", "exertion_defense")}
    for _ in range(trials):
        rng.shuffle(pile)
        hand = exertion_attack = exertion_defense = 0
        for i, (block, attack, defense) in enumerate(pile[:15]):
            hand |= block
            if i < 5:
                exertion_attack |= attack
                exertion_defense |= defense
        for kind, seen in (("opening_block", hand), ("exertion_attack", exertion_attack),
                           ("exertion_defense", exertion_defense)):
            for i in range(9):
                found[kind][i] += seen >> i & 1
    for kind, counts in found.items():
        for i, square in enumerate(SQUARES):
            exact = float(stats.odds[kind][square])
            assert abs(counts[i] / trials - exact) < 0.015, (kind, square, counts[i] / trials, exact)


def test_a_square_no_card_covers_has_no_chance():
    s = stats_of_entries([(ULA, 10), (EVENT, 40)])
    assert s.squares["LR"].as_dict() == {"attacks": 0, "blocks": 0, "dodges": 0}
    assert s.exertion_attack["LR"] == 0 and s.opening_block["UL"] == 0 and s.exertion_defense["UL"] == 0
    assert s.exertion_attack["UL"] == independent(50, 10, 5)


def test_an_endurance_smaller_than_the_hand_is_drawn_whole():
    s = stats_of_entries([(ULB, 1), (EVENT, 9)], hand=15, exertion=12)
    assert s.endurance == 10
    assert s.opening_block["UL"] == 1 and s.opening_block["LR"] == 0
    assert s.exertion_defense["MC"] == 1 and s.exertion_attack["UL"] == 0
    assert chance_of_any(10, 1, 10) == 1 and chance_of_any(10, 0, 11) == 0


def test_empty_endurance_and_no_draws():
    only_pregame = Deck(source="d")
    only_pregame.add(PERSONA, 1, "Pre-Game")
    empty = stats_of(only_pregame)
    assert empty.endurance == 0 and dict(empty.by_type) == {}
    assert all(p == 0 for kind in empty.odds.values() for p in kind.values())
    none_drawn = stats_of_entries(DECK, hand=0, exertion=0)
    assert all(p == 0 for kind in none_drawn.odds.values() for p in kind.values())


@pytest.mark.parametrize("value", [-1, MAX_DRAW + 1, 2.5, "5", True, None])
def test_bad_draw_sizes_are_refused_quoting_the_value(value):
    with pytest.raises(DrawSizeError, match="hand must be a whole number from 0 to 1000, got " + repr(value)):
        stats_of_entries(DECK, hand=value)


def test_pregame_cards_do_not_count_wherever_written():
    deck = Deck(source="d")
    deck.add(PERSONA, 1, "Endurance")  # written under Endurance: still a Pre-Game card
    deck.add(EVENT, 2, "Pre-Game")  # written under Pre-Game: still an Endurance card
    deck.add(ULA, 3, "Endurance")
    s = stats_of(deck, "type1e")
    assert s.endurance == 5 and dict(s.by_type) == {"Attack": 3, "Event": 2}


def test_json_shape_of_section_7(stats):
    d = json.loads(json.dumps(stats.as_dict()))
    assert list(d) == ["deck", "format", "endurance", "by_type", "squares", "unknown_grid", "odds"]
    assert (d["deck"], d["format"], d["endurance"]) == ("test", "type1e", 50)
    assert list(d["squares"]) == list(SQUARES)
    assert all(list(v) == ["attacks", "blocks", "dodges"] for v in d["squares"].values())
    assert list(d["odds"]) == ["hand", "exertion", "opening_block", "exertion_attack", "exertion_defense"]
    assert (d["odds"]["hand"], d["odds"]["exertion"]) == (15, 5)
    for kind in ("opening_block", "exertion_attack", "exertion_defense"):
        assert list(d["odds"][kind]) == list(SQUARES)
        for square, p in d["odds"][kind].items():
            assert isinstance(p, float) and abs(p - float(stats.odds[kind][square])) <= 5e-7
    assert d["unknown_grid"] == list(stats.unknown_grid)


# -- the library call on the bundled cards --------------------------------------------------------------
CONNOR = """Format: type1e
Pre-Game:
Connor MacLeod Persona [SE]
Endurance:
4 Upper Left Attack (1)
3 Upper Left Block (1)
2 Lower Right Block (3)
1 Connor MacLeod Back Away
10 Connor MacLeod Power Blow
"""


def test_deck_stats_reads_text_on_the_bundled_cards():
    s = deckcheck.deck_stats(CONNOR)
    d = s.as_dict()
    assert (d["format"], d["endurance"]) == ("type1e", 20)
    assert d["by_type"] == {"Attack": 4, "Block": 5, "Dodge": 1, "Event": 10}
    assert d["unknown_grid"] == ["Connor MacLeod Back Away"]
    # Basic Block grids (bundled, inferred): Upper Left covers UL UC ML MC, Lower Right MC MR LC LR.
    assert d["squares"]["MC"] == {"attacks": 0, "blocks": 5, "dodges": 0}
    assert s.opening_block["MC"] == independent(20, 5, 15) and s.exertion_attack["UL"] == independent(20, 4, 5)
    assert deckcheck.deck_stats(CONNOR, hand=7, exertion=3).as_dict()["odds"]["hand"] == 7


def test_deck_stats_with_a_card_sheet_giving_a_grid():
    back_away = [Card(id=f"{code}-connor-macleod-back-away", name="Connor MacLeod Back Away", title="Back Away",
                      immortal="Connor MacLeod", set=code, type="Dodge", grid=parse_grid("UL UC UR"))
                 for code in ("SE", "ME", "TIN")]  # every printing, or the name would match cards that differ
    s = deckcheck.deck_stats(CONNOR, cards=back_away)
    assert s.unknown_grid == () and s.squares["UR"].dodges == 1
    assert s.exertion_defense["UR"] == independent(20, 1, 5)


def test_deck_stats_refuses_unresolved_lines_and_other_games():
    with pytest.raises(UnreadableDeckError, match=r"line 2: '3 Uper Left Attack': unknown card"):
        deckcheck.deck_stats("Endurance:\n3 Uper Left Attack\n")
    with pytest.raises(deckcheck.DeckcheckError, match="statistics are for Highlander decks"):
        deckcheck.deck_stats("Deck:\nAce of Spades\n", format="taktik52")


def test_a_detailed_check_carries_the_statistics(synthetic_index):
    from deckcheck.check import details_of, validate
    from deckcheck.decks import build_deck
    from deckcheck.games import parse_text
    from deckcheck.games import get_format
    fmt = get_format("type1e")
    deck, problems = build_deck(parse_text("Endurance:\n3 Upper Left Attack\n2 Thrust\n"), synthetic_index, fmt)
    assert not problems
    detailed = details_of(deck, fmt, validate(deck, fmt)).stats
    assert detailed is not None
    assert detailed.as_dict() == stats_of(deck, "type1e").as_dict()
    assert detailed.squares["UL"].attacks == 3 and detailed.endurance == 5
    assert validate(deck, fmt).details.stats is None
