"""Unverified rules shown as what they are (issue 22 §1) in the terminal, `-q`, JSON and tournament reports; card
facts shared between clubs (§4): export → import into a fresh database keeps the verdict and who said what."""
from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest
from inproc import run_cli

from deckcheck.report import Issue, Report
from deckcheck.rules import data_unknown, stamp
from deckcheck.unverified import unverified

ROOT = Path(__file__).resolve().parent.parent
CONNOR = str(ROOT / "examples/decks/type1e-connor-legal.txt")


@pytest.fixture
def db(tmp_path, shared_db, monkeypatch) -> str:
    path = tmp_path / "cards.db"
    shutil.copy(shared_db.removeprefix("sqlite:///"), path)
    monkeypatch.setenv("DECKCHECK_DB", f"sqlite:///{path}")
    monkeypatch.setenv("COLUMNS", "200")
    return f"sqlite:///{path}"


def unknown_report(n_cards: int) -> Report:
    from deckcheck.cards import Card
    cards = [Card(id=f"c{i}", name=f"Card {i}", title=f"Card {i}") for i in range(n_cards)]
    issue = stamp(data_unknown("Restriction number unknown (the deck holds several copies)", cards), "HL-RESTRICTED")
    return Report("d.txt", "type1e", issues=[Issue("HL-DECK-MIN", "error", "too few"), issue])


def test_unverified_groups_name_the_rule_in_words_cards_and_what_settles_it():
    (group,) = unverified(unknown_report(13))
    assert group.rule == "HL-RESTRICTED" and group.words == "copies limit not checked"
    assert group.settle.startswith("the Restriction number printed on the card")
    assert len(group.cards) == 13 and group.cards_text().endswith("Card 9 and 3 more")
    assert unknown_report(13).unverified == ["HL-RESTRICTED"] and Report("d", "type1e").unverified == []


def test_the_undecided_rule_is_read_from_its_field_never_from_the_message():
    stamped = unknown_report(2).issues[1]
    assert stamped.undecided == "HL-RESTRICTED"
    # a message that reads like another rule's does not change what the issue names: the field does
    renamed = stamped._replace(message="HL-OTHER not verified: words a rule wrote")
    looks_like_one = Issue("HL-DATA-UNKNOWN", "warning", "HL-LOOKS not verified: x")
    report = Report("d.txt", "type1e", issues=[renamed, looks_like_one])
    assert report.unverified == ["HL-RESTRICTED"]
    assert [g.rule for g in unverified(report)] == ["HL-RESTRICTED"]
    assert "undecided" not in stamped.as_dict()  # §3 keeps its shape: the rule is named in the message there


def test_a_stored_report_gives_its_issues_back_with_the_rule_they_left_undecided():
    from deckcheck.desk import report_from_dict
    report = unknown_report(3)
    back = report_from_dict(json.loads(json.dumps(report.as_dict())))
    assert back.issues == report.issues and back.unverified == ["HL-RESTRICTED"]
    assert Issue.from_dict({"rule": "HL-DECK-MIN", "message": "HL-X not verified: y"}).undecided is None


def test_terminal_json_and_quiet_show_the_count(db):
    r = run_cli("check", CONNOR)
    lines = r.text.splitlines()
    assert lines[0].endswith(": LEGAL — 2 rules unverified  type1e  Persona: Connor MacLeod  Pre-Game 2, Endurance 51")
    group = [ln for ln in lines if ln.startswith("  unverified ")]
    assert group[0].startswith("  unverified HL-RESTRICTED: copies limit not checked: Upper Left Attack (1), ")
    assert " and 5 more — settled by the Restriction number printed on the card" in group[0]
    assert group[1] == ("  unverified HL-HAND-ICONS: Hand icons limit not checked: Connor MacLeod Persona, Connor "
                        "MacLeod Premium +1 — settled by the number of Hand icons printed on the card")
    assert not [ln for ln in lines if ln.startswith("  warning ")]  # said once: as the unverified lines
    report = json.loads(run_cli("check", CONNOR, "--json").text)
    assert report["unverified"] == ["HL-HAND-ICONS", "HL-RESTRICTED"]
    assert len([i for i in report["issues"] if i["rule"] == "HL-DATA-UNKNOWN"]) == 2
    assert run_cli("check", "-q", CONNOR).text.rstrip().endswith(
        ": LEGAL — 2 rules unverified — 0 errors, 0 warnings")
    typo = run_cli("check", "-q", str(ROOT / "examples/decks/type1e-typo.txt")).text
    assert "unverified" not in typo


def test_rich_panel_shows_the_count_and_the_group():
    from rich.console import Console

    from deckcheck.cli.render import report_panel
    console = Console(width=160, record=True, color_system=None)
    console.print(report_panel(unknown_report(12)))
    text = console.export_text()
    assert "NOT LEGAL — 1 rule unverified" in text and "Unverified (1)" in text
    assert "copies limit not checked" in text and "and 2 more" in text and "Restriction number printed" in text
    assert "Warnings" not in text and "DATA-UNKNOWN" not in text  # the rule is one entry: its group


def test_tournament_reports_have_an_unverified_column(db, tmp_path):
    out = tmp_path / "summary.csv"
    run_cli("tournament", "check", str(ROOT / "examples/decks"), "--out", str(out))
    with open(out, newline="") as f:
        rows = {Path(r["source"]).name: r for r in csv.DictReader(f)}
    assert rows["type1e-connor-legal.txt"]["unverified"] == "2"
    assert rows["type1e-typo.txt"]["unverified"] == "0"


def test_export_import_into_a_fresh_database_keeps_verdict_and_provenance(db, tmp_path):
    from deckcheck.library.facts import Facts
    from deckcheck.db.store import Store
    store = Store(db)
    facts = Facts(store)
    by_id = {c.id: c for c in store.cards()}
    report = json.loads(run_cli("check", CONNOR, "--json").text)
    names = next(i["cards"] for i in report["issues"] if "HL-RESTRICTED" in i["message"])
    for card in (c for c in by_id.values() if c.name in names and c.edition == 1 and c.set == "ME"):
        facts.submit(card, {"restriction": "none"}, "Ann", review=False)
    facts.submit(by_id["SE-connor-macleod-persona"], {"hand_icons": "1"}, "Bo", review=False)
    store.dispose()
    before = json.loads(run_cli("check", CONNOR, "--json").text)
    assert before["unverified"] != report["unverified"]
    for suffix in (".csv", ".xlsx"):
        sheet = tmp_path / f"facts{suffix}"
        r = run_cli("cards", "facts", "export", str(sheet))
        assert r.code == 0 and "values not from the bundle" in r.text
        fresh = f"sqlite:///{tmp_path / ('fresh' + suffix + '.db')}"
        dry = run_cli("cards", "import", str(sheet), "--dry-run", "--db", fresh)
        assert dry.code == 0 and "Connor MacLeod Persona [SE-connor-macleod-persona] hand_icons: unknown → 1 " \
                                 "(web:Bo @ " in dry.text
        assert run_cli("cards", "import", str(sheet), "--db", fresh).code == 0
        after = json.loads(run_cli("check", CONNOR, "--json", "--db", fresh).text)
        assert after == before
        fresh_store = Store(fresh)
        from deckcheck.db.sources import stored_sources
        source = stored_sources(fresh_store, ["SE-connor-macleod-persona"])["SE-connor-macleod-persona"]["hand_icons"]
        assert (source.kind, source.ref) == ("web", "Bo") and source.at
        mine = Facts(store).history("SE-connor-macleod-persona")[0]
        assert mine.new_source == str(source)  # the same provenance, time included
        fresh_store.dispose()


def test_import_lists_conflicts_and_never_replaces_silently(db, tmp_path):
    from deckcheck.library.facts import Facts
    from deckcheck.db.store import Store
    store = Store(db)
    card = next(c for c in store.cards() if c.id == "ME-upper-left-attack-1")
    Facts(store).submit(card, {"restriction": "2"}, "Here", review=False)
    store.dispose()
    sheet = tmp_path / "theirs.csv"
    sheet.write_text("id,name,restriction,restriction_source\n"
                     "ME-upper-left-attack-1,Upper Left Attack (1),4,web:There @ 2026-11-30T10:00:00+00:00\n")
    dry = run_cli("cards", "import", str(sheet), "--dry-run")
    assert "1 value(s) kept" in dry.text and "conflict: Upper Left Attack (1) [ME-upper-left-attack-1] " \
                                              "restriction: 2 (web:Here @ " in dry.text
    assert "→ 4 (web:There @ 2026-11-30T10:00:00+00:00)" in dry.text
    run_cli("cards", "import", str(sheet))
    store = Store(db)
    assert next(c for c in store.cards() if c.id == "ME-upper-left-attack-1").restriction == 2  # kept
    store.dispose()
    run_cli("cards", "import", str(sheet), "--overwrite")
    store = Store(db)
    assert next(c for c in store.cards() if c.id == "ME-upper-left-attack-1").restriction == 4
    store.dispose()


@pytest.mark.parametrize("name", ["facts.txt", "facts.json"])
def test_export_refuses_other_suffixes(db, tmp_path, name):
    r = run_cli("cards", "facts", "export", str(tmp_path / name))
    assert r.code == 2 and r.crash is None and not (tmp_path / name).exists()


# -- an answer settles what it was asked for (issue 32): a fact given for a card as the deck names it (a line with no
# set) applies to every printing the line may mean that does not state otherwise
DUNCAN = str(ROOT / "examples/decks/type2-duncan-katana.txt")
KURGAN = str(ROOT / "examples/decks/type1e-kurgan-illegal.txt")
# plausible values for what a todo sheet asks: no Restriction number printed, one Hand icon, no swords
PLAUSIBLE = {"restriction": "0", "hand_icons": "1", "signature": "no", "reserved": "no", "unique": "no"}


def filled_todo(deck: str, tmp_path: Path, *db: str) -> Path:
    """The deck's `cards todo` sheet, every `?` cell filled with a plausible value (`db`: `--db URL`)."""
    todo = tmp_path / "todo.csv"
    assert run_cli("cards", "todo", deck, "--out", str(todo), *db).code == 0
    with open(todo, encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert rows
    for row in rows:
        for column, value in row.items():
            if value == "?":
                row[column] = PLAUSIBLE[column]
    with open(todo, "w", encoding="utf-8", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return todo


@pytest.mark.parametrize("deck", [DUNCAN, KURGAN])
def test_a_filled_todo_sheet_settles_every_rule_it_was_written_for(db, tmp_path, deck):
    before = json.loads(run_cli("check", deck, "--json").text)
    assert before["unverified"]
    after = json.loads(run_cli("check", deck, "--json", "--cards", str(filled_todo(deck, tmp_path))).text)
    assert after["unverified"] == [] and after["input_errors"] == []


HAND_WRITTEN = ("Format: type1e\nPre-Game:\nConnor MacLeod Persona\nEndurance:\n3 Thrust\n2 Upper Left Block\n"
                "1 Upper Left Block [SE]\n3 Lower Center Block\n3 Upper Left Attack (1)\n")


@pytest.mark.parametrize("deck", [CONNOR, "hand-written"])
def test_a_filled_todo_sheet_leaves_nothing_unverified_on_sqlite_and_postgresql(db_url, tmp_path, deck):
    """Issue 32, done when: the README's example and a hand-written deck of set-less lines, checked with their
    filled `cards todo` sheet (`check --cards`), on either database."""
    from deckcheck.library.api import CollectionApp
    CollectionApp(db_url).catalog.store.dispose()  # the database made, its bundled cards in
    if deck == "hand-written":
        deck = str(tmp_path / "hand.txt")
        Path(deck).write_text(HAND_WRITTEN, encoding="utf-8")
    before = json.loads(run_cli("check", deck, "--json", "--db", db_url).text)
    assert before["unverified"] and before["input_errors"] == []
    sheet = filled_todo(deck, tmp_path, "--db", db_url)
    after = json.loads(run_cli("check", deck, "--json", "--db", db_url, "--cards", str(sheet)).text)
    assert after["unverified"] == [] and after["input_errors"] == [], after


def test_a_fact_answered_for_one_printing_decides_a_line_that_names_no_set(db, tmp_path):
    from deckcheck.db.store import Store
    from deckcheck.library.facts import Facts
    store = Store(db)
    persona = [c for c in store.cards() if c.name == "Duncan MacLeod Persona" and c.set == "SE"][0]
    deck = tmp_path / "duncan.txt"
    deck.write_text("Format: type1e\nPre-Game:\nDuncan MacLeod Persona\n", encoding="utf-8")
    assert "HL-HAND-ICONS" in json.loads(run_cli("check", str(deck), "--json").text)["unverified"]
    Facts(store).submit(persona, {"hand_icons": "1"}, "Ann", False)
    assert "HL-HAND-ICONS" not in json.loads(run_cli("check", str(deck), "--json").text)["unverified"]


# -- a report that says each thing once (issue 32 item 4) --------------------------------------------------------------
def test_each_undecided_rule_is_one_line_of_the_terminal_report_and_json_keeps_its_issues(db):
    kurgan = str(ROOT / "examples/decks/type1e-kurgan-illegal.txt")
    for other in (CONNOR, DUNCAN):  # the README's other example, and a 2E deck
        text, report = run_cli("check", other).text, json.loads(run_cli("check", other, "--json").text)
        assert report["unverified"] and all(sum(r in line for line in text.splitlines()) == 1
                                            for r in report["unverified"]), text
    text = run_cli("check", kurgan).text
    report = json.loads(run_cli("check", kurgan, "--json").text)
    assert report["unverified"] and all(i["rule"] != "HL-DATA-UNKNOWN" or i["fix"] for i in report["issues"])
    assert sum(i["rule"] == "HL-DATA-UNKNOWN" for i in report["issues"]) == len(report["unverified"])  # §3 shape
    lines = text.splitlines()
    for rule in report["unverified"]:
        assert sum(rule in line for line in lines) == 1, text
    assert "HL-DATA-UNKNOWN" not in text
    quiet = run_cli("check", "-q", kurgan).text
    assert quiet.startswith(f"{kurgan}: NOT LEGAL — 2 rules unverified — 6 errors, 0 warnings")


def test_a_tournament_sheet_gives_an_unverified_rule_one_row_with_what_settles_it():
    from deckcheck.tournament import Tournament
    report = unknown_report(3)
    rows = Tournament([report]).issue_rows()
    assert [r[2] for r in rows] == ["HL-DECK-MIN", report.issues[1].rule]
    assert rows[1][4] == "HL-RESTRICTED unverified: copies limit not checked"
    assert str(rows[1][8]).startswith("settled by the Restriction number") and "deckcheck" not in str(rows[1][8])
