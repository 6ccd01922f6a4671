"""Taktik's 52 cards as players write them: short (`QH`), with suit symbols (`Q♥`), in German (`Herz Dame`,
`Herzdame`, `D♥`), in a table's Deck section and in a deal; and a table that lists no deck plays the standard one.

The lists are the repository's example table rewritten card by card, and the seed's own rank words
(seeds/taktisches-kartenspiel-de.txt), not lists written for these tests."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from deckcheck.check import check_raw
from deckcheck.decks import build_deck
from deckcheck.errors import DeckcheckError
from deckcheck.games import parse_text, taktik

ROOT = Path(__file__).resolve().parents[2]
TABLE = (ROOT / "examples/other-games/taktik52-table.txt").read_text(encoding="utf-8")
# the seed's deal paragraph (seeds/taktisches-kartenspiel-de.txt, line 4), as it is written
SEED = ("Mischt alle 52 Karten und teilt reihum aus, bis jede Person drei Karten besitzt. Die zwei höchsten Karten "
        "liegen vertikal als Lebenspunkte aus, die niedrigste horizontal als Schild. Ass = 1, Bube = 11, Dame = 12, "
        "König = 13.")
SYMBOL = {"spades": "♠", "hearts": "♥", "diamonds": "♦", "clubs": "♣"}
GERMAN_SUIT = {"spades": "Pik", "hearts": "Herz", "diamonds": "Karo", "clubs": "Kreuz"}
GERMAN_RANK = {"A": "Ass", "J": "Bube", "Q": "Dame", "K": "König"}
GERMAN_LETTER = {"J": "B", "Q": "D"}


def _parts(name: str) -> tuple[str, str]:
    card = taktik.parse_playing_card(name)
    return str(taktik.rank_of(card)), str(taktik.suit_of(card))


FORMS = {
    "short": lambda rank, suit: f"{rank}{suit[0].upper()}",
    "lower short": lambda rank, suit: f"{rank}{suit[0]}".lower(),
    "symbol": lambda rank, suit: f"{rank}{SYMBOL[suit]}",
    "German": lambda rank, suit: f"{GERMAN_SUIT[suit]} {GERMAN_RANK.get(rank, rank)}",
    "German compound": lambda rank, suit: f"{GERMAN_SUIT[suit]}{str(GERMAN_RANK.get(rank, rank)).lower()}",
    "German hyphen": lambda rank, suit: f"{GERMAN_SUIT[suit]}-{GERMAN_RANK.get(rank, rank)}",
    "German rank first": lambda rank, suit: f"{GERMAN_RANK.get(rank, rank)} {GERMAN_SUIT[suit]}",
    "German letter": lambda rank, suit: f"{GERMAN_LETTER.get(rank, rank)}{SYMBOL[suit]}",
}


def rewritten(form) -> str:
    """The example table with every Deck line written in one form."""
    deck = False
    out = []
    for line in TABLE.splitlines():
        if line.strip().endswith(":"):
            deck = line.strip() == "Deck:"
        elif deck and line.strip() and not line.startswith("#"):
            line = form(*_parts(line.strip()))
        out.append(line)
    return "\n".join(out) + "\n"


@pytest.fixture(scope="module")
def index(sheet_index):
    return sheet_index("examples/other-games/taktik52-heroes.csv", extra=taktik.playing_cards())


def check(index, text):
    return check_raw(parse_text(text, "table"), lambda fmt: index)


@pytest.mark.parametrize("form", FORMS, ids=list(FORMS))
def test_the_example_table_written_in_each_form_is_the_same_legal_table(index, form):
    text = rewritten(FORMS[form])
    assert text != TABLE
    report = check(index, text)
    assert not report.input_errors, report.input_errors[:3]
    assert report.legal is True and report.counts == {"Deck": 52, "Players": 4}, report.issues
    original = check(index, TABLE)
    assert report.registered is not None and original.registered is not None
    assert report.registered.fingerprint == original.registered.fingerprint  # one deck, however written


def test_forms_mixed_in_one_table_and_a_card_twice_is_told(index):
    forms = list(FORMS.values())
    lines = TABLE.splitlines()
    start = lines.index("Deck:") + 1
    for i in range(start, start + 52):
        lines[i] = forms[i % len(forms)](*_parts(lines[i]))
    text = "\n".join(lines) + "\n"
    assert check(index, text).legal is True
    twice = text.replace("\nPlayers:", "\nPik Ass\nPlayers:")  # the Ace of Spades a second time, in German
    (issue,) = check(index, twice).errors
    assert issue.rule == "TK-DECK-COMPLETE" and "extra: 1 x Ace of Spades" in issue.message


def test_the_seeds_rank_words_are_read_with_the_seeds_values():
    """`Ass = 1, Bube = 11, Dame = 12, König = 13` (the seed's deal paragraph): each word is read as that rank."""
    stated = dict(re.findall(r"(\w+) = (\d+)", SEED))
    assert set(stated) == {"Ass", "Bube", "Dame", "König"}
    for word, value in stated.items():
        card = taktik.parse_playing_card(f"Herz {word}")
        assert (taktik.VALUE[str(taktik.rank_of(card))], taktik.suit_of(card)) == (int(value), "hearts")


@pytest.mark.parametrize("text,name", [
    ("Pik Ass", "Ace of Spades"), ("Herz Dame", "Queen of Hearts"), ("herzdame", "Queen of Hearts"),
    ("Kreuz-König", "King of Clubs"), ("Kreuz Koenig", "King of Clubs"), ("Karo 10", "10 of Diamonds"),
    ("Karo Zehn", "10 of Diamonds"), ("Zehn Karo", "10 of Diamonds"), ("Treff Bube", "Jack of Clubs"),
    ("D♥", "Queen of Hearts"), ("B♣", "Jack of Clubs"), ("K♠", "King of Spades"), ("10♦", "10 of Diamonds"),
    ("qh", "Queen of Hearts"), ("2 ♥", "2 of Hearts"),
])
def test_each_way_of_writing_a_card_names_it(text, name):
    assert taktik.parse_playing_card(text).name == name
    assert taktik.spelled(text) == name


@pytest.mark.parametrize("text", ["Herz", "Dame", "Herz Dame Pik", "Pik 11", "Pik 1", "Herz Ritter", "1H", "ZH",
                                  "Herzdamen", "The Fox"])
def test_what_names_no_card_is_refused_or_left_to_the_decklist(text):
    assert taktik.spelled(text) is None
    with pytest.raises(DeckcheckError, match="is not a playing card"):
        taktik.parse_playing_card(text)


def test_a_card_written_by_its_name_is_not_spelled_again():
    assert taktik.spelled("Queen of Hearts") is None


def test_the_deal_reads_german_names():
    hands = taktik.parse_deal_text("Anna: Pik Ass, Herz 10, Kreuz Dame\nBen: 3♥, 4♣, 2♦\n")
    assert [c.name for c in hands[0].cards] == ["Ace of Spades", "10 of Hearts", "Queen of Clubs"]
    assert (hands[0].life_points, hands[0].shield) == (22, 1)


PLAYERS = "Players:\nAnna: The Fox\nBen: The Bear\nCem: The Owl\nDora: The Hare\n"


def test_a_table_that_lists_no_deck_plays_the_standard_one(index):
    report = check(index, "Format: taktik52\n" + PLAYERS)
    assert report.legal is True and report.counts == {"Deck": 52, "Players": 4}
    assert "the Deck is the game's standard one (52 cards): the list writes no Deck lines" in report.notices
    written = check(index, TABLE)
    assert report.registered is not None and written.registered is not None
    assert report.registered.fingerprint == written.registered.fingerprint  # the same table


def test_a_table_that_lists_its_deck_is_checked_as_written(index):
    """A deck written short of a card is the list's own deck (TK-DECK-COMPLETE), not the standard one."""
    text = TABLE.replace("Ace of Spades\n", "")
    report = check(index, text)
    assert [i.rule for i in report.errors] == ["TK-DECK-COMPLETE"]
    assert not any("standard one" in n for n in report.notices)
    only = check(index, "Format: taktik52\nDeck:\nPik Ass\n" + PLAYERS)
    assert only.counts == {"Deck": 1, "Players": 4} and [i.rule for i in only.errors] == ["TK-DECK-COMPLETE"]


def test_a_deck_line_under_no_heading_is_the_lists_deck(index):
    report = check(index, "Format: taktik52\nQH\n" + PLAYERS)
    assert report.counts == {"Deck": 1, "Players": 4} and [i.rule for i in report.errors] == ["TK-DECK-COMPLETE"]


def test_a_typo_in_the_deck_is_an_input_error_not_the_standard_deck(index):
    report = check(index, "Format: taktik52\nDeck:\nHerz Damme\n" + PLAYERS)
    assert report.legal is None and [p.line for p in report.input_errors] == [3]


def test_other_formats_do_not_read_playing_card_forms(bundled_index):
    """`QH` names no Highlander card: the spelling is Taktik's, not every game's."""
    report = check_raw(parse_text("Format: type1e\nQH\n", "hl"), lambda fmt: bundled_index)
    assert report.input_errors and report.input_errors[0].text == "QH"


@pytest.mark.parametrize("text", ["Queen of Hearts", "QH", "Herz Dame", "taktik52-QH"])
def test_cards_show_finds_a_built_in_card_however_written(text, pristine_web_db):
    from inproc import run_cli
    shown = run_cli("cards", "show", text, "--db", pristine_web_db)  # reads, never writes
    assert shown.code == 0 and "Queen of Hearts" in shown.text and "taktik52-QH" in shown.text, shown.err


def test_two_cards_on_one_line_with_empty_items_and_an_unknown_one(index):
    text = "Format: taktik52\nDeck:\nK♠, 2♥\n , ;K♠,,\nQH; Xyz\n"
    deck, problems = build_deck(parse_text(text, "t"), index, taktik.TAKTIK52)
    assert [(e.card.name, e.quantity, e.line) for e in deck.entries] == [
        ("King of Spades", 2, 3), ("2 of Hearts", 1, 3), ("Queen of Hearts", 1, 5)]
    assert deck.card_lines["taktik52-KS"] == [3, 4]  # K♠ on lines 3 and 4 adds up, each line kept
    # the line as written, its message naming the item that names no card
    assert [(p.line, p.text) for p in problems] == [(5, "QH; Xyz")] and "'Xyz'" in problems[0].message


def test_a_card_and_its_quantity_stays_one_line(index):
    """`K♠, 2` is two Kings of Spades (the decklist's `Name, 3`), not two cards."""
    deck, problems = build_deck(parse_text("Format: taktik52\nDeck:\nK♠, 2\n", "t"), index, taktik.TAKTIK52)
    assert not problems and [(e.card.name, e.quantity) for e in deck.entries] == [("King of Spades", 2)]


def test_other_games_and_other_sections_read_one_card_a_line(index, bundled_index):
    report = check_raw(parse_text("Format: type1e\nThrust, Lunge\n", "hl"), lambda fmt: bundled_index)
    assert [p.text for p in report.input_errors] == ["Thrust, Lunge"]
    deck, problems = build_deck(parse_text("Format: taktik52\nK♠, 2♥\n", "t"), index, taktik.TAKTIK52)
    assert [p.text for p in problems] == ["K♠, 2♥"]  # under no heading: one line (so the standard deck is played)


def test_hostile_comma_lines_are_bounded(index):
    """10,000 commas: longer than a line may be, refused unread; 4,000 (no item): the line as written; 1,300 cards
    on one line: each read (a Deck of 1,300 is not one deck)."""
    for line, count in ((",", 10_000), (",", 4_000), ("K♠,", 1_300)):
        text = f"Format: taktik52\nDeck:\n{line * count}\n"
        deck, problems = build_deck(parse_text(text, "t"), index, taktik.TAKTIK52)
        if line == ",":
            assert not deck.card_lines and [p.line for p in problems] == [3], problems  # no card read on it
        else:
            assert not problems and [(e.card.name, e.quantity) for e in deck.entries] == [("King of Spades", 1_300)]


def _read(index, body):
    deck, problems = build_deck(parse_text(f"Format: taktik52\nDeck:\n{body}\n", "t"), index, taktik.TAKTIK52)
    return [(e.card.name, e.quantity) for e in deck.entries], problems


@pytest.mark.parametrize("form", FORMS, ids=list(FORMS))
@pytest.mark.parametrize("mark", [", ", "; ", " ", "  ", ",", " , "])
def test_a_suit_a_line_in_each_form_and_mark_is_the_same_legal_table(index, form, mark):
    """Every form the deal reads (short, symbols, German, compounds), the cards separated by commas, semicolons
    or spaces alone: the example table's cards, each once."""
    rows = [mark.join(FORMS[form](rank, suit) for rank in taktik.RANKS) for suit in taktik.SUITS]
    report = check(index, "Format: taktik52\nDeck:\n" + "\n".join(rows) + "\n" + PLAYERS)
    assert not report.input_errors and report.legal is True, report.input_errors[:3]
    assert report.counts == {"Deck": 52, "Players": 4}
    written = check(index, TABLE)
    assert report.registered is not None and written.registered is not None
    assert report.registered.fingerprint == written.registered.fingerprint


@pytest.mark.parametrize("body,cards", [
    ("QH AS", [("Queen of Hearts", 1), ("Ace of Spades", 1)]),
    ("K♠ 2♥ Herz Dame", [("King of Spades", 1), ("2 of Hearts", 1), ("Queen of Hearts", 1)]),  # not `2♥ Herz`
    ("Pik Ass Herz Dame Kreuz-König", [("Ace of Spades", 1), ("Queen of Hearts", 1), ("King of Clubs", 1)]),
    ("Queen of Hearts 10 H Pikass d♦", [("Queen of Hearts", 1), ("10 of Hearts", 1), ("Ace of Spades", 1),
                                        ("Queen of Diamonds", 1)]),
    ("10 H", [("10 of Hearts", 1)]),  # one card written with a space
    ("Herz Dame", [("Queen of Hearts", 1)]),
    ("K♠, 2♥,", [("King of Spades", 1), ("2 of Hearts", 1)]),  # a trailing comma
    ("2x K♠, Q♥", [("King of Spades", 2), ("Queen of Hearts", 1)]),  # a quantity is its item's
    ("K♠, Q♥ x3", [("King of Spades", 1), ("Queen of Hearts", 3)]),
    ("K♠, K♠", [("King of Spades", 2)]),  # a card twice on a line adds up, as on two lines
    ("K♠ K♠", [("King of Spades", 2)]),
    ("QH AS, 2♥ 3♥", [("Queen of Hearts", 1), ("Ace of Spades", 1), ("2 of Hearts", 1), ("3 of Hearts", 1)]),
])
def test_several_cards_on_a_line_read_as_those_cards(index, body, cards):
    read, problems = _read(index, body)
    assert not problems and read == cards, problems


def test_a_card_twice_on_a_line_is_told_by_the_deck_rule(index):
    rows = TABLE.replace("Ace of Spades\n", "Ace of Spades AS\n")
    (issue,) = check(index, rows).errors
    assert issue.rule == "TK-DECK-COMPLETE" and "extra: 1 x Ace of Spades" in issue.message


@pytest.mark.parametrize("body", ["2x QH AS", "QH AS x2"])
def test_one_quantity_for_several_cards_is_not_read_by_guess(index, body):
    read, problems = _read(index, body)
    assert read == [] and [(p.line, p.text) for p in problems] == [(3, body)]
    assert "which card it counts is not read by guess" in problems[0].message and "2x QH, AS" in problems[0].message


KS, QH, AS = ("King of Spades", 1), ("Queen of Hearts", 1), ("Ace of Spades", 1)


@pytest.mark.parametrize("body,read,fixed,fixed_read", [
    ("K♠, Kign of Spades", [KS], "K♠, King of Spades", [("King of Spades", 2)]),
    ("- K♠ , Kign of Spades x2", [KS], "K♠ , King of Spades x2", [("King of Spades", 3)]),
    ("QH Kign of Spades AS", [QH, AS], "QH King of Spades AS", [QH, KS, AS]),
    ("2x QH; Kign of Spades", [("Queen of Hearts", 2)], "2x QH; King of Spades", [("Queen of Hearts", 2), KS]),
])
def test_a_valid_and_an_unknown_card_on_a_line(index, body, read, fixed, fixed_read):
    """The valid cards are read; the unknown one is the line's problem, named, with a suggestion that rewrites only
    it when clicked (the web's apply_fix, the desk's suggested fixes): the line's other cards stay."""
    from deckcheck.web.check import apply_fix
    cards, problems = _read(index, body)
    (problem,) = problems
    assert cards == read and problem.line == 3 and problem.text == body
    assert problem.message == "unknown card: 'Kign of Spades' (the line's other cards are read)"
    assert problem.suggestions, problem
    text = f"Format: taktik52\nDeck:\n{body}\n"
    assert apply_fix(text, f"3|{problem.suggestions[0]}").splitlines()[2] == fixed
    assert _read(index, fixed) == (fixed_read, [])


def test_words_that_name_no_card_or_a_number_stay_the_lines_own_reading(index):
    """`Queen of Hearts 2` is the decklist's bare trailing number; a Hero's name is one name; `QH x2 AS` names no
    card (its `x2` is no card and no quantity where it stands)."""
    _read_, problems = _read(index, "Queen of Hearts 2")
    assert [p.suggestions for p in problems] == [("2 Queen of Hearts", "Queen of Hearts (2)")]
    assert _read(index, "The Fox") == ([("The Fox", 1)], [])
    assert [p.text for p in _read(index, "QH x2 AS")[1]] == ["QH x2 AS"]
    assert taktik.cards_in_words("Queen of Hearts 2") is None and taktik.cards_in_words("QH") is None
    assert taktik.cards_in_words("Herz Dame") is None and taktik.cards_in_words("The Fox") is None


def test_highlander_lines_keep_one_card_a_line(bundled_index):
    """No other game splits a line by spaces: `Upper Left Attack` is one card, `Thrust Lunge` an unknown name."""
    for text, errors in (("Format: type1e\nEndurance:\nUpper Left Attack\n", []),
                         ("Format: type1e\nEndurance:\nThrust Lunge\n", ["Thrust Lunge"])):
        report = check_raw(parse_text(text, "hl"), lambda fmt: bundled_index)
        assert [p.text for p in report.input_errors] == errors


def test_the_terminal_quotes_suggestions_that_hold_a_comma(cli_env):
    """`did you mean: K♠, King of Spades, K♠, 2 of Spades` read as four suggestions: each is quoted now."""
    from inproc import run_cli
    shown = run_cli("check", "-", stdin="Format: taktik52\nDeck:\nK♠, Kign of Spades\n".encode())
    assert shown.code == 2 and '(did you mean: "K♠, King of Spades", "K♠, 2 of Spades"' in shown.text, shown.text
    plain = run_cli("check", "-", stdin=b"Thrst\n")
    assert "did you mean: Name: Thrst, Thrust," in plain.text  # no comma in any: as before


@pytest.mark.parametrize("body,suggestion", [
    ("Herz Damme", "Herz Dame"), ("Hertz Dame", "Herz Dame"), ("Herzdamme", "Herz Dame"),
    ("Pick Ass", "Pik Ass"), ("Karo Zen", "Karo 10"), ("Kreutz König", "Kreuz König"), ("Pik Bubbe", "Pik Bube"),
    ("Quen of Hearts", "Queen of Hearts"), ("Ace of Spads", "Ace of Spades"), ("QH, Herz Damme", "QH, Herz Dame"),
    ("Pik Ass Herz Damme", "Pik Ass Herz Dame"),  # in the words the player wrote, German or English
])
def test_a_german_name_written_wrong_is_suggested_its_card(index, body, suggestion):
    """The index knows the cards' English names only: `Herz Damme` had no suggestion at all."""
    _cards, problems = _read(index, body)
    assert [p.suggestions[:1] for p in problems] == [(suggestion,)], problems


def test_what_misspells_no_card_is_suggested_none():
    assert [taktik.misspelled(t) for t in ("Herz Dame", "Xyz", "Herz Ritter Pik", "The Foxx", "Pik 11")] == [()] * 5


def test_a_deck_line_refused_unread_is_still_the_lists_deck(index):
    """A quantity past the bound refuses the line unread; the table wrote a Deck all the same, so it is not the
    standard 52 (the count said 52 beside the input error)."""
    cards, problems = _read(index, "99999999999999999999 K♠")
    assert cards == [] and [p.line for p in problems] == [3]
    report = check(index, "Format: taktik52\nDeck:\n99999999999999999999 K♠\nQH\n" + PLAYERS)
    assert report.counts["Deck"] == 1 and not any("standard one" in n for n in report.notices)
