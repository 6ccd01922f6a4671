"""Every command that takes `--as USER` (issue 30; CONTRACTS §9), on one database where Ann, Bert and the keeper
each own a saved deck "aggro" (two versions) and a collection "binder" (with an import) of different contents:
`--as ann` reads and writes Ann's only, never Bert's nor the keeper's (their rows stay as they were, nothing of
theirs is printed or written out), and `--as Nobody` is exit 2 saying no account is named so, with nothing changed.

CASES says how to call each command and what of Ann's it shows or changes; a command given `--as` without a row
fails `test_every_command_with_as_has_a_case`.
"""
from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import typer
from sqlalchemy import text

from deckcheck.db.store import Store
from deckcheck.library.accounts import Accounts

from inproc import Result, run_cli

PEOPLE = ("ann", "bert", "keeper")
# Each one's things: a card of their own in their deck and their collection, the copies they hold of it, their
# shelf and the name of the sheet they imported.
OWN = {"ann": ("Extra Weapon", 7, "annshelf", "ann-binder.csv"),
       "bert": ("Recover Weapon", 8, "bertshelf", "bert-binder.csv"),
       "keeper": ("Challenge", 9, "keepershelf", "keeper-binder.csv")}
AS = {"ann": ("--as", "ann"), "bert": ("--as", "Bert"), "keeper": ()}


SIZE = {"ann": 1, "bert": 3, "keeper": 5}


def decklist(who: str, version: int) -> str:
    """A person's deck "aggro": a Thrust and their own card, as many copies as the version and their SIZE (Ann's:
    two, then three)."""
    return f"Format: type1e\nEndurance:\n{SIZE[who] + version} {OWN[who][0]}\n1 Thrust\n"


@dataclass
class Home:
    folder: Path
    url: str
    ids: dict[str, str]  # each account's deck "aggro" by its id

    def run(self, *args: str) -> Result:
        return run_cli(*args, "--db", self.url)


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> tuple[Path, dict[str, str]]:
    """A database of the three people's things, made through the commands; copied for each test."""
    folder = tmp_path_factory.mktemp("as-every")
    url = f"sqlite:///{folder / 'home.db'}"
    accounts = Accounts(Store(url))
    for name in ("Ann", "Bert"):
        accounts.add(name, "an account password", ["player"])
    for who in PEOPLE:
        for version in (1, 2):
            deck = folder / f"{who}-{version}.txt"
            deck.write_text(decklist(who, version))
            r = run_cli("deck", "save", "aggro", str(deck), *AS[who], "--db", url)
            assert r.code == 0, r.err
        card, copies, shelf, label = OWN[who]
        sheet = folder / label
        sheet.write_text(f"card,quantity,location\n{card},{copies},{shelf}\nThrust,1,{shelf}\n")
        r = run_cli("collection", "import", str(sheet), "--collection", "binder", *AS[who], "--db", url)
        assert r.code == 0, r.err
    with Store(url).engine.connect() as con:
        ids = {row[0].lower(): row[1] for row in con.execute(text(
            "select a.name, d.name from saved_deck d join account a on a.id = d.owner_id"))}
        # built where they belong (read apart from the commands under test): each one's own card, in their own
        kept = {(owner or "keeper", card) for owner, card in con.execute(text(
            "select lower(a.name), k.name from saved_deck_card c join saved_deck d on d.name = c.deck_name "
            "join card k on k.id = c.card_id left join account a on a.id = d.owner_id union "
            "select lower(a.name), k.name from collection_entry e join collection c on c.id = e.collection_id "
            "join card k on k.id = e.card_id left join account a on a.id = c.owner_id"))}
    assert kept == {(who, card) for who in PEOPLE for card in (OWN[who][0], "Thrust")}, kept
    return folder / "home.db", ids


@pytest.fixture()
def home(template, tmp_path) -> Home:
    db, ids = template
    shutil.copy(db, tmp_path / "home.db")
    return Home(tmp_path, f"sqlite:///{tmp_path / 'home.db'}", ids)


def owned(home: Home) -> dict[str, list[str]]:
    """Every row of each person's decks and collections (the keeper's: no owner)."""
    store = Store(home.url)
    out = {}
    with store.engine.connect() as con:
        accounts = {r[0].lower(): r[1] for r in con.execute(text("select name, id from account"))}
        for who in PEOPLE:
            of = f"= {accounts[who]}" if who in accounts else "is null"
            rows = []
            for query in (f"select * from saved_deck where owner_id {of}",
                          f"select v.* from saved_deck_version v join saved_deck d on d.name = v.deck_name "
                          f"where d.owner_id {of}",
                          f"select c.* from saved_deck_card c join saved_deck d on d.name = c.deck_name "
                          f"where d.owner_id {of}",
                          f"select * from collection where owner_id {of}",
                          f"select e.* from collection_entry e join collection c on c.id = e.collection_id "
                          f"where c.owner_id {of}",
                          f"select i.* from collection_import i join collection c on c.id = i.collection_id "
                          f"where c.owner_id {of}"):
                rows += sorted(repr(tuple(r)) for r in con.execute(text(query)))
            out[who] = rows
    store.engine.dispose()
    return out


@dataclass(frozen=True)
class Case:
    """How to call a command (its arguments, made in the test's folder) and whether it changes Ann's things;
    `shows` what of Ann's its output (or the file it writes) must hold."""

    args: Callable[[Home], list[str]]
    writes: bool = False
    shows: Callable[[str], str] = lambda who: OWN[who][0]  # their own card, by default
    out: str = ""  # a file it writes, read as its output


def _sheet(home: Home) -> str:
    path = home.folder / "more.csv"
    path.write_text("card,quantity\nThrust,2\n")
    return str(path)


def _needs(home: Home) -> str:
    path = home.folder / "needs.txt"
    path.write_text("Format: type1e\nEndurance:\n10 Extra Weapon\n")
    return str(path)


def _deck(home: Home) -> str:
    path = home.folder / "new.txt"
    path.write_text("Format: type1e\nEndurance:\n4 Thrust\n")
    return str(path)


BINDER = ["--collection", "binder"]
CASES: dict[str, Case] = {
    "stats": Case(lambda h: ["stats", "aggro", "--json"], shows=lambda who: '"endurance": 4'),
    "diff": Case(lambda h: ["diff", "aggro", _deck(h)]),
    "collection import": Case(lambda h: ["collection", "import", _sheet(h), *BINDER], writes=True,
                              shows=lambda who: "collection 'binder' changed: 0 added, 1 updated"),
    "collection undo": Case(lambda h: ["collection", "undo", *BINDER], writes=True, shows=lambda who: OWN[who][3]),
    "collection imports": Case(lambda h: ["collection", "imports", *BINDER], shows=lambda who: OWN[who][3]),
    "collection export": Case(lambda h: ["collection", "export", str(h.folder / "out.csv"), *BINDER], out="out.csv"),
    "collection add": Case(lambda h: ["collection", "add", "Thrust", "--qty", "3", *BINDER], writes=True,
                           shows=lambda who: "binder: Thrust"),
    "collection remove": Case(lambda h: ["collection", "remove", "Thrust", *BINDER], writes=True,
                              shows=lambda who: "binder: Thrust"),
    "collection list": Case(lambda h: ["collection", "list", *BINDER]),
    "collection stats": Case(lambda h: ["collection", "stats", *BINDER], shows=lambda who: f"{OWN[who][1] + 1} cards"),
    "collection missing": Case(lambda h: ["collection", "missing", "aggro", _needs(h), "--json", *BINDER],
                               shows=lambda who: '"owned": 7, "short": 3'),  # Ann's 7 of the 10 needed
    "collection trades": Case(lambda h: ["collection", "trades", *BINDER]),
    "deck save": Case(lambda h: ["deck", "save", "aggro", _deck(h)], writes=True,
                      shows=lambda who: "saved version 3 of deck 'aggro'"),
    "deck list": Case(lambda h: ["deck", "list"], shows=lambda who: "1 saved deck"),
    "deck show": Case(lambda h: ["deck", "show", "aggro"]),
    "deck versions": Case(lambda h: ["deck", "versions", "aggro"]),
    "deck diff": Case(lambda h: ["deck", "diff", "aggro@1", "aggro@2"]),
    "deck restore": Case(lambda h: ["deck", "restore", "aggro", "1"], writes=True,
                         shows=lambda who: "restored version 1 of deck 'aggro' as version 3"),
    "deck export": Case(lambda h: ["deck", "export", "aggro", "-"], shows=lambda who: f"3 {OWN[who][0]}"),
    "deck delete": Case(lambda h: ["deck", "delete", "aggro"], writes=True, shows=lambda who: "deleted deck 'aggro'"),
}


def commands_with_as(group: Any, prefix: str = "") -> list[str]:
    """The commands (their words) below a command group that take --as."""
    out = []
    for name, command in group.commands.items():
        if hasattr(command, "commands"):  # a group
            out += commands_with_as(command, f"{prefix}{name} ")
        elif any("--as" in getattr(p, "opts", ()) for p in command.params):
            out.append(prefix + name)
    return out


def test_every_command_with_as_has_a_case():
    from deckcheck.cli.commands import app
    found = commands_with_as(typer.main.get_command(app))
    assert sorted(found) == sorted(CASES), ("commands with --as and no case:", sorted(set(found) - set(CASES)),
                                            "cases of commands gone:", sorted(set(CASES) - set(found)))


def said(home: Home, case: Case, r: Result) -> str:
    written = home.folder / case.out if case.out else None
    return r.out.decode() + r.err.decode() + (written.read_text() if written and written.exists() else "")


def theirs(who: str, home: Home) -> list[str]:
    """What of `who`'s may show: their card, shelf, sheet's name, and their deck's id."""
    return [*map(str, OWN[who][:1] + OWN[who][2:]), *([home.ids[who]] if who in home.ids else [])]


@pytest.mark.parametrize("command", list(CASES))
def test_as_ann_reads_and_writes_only_anns(home, command, monkeypatch):
    monkeypatch.delenv("DECKCHECK_USER", raising=False)
    case = CASES[command]
    before = owned(home)
    r = home.run(*case.args(home), "--as", "ann")
    assert r.code == 0 and r.crash is None, (r.code, r.err.decode(), r.crash)
    output = said(home, case, r)
    assert case.shows("ann") in output, output
    leaked = [m for who in ("bert", "keeper") for m in theirs(who, home) if m in output]
    assert not leaked, (leaked, output)
    after = owned(home)
    assert {k: after[k] for k in ("bert", "keeper")} == {k: before[k] for k in ("bert", "keeper")}
    assert (after["ann"] != before["ann"]) is case.writes


UNKNOWN = {"Nobody": "no account is named 'Nobody'",  # an empty --as is no account either (not the keeper)
           "": "an account name is 1 to 60 printable characters"}


@pytest.mark.parametrize("command", list(CASES))
@pytest.mark.parametrize("name", list(UNKNOWN), ids=["nobody", "empty"])
def test_an_unknown_account_is_refused_with_nothing_changed(home, command, name, monkeypatch):
    monkeypatch.delenv("DECKCHECK_USER", raising=False)
    case = CASES[command]
    before = owned(home)
    r = home.run(*case.args(home), "--as", name)
    assert (r.code, r.crash) == (2, None), (r.code, r.out.decode(), r.err.decode(), r.crash)
    assert UNKNOWN[name] in r.err.decode(), r.err.decode()
    assert not r.out, r.out
    assert owned(home) == before
    assert not case.out or not (home.folder / case.out).exists()


def test_the_cases_name_what_each_owns(home):
    """The control: the keeper's and Bert's calls show their own things, as Ann's show hers."""
    for who in ("bert", "keeper"):
        for command in ("deck show", "collection list", "collection imports"):
            case = CASES[command]
            r = home.run(*case.args(home), *AS[who])
            assert r.code == 0 and case.shows(who) in said(home, case, r), (who, command, r.err.decode())


@pytest.mark.parametrize("command", [["deck", "restore", "{id}", "1"], ["deck", "delete", "{id}"],
                                     ["deck", "save", "{id}", "{file}"], ["deck", "show", "{id}"]],
                         ids=["restore", "delete", "save", "show"])
def test_berts_deck_by_its_id_is_not_anns_to_change(home, command, monkeypatch):
    """Bert's deck named by its id (a link deck: Ann may read it, as on the web): refused, or Ann's own deck of that
    name; Bert's rows as they were."""
    monkeypatch.delenv("DECKCHECK_USER", raising=False)
    before = owned(home)
    r = home.run(*[a.format(id=home.ids["bert"], file=_deck(home)) for a in command], "--as", "ann")
    assert r.code in (0, 2) and r.crash is None, (r.code, r.err.decode(), r.crash)
    after = owned(home)
    assert {k: after[k] for k in ("bert", "keeper")} == {k: before[k] for k in ("bert", "keeper")}
    if command[1] in ("restore", "delete"):  # a deck Ann may read, not change: said in words, no web route in them
        said = r.err.decode()
        assert r.code == 2 and f"the deck {home.ids['bert']} is not yours" in said, said
        assert "/api/" not in said and "POST" not in said
