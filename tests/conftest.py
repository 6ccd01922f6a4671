"""Shared fixtures: synthetic and bundled cards, temporary databases (SQLite and PostgreSQL), golden files."""
from __future__ import annotations

import csv
import functools
import itertools
import os
import shutil
import socket
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import pytest

from deckcheck.catalog import CardIndex
from deckcheck.cardsheet import cards_from_rows

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
PG_ENV = "DECKCHECK_TEST_PG"
# Starlette's TestClient sends `Host: testserver`; the web app answers only the hosts of its allow-list
# (tests/web/test_web_guard.py tests the defaults). Rate limits are tested there too, with their own apps:
# elsewhere a session's hundreds of checks from one address must not meet them.
os.environ.setdefault("DECKCHECK_ALLOWED_HOSTS", "testserver,localhost,127.0.0.1,::1")
os.environ.setdefault("DECKCHECK_CHECK_RATE", "0")
os.environ.setdefault("DECKCHECK_EVENT_RATE", "0")
# Kept card indexes (deckcheck.db.indexcache) of the tests' databases go to a folder of this run, not the home's.
os.environ.setdefault("DECKCHECK_CACHE_DIR", str(Path(__import__("tempfile").mkdtemp(prefix="deckcheck-test-cache-"))))


def pytest_addoption(parser):
    parser.addoption("--update-golden", action="store_true", help="rewrite golden reports instead of comparing")


# The slowest tests of a recent CI run (`pytest --durations=25`), slowest first (the estimates of the run after
# tests/ made them cheaper: the axe audit ~80 s, the event day ~60 s, the others 10-20 s). They start first, each
# with the rest of its module (module fixtures are set up once), so that the last tests a worker takes are short
# ones and pytest-xdist's worksteal ends the workers together, not one on a long test while the other waits.
SLOWEST = ("tests/web/test_a11y_browser.py::test_every_page_passes_the_axe_audit",
           "tests/web/test_desk_day_browser.py::test_an_event_day",
           "tests/web/test_rounds_browser.py::test_an_event_from_check_in_to_standings",
           "tests/web/test_desk_browser.py::test_an_event_from_creation_to_the_report",
           "tests/test_bench.py::test_bench_script_runs",
           "tests/web/test_web_crash.py::test_a_server_killed_during_writes_starts_again_with_every_acknowledged_write",
           "tests/test_collection_undo.py::test_two_cli_undos_of_one_import_at_once_undo_it_once",
           "tests/test_readme.py::test_readme_commands_in_order",
           "tests/db/test_copy.py::test_sqlite_to_postgresql_and_back_loses_nothing",
           "tests/test_cli.py::test_every_command_has_help")


def slowest_first(items: list, slowest: tuple[str, ...] = SLOWEST) -> None:
    """Reorder the items in place: the modules of the `slowest` tests first (in that order), their slow tests
    first within them; the rest keep their order (pytest-randomly's, which is the same in every worker)."""
    def rank(item) -> int:
        name = item.nodeid.split("[")[0]
        return slowest.index(name) if name in slowest else len(slowest)
    module_rank: dict[str, int] = {}
    for item in items:
        module = item.nodeid.split("::")[0]
        module_rank[module] = min(module_rank.get(module, len(slowest)), rank(item))
    items.sort(key=lambda item: (module_rank[item.nodeid.split("::")[0]], rank(item)))


def pytest_collection_modifyitems(items):  # after pytest-randomly's shuffle (a wrapper, run first)
    slowest_first(items)


@pytest.fixture
def update_golden(request) -> bool:
    return request.config.getoption("--update-golden")


def load_sheet(path: Path):
    with open(path, encoding="utf-8", newline="") as f:
        rows = [(i, r) for i, r in enumerate(csv.DictReader(f), start=2)]
    return cards_from_rows(rows, str(path))[0]


@pytest.fixture(scope="session")
def synthetic_cards():
    return load_sheet(DATA / "synthetic-cards.csv")


@pytest.fixture(scope="session")
def sheet_index():
    """A name index over card sheets of the repository (and any built-in cards)."""
    def make(*sheets: str, extra=()):
        return CardIndex(list(extra) + [c for sheet in sheets for c in load_sheet(ROOT / sheet)])
    return make


@pytest.fixture(scope="session")
def synthetic_index(synthetic_cards):
    return CardIndex(synthetic_cards)


@pytest.fixture(scope="session")
def bundled():
    from deckcheck.db.store import bundled_cards
    return bundled_cards()


@pytest.fixture(scope="session")
def bundled_index(bundled):
    from deckcheck.library.api import bundled_sets
    return CardIndex(bundled, sets=bundled_sets())


@contextmanager
def another_program_writing(db: Path) -> Iterator[None]:
    """Another process holding SQLite's exclusive lock on the file `db` (a long import elsewhere) while the block
    runs; it is killed when the block ends."""
    holder = subprocess.Popen([sys.executable, "-c", "import sqlite3, sys, time\n"
                               f"con = sqlite3.connect({str(db)!r}, isolation_level=None)\n"
                               "con.execute('begin exclusive'); print('locked', flush=True); time.sleep(60)"],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        yield
    finally:
        holder.kill()
        holder.wait()


def free_port() -> int:
    """A TCP port free on loopback just now, for a server a test starts."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _pg_url() -> str | None:
    url = os.environ.get(PG_ENV)
    if not url and os.environ.get("CI"):
        pytest.fail(f"{PG_ENV} is not set: CI must run the PostgreSQL tests (scripts/postgres.sh sets it)")
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    return _worker_database(url, worker) if url and worker else url


@functools.cache
def _worker_database(url: str, worker: str) -> str:
    """A database of its own on the test server for one pytest-xdist worker (tests empty theirs at will)."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url
    base = make_url(url)
    name = f"{base.database}_{worker}"
    engine = create_engine(base, isolation_level="AUTOCOMMIT")
    with engine.connect() as con:
        if con.execute(text("select 1 from pg_database where datname = :n"), {"n": name}).first() is None:
            con.execute(text(f'create database "{name}"'))
    engine.dispose()
    return base.set(database=name).render_as_string(hide_password=False)


def fresh_pg(url: str) -> str:
    """Empty the PostgreSQL test database (drop deckcheck's tables) and return its URL."""
    from sqlalchemy import create_engine
    from sqlmodel import SQLModel

    from deckcheck.db import models  # noqa: F401
    engine = create_engine(url)
    SQLModel.metadata.drop_all(engine)
    engine.dispose()
    return url


def _pg_or_skip() -> str:
    url = _pg_url()
    if not url:
        pytest.skip(f"{PG_ENV} not set (scripts/test.sh starts a PostgreSQL server and sets it)")
    return url


@functools.cache
def _pg_admin(url: str) -> Any:
    """An AUTOCOMMIT engine on the server's first test database (never on a database it copies or drops)."""
    from sqlalchemy import create_engine
    from sqlalchemy.engine import make_url
    return create_engine(make_url(url).set(database=make_url(os.environ[PG_ENV]).database),
                         isolation_level="AUTOCOMMIT")


_PG_COPIES = itertools.count(1)


@functools.cache
def _pg_seeded(url: str) -> str:
    """The name of a database holding what a first use of a new database puts in it (the tables and the bundled
    cards), built once per session and pytest-xdist worker: the template of the tests' databases. Built anew each
    session (the schema or the bundled cards may have changed); nothing stays connected to it (PostgreSQL copies
    only a database nobody is connected to)."""
    from sqlalchemy import text
    from sqlalchemy.engine import make_url

    from deckcheck.db.store import Store
    base = make_url(url)
    name = f"{base.database}_seeded"
    with _pg_admin(url).connect() as con:
        con.execute(text(f'drop database if exists "{name}" with (force)'))
        con.execute(text(f'create database "{name}"'))
    store = Store(base.set(database=name).render_as_string(hide_password=False))
    store.count()
    store.dispose()
    return name


@contextmanager
def _pg_database(template: str | None) -> Iterator[str]:
    """The URL of a new database of the test server (a copy of `template`, or empty), dropped when the block ends
    (with the connections a test left open)."""
    from sqlalchemy import text
    from sqlalchemy.engine import make_url
    url = _pg_or_skip()
    base = make_url(url)
    name = f"{base.database}_{next(_PG_COPIES)}"
    admin = _pg_admin(url)
    with admin.connect() as con:
        con.execute(text(f'drop database if exists "{name}" with (force)'))  # left by a run that was killed
        con.execute(text(f'create database "{name}"' + (f' template "{template}"' if template else "")))
    try:
        yield base.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as con:
            con.execute(text(f'drop database "{name}" with (force)'))


def _seeded_copy(kind: str, pristine: str, folder: Path, name: str = "deckcheck.db") -> Iterator[str]:
    """A database of this kind as a first use of a new one leaves it (the tables and the bundled cards), copied
    from one built once per session: SQLite a new file (a new inode, so that deckcheck.db.indexcache, which keys
    its cache by the file's path and stamps it with the file's identity and header, never takes the copy for
    another database), PostgreSQL a new database made from a template (CREATE DATABASE ... TEMPLATE, 0.03 s where
    loading the bundled cards takes 0.7 s)."""
    if kind == "sqlite":
        shutil.copyfile(pristine.removeprefix("sqlite:///"), folder / name)
        yield f"sqlite:///{folder / name}"
        return
    with _pg_database(_pg_seeded(_pg_or_skip())) as url:
        yield url


@pytest.fixture(scope="session")
def seeded_sqlite(tmp_path_factory) -> str:
    """A SQLite database as deckcheck's first use of a new one leaves it (the tables and the bundled cards) that no
    test opens (a reader could leave a journal, a server a write): db_url and filled_db_url copy it."""
    from deckcheck.db.store import Store
    url = f"sqlite:///{tmp_path_factory.mktemp('seeded') / 'seeded.db'}"
    store = Store(url)
    store.count()
    store.dispose()
    return url


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, seeded_sqlite, tmp_path) -> Iterator[str]:
    """A new database of each kind, as deckcheck's first use of a new one leaves it: the tables and the bundled
    cards, nothing else (the PostgreSQL one needs DECKCHECK_TEST_PG). A test of that first use, of an older schema,
    of an empty database or of a file that is not there yet takes empty_db_url."""
    yield from _seeded_copy(request.param, seeded_sqlite, tmp_path)


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_db_url(request, tmp_path) -> Iterator[str]:
    """A new, empty database of each kind: SQLite a file that does not exist yet, PostgreSQL a database without
    tables (needs DECKCHECK_TEST_PG)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'deckcheck.db'}"
        return
    with _pg_database(None) as url:
        yield url


@pytest.fixture
def sqlite_url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'deckcheck.db'}"


@pytest.fixture(scope="session")
def shared_db(tmp_path_factory) -> str:
    """One initialised SQLite database for read-only CLI tests."""
    from deckcheck.db.store import Store
    url = f"sqlite:///{tmp_path_factory.mktemp('db') / 'shared.db'}"
    Store(url).count()
    return url


@pytest.fixture
def cli_env(shared_db, monkeypatch):
    """Environment for running the CLI against the shared database."""
    monkeypatch.setenv("DECKCHECK_DB", shared_db)
    monkeypatch.setenv("COLUMNS", "120")
    return shared_db


# -- collections (test_collection*.py) -------------------------------------------------------------
COLLECTION_HEADER = "card,set,quantity,condition,language,foil,trade_quantity,want_quantity,location,notes\n"


@pytest.fixture
def collection_app(db_url):
    """Collections and saved decks on a new database of each kind."""
    from deckcheck.library.api import CollectionApp
    return CollectionApp(db_url)


def together(calls) -> list:
    """Run the calls at the same moment (one thread each); their results in order."""
    import threading
    start = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(i, call):
        start.wait()
        results[i] = call()
    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(180)
    return results


def sheet(tmp_path: Path, text: str, name: str = "c.csv") -> Path:
    """A collection sheet (or any small file) written in the test's folder."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def totals(collection_app, name: str = "main") -> list[tuple]:
    """Every entry of a collection as a comparable tuple: card, condition, language, foil, counts, notes, price."""
    return sorted((h.card.id, h.condition, h.language, h.foil, h.quantity, h.trade_quantity, h.want_quantity,
                   h.location, h.notes, h.price) for h in collection_app.collections.holdings(name))


# -- the tournament desk (db/test_desk_library.py, web/test_desk.py) -------------------------------------
EXAMPLE_DECKS = ROOT / "examples" / "decks"
LEGAL = (EXAMPLE_DECKS / "type1e-connor-legal.txt").read_text()
ILLEGAL = (EXAMPLE_DECKS / "type1e-kurgan-illegal.txt").read_text()
TYPO = (EXAMPLE_DECKS / "type1e-typo.txt").read_text()


# -- the web app -----------------------------------------------------------------------------------

@pytest.fixture(scope="session")
def web_db(tmp_path_factory) -> str:
    """One initialised SQLite database for the web tests that only read cards (and save decks)."""
    from deckcheck.db.store import Store
    url = f"sqlite:///{tmp_path_factory.mktemp('web') / 'web.db'}"
    Store(url).count()
    return url


@pytest.fixture(scope="session")
def pristine_web_db(tmp_path_factory) -> str:
    """An initialised SQLite database that no test writes: copy it where a test pins what pages or answers say
    (web_db is shared by tests that save decks and fill in card facts, in an order pytest-randomly picks)."""
    from deckcheck.db.store import Store
    url = f"sqlite:///{tmp_path_factory.mktemp('pristine') / 'p.db'}"
    Store(url).count()
    return url


@pytest.fixture(params=["sqlite", "postgresql"])
def filled_db_url(request, seeded_sqlite, tmp_path) -> Iterator[str]:
    """A database holding the bundled cards and nothing else, of each kind (a copy of one filled once)."""
    yield from _seeded_copy(request.param, seeded_sqlite, tmp_path, "filled.db")


@pytest.fixture(scope="session")
def app(web_db):
    from deckcheck.web import create_app
    return create_app(db_url=web_db, upload_limit=64 * 1024)


@pytest.fixture()
def client(app):
    from fastapi.testclient import TestClient
    with TestClient(app) as c:
        yield c


@pytest.fixture()
def csrf(client) -> str:
    """The CSRF token the client's cookie holds (after fetching a page)."""
    from deckcheck.web.security import CSRF_COOKIE
    client.get("/")
    return client.cookies[CSRF_COOKIE]


_NAMESPACE: dict[str, str] = {}


def _namespace_problem() -> str:
    """'' when this machine lets us mount a private tmpfs (user + mount namespace), else why not."""
    if "why" not in _NAMESPACE:
        import shutil
        import subprocess
        if shutil.which("unshare") is None:
            _NAMESPACE["why"] = "unshare (util-linux) is not installed"
        else:
            r = subprocess.run(["unshare", "-rm", "--propagation", "private", "sh", "-c",
                                "mount -t tmpfs -o size=16k tmpfs /mnt"], capture_output=True, text=True)
            _NAMESPACE["why"] = "" if r.returncode == 0 else f"cannot mount a private tmpfs: {r.stderr.strip()}"
    return _NAMESPACE["why"]


@pytest.fixture
def small_fs(tmp_path):
    """Run a Python script where the folder $FS is a tiny file system of its own: a full disk, or read-only.

    The script runs in a private user and mount namespace (util-linux `unshare`), so this works
    for root (who ignores file permissions) and for other users alike, and nothing leaks out.
    Returns a function (script, size, then) -> CompletedProcess; `then` is shell run after the
    script, e.g. `mount -o remount,ro "$FS"` is done by passing readonly=True.
    """
    import subprocess
    import sys
    why = _namespace_problem()
    if why:
        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)
    mount_point = tmp_path / "fs"
    mount_point.mkdir()

    def run(setup: str, script: str, size: str = "256k", readonly: bool = False) -> subprocess.CompletedProcess:
        (tmp_path / "setup.py").write_text(setup, encoding="utf-8")
        (tmp_path / "script.py").write_text(script, encoding="utf-8")
        shell = (f'mount -t tmpfs -o size={size} tmpfs "$FS"\n"$PY" "$DIR/setup.py"\n'
                 + ('mount -o remount,ro "$FS"\n' if readonly else "") + '"$PY" "$DIR/script.py"\n')
        return subprocess.run(["unshare", "-rm", "--propagation", "private", "sh", "-euc", shell],
                              env=dict(os.environ, FS=str(mount_point), PY=sys.executable, DIR=str(tmp_path)),
                              capture_output=True, text=True, timeout=120)
    return run


def _emptied_pg() -> str:
    url = _pg_url()
    if not url:
        pytest.skip(f"{PG_ENV} not set (scripts/test.sh starts a PostgreSQL server and sets it)")
    return fresh_pg(url)


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def module_db_url(request, tmp_path_factory) -> str:
    """A new, empty database of each kind shared by one test module (its tests make rows of their own)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path_factory.mktemp('module-db') / 'deckcheck.db'}"
    return _emptied_pg()


@pytest.fixture(scope="module")
def module_pg_url() -> str:
    """The PostgreSQL test database, emptied once for one test module (skipped without DECKCHECK_TEST_PG)."""
    return _emptied_pg()


# -- a crash in the middle of a write (db/test_safety.py, test_permissions.py) ------------------------
# `python -c CRASH FILE delete|wal`: a writer killed halfway through a transaction larger than its page
# cache, so that the file already holds some of it and the journal (or the log) is hot.
CRASH = """
import os, sqlite3, sys
con = sqlite3.connect(sys.argv[1], isolation_level=None)
if sys.argv[2] == "wal":
    con.execute("pragma journal_mode=wal")
con.execute("pragma cache_size=2")  # pages spill into the file before the commit: the journal must undo them
con.execute("begin immediate")
con.execute("update collection_entry set quantity = quantity + 100")
for i in range(3000):
    con.execute("insert into deckcheck_meta (key, value) values (?, ?)", (f"half-{i}", "x" * 500))
os._exit(9)  # killed in the middle of the write: nothing cleaned up
"""


@pytest.fixture(scope="module")
def browser():
    """Debian's chromium ($DECKCHECK_CHROMIUM), headless, driven by Playwright (its own browser download cannot
    work here); in CI a missing browser fails the run, elsewhere the browser tests are skipped."""
    import shutil
    chromium = os.environ.get("DECKCHECK_CHROMIUM", "/usr/bin/chromium")
    if not (Path(chromium).exists() or shutil.which(chromium)):
        if os.environ.get("CI"):
            pytest.fail(f"no chromium at {chromium}: scripts/test.sh installs Debian's chromium package")
        pytest.skip(f"no chromium at {chromium} (scripts/test.sh installs it)")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, args=[
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--no-first-run"])
        yield b
        b.close()


@pytest.fixture()
def card_reads(monkeypatch) -> list[str | None]:
    """Every read of the stored cards (Store.cards) from now on, by the game asked for (None: every game's)."""
    from deckcheck.db.store import Store
    reads: list[str | None] = []
    real = Store.cards

    def counted(self, game=None):
        reads.append(game)
        return real(self, game)

    monkeypatch.setattr(Store, "cards", counted)
    return reads


def one_window():
    """A deckcheck.rates.Windows counting every request at one moment: requests that straddle a fixed window's end
    are counted in two windows and let through, so a test of a limit would pass or fail with the clock."""
    from deckcheck.rates import Windows

    class OneWindow(Windows):
        def hit(self, kind, address, rate, now=None):
            return super().hit(kind, address, rate, 1_000_000.0)

    return OneWindow()
