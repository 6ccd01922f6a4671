"""Name resolution (deckcheck.catalog) at its edges: each written form of CONTRACTS.md §2 on a small hand-made card
list, built fresh for each test (an index builds its forms and word tables once: a shared one would hide a change
to how they are built), so that every mutant of catalog.py the runner makes meets a test (scripts/mutation.py)."""
from __future__ import annotations

import pytest

from deckcheck.cards import Card
from deckcheck.catalog import (MIN_SCORE, CardIndex, CardSet, Context, _word_match, closest_names, name_score,
                               ranked_names, version_marker)
from deckcheck.errors import AmbiguousCardError, CardNotFoundError, UnknownCardError


def card(id_: str, name: str, title: str | None = None, **fields) -> Card:
    return Card(id=id_, name=name, title=title or name, **fields)


CARDS = (
    card("C-THR-1", "Thrust", type="Attack", set="ME", edition=1, text="Strike high with the point"),
    card("C-THR-2", "Thrust", type="Attack", set="SE", edition=1, text="Strike high with the point"),
    card("C-ULA-1", "Upper Left Attack (1)", "Upper Left Attack", version="1", type="Attack", set="ME"),
    card("C-ULA-2", "Upper Left Attack (2)", "Upper Left Attack", version="2", type="Attack", set="ME"),
    card("C-ULB", "Upper Left Block", type="Block", set="SE"),
    card("C-ABA", "Alpha Back Away", "Back Away", immortal="Alpha", type="Dodge", set="SE"),
    card("C-BBA", "Beta Back Away", "Back Away", immortal="Beta", type="Dodge", set="SE"),
    card("C-KHB", "The Kurgan Hammer Blow (2)", "Hammer Blow", immortal="The Kurgan", version="2", type="Attack",
         set="WC"),
    card("C-SWC", "Sword Cut", "Cut", weapon="Sword", type="Attack", set="SE"),
    card("C-AP", "Alpha Persona", "Persona", immortal="Alpha", type="Persona", set="SE"),
    card("C-AP2", "Alpha Persona", "Persona", immortal="Alpha", type="Persona", set="CVD", edition=2),
    card("C-AMA", "Amanda (Premium +1 Ability)", "Amanda (Premium +1 Ability)", immortal="Amanda", type="Premium",
         set="SE"),
    card("C-CRY", "Crystal (Clio) Shard", type="Event", set="SE"),
    card("C-VER", "Verona, Italy 1637", type="Location", set="SE"),
    card("C-HW6", "Highway 6", type="Location", set="SE"),
    card("C-GUN", "Personal Gun", type="Object", set="CVD", edition=2),
    card("C-TYP", "Mystery Card", set="SE"),
)
SETS = (CardSet("SE", "Series Edition", 1), CardSet("ME", "Movie Edition", 1),
        CardSet("WC", "The Watcher's Chronicle", 1))


@pytest.fixture
def index() -> CardIndex:
    return CardIndex(CARDS, sets=SETS)


def ids(cards) -> list[str]:
    return sorted(c.id for c in cards)


# -- the forms a name is written in (CONTRACTS §2) -------------------------------------------------------------------
@pytest.mark.parametrize("written,card_id", [
    ("Alpha Back Away", "C-ABA"), ("Back Away (Alpha)", "C-ABA"), ("Beta Back Away", "C-BBA"),
    ("Kurgan Hammer Blow", "C-KHB"), ("The Kurgan Hammer Blow", "C-KHB"), ("Hammer Blow (Kurgan)", "C-KHB"),
    ("Hammer Blow (The Kurgan)", "C-KHB"), ("Hammer Blow (2)", "C-KHB"), ("Kurgan Hammer Blow (2)", "C-KHB"),
    ("Hammer Blow (2) (Kurgan)", "C-KHB"), ("Sword Cut", "C-SWC"), ("Cut (Sword)", "C-SWC"), ("Cut", "C-SWC"),
    ("Amanda", "C-AMA"), ("Amanda (Premium +1 Ability)", "C-AMA"), ("Verona, Italy 1637", "C-VER"),
    ("Highway 6", "C-HW6"), ("highway-6", "C-HW6"),
    ("Upper Left Attack (2)", "C-ULA-2"), ("upper-left  ATTACK (1)", "C-ULA-1"),
])
def test_a_cards_written_forms(index, written, card_id):
    assert index.resolve(written).id == card_id


@pytest.mark.parametrize("written", ["Crystal", "Crystal (Clio)", "Back Away", "Alpha", "Kurgan", "Back Away Gamma"])
def test_what_is_no_form_of_one_card(index, written):
    with pytest.raises(CardNotFoundError):
        index.resolve(written)


@pytest.mark.parametrize("kinds,written,card_id", [
    ({"Persona"}, "Alpha", "C-AP"), ({"Persona"}, "Persona", "C-AP"), ({"Premium"}, "Amanda", "C-AMA"),
    ({"Attack"}, "Sword", "C-SWC"), ({"Attack"}, "Kurgan", "C-KHB"), ({"Attack"}, "The Kurgan", "C-KHB"),
    ({"Attack"}, "Thrust", "C-THR-1"), ({"Dodge"}, "Alpha Back Away", "C-ABA"),
    ({"Dodge"}, "Back Away (Alpha)", "C-ABA"),
])
def test_a_heading_line_names_its_card_among_its_kind(index, kinds, written, card_id):
    found = index.resolve(written, context=Context(edition=1, kinds=frozenset(kinds)))
    assert found.id.startswith(card_id[:5]) and found.type in kinds


@pytest.mark.parametrize("kinds,written", [({"Dodge"}, "Gamma"), ({"Block"}, "Thrust"), ({"Attack"}, "Mystery Card"),
                                           ({"Persona"}, "Beta")])
def test_a_heading_line_names_nothing_of_another_kind(index, kinds, written):
    with pytest.raises(CardNotFoundError):
        index.resolve(written, context=Context(kinds=frozenset(kinds)))


# -- sets --------------------------------------------------------------------------------------------------------------
def test_the_sets_given_then_those_the_cards_name_by_edition(index):
    assert [(s.code, s.name, s.edition) for s in index.sets] == [
        ("SE", "Series Edition", 1), ("ME", "Movie Edition", 1), ("WC", "The Watcher's Chronicle", 1),
        ("CVD", "CVD", 2)]
    mixed = CardIndex([card("X1", "A", set="MIX", edition=1), card("X2", "B", set="MIX", edition=2),
                       card("X3", "C", set="ONE", edition=1)])
    assert [(s.code, s.edition) for s in mixed.sets] == [("ONE", 1), ("MIX", None)]


@pytest.mark.parametrize("text,code", [("ME", "ME"), ("me", "ME"), ("Movie Edition", "ME"), ("The Movie Edition", "ME"),
                                       ("Watcher's Chronicle", "WC"), ("the watchers chronicle", "WC"), ("cvd", "CVD"),
                                       ("The CVD", "CVD")])
def test_a_set_by_code_or_name(index, text, code):
    assert index.set_code(text) == code


@pytest.mark.parametrize("text,message", [
    ("Movie Editoin", "unknown set 'Movie Editoin'; closest sets: ME (Movie Edition), SE (Series Edition) (deckcheck "
                      "cards sets lists them all)"),
    ("CVX", "unknown set 'CVX'; closest sets: CVD, WC (The Watcher's Chronicle) (deckcheck cards sets lists them all)"),
    ("Edition", "unknown set 'Edition'; closest sets: ME (Movie Edition), SE (Series Edition) (deckcheck cards sets "
                "lists them all)"),
    ("Qqqqqqqqqqqqqqqq", "unknown set 'Qqqqqqqqqqqqqqqq' (deckcheck cards sets lists them all)"),
])
def test_an_unknown_set_lists_the_closest_three(index, text, message):
    with pytest.raises(UnknownCardError) as exc:
        index.set_code(text)
    assert exc.value.reason == message


def test_the_closest_sets_are_three_at_most():
    many = CardIndex([], sets=[CardSet(f"{c}E", f"{c} Edition", 1) for c in "ABCD"])
    with pytest.raises(UnknownCardError) as exc:
        many.set_code("Edition")
    assert exc.value.reason.count(" Edition)") == 3


def test_a_set_picks_printings(index):
    assert index.resolve("Thrust", "SE").id == "C-THR-2"
    assert index.lookup("Thrust [Movie Edition]").id == "C-THR-1"
    assert index.resolve("Back Away (Alpha)", "SE").id == "C-ABA"  # a form, in the set
    with pytest.raises(UnknownCardError, match=r"no printing in set WC; printed in ME, SE"):
        index.resolve("Thrust", "WC")


@pytest.mark.parametrize("text,ids_", [
    ("Thrust", ["C-THR-1", "C-THR-2"]), ("Thrust [SE]", ["C-THR-2"]), ("Back Away", ["C-ABA", "C-BBA"]),
    ("Back Away [SE]", ["C-ABA", "C-BBA"]), ("Alpha Back Away [SE]", ["C-ABA"]), ("Thrust [WC]", []),
    ("Verona, Italy 1637", ["C-VER"]), ("Highway 6", ["C-HW6"]), ("Upper Left Attack 2", []), ("Zzz", []),
])
def test_matches(index, text, ids_):
    assert ids(index.matches(text)) == ids_


@pytest.mark.parametrize("written,card_id", [("Thrust (ME)", "C-THR-1"), ("Thrust (Series Edition)", "C-THR-2"),
                                             ("Thrust (The Movie Edition)", "C-THR-1"), ("Thrust(ME)", "C-THR-1"),
                                             ("Upper Left Attack (v2)", "C-ULA-2"),
                                             ("Upper Left Attack (ver. 1)", "C-ULA-1")])
def test_a_set_or_a_short_version_in_round_brackets(index, written, card_id):
    assert index.resolve(written).id == card_id


def test_a_bare_trailing_number_or_a_short_version_is_never_read_by_guess(index):
    with pytest.raises(UnknownCardError) as exc:
        index.resolve("Upper Left Attack 2")
    assert exc.value.reason.startswith('a number after the name is not read by guess: write "2 Upper Left Attack"')
    with pytest.raises(UnknownCardError) as exc:
        index.resolve("Upper Left Attack v2")
    assert exc.value.reason == "unknown card" and exc.value.suggestions[0] == "Upper Left Attack (2)"


# -- several cards for one name -------------------------------------------------------------------------------------
def test_printings_that_differ_only_in_set_are_one_card_rules_data_apart_are_ambiguous(index):
    assert index.resolve("Thrust").title == "Thrust"
    with pytest.raises(AmbiguousCardError) as exc:
        index.resolve("Back Away")
    assert exc.value.reason == "ambiguous: 2 different cards match; write one of them"
    assert exc.value.suggestions == ["Alpha Back Away", "Beta Back Away"]
    with pytest.raises(AmbiguousCardError) as exc:
        index.resolve("Alpha Persona")
    assert exc.value.suggestions == ["Alpha Persona [CVD]", "Alpha Persona [SE]"]


def test_the_decks_persona_and_the_formats_edition_pick_and_rank(index):
    assert index.resolve("Back Away", context=Context(persona="beta")).id == "C-BBA"
    assert [c.write_as for c in index.candidates(index.matches("Back Away"), Context(persona="beta"))] == [
        "Beta Back Away", "Alpha Back Away"]
    assert index.resolve("Alpha Persona", context=Context(edition=2)).id == "C-AP2"
    assert index.resolve("Alpha Persona", context=Context(edition=1)).id == "C-AP"
    assert index.resolve("Personal Gun", context=Context(edition=1)).id == "C-GUN"  # no 1st-edition card: the 2nd's
    assert [c.write_as for c in index.candidates(index.matches("Alpha Persona"), Context(edition=2))] == [
        "Alpha Persona", "Alpha Persona [SE]"]
    with pytest.raises(AmbiguousCardError):
        index.resolve("Back Away", context=Context(persona="gamma"))


def test_write_as_is_the_shortest_way_that_resolves(index):
    by_id = {c.id: c for c in CARDS}
    assert index.write_as(by_id["C-ABA"]) == "Alpha Back Away"
    assert index.write_as(by_id["C-AP2"]) == "Alpha Persona [CVD]"
    assert index.write_as(by_id["C-AP2"], Context(edition=2)) == "Alpha Persona"
    loose = card("C-NONE", "Nowhere Card", set="XX")
    assert index.write_as(loose) == "Nowhere Card [XX]"
    assert index.write_as(card("C-NONE2", "Nowhere Card")) == "Nowhere Card"
    assert index.by_id("C-ABA") is by_id["C-ABA"] and index.by_id("C-NONE") is None and len(index) == len(CARDS)


# -- suggestions and search ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text,first", [("Uper Left Atack", "Upper Left Attack"), ("Thrsut", "Thrust"),
                                        ("Alpha Back Awya", "Alpha Back Away"), ("Beta Bakc Away", "Beta Back Away"),
                                        ("kurgan hamer blow", "The Kurgan Hammer Blow (2)"),
                                        ("Persona Alfa", "Alpha Persona [CVD]")])
def test_an_unknown_name_is_told_the_closest_names_each_written_so_that_it_resolves(index, text, first):
    with pytest.raises(UnknownCardError) as exc:
        index.resolve(text)
    assert exc.value.suggestions[0] == first
    for suggestion in exc.value.suggestions:
        index.lookup(suggestion)


def test_suggestions_rank_the_decks_persona_and_edition_first(index):
    assert index.suggest("Back Awya")[:2] == ["Alpha Back Away", "Beta Back Away"]
    # with the deck's Persona, `Back Away` is its own card: written so, and its card before the other's
    assert index.suggest("Back Awya", context=Context(persona="beta")) == ["Back Away", "Beta Back Away",
                                                                         "Alpha Back Away"]
    assert index.suggest("Alpha Persna", context=Context(edition=2)) == ["Alpha Persona"]
    assert index.suggest("Alpha Persna") == ["Alpha Persona [CVD]", "Alpha Persona [SE]"]
    assert index.suggest("Alpha Persna", limit=1) == ["Alpha Persona [CVD]"]
    assert index.suggest("Qqqq Zzzz") == []


@pytest.mark.parametrize("text,picked", [
    (" ".join(["zzzz"] * 7 + ["Thrsut"]), ["Thrust"]), (" ".join(["zzzz"] * 8 + ["Thrsut"]), []),  # 8 words, 9
    ("thrust" * 5, ["Thrust"]), ("thrust" * 5 + "t", []),  # a word of 30 letters, 31
])
def test_an_unknown_names_first_8_words_of_up_to_30_letters_are_looked_up(text, picked):
    seen: list[list[str]] = []

    def closest(text: str, names: list[str], limit: int) -> list[str]:
        seen.append(list(names))
        return []
    CardIndex(CARDS, closest).suggest(text)
    assert seen == ([picked] if picked else [])


@pytest.mark.parametrize("text,first", [("back away alpha", "Alpha Back Away"), ("kurg", "The Kurgan Hammer Blow (2)"),
                                        ("thrust", "Thrust"), ("strike high", "Thrust"), ("sword", "Sword Cut"),
                                        ("dodge beta", "Beta Back Away"),
                                        ("watcher chronicle", "The Kurgan Hammer Blow (2)"),
                                        ("hamer blow", "The Kurgan Hammer Blow (2)")])
def test_search_finds_by_words_in_any_order_typos_allowed(index, text, first):
    assert index.search(text)[0].name == first


def test_search_with_no_words_lists_every_card_by_name(index):
    assert [c.id for c in index.search("")] == [c.id for c in sorted(CARDS, key=lambda c: (c.name.lower(), c.edition,
                                                                                          c.set or "", c.id))]
    assert index.search("zzzzqqq") == []


# -- the one ranker ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("word,words,score", [("thrust", ("thrust",), 1.0), ("kurg", ("kurgan",), 0.9),
                                              ("ku", ("kurgan",), 0.0), ("thrsut", ("thrust",), None),
                                              ("xyz", ("abc",), 0.0), ("thrust", ("thrustingly",), 0.9),
                                              ("abc", ("abcdefgh",), 0.9)])
def test_how_well_a_word_is_found(word, words, score):
    got = _word_match(word, words)
    if score is None:
        assert 0.75 * 0.95 <= got < 0.95
    else:
        assert got == score


def test_name_score_orders_the_closer_name_first():
    assert name_score("thrust", "thrust") == 1.0
    assert name_score("", "thrust") == 0.0 and name_score("thrust", "") == 0.0
    assert name_score("thrsut", "thrust") > name_score("thrsut", "upper left block")
    assert name_score("back away alpha", "alpha back away") > name_score("back away alpha", "beta back away")
    assert name_score("the thrust", "thrust") > name_score("the dodge", "thrust")


def test_ranked_and_closest_names():
    names = ["Thrust", "Upper Left Attack", "Alpha Back Away", "Beta Back Away"]
    ranked = ranked_names("Back Awya", names)
    assert [n for n, _ in ranked] == ["Beta Back Away", "Alpha Back Away"] and all(s >= MIN_SCORE for _, s in ranked)
    assert closest_names("Back Awya", names, 1) == ["Beta Back Away"]
    assert ranked_names("Qqqq", names) == [] and ranked_names("Qqqq", names, cutoff=0.0)


@pytest.mark.parametrize("text,marker", [
    ("Upper Left Attack v1", ("Upper Left Attack", "1", False)),
    ("Upper Left Attack V.2", ("Upper Left Attack", "2", False)),
    ("Upper Left Attack ver. 2", ("Upper Left Attack", "2", False)),
    ("Upper Left Attack version 2", ("Upper Left Attack", "2", False)),
    ("Upper Left Attack (v1)", ("Upper Left Attack", "1", True)),
    ("Upper Left Attack (ver 2)", ("Upper Left Attack", "2", True)),
    ("Upper Left Attack v12", ("Upper Left Attack", "12", False)), ("Upper Left Attack v123", None),
    ("Upper Left Attack v01", ("Upper Left Attack", "1", False)), ("v1", None), ("Upper Left Attack", None),
    ("Upper Left Attack 2", None), ("Upper Left Attack (2)", None), ("Upper Left Attack vx", None),
    ("A" * 197 + " v1", ("A" * 197, "1", False)), ("A" * 198 + " v1", None),  # 200 characters, 201
    ("Upper (x) Attack v1", ("Upper (x) Attack", "1", False)), ("Upper Left Attack v1)", None),
    ("Upper Left Attack v 2", ("Upper Left Attack", "2", False)), ("Upper Left Attack 2 2", None),
    ("Upper Left Attack (v1) ", ("Upper Left Attack", "1", True)), ("(v1)", None), ("ver 2", None),
])
def test_a_version_written_short(text, marker):
    assert version_marker(text) == marker


EXTRA = (card("C-GRA", "Graham's Ruse", type="Event", set="SE"),
         card("C-GUY", "Personal Guy", type="Object", set="SE", edition=1))


@pytest.mark.parametrize("text,found", [
    ("upper left", ["C-ULB", "C-ULA-1", "C-ULA-2"]),  # the name the words cover most first
    ("ham", ["C-KHB", "C-GRA"]),  # the start of a word (3 letters or more) before a part inside one
    ("urga", ["C-KHB"]), ("back away", ["C-BBA", "C-ABA"]), ("thrust strike", ["C-THR-1", "C-THR-2"]),
])
def test_search_order(text, found):
    assert [c.id for c in CardIndex(CARDS + EXTRA, sets=SETS).search(text)] == found


@pytest.mark.parametrize("words,found", [(399, True), (400, False)])
def test_search_reads_the_first_400_words_of_a_cards_rules_text(words, found):
    long = card("C-LNG", "Long Text", type="Event", text=" ".join(["filler"] * words + ["zebra"]))
    assert ([c.id for c in CardIndex([long]).search("zebra")] == ["C-LNG"]) is found


def test_suggestions_put_the_formats_edition_first():
    index = CardIndex(CARDS + EXTRA, sets=SETS)
    assert index.suggest("Personal Gu") == ["Personal Gun", "Personal Guy"]
    assert index.suggest("Personal Gu", context=Context(edition=1)) == ["Personal Guy", "Personal Gun"]
    assert index.suggest("Personal Gu", context=Context(edition=2)) == ["Personal Gun", "Personal Guy"]


def test_a_short_version_mark_suggests_that_version_first_and_once(index):
    assert index.suggest("Upper Left Attack v2") == ["Upper Left Attack (2)", "Upper Left Attack",
                                                     "Upper Left Attack (1)"]


def test_five_suggestions_unless_asked_otherwise():
    index = CardIndex([card(f"F{c}", f"Filler {c}", type="Event") for c in "ABCDEFG"])
    assert index.suggest("Filer") == ["Filler A", "Filler B", "Filler C", "Filler D", "Filler E"]
    assert index.suggest("Filer", limit=7) == [f"Filler {c}" for c in "ABCDEFG"]


@pytest.mark.parametrize("text,found", [
    ("Thrsut", ["Thrust"]),  # the suggestions when there are some
    ("Alpha Zzzzzz Qqqqqq", ["Alpha Persona", "Alpha Back Away"]), ("Alpah Qqqqqq Zzzzz", ["Alpha Persona"]),
    ("thrust" * 5 + " qqqq zzzz", ["Thrust"]), ("thrust" * 5 + "t qqqq zzzz", []),  # a word of 30 letters, 31
    ("qqqq zzzz wwww yyyy xxxx vvvv uuuu thrust", ["Thrust"]),  # the 8th word looked up, not the 9th
    ("qqqq zzzz wwww yyyy xxxx vvvv uuuu ssss thrust", []), ("zzzz", []),
])
def test_closest_names_for_a_search_that_found_nothing(index, text, found):
    assert index.closest(text) == found


def test_five_closest_names_unless_asked_otherwise():
    index = CardIndex([card(f"F{c}", f"Filler {c}", type="Event") for c in "ABCDEFG"])
    assert index.closest("Filler Qqqqqq Zzzzzz Wwwwww") == [f"Filler {c}" for c in "ABCDE"]
    assert index.closest("Filler Qqqqqq Zzzzzz Wwwwww", 7) == [f"Filler {c}" for c in "ABCDEFG"]


def test_the_trigrams_of_a_word_padded_with_spaces():
    from deckcheck.catalog import _trigrams
    assert _trigrams("cut") == {" cu", "cut", "ut "} and _trigrams("a") == {" a "}


@pytest.mark.parametrize("word,other,score", [
    ("kurgn", "kurgann", 0.95 * 10 / 12),  # 2 letters longer: a typo of a 5-letter word
    ("kurgan", "xkurganxxx", 0.0), ("kurgan", "xkurganxx", 0.0),  # 4 and 3 longer: more than a third of 6 (2)
    ("kurganxxx", "xkurganxxxxxx", 0.0), ("kurganxxx", "kurgan", 0.95 * 12 / 15),  # a third of 9: 3 fewer, not 4 more
    ("cot", "ccot", 0.95 * 6 / 7), ("co", "cco", 0.0),  # 3 letters may be a typo, 2 are not
])
def test_a_typo_is_a_word_at_most_a_third_longer_or_shorter_and_of_3_letters_or_more(word, other, score):
    assert _word_match(word, (other,)) == pytest.approx(score)


def test_minor_words_weigh_a_quarter_among_others():
    import difflib
    spelling = difflib.SequenceMatcher(None, "the thrust", "thrust", autojunk=False).ratio()
    assert name_score("the thrust", "thrust") == pytest.approx(0.55 * 1 / 1.25 + 0.25 + 0.2 * spelling)
    assert name_score("the", "the") == 1.0


def test_without_a_persona_candidates_are_in_name_order(index):
    by_id = {c.id: c for c in CARDS}
    assert [c.write_as for c in index.candidates([by_id["C-SWC"], by_id["C-ABA"]])] == ["Alpha Back Away",
                                                                                      "Sword Cut"]


def test_ranked_and_closest_names_give_five_unless_asked_otherwise():
    names = [f"Filler {c}" for c in "ABCDEFG"]
    assert [n for n, _ in ranked_names("Filler", names)] == names[:5] and closest_names("Filler", names) == names[:5]
    assert len(ranked_names("Filler", names, 7)) == 7 and len(closest_names("Filler", names, 6)) == 6


WORDS = ("Thrust", "Thrash Attack", "Throw Down", "Sword Cut", "Cutter Move", "Kurgan Blow", "Kurgen Edge", "Back Away",
         "Back Flip", "Upper Left Attack", "Uppercut", "Kurganq Test")


@pytest.fixture
def words_index() -> CardIndex:
    return CardIndex([card(f"W{k}", name) for k, name in enumerate(WORDS)])


@pytest.mark.parametrize("word,found", [
    ("thr", {"thrash": 0.9, "throw": 0.9, "thrust": 0.9}),  # the start of each word (3 letters or more)
    ("th", {}), ("cut", {"cutter": 0.9}), ("upp", {"upper": 0.9, "uppercut": 0.9}),
    ("kurgn", {"kurgan": 0.95 * 10 / 11, "kurgen": 0.95 * 10 / 11, "kurganq": 0.95 * 10 / 12}),
    ("thrusx", {"thrust": 0.95 * 10 / 12}),
    ("rgan", {"kurgan": 0.95 * 0.8}),  # 2 letters more than a 4-letter word: still a typo
    ("kurganxyz", {"kurgan": 0.95 * 0.8, "kurganq": 0.95 * 0.75}),  # 3 fewer than 9 letters; a likeness of 0.75
    ("xkurganxxx", {}),  # 4 more than 6 letters: no typo
])
def test_the_words_of_the_cards_a_search_word_finds(words_index, word, found):
    _rows, vocabulary = words_index.searcher._search_words()
    assert words_index.searcher._word_matches(word, vocabulary) == pytest.approx({word: 1.0, **found})


@pytest.mark.parametrize("word,similar", [
    ("thrsut", ["thrust"]), ("kurgn", ["kurgan", "kurganq", "kurgen"]), ("thr", ["thrash", "throw", "thrust"]),
    ("cutt", ["cutter", "cut"]), ("atack", ["attack"]), ("bakc", ["back"]), ("uper", ["upper", "uppercut"]),
    ("awya", ["away"]), ("bac", ["back"]), ("edg", ["edge"]), ("rgan", ["kurgan", "kurganq"]), ("zzzz", []),
])
def test_up_to_three_words_of_the_names_spelt_like_a_word_no_name_holds(words_index, word, similar):
    words_index.suggester._word_index()
    assert words_index.suggester._similar_words(word) == similar
    assert words_index.suggester._similar_words(word) == similar  # (kept: the same answer again)


@pytest.mark.parametrize("common,skipped", [(201, True), (200, False)])
def test_a_word_in_more_than_200_names_is_not_looked_up_once_rarer_words_found_40(common, skipped):
    """`rare` is in 40 names (5 of them hold `common` too), `common` in `common` names: read after the rarer
    word, a word of more than 200 names adds nothing (the names holding both words do not move up)."""
    names = ([f"Rare A{i:02}" for i in range(1, 36)] + [f"Rare Common B{i:02}" for i in range(1, 6)]
             + [f"Common C{i:03}" for i in range(1, common - 4)])
    seen: list[list[str]] = []

    def closest(text: str, picked: list[str], limit: int) -> list[str]:
        seen.append(list(picked))
        return []
    CardIndex([card(f"N{i}", name) for i, name in enumerate(names)], closest).suggest("rare common")
    both, rare = names[35:40], names[:35]
    assert seen == [rare + both if skipped else both + rare]


@pytest.mark.parametrize("text", ["", "thrust", "hru"])  # every card, by its words, by a part of a word
def test_search_ties_are_in_set_then_id_order(text):
    printings = [card("Z1", "Thrust", type="Attack", set="BB"), card("Y2", "Thrust", type="Attack", set="AA"),
                 card("X4", "Thrust", type="Attack", set="CC"), card("X3", "Thrust", type="Attack", set="CC")]
    assert [c.id for c in CardIndex(printings).search(text)] == ["Y2", "Z1", "X3", "X4"]


def test_closest_names_pick_by_shared_words_the_rarer_weighing_more():
    """Of 55 names, the 40 looked at closely hold both words, or the rarer one (`beta`), before the commoner."""
    names = ([f"Alpha Q{i:02}" for i in range(45)] + [f"Beta R{i}" for i in range(5)]
             + [f"Alpha Beta S{i}" for i in range(5)])
    found = CardIndex([card(f"N{i}", name) for i, name in enumerate(names)]).closest("alpha beta zzzz qqqq", 60)
    assert len(found) == 40 and found[:5] == names[50:]
    assert sorted(n for n in found if not n.startswith("Alpha Q")) == sorted(names[45:])


def test_parts_of_words_found_rank_the_closer_name_first():
    index = CardIndex([card("K2", "Kurgan Blow"), card("K1", "Kurgan")])
    assert [c.id for c in index.search("rga")] == ["K1", "K2"]


def test_a_typo_of_exactly_the_likeness_bound_counts():
    index = CardIndex([card("X", "Xcutx")])
    _rows, vocabulary = index.searcher._search_words()
    assert index.searcher._word_matches("cut", vocabulary) == pytest.approx({"cut": 1.0, "xcutx": 0.95 * 0.75})


@pytest.mark.parametrize("key,name,covered,share", [("kur", "kurgan", 0.9, 1.0), ("ku", "kurgan", 0.0, 0.0),
                                                    ("kur blow", "kurgan blow", 0.95, 1.0)])
def test_a_name_word_started_by_a_query_word_of_3_letters_or_more_counts_as_used(key, name, covered, share):
    import difflib
    spelling = difflib.SequenceMatcher(None, key, name, autojunk=False).ratio()
    assert name_score(key, name) == pytest.approx(0.55 * covered + 0.25 * share + 0.2 * spelling)


@pytest.mark.parametrize("names,similar", [
    (["Cuxt Blade"], ["cuxt"]),  # a typo of a 3-letter word sharing one trigram: found as a typo
    (["Cutt", "Cuxt", "Cuyt", "Cuzt"], ["cutt", "cuzt", "cuyt"]),  # one by trigrams, two typos: three at most
    (["Cutt", "Cutz", "Cuxt", "Cuyt"], ["cutt", "cutz", "cuyt"]),  # two by trigrams, one typo
])
def test_typos_complete_the_words_found_by_trigrams_up_to_three(names, similar):
    index = CardIndex([card(f"T{i}", name) for i, name in enumerate(names)])
    index.suggester._word_index()
    assert index.suggester._similar_words("cut") == similar


def test_search_and_suggestions_are_parts_of_the_index_each_keeping_its_caches_through_pickling():
    """The resolver hands search and suggestions to their own parts (CardSearch, Suggester): a kept index
    (db/indexcache pickles it) answers as the one it was kept from, its parts serving the unpickled index."""
    import pickle
    index = CardIndex([card("T1", "Thrust", type="Attack"), card("T2", "Thrash", type="Attack"),
                       card("K1", "Kurgan Blow", type="Attack")])
    suggested, found = index.suggest("thrst"), [c.id for c in index.search("kurgn")]
    kept = pickle.loads(pickle.dumps(index))
    assert kept.suggester.index is kept and kept.searcher.cards is kept.cards
    assert (kept.suggest("thrst"), [c.id for c in kept.search("kurgn")]) == (suggested, found) == (["Thrust"], ["K1"])
    assert kept.suggest("kurgen blw") == index.suggest("kurgen blw") == ["Kurgan Blow"]


def test_an_index_memo_is_emptied_whole_once_past_its_bound():
    from deckcheck.catalog import Memo
    memo: Memo[str, int] = Memo(2)
    for i, key in enumerate("abc"):
        assert memo.put(key, i) == i
    assert (memo.get("a"), memo.get("c")) == (0, 2)
    memo.put("d", 3)  # three held, over the bound of 2: emptied, then d kept
    assert (memo.get("a"), memo.get("c"), memo.get("d")) == (None, None, 3)


@pytest.mark.parametrize("written,kinds", [
    ("Kurgan Hammer Blow", None), ("Hammer Blow (The Kurgan)", None), ("Cut", None), ("highway-6", None),
    ("Thrust (ME)", None), ("Upper Left Attack (v2)", None), ("Alpha", {"Persona"}), ("Sword", {"Attack"}),
    ("Kurgan", {"Attack"}), ("Back Away (Alpha)", {"Dodge"})])
def test_a_name_the_index_resolves_is_one_it_may_name(index, written, kinds):
    """may_name is the raising-free test before resolve (a list tried as another game's): never False for a name
    that resolves, in any context."""
    assert index.resolve(written, context=Context(edition=1, kinds=frozenset(kinds)) if kinds else Context())
    assert index.may_name(written)


@pytest.mark.parametrize("written", ["Gamma", "Thrst", "Back Away Gamma"])
def test_a_name_of_no_card_and_no_bracket_is_one_it_cannot_name(index, written):
    assert not index.may_name(written)
    with pytest.raises(CardNotFoundError):
        index.resolve(written, context=Context(kinds=frozenset({"Dodge", "Attack", "Persona"})))


def test_every_card_is_one_the_index_may_name(index):
    assert all(index.may_name(c.name) for c in index.cards)
