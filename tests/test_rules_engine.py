"""The rules engine: rules are plain functions, ids are written once, limits come from typed parameters."""
from __future__ import annotations

import dataclasses
import inspect
import json
import re
from pathlib import Path

import pytest

from deckcheck.check import validate
from deckcheck.games import all_formats, get_format, parse_text, raven, taktik
from deckcheck.decks import build_deck
from deckcheck.report import DATA_UNKNOWN
from deckcheck.games.highlander import rules as highlander
from deckcheck.rules import Params, Rule, declared, number_word

ROOT = Path(__file__).resolve().parent.parent
FORMATS_GOLDEN = ROOT / "examples" / "golden" / "formats.json"
RULE_MODULES = (highlander, raven, taktik)


def test_rule_summaries_match_golden(update_golden):
    """What `formats` and GET /api/formats print: summaries filled with each format's parameters."""
    table = [{"name": f.name, "aliases": list(f.aliases), "rules": f.rule_table()} for f in all_formats()]
    if update_golden:
        FORMATS_GOLDEN.write_text(json.dumps(table, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    assert table == json.loads(FORMATS_GOLDEN.read_text(encoding="utf-8"))


@pytest.mark.parametrize("fmt", [f.name for f in all_formats()])
def test_rules_are_plain_documented_functions(fmt):
    for r in get_format(fmt).rules:
        assert isinstance(r, Rule) and inspect.isfunction(r.check) and declared(r.check) is r
        assert r.check.__module__ in {m.__name__ for m in RULE_MODULES}


def test_each_rule_id_is_written_once_in_the_source():
    ids = {r.id for f in all_formats() for r in f.rules}
    source = "".join(inspect.getsource(m) for m in RULE_MODULES)
    for rule_id in ids:
        assert len(re.findall(rf'"{rule_id}"', source)) == 1, rule_id


def test_no_summary_writes_a_number_a_parameter_holds():
    structure = {"TK-DECK-COMPLETE": {"52", "4"},  # a standard deck: 52 cards in 4 suits, not a limit
                 "HL-HAND-ICONS": {"1"}}  # names type1e's limit without a Weapon of Choice in both formats
    for fmt in all_formats():
        for r in fmt.rules:
            written = set(re.findall(r"\b\d+\b", r.summary)) - structure.get(r.id, set())
            assert not written, (r.id, r.summary)


def test_parameters_are_typed_and_frozen():
    params = highlander.Type1eParams()
    assert get_format("type1e").params == params
    with pytest.raises(TypeError):
        highlander.Type1eParams(title_maximum=5)  # type: ignore[call-arg]
    with pytest.raises(dataclasses.FrozenInstanceError):
        params.title_max = 5  # type: ignore[misc]


def _check(index, text: str, fmt):
    deck, problems = build_deck(parse_text(text, "t"), index, fmt)
    assert not problems
    return validate(deck, fmt)


def _with(fmt_name: str, **changes):
    fmt = get_format(fmt_name)
    return dataclasses.replace(fmt, params=dataclasses.replace(fmt.params, **changes))


@pytest.mark.parametrize("param,value,summary", [
    ("deck_min", 40, "The Endurance holds at least 40 cards, or the minimum a modifier sets."),
    ("title_max", 4, "At most 4 cards of one title in the Endurance, across Immortal names, pictures, versions "
                     "and editions."),
    ("persona_max", 2, "At most two Persona card."),
    ("woc_max", 3, "At most three Weapon of Choice, unless a modifier allows more."),
    ("basic_blocks", ("Upper Left Block",), "At least one of each of the one Basic Blocks."),
])
def test_summaries_follow_the_parameters(param, value, summary):
    fmt = _with("type1e", **{param: value})
    assert summary in [r["text"] for r in fmt.rule_table()]


def test_limits_come_from_the_parameters(synthetic_index):
    from test_rules_highlander import deck_text
    text = deck_text(add="1 Thrust")  # 4 Thrust: legal under 6, not under 3
    assert _check(synthetic_index, text, get_format("type1e")).legal is True
    report = _check(synthetic_index, text, _with("type1e", title_max=3))
    assert [(i.rule, i.limit, i.actual) for i in report.issues] == [("HL-TITLE-MAX", 3, 4)]
    shorter = _check(synthetic_index, deck_text(remove=("Filler E",)), _with("type1e", deck_min=49))
    assert shorter.legal is True


def test_the_engine_stamps_ids_and_names_the_rule_in_data_unknown(synthetic_index):
    from test_rules_highlander import deck_text
    report = _check(synthetic_index, deck_text(add="2 Vague Event"), get_format("type1e"))
    unknown = [i for i in report.issues if i.rule == "HL-DATA-UNKNOWN"]  # the game's id (Game.data_unknown)
    assert unknown and all(re.match(r"HL-[A-Z-]+ not verified: ", i.message) for i in unknown)
    assert DATA_UNKNOWN not in {i.rule for i in report.issues}  # the rules' own placeholder never shows
    assert all(i.rule for i in report.issues)


@pytest.mark.parametrize("n,word", [(0, "no"), (1, "one"), (6, "six"), (10, "ten"), (11, "11"), (-1, "-1")])
def test_number_word(n, word):
    assert number_word(n) == word


@dataclasses.dataclass(frozen=True)
class _ToyParams(Params):
    strict: bool = True
    size: int = 3
    kinds: tuple[str, ...] = ("Hunter", "Item")


def test_a_summary_prints_each_kind_of_parameter_as_a_reader_expects():
    """A flag prints as written (True), not as the number a bool also is; a number as digits or a word; a tuple
    as its length with ':count' and as itself otherwise."""
    assert _ToyParams().text("{strict} {size} {size:word} {kinds:count}") == "True 3 three 2"
    assert _ToyParams(strict=False, size=1).text("{strict}, {size:word}, {size:03d}") == "False, one, 001"


def test_a_data_unknown_warning_names_every_card_once_and_says_how_to_fix_it():
    from deckcheck.cards import Card
    from deckcheck.rules import WARNING, data_unknown
    vague = Card(id="V", name="Vague Event", title="Vague Event", type="Event")
    other = Card(id="W", name="Other Event", title="Other Event", type="Event")
    issue = data_unknown("Restriction number unknown", [vague, other, vague])
    assert (issue.rule, issue.severity, issue.message, issue.cards, issue.fix) == (
        DATA_UNKNOWN, WARNING, "Restriction number unknown for 2 cards: Vague Event, Other Event",
        ("Vague Event", "Other Event"), "add the values printed on the cards, with a card sheet or the fill-in form")
    assert data_unknown("grid unknown", [vague], fix="add its grid").fix == "add its grid"


def test_the_engine_stamps_only_the_issues_a_rule_left_unstamped():
    from deckcheck.rules import UNSTAMPED, error, stamp
    unstamped = error("too many", limit=1, actual=2)
    assert unstamped.rule == UNSTAMPED and stamp(unstamped, "XX-RULE").rule == "XX-RULE"
    assert stamp(unstamped._replace(rule="YY-OTHER"), "XX-RULE").rule == "YY-OTHER"  # a stamped issue keeps its id


def test_a_data_unknown_warning_takes_the_id_the_check_gives_else_the_generic_one():
    from deckcheck.cards import Card
    from deckcheck.games import registry
    from deckcheck.rules import DATA_UNKNOWN, data_unknown, stamp
    issue = data_unknown("Restriction number unknown", [Card(id="V", name="Vague Event", title="Vague Event")])
    assert stamp(issue, "HL-RESTRICTED", "PB-DATA-UNKNOWN").rule == "PB-DATA-UNKNOWN"  # the checked game's
    assert stamp(issue, "HL-RESTRICTED").rule == DATA_UNKNOWN  # called alone: no game's (no registry read)
    assert registry().data_unknown_of("HL-RESTRICTED") == "HL-DATA-UNKNOWN"  # the game that plays it first
    assert registry().data_unknown_of("NO-SUCH-RULE") is None
    assert stamp(issue, "HL-RESTRICTED", "PB-DATA-UNKNOWN").message.startswith("HL-RESTRICTED not verified: ")


def test_a_rules_columns_and_words_are_on_its_decorator_and_reach_the_registry():
    from deckcheck.games import registry
    from deckcheck.rules import ERROR, declared, rule

    def check(view):
        return []
    decorated = rule("X-TEST", ERROR, "A test rule.", columns=["power"], words="power not checked")(check)
    assert decorated is check and declared(check).columns == ("power",) and declared(check).words == "power not checked"
    assert registry().rule_columns["HL-RESTRICTED"] == ("restriction",)  # Highlander's, from its @rule
    assert registry().rule_words["RS-RENOWN"] == "Renown limit not checked"
    assert "X-TEST" not in registry().rule_columns  # a rule no registered format plays is nobody's to fill in
