"""Imports you can trust (CONTRACTS §4, revision 3): every import journalled and undone exactly, a file imported
again named before anything changes, and the preview's old → new of every entry and of the totals."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from deckcheck.db.collections import AlreadyImported, NoSuchImport, UndoRefused
from deckcheck.errors import DeckcheckError
from deckcheck.importers.collection import write_collection

from conftest import COLLECTION_HEADER as HEADER, sheet, together, totals
from inproc import run_cli

GOOD = HEADER + ("Connor MacLeod Persona,SE,1,NM,English,no,0,0,binder 1,\n"
                 "Thrust (1),ME,3,LP,English,no,1,0,binder 2,\n"
                 "Back Away (Kern),WC,2,M,German,yes,0,0,box,\n"
                 "The Kurgan Back Away,ME,4,NM,,no,0,2,,\n")
OTHER = HEADER + ("Thrust (1),ME,1,LP,English,no,0,0,,a note\n"
                  "Upper Left Attack (1),ME,2,NM,English,no,0,0,,\n")


def export(app, tmp_path: Path, name: str = "main", n: list[int] = [0]) -> bytes:  # noqa: B006 (a counter)
    n[0] += 1
    path = tmp_path / f"export-{n[0]}.csv"
    write_collection(path, app.collections.holdings(name))
    return path.read_bytes()


def test_the_same_file_again_is_named_and_changes_nothing_unless_asked(collection_app, tmp_path):
    path = sheet(tmp_path, GOOD)
    collection_app.import_sheet(path)
    once = totals(collection_app)
    with pytest.raises(AlreadyImported) as exc:
        collection_app.import_sheet(path)
    assert re.search(r"imported into the collection 'main' on \d{4}-\d\d-\d\d \d\d:\d\d UTC: importing again adds "
                     r"its copies again", str(exc.value)) and "--again" in str(exc.value)
    assert totals(collection_app) == once
    _l, changes, _p, _r = collection_app.import_sheet(path, dry_run=True)
    past = changes["main"].imported_before
    assert past is not None and past.label == "c.csv" and past.mode == "merge" and changes["main"].updated == 4
    assert totals(collection_app) == once
    collection_app.import_sheet(path, again=True)
    assert next(h for h in collection_app.collections.holdings() if h.card.id == "ME-thrust-1").quantity == 6


def test_the_same_content_in_another_order_and_name_is_the_same_file(collection_app, tmp_path):
    collection_app.import_sheet(sheet(tmp_path, GOOD))
    head, *rows = GOOD.splitlines()
    shuffled = sheet(tmp_path, "\n".join([head, *reversed(rows)]) + "\n", "renamed.csv")
    with pytest.raises(AlreadyImported) as exc:
        collection_app.import_sheet(shuffled)
    assert "(from 'c.csv')" in str(exc.value)
    collection_app.import_sheet(shuffled, collection="trade binder")  # another collection: never imported there


def test_replace_mode_again_is_not_refused(collection_app, tmp_path):
    path = sheet(tmp_path, GOOD)
    collection_app.import_sheet(path, mode="replace")
    collection_app.collections.edit("main", collection_app.holding("Thrust (1)", "ME", condition="LP", quantity=5),
                                    1)
    _l, changes, _p, _r = collection_app.import_sheet(path, mode="replace")  # makes it equal to the file again
    assert changes["main"].imported_before is not None and changes["main"].updated == 1
    assert next(h for h in collection_app.collections.holdings() if h.card.id == "ME-thrust-1").quantity == 3


def test_the_preview_gives_every_entry_and_the_totals_before_and_after(collection_app, tmp_path):
    collection_app.import_sheet(sheet(tmp_path, GOOD))
    _l, changes, _p, _r = collection_app.import_sheet(sheet(tmp_path, OTHER, "o.csv"), dry_run=True)
    c = changes["main"]
    pairs = {h.card.id: (kind, old and old.quantity, h.quantity) for (kind, h), old in zip(c.sample, c.before,
                                                                                            strict=True)}
    assert pairs == {"ME-thrust-1": ("updated", 3, 4), "ME-upper-left-attack-1": ("added", None, 2)}
    assert c.totals_before == {"entries": 4, "copies": 10, "for_trade": 1, "wanted": 2}
    assert c.totals_after == {"entries": 5, "copies": 13, "for_trade": 1, "wanted": 2}
    _l, changes, _p, _r = collection_app.import_sheet(sheet(tmp_path, OTHER, "o.csv"), mode="replace", dry_run=True)
    c = changes["main"]
    removed = [(h.card.id, old.quantity) for (kind, h), old in zip(c.sample, c.before, strict=True)
               if kind == "removed"]
    assert len(removed) == 3 and c.totals_after == {"entries": 2, "copies": 3, "for_trade": 0, "wanted": 0}


@pytest.mark.parametrize("mode", ["merge", "replace"])
def test_undo_restores_the_collection_exactly(collection_app, tmp_path, mode):
    collection_app.import_sheet(sheet(tmp_path, GOOD))
    collection_app.collections.edit("main", collection_app.holding("Thrust (1)", "ME", condition="NM", quantity=1,
                                                                   notes="kept by hand"), 1)
    before = export(collection_app, tmp_path)
    collection_app.import_sheet(sheet(tmp_path, OTHER, "o.csv"), mode=mode)
    assert export(collection_app, tmp_path) != before
    assert collection_app.collections.last_import("main").label == "o.csv"
    undone = collection_app.undo_import("main")
    assert (undone.label, undone.mode) == ("o.csv", mode)
    assert export(collection_app, tmp_path) == before
    assert collection_app.collections.last_import("main").label == "c.csv"  # the import before it, next to undo
    collection_app.undo_import("main")
    assert [(h.card.id, h.condition, h.notes) for h in collection_app.collections.holdings()] == [
        ("ME-thrust-1", "NM", "kept by hand")]  # an entry added by hand, untouched by the first import, stays
    with pytest.raises(DeckcheckError, match="no import into the collection 'main' to undo"):
        collection_app.undo_import("main")


def test_undoing_an_import_lets_the_file_in_again_and_a_new_collection_goes(collection_app, tmp_path):
    path = sheet(tmp_path, GOOD)
    collection_app.import_sheet(path, collection="new one")
    assert "new one" in collection_app.collections.names()
    collection_app.undo_import("new one")
    assert "new one" not in collection_app.collections.names()
    collection_app.import_sheet(path, collection="new one")  # no longer "imported before"
    assert len(totals(collection_app, "new one")) == 4


def test_a_workbook_of_several_collections_is_undone_per_collection(collection_app, tmp_path):
    collection_app.import_sheet(sheet(tmp_path, GOOD))
    collection_app.import_sheet(sheet(tmp_path, OTHER, "o.csv"), collection="binder")
    book = tmp_path / "all.xlsx"
    write_collection(book, collection_app.collections.holdings(None), by_collection=True)
    main, binder = export(collection_app, tmp_path), export(collection_app, tmp_path, "binder")
    collection_app.import_sheet(book, again=True)  # merge: every collection doubles
    assert export(collection_app, tmp_path) != main
    collection_app.undo_import("binder")
    assert export(collection_app, tmp_path, "binder") == binder and export(collection_app, tmp_path) != main
    collection_app.undo_import("main")
    assert export(collection_app, tmp_path) == main


def test_cli_import_again_and_undo(tmp_path):
    db = f"sqlite:///{tmp_path / 'cli.db'}"
    path = sheet(tmp_path, GOOD)
    empty = tmp_path / "empty.csv"
    assert run_cli("collection", "export", str(empty), "--db", db).code == 0
    r = run_cli("collection", "import", str(path), "--db", db)
    assert r.code == 0 and "totals: entries 0 → 4, copies 0 → 10" in r.text, r.text
    first = tmp_path / "first.csv"
    run_cli("collection", "export", str(first), "--db", db)
    r = run_cli("collection", "import", str(path), "--db", db)
    err = r.err.decode()
    assert r.code == 2 and "imported into the collection 'main' on" in err and "--again" in err, err
    again = tmp_path / "again.csv"
    run_cli("collection", "export", str(again), "--db", db)
    assert again.read_bytes() == first.read_bytes()
    r = run_cli("collection", "import", str(path), "--dry-run", "--db", db)
    assert r.code == 0 and "imported into 'main' before, on" in r.text and "updated: 3 → 6 x Thrust (1)" in r.text
    r = run_cli("collection", "import", str(path), "--again", "--db", db)
    assert r.code == 0 and "copies 10 → 20" in r.text, r.text
    r = run_cli("collection", "undo", "--db", db)
    assert r.code == 0 and "undid the import of c.csv" in r.text and "the last import still standing: c.csv" in r.text
    run_cli("collection", "export", str(again), "--db", db)
    assert again.read_bytes() == first.read_bytes()
    assert run_cli("collection", "undo", "--db", db).code == 0
    run_cli("collection", "export", str(again), "--db", db)
    assert again.read_bytes() == empty.read_bytes()
    r = run_cli("collection", "undo", "--db", db)
    assert r.code == 2 and "no import into the collection 'main' to undo" in r.err.decode() and r.crash is None


# -- undo names one import, takes it back once, and keeps every later edit (issue 28) -------------------
THRUST = HEADER + "Thrust (1),ME,3,LP,English,no,0,0,binder 2,\n"


def thrust(app, name: str = "main") -> tuple | None:
    """The LP Thrust (1) entry's counts and location (None: none)."""
    return next(((h.quantity, h.trade_quantity, h.want_quantity, h.location) for h in app.collections.holdings(name)
                 if h.card.id == "ME-thrust-1" and h.condition == "LP"), None)


def imported(app, tmp_path: Path, text: str, label: str, **kw) -> int:
    """Import a sheet; the journal's id of the import."""
    _l, changes, _p, _r = app.import_sheet(sheet(tmp_path, text, label), again=True, **kw)
    found = changes[kw.get("collection", "main")].import_id
    assert found is not None
    return found


def test_undo_keeps_copies_added_after_the_import(collection_app, tmp_path):
    imported(collection_app, tmp_path, THRUST, "a.csv")
    collection_app.collections.edit("main", collection_app.holding("Thrust (1)", "ME", condition="LP", quantity=2,
                                                                   location="shelf"), 1)
    undone = collection_app.undo_import("main")
    assert undone.label == "a.csv"
    assert thrust(collection_app) == (2, 0, 0, "shelf")  # the 2 added by hand stay, with the location set by hand


def test_undo_of_an_earlier_import_by_id_keeps_the_later_ones(collection_app, tmp_path):
    a = imported(collection_app, tmp_path, THRUST, "a.csv")
    b = imported(collection_app, tmp_path, HEADER + "Thrust (1),ME,5,LP,English,no,1,0,,\n", "b.csv")
    c = imported(collection_app, tmp_path, OTHER, "c.csv")
    assert thrust(collection_app) == (9, 1, 0, "binder 2")
    undone = collection_app.undo_import("main", b)
    assert (undone.id, undone.label) == (b, "b.csv")
    assert thrust(collection_app) == (4, 0, 0, "binder 2")  # a's 3 and c's 1 stay
    assert [p.id for p in collection_app.collections.imports("main")] == [c, a]
    with pytest.raises(DeckcheckError, match=rf"import {b} \(b.csv, .*\) was already undone"):
        collection_app.undo_import("main", b)
    collection_app.undo_import("main", a)
    collection_app.undo_import("main", c)
    assert totals(collection_app) == []


def test_undo_refuses_when_a_later_change_took_the_copies_it_added(collection_app, tmp_path):
    a = imported(collection_app, tmp_path, THRUST, "a.csv")
    collection_app.collections.edit("main", collection_app.holding("Thrust (1)", "ME", condition="LP", quantity=2), -1)
    with pytest.raises(UndoRefused, match=rf"cannot undo import {a} \(a.csv.*Thrust \(1\) \[ME\] LP English "
                                             r"\(copies: the import left 3, 1 now\) was changed since by hand") as exc:
        collection_app.undo_import("main")
    assert type(exc.value) is UndoRefused and "Nothing was changed" in str(exc.value)  # 409, not NoSuchImport's 404
    assert thrust(collection_app) == (1, 0, 0, "binder 2")
    b = imported(collection_app, tmp_path, OTHER, "b.csv", mode="replace")  # takes Thrust down to 1 copy again
    with pytest.raises(DeckcheckError, match=rf"changed since by import {b} \(b.csv"):
        collection_app.undo_import("main", a)
    assert [p.id for p in collection_app.collections.imports("main")] == [b, a]  # a still stands: refused whole


@pytest.mark.parametrize("wanted, said", [(999, "no import 999 into the collection 'main'"),
                                          ("foreign", "no import {id} into the collection 'main'")])
def test_undo_of_an_id_of_no_import_of_the_collection_changes_nothing(collection_app, tmp_path, wanted, said):
    imported(collection_app, tmp_path, THRUST, "a.csv")
    other = imported(collection_app, tmp_path, OTHER, "o.csv", collection="binder")
    wanted = other if wanted == "foreign" else wanted
    before = (totals(collection_app), totals(collection_app, "binder"))
    with pytest.raises(NoSuchImport) as exc:  # the web answers it 404 (web/errors.py)
        collection_app.undo_import("main", wanted)
    assert said.format(id=other) in str(exc.value)
    assert (totals(collection_app), totals(collection_app, "binder")) == before


def test_an_earlier_deckcheck_journal_is_undone_as_before_when_it_is_the_last(collection_app, tmp_path):
    """A journal row written before imports kept what they made: undone only as the last, exactly as before."""
    import json

    from sqlalchemy import update

    from deckcheck.db.models import IMPORTS
    before = totals(collection_app)
    a = imported(collection_app, tmp_path, THRUST, "a.csv")
    with collection_app.collections.store.begin() as con:
        row = con.execute(IMPORTS.select().where(IMPORTS.c.id == a)).first()
        old = [item[:5] for item in json.loads(row.before)]
        con.execute(update(IMPORTS).where(IMPORTS.c.id == a).values(before=json.dumps(old)))
    b = imported(collection_app, tmp_path, OTHER, "b.csv")
    with pytest.raises(DeckcheckError, match=rf"journalled by an earlier deckcheck.*that is import {b} "):
        collection_app.undo_import("main", a)
    collection_app.undo_import("main", b)
    collection_app.undo_import("main", a)
    assert totals(collection_app) == before


def undo_or_refusal(app, name: str, wanted: int | None) -> str:
    try:
        return f"undid {app.undo_import(name, wanted).id}"
    except DeckcheckError as exc:
        return str(exc)


def test_two_undos_of_one_import_at_once_undo_it_once(db_url, tmp_path):
    """A double click: two undos of import c at the same moment, each on its own connection pool (as two
    server processes would be); ten rounds in a row, on SQLite and PostgreSQL."""
    from deckcheck.library.api import CollectionApp
    apps = [CollectionApp(db_url) for _ in range(2)]
    for n in range(10):
        name = f"round {n}"
        ids = [imported(apps[0], tmp_path, text, label, collection=name)
               for text, label in ((THRUST, "a.csv"), (OTHER, "b.csv"), (GOOD, "c.csv"))]
        answers = together([lambda app=app, name=name, wanted=ids[2]: undo_or_refusal(app, name, wanted)
                            for app in apps])
        refused, undid = sorted(answers)
        assert undid == f"undid {ids[2]}" and f"import {ids[2]} (c.csv, " in refused, (n, answers)
        assert "was already undone" in refused and "nothing was changed" in refused, (n, answers)
        assert [p.label for p in apps[0].collections.imports(name)] == ["b.csv", "a.csv"], n
        assert thrust(apps[0], name) == (4, 0, 0, "binder 2"), n


def test_cli_undo_names_the_import_and_keeps_later_adds(tmp_path):
    db = f"sqlite:///{tmp_path / 'cli.db'}"
    r = run_cli("collection", "import", str(sheet(tmp_path, THRUST)), "--db", db)
    assert r.code == 0 and "journalled as import 1: `collection undo 1` takes it back" in r.text, r.text
    assert run_cli("collection", "add", "Thrust (1)", "--set", "ME", "--condition", "LP", "--qty", "2",
                   "--db", db).code == 0
    r = run_cli("collection", "imports", "--db", db)
    assert r.code == 0 and re.search(r"^\s+1  \d{4}-\d\d-\d\d \d\d:\d\d UTC  merge\s+1 change  c.csv$", r.text, re.M), \
        r.text
    r = run_cli("collection", "undo", "--db", db)
    assert r.code == 0 and "undid the import of c.csv" in r.text and "(import 1, 1 change taken back, later edits " \
        "kept)" in r.text, r.text
    r = run_cli("collection", "list", "--db", db)
    assert re.search(r"Thrust \(1\)\s.*ME\s.*2\s.*LP", r.text), r.text
    r = run_cli("collection", "undo", "1", "--db", db)
    assert r.code == 2 and "import 1 (c.csv, " in r.err.decode() and "was already undone" in r.err.decode()


def test_cli_undo_of_an_earlier_import_names_the_last_one_standing(tmp_path):
    """Undoing import 1 of a, b, c: the import left to undo next is c (the last standing), not one "before it"."""
    db = str(tmp_path / "u.db")
    for label in ("a.csv", "b.csv", "c.csv"):
        text = HEADER + f"Thrust (1),ME,{len(label)},LP,English,no,0,0,{label},\n"
        assert run_cli("collection", "import", str(sheet(tmp_path, text, label)), "--again", "--db", db).code == 0
    r = run_cli("collection", "undo", "1", "--db", db)
    assert r.code == 0 and "undid the import of a.csv" in r.text, r.text
    assert re.search(r"the last import still standing: c\.csv from .* \(import 3\)$", r.text.strip()), r.text
    assert "before it" not in r.text


@pytest.mark.parametrize("given", ["0", "abc", "1.0", "²", "١", " ", "9" * 40, "1e3", "0x1"])
def test_cli_undo_of_a_bad_id_is_refused(tmp_path, given):
    db = f"sqlite:///{tmp_path / 'cli.db'}"
    assert run_cli("collection", "import", str(sheet(tmp_path, THRUST)), "--db", db).code == 0
    r = run_cli("collection", "undo", given, "--db", db)
    assert r.code == 2 and r.crash is None and "an import id is a whole number" in r.err.decode(), r.err
    assert run_cli("collection", "imports", "--db", db).text.count("c.csv") == 1  # nothing undone


def cli_processes(args: list[str], real: bool) -> list[tuple[int, str, str]]:
    """`deckcheck ARGS` in two processes at once: (exit code, stdout, stderr) of each, sorted. `real`: the installed
    program, each in an interpreter of its own (a second's start-up); else two processes forked from this one, where
    deckcheck is imported already, let go at one barrier: each opens its own connections and writes as a program
    does (tests/inproc.py's main(), exit code and streams), and ends without closing anything of this process."""
    import multiprocessing
    import subprocess
    import sys
    if real:
        exe = str(Path(sys.executable).with_name("deckcheck"))
        runs = [subprocess.Popen([exe, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                for _ in range(2)]
        return sorted((p.wait(120), *p.communicate()) for p in runs)
    fork = multiprocessing.get_context("fork")
    barrier = fork.Barrier(2)
    pipes = [fork.Pipe(duplex=False) for _ in range(2)]

    def child(send) -> None:
        barrier.wait(60)
        r = run_cli(*args)
        send.send((r.code, r.text, r.err.decode("utf-8", "replace") + (r.crash or "")))
    children = [fork.Process(target=child, args=(send,)) for _read, send in pipes]
    for c in children:
        c.start()
    done = [read.recv() if read.poll(120) else (-1, "", "no answer in 120 s") for read, _send in pipes]
    for c in children:
        c.join(60)
    return sorted(done)


def test_two_cli_undos_of_one_import_at_once_undo_it_once(db_url, tmp_path):
    """`collection undo 3` typed in two terminals at once: two processes, one undoes, the other exits 2 saying it
    was already undone; ten rounds in a row, on SQLite and PostgreSQL. The first round runs the installed program
    twice; the others fork this process (no interpreter start-up), so that ten rounds cost two programs' time."""
    from deckcheck.library.api import CollectionApp
    app = CollectionApp(db_url)
    for n in range(10):
        name = f"round {n}"
        ids = [imported(app, tmp_path, text, label, collection=name)
               for text, label in ((THRUST, "a.csv"), (OTHER, "b.csv"), (GOOD, "c.csv"))]
        app.catalog.store.dispose()  # no connection of this process open while the two run (nor in the forks)
        done = cli_processes(["collection", "undo", str(ids[2]), "--collection", name, "--db", db_url], real=n == 0)
        assert [code for code, _out, _err in done] == [0, 2], (n, done)
        assert f"(import {ids[2]}, " in done[0][1] and "was already undone" in done[1][2], (n, done)
        assert "Traceback" not in done[1][2], done
        assert [p.label for p in app.collections.imports(name)] == ["b.csv", "a.csv"], n
        assert thrust(app, name) == (4, 0, 0, "binder 2"), n


@pytest.fixture
def slow_first_undo(monkeypatch):
    """The undo run by the thread named "slow" waits 0.3 s after reading an entry, before writing it: what
    another undo or edit does at that moment meets the undo half done (the race a busy server meets by chance)."""
    import threading
    import time

    import deckcheck.db.collections as dbc
    undone_values = dbc.undone_values

    def slow(*given):
        values = undone_values(*given)
        if threading.current_thread().name == "slow":
            time.sleep(0.3)
        return values
    monkeypatch.setattr(dbc, "undone_values", slow)


def first_slow(calls) -> list:
    """Run the first call in a thread named "slow" and, 0.1 s later, the second in another; their results."""
    import threading
    import time
    results: list = [None, None]

    def run(i, call):
        results[i] = call()
    threads = [threading.Thread(target=run, args=(i, call), name="slow" if i == 0 else None)
               for i, call in enumerate(calls)]
    for t in threads:
        t.start()
        time.sleep(0.1)
    for t in threads:
        t.join(60)
    return results


def hand_added(app, name: str, quantity: int):
    return app.collections.edit(name, app.holding("Thrust (1)", "ME", condition="LP", quantity=quantity), 1)


def racing_rounds(db_url, tmp_path, slow: bool, request, with_b: bool):
    """Ten rounds on collections of their own: 2 copies by hand, a.csv merges 3, and (with_b) b.csv replaces them
    with 4; yields (round, two CollectionApps, the name, the import ids, how to run two calls at once)."""
    from deckcheck.library.api import CollectionApp
    if slow:
        request.getfixturevalue("slow_first_undo")
    apps = [CollectionApp(db_url) for _ in range(2)]
    for n in range(10):
        name = f"round {n}"
        hand_added(apps[0], name, 2)
        ids = [imported(apps[0], tmp_path, HEADER + "Thrust (1),ME,3,LP,English,no,0,0,,\n", "a.csv", collection=name)]
        if with_b:
            ids.append(imported(apps[0], tmp_path, HEADER + "Thrust (1),ME,4,LP,English,no,0,0,,\n", "b.csv",
                                collection=name, mode="replace"))
        yield n, apps, name, ids, first_slow if slow else together


@pytest.mark.parametrize("slow", [False, True], ids=["at-once", "one-slow"])
def test_two_undos_of_different_imports_at_once_each_keep_the_other(db_url, tmp_path, slow, request):
    """2 copies by hand, a.csv merges 3 (5), b.csv replaces with 4: undoing a and b at the same moment, each on its
    own connection pool, leaves the 2 by hand, whichever lands first; ten rounds, on SQLite and PostgreSQL."""
    for n, apps, name, (a, b), run in racing_rounds(db_url, tmp_path, slow, request, with_b=True):
        assert thrust(apps[0], name) == (4, 0, 0, ""), n
        answers = run([lambda app=app, name=name, wanted=wanted: undo_or_refusal(app, name, wanted)
                       for app, wanted in zip(apps, (a, b), strict=True)])
        assert answers == [f"undid {a}", f"undid {b}"], (n, answers)
        assert thrust(apps[0], name) == (2, 0, 0, ""), (n, answers)
        assert apps[0].collections.imports(name) == [], n


@pytest.mark.parametrize("slow", [False, True], ids=["at-once", "one-slow"])
def test_an_undo_and_a_hand_edit_at_once_keep_the_edit(db_url, tmp_path, slow, request):
    """2 copies by hand, a.csv merges 3 (5); undoing a while `collection add` puts 1 more in (each on its own
    connection pool) leaves 3 whichever lands first, and the add reports what stands; ten rounds, both databases."""
    for n, apps, name, (a,), run in racing_rounds(db_url, tmp_path, slow, request, with_b=False):
        calls: list = [lambda app=apps[0], name=name, a=a: undo_or_refusal(app, name, a),
                       lambda app=apps[1], name=name: hand_added(app, name, 1).quantity]
        undid, added = run(calls)
        assert undid == f"undid {a}" and added in (3, 6), (n, undid, added)
        assert thrust(apps[0], name) == (3, 0, 0, ""), (n, undid, added)
