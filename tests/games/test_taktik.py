"""Taktisches Kartenspiel: each TK rule broken alone and kept; the opening deal (ties, redeals)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from deckcheck.check import check_raw
from deckcheck.games import get_format, parse_text, taktik
from deckcheck.errors import DeckcheckError
from deckcheck.registered import Registered

ROOT = Path(__file__).resolve().parents[2]
ALL = [c.name for c in taktik.playing_cards()]


@pytest.fixture(scope="module")
def index(sheet_index):
    return sheet_index("examples/other-games/taktik52-heroes.csv", extra=taktik.playing_cards())


PLAYERS = "Anna: The Fox\nBen: The Bear\nCem: The Owl\nDora: The Hare"


def table(deck=ALL, players=PLAYERS) -> str:
    return "Format: taktik52\nDeck:\n" + "\n".join(deck) + "\nPlayers:\n" + players + "\n"


def check(index, text):
    report = check_raw(parse_text(text, "table"), lambda fmt: index)
    assert not report.input_errors, report.input_errors
    return report


def test_complete_table_is_legal(index):
    report = check(index, table())
    assert report.issues == [] and report.counts == {"Deck": 52, "Players": 4}


@pytest.mark.parametrize("rule_id,text", [
    ("TK-DECK-COMPLETE", table(deck=ALL[1:])),
    ("TK-DECK-COMPLETE", table(deck=ALL + ["Ace of Spades"])),
    ("TK-DECK-COMPLETE", table(deck=ALL + ["The Fox"])),
    ("TK-PLAYERS", table(players="Anna: The Fox\nBen: The Bear\nCem: The Owl")),
    ("TK-HEROES", table(players=PLAYERS + "\nEmil: The Fox")),
    ("TK-HEROES", table(players="Anna: The Fox\nBen: The Crow\nCem: The Owl\nDora: The Hare")),
    ("TK-HEROES", table(players=PLAYERS + "\nAnna: The Crow")),
    ("TK-HEROES", table(players="Anna: Ace of Spades\nBen: The Bear\nCem: The Owl\nDora: The Hare")),
])
def test_breaks_only(index, rule_id, text):
    report = check(index, text)
    assert {i.rule for i in report.errors} == {rule_id}, report.issues


def test_missing_and_extra_are_listed(index):
    deck = [c for c in ALL if c not in ("7 of Hearts", "Jack of Clubs")] + ["Queen of Spades"]
    (issue,) = check(index, table(deck=deck)).errors
    assert "missing 2 cards: 7 of Hearts, Jack of Clubs" in issue.message
    assert "extra: 1 x Queen of Spades" in issue.message and (issue.limit, issue.actual) == (52, 51)


def test_quantities_and_number_names(index):
    text = table(deck=[c for c in ALL if c != "10 of Hearts"] + ["1 10 of Hearts"])
    assert check(index, text).issues == []


def hand(player, *cards):
    first, second, third = (taktik.parse_playing_card(c) for c in cards)
    return taktik.Hand(player, (first, second, third))


def test_life_points_and_shield():
    h = hand("Anna", "Ace of Spades", "10 of Hearts", "Queen of Clubs")
    assert (h.life_points, h.shield, h.may_redeal) == (22, 1, False)
    assert [c.name for c in h.life_cards] == ["Queen of Clubs", "10 of Hearts"]
    low = hand("Ben", "3H", "4C", "2D")
    assert (low.life_points, low.shield, low.may_redeal) == (7, 2, True)
    assert hand("Cem", "5S", "5H", "2C").may_redeal  # exactly 10 LP may redeal
    assert not hand("Cem", "5S", "6H", "2C").may_redeal


def test_fewest_life_points_begin_and_ties_go_to_the_lower_shield():
    o = taktik.opening([hand("A", "KS", "QS", "2S"), hand("B", "9H", "8H", "5H"), hand("C", "9D", "8D", "3D")])
    assert (o.starter, o.tie) == ("C", [])
    o = taktik.opening([hand("A", "9S", "8S", "4S"), hand("B", "9H", "8H", "4H")])
    assert (o.starter, o.tie) == (None, ["A", "B"])


def test_a_card_dealt_twice_is_an_error():
    with pytest.raises(DeckcheckError, match="dealt to both"):
        taktik.opening([hand("A", "KS", "QS", "2S"), hand("B", "KS", "8H", "5H")])


def test_random_deal_is_reproducible_and_redeals_reach_above_ten():
    a, b = taktik.deal(6, seed=11), taktik.deal(6, seed=11)
    assert [[c.id for c in h.cards] for h in a.hands] == [[c.id for c in h.cards] for h in b.hands]
    redealt = 0
    for seed in range(200):
        o = taktik.deal(4, seed, redeal=True)
        drawn = 12 + 3 * sum(len(h.redeals) for h in o.hands)
        for h in o.hands:
            for old in h.redeals:
                assert taktik.Hand("x", old).may_redeal  # only a hand of 10 LP or fewer is given back
            if drawn <= 49:  # the pile never ran out: everyone ends above 10
                assert not h.may_redeal
            redealt += len(h.redeals)
    assert redealt > 0
    no_redeal = taktik.deal(4, 5)
    assert all(not h.redeals for h in no_redeal.hands)


@pytest.mark.parametrize("text", ["Queen of Clubs", "queen clubs", "QC", "Q♣", "q c"])
def test_playing_card_names(text):
    assert taktik.parse_playing_card(text).name == "Queen of Clubs"


def test_deal_command(tmp_path):
    exe = str(Path(sys.executable).with_name("deckcheck"))
    r = subprocess.run([exe, "taktik", "deal", str(ROOT / "examples/other-games/taktik52-deal.txt"), "--json"],
                       capture_output=True, text=True)
    data = json.loads(r.stdout)
    # Ben (7 LP) may still redeal: the seed decides who begins after the redeals, so no one begins yet
    assert data["starter"] is None and data["players"][1]["may_redeal"] is True
    assert list(data) == ["players", "starter", "tie", "may_still_redeal"] and data["tie"] == []
    assert data["may_still_redeal"] == ["Ben"]
    assert [p["player"] for p in data["players"]] == ["Anna", "Ben", "Cem", "Dora"]
    ben = data["players"][1]
    assert ben == {"player": "Ben", "cards": ["3 of Hearts", "4 of Clubs", "2 of Diamonds"], "life_points": 7,
                   "life_cards": ["4 of Clubs", "3 of Hearts"], "shield": 2, "shield_card": "2 of Diamonds",
                   "may_redeal": True, "redeals": []}
    sheet = tmp_path / "deal.csv"
    sheet.write_text("player,card\nAnna,AS\nAnna,10H\nAnna,QC\nBen,3H\nBen,4C\nBen,2D\n")
    r = subprocess.run([exe, "taktik", "deal", str(sheet), "--json"], capture_output=True, text=True)
    assert json.loads(r.stdout)["may_still_redeal"] == ["Ben"]
    text = subprocess.run([exe, "taktik", "deal", str(sheet)], capture_output=True, text=True, env=dict(
        os.environ, COLUMNS="200")).stdout
    assert "Ben may still redeal (10 LP or fewer): who begins is decided after the redeals" in text
    assert "Ben begins" not in text
    bad = tmp_path / "bad.txt"
    bad.write_text("Anna: AS, 10H\n")
    r = subprocess.run([exe, "taktik", "deal", str(bad)], capture_output=True, text=True)
    assert r.returncode == 2 and "line 1: Anna needs exactly three cards" in r.stderr


def test_format_is_listed():
    assert [r.id for r in get_format("taktik").rules] == ["TK-DECK-COMPLETE", "TK-PLAYERS", "TK-HEROES"]


# Each rule's issue in full: message, limit, actual, fix and the cards it names (not only its id).
@pytest.mark.parametrize("players,deck,issue", [
    (PLAYERS + "\nEmil: The Fox\nFritz: The Fox", ALL,
     ("TK-HEROES", "The Fox is played by Anna, Emil, Fritz; no Hero twice", 1, 3, "give Emil, Fritz another Hero",
      ("The Fox",))),
    (PLAYERS + "\nAnna: The Crow\nanna: The Owl", ALL,
     ("TK-HEROES", "Anna has 3 Heroes: The Fox, The Crow, The Owl; each player has exactly one", 1, 3,
      "keep one Hero for Anna", ("The Fox", "The Crow", "The Owl"))),
    ("Anna: The Fox\nBen: The Crow\nCem: The Owl\nDora: The Hare", ALL,
     ("TK-HEROES", "The Fox, The Crow are all tied to the Queen of Hearts; each Hero is tied to a different playing "
                   "card", 1, 2, "choose Heroes tied to different playing cards", ("The Fox", "The Crow"))),
    ("Anna: Ace of Spades\nBen: The Bear\nCem: The Owl\nDora: The Hare", ALL,
     ("TK-HEROES", "Anna's Hero Ace of Spades is a playing card, not a Hero", None, None, "give Anna a Hero",
      ("Ace of Spades",))),
    ("Anna: The Fox\nBen: The Bear", ALL,
     ("TK-PLAYERS", "2 players; the game needs at least 4", 4, 2, "add 2 players", ())),
    (PLAYERS, ALL + ["The Fox"],
     ("TK-DECK-COMPLETE", "not one complete 52-card deck (53 cards); extra: 1 x The Fox (not a playing card)", 52,
      53, "remove the extra cards", ("The Fox",))),
    (PLAYERS, [c for c in ALL if c not in ("2 of Spades", "3 of Spades")] + ["Ace of Spades"],
     ("TK-DECK-COMPLETE", "not one complete 52-card deck (51 cards); missing 2 cards: 2 of Spades, 3 of Spades; "
                          "extra: 1 x Ace of Spades", 52, 51, "add 2 of Spades, 3 of Spades and remove the extra cards",
      ())),
])
def test_each_issue_in_full(index, players, deck, issue):
    errors = check(index, table(deck=deck, players=players)).errors
    assert [(i.rule, i.message, i.limit, i.actual, i.fix, tuple(str(c) for c in i.cards)) for i in errors
            if i.rule == issue[0]][:1] == [issue]


@pytest.mark.parametrize("text,message", [
    ("Anna: AS, 10H", "line 1: Anna needs exactly three cards, got 2"),
    ("Anna: AS, 10H, QC, 2D", "line 1: Anna needs exactly three cards, got 4"),
    ("# the table\n\nAnna AS, 10H, QC", "line 3: write 'Player: card, card, card', got 'Anna AS, 10H, QC'"),
    ("# the table\n\nAnna: AS, 10H, QQ", "line 3: "),
])
def test_deal_text_errors_name_their_line(text, message):
    with pytest.raises(DeckcheckError) as caught:
        taktik.parse_deal_text(text)
    assert str(caught.value).startswith(message)


def test_deal_text_skips_comments_and_blank_lines():
    hands = taktik.parse_deal_text("# round one\n\n  Anna: AS; 10H, QC  \n#Ben: KS, QS, 2S\nBen: KS, QS, 2S\n")
    assert [(h.player, [c.name for c in h.cards]) for h in hands] == [
        ("Anna", ["Ace of Spades", "10 of Hearts", "Queen of Clubs"]),
        ("Ben", ["King of Spades", "Queen of Spades", "2 of Spades"])]


def test_two_heroes_for_one_player_and_a_hero_twice_are_both_told(index):
    players = "Anna: The Fox\nBen: The Bear\nCem: The Owl\nDora: The Hare\nANNA: The Bear"
    errors = check(index, table(players=players)).errors
    assert [(i.message, i.limit, i.actual, i.fix, tuple(str(c) for c in i.cards)) for i in errors] == [
        ("Anna has 2 Heroes: The Fox, The Bear; each player has exactly one", 1, 2, "keep one Hero for Anna",
         ("The Fox", "The Bear")),
        ("The Bear is played by Ben, ANNA; no Hero twice", 1, 2, "give ANNA another Hero", ("The Bear",))]


@pytest.mark.parametrize("rank,suit", [("Q", None), (None, "hearts"), (None, None)])
def test_a_hero_whose_playing_card_is_half_known_is_unknown_not_compared(index, rank, suit):

    from deckcheck.catalog import CardIndex
    cards = [c.with_extra(rank=rank, suit=suit) if c.name == "The Crow" else c for c in index.cards]
    players = "Anna: The Fox\nBen: The Crow\nCem: The Owl\nDora: The Hare"
    report = check_raw(parse_text(table(players=players), "table"), lambda fmt: CardIndex(cards))
    assert [(i.rule, i.severity) for i in report.issues] == [("HL-DATA-UNKNOWN", "warning")]
    (issue,) = report.issues
    assert [str(c) for c in issue.cards] == ["The Crow"] and "(rank, suit) is unknown" in issue.message


def test_a_deal_sheet_with_an_error_cell_is_refused_naming_it(tmp_path):
    """A formula that failed (#N/A) is not a player or a card named '#N/A'."""
    import xlsxwriter

    from deckcheck.importers.deals import read_deal
    path = tmp_path / "deal.xlsx"
    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet("Deal")
    for r, row in enumerate([["player", "card"], ["Anna", "AS"], ["Anna", "10H"], ["Anna", "QC"], ["Ben", "3H"],
                             ["Ben", "4C"]]):
        sheet.write_row(r, 0, row)
    sheet.write(6, 0, "Ben")
    sheet.write_formula(6, 1, "=VLOOKUP(A7,Z1:Z2,2,0)", None, "#N/A")
    book.close()
    with pytest.raises(DeckcheckError, match=r"deal.xlsx: row 7 holds an error cell \(#N/A\) in sheet 'Deal', cell B7"):
        read_deal(path)


@pytest.mark.parametrize("players", [4, 17])
def test_a_deal_for_four_players_up_to_as_many_as_the_deck_serves(players):
    """Three cards each from one 52-card deck: 4 players are the least the game is for, 17 (51 cards) the most."""
    o = taktik.deal(players, seed=3)
    assert [h.player for h in o.hands] == [f"Player {i}" for i in range(1, players + 1)]
    assert len({c.id for h in o.hands for c in h.cards}) == 3 * players


@pytest.mark.parametrize("players,message", [
    (0, "the game is for 4 or more players (TK-PLAYERS): --players 0 is too few"),
    (3, "the game is for 4 or more players (TK-PLAYERS): --players 3 is too few"),
    (18, "18 players need 54 cards; the deck has 52")])
def test_a_deal_the_deck_cannot_serve_is_refused(players, message):
    with pytest.raises(DeckcheckError) as raised:
        taktik.deal(players, seed=3)
    assert str(raised.value) == message


def test_the_built_in_playing_cards_keep_their_ids():
    """A playing card's id (stored with a collection's cards) is the game, its rank and its suit's letter."""
    assert [taktik.parse_playing_card(t).id for t in ("QC", "10 of Hearts", "Ace of Spades", "2D")] == [
        "taktik52-QC", "taktik52-10H", "taktik52-AS", "taktik52-2D"]
    assert len({c.id for c in taktik.playing_cards()}) == 52


def test_who_begins_is_said_once_no_one_may_redeal_any_more():
    """The seed: whoever has 10 LP or fewer may redeal until above 10; then the fewest LP begins (11 LP: no redeal)."""
    def hand(player: str, texts: str) -> taktik.Hand:
        a, b, c = (taktik.parse_playing_card(t) for t in texts.split())
        return taktik.Hand(player, (a, b, c))
    table = [hand("Anna", "QC 10H AS"), hand("Cem", "KS 9C 5H"), hand("Dora", "QH 7D 3S")]
    at_limit = taktik.opening([*table, hand("Ben", "6H 4C 2D")])  # 10 LP: may redeal
    assert at_limit.starter is None and at_limit.pending == ["Ben"]
    above = taktik.opening([*table, hand("Ben", "6H 5C 2D")])  # 11 LP: no redeal, and the fewest LP
    assert above.starter == "Ben" and above.pending == []
    redealt = taktik.deal(4, seed=3, redeal=True)
    assert redealt.pending == [] and redealt.starter is not None


def test_the_fingerprint_covers_the_tables_players(sheet_index):
    """A legal table of 4 players and the same deck with 3 (TK-PLAYERS) are two lists: their fingerprints differ,
    and the cleaned list shows the players with their Heroes."""
    index = sheet_index("examples/other-games/taktik52-heroes.csv", extra=taktik.playing_cards())
    text = (ROOT / "examples/other-games/taktik52-table.txt").read_text(encoding="utf-8")
    four = check_raw(parse_text(text, "four"), lambda fmt: index)
    three = check_raw(parse_text(text.replace("Dora: The Hare\n", ""), "three"), lambda fmt: index)
    assert four.legal is True and three.legal is False
    assert four.registered is not None and three.registered is not None
    assert four.registered.fingerprint != three.registered.fingerprint
    assert four.registered.text().endswith("Players:\nAnna: The Fox\nBen: The Bear\nCem: The Owl\nDora: The Hare\n")
    assert Registered.from_dict(four.registered.as_dict()).fingerprint == four.registered.fingerprint


def test_a_hero_written_under_no_heading_goes_to_the_players_not_the_deck():
    from deckcheck.cards import Card
    hero = Card(id="h", name="The Fox", title="The Fox", game="taktik52", type="Hero")
    assert get_format("taktik52").section_of(None, hero) == "Players"
    assert get_format("taktik52").section_of(None, taktik.parse_playing_card("QH")) == "Deck"
