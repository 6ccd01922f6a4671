"""Files and folders that cannot be read (permission denied): a clear error, and an unreadable subfolder is a row.

Tests usually run as root, whom chmod does not stop: then the command runs as user `nobody`
(setpriv), so the denial is the kernel's, not a simulation. As any other user, chmod is enough.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXE = str(Path(sys.executable).with_name("deckcheck"))
NOBODY = 65534
DECK = (ROOT / "examples" / "decks" / "type1e-connor-legal.txt").read_text()


def _as_other_user() -> list[str]:
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root, whom chmod does not stop, and setpriv (util-linux) is missing to drop root")
    prefix = [setpriv, f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
    probe = subprocess.run(prefix + [EXE, "--version"], capture_output=True, text=True)
    if probe.returncode != 0:  # e.g. a checkout inside a folder only root may enter (mktemp -d makes 0700)
        pytest.skip(f"user nobody cannot run {EXE}: {probe.stderr.strip()[:200]}")
    return prefix


@pytest.fixture
def place(shared_db):
    """A world-readable folder with a copy of the card database, removed afterwards."""
    prefix = _as_other_user()
    d = Path(tempfile.mkdtemp(prefix="deckcheck-perm-"))
    d.chmod(0o777)
    db = d / "cards.db"
    shutil.copy(shared_db.removeprefix("sqlite:///"), db)
    db.chmod(0o666)
    (d / "good.txt").write_text(DECK)
    (d / "secret.txt").write_text(DECK)
    (d / "secret.txt").chmod(0)
    (d / "decks" / "sub").mkdir(parents=True)
    (d / "decks" / "a.txt").write_text(DECK)
    (d / "decks" / "sub" / "b.txt").write_text(DECK)
    (d / "decks" / "sub").chmod(0)
    (d / "locked").mkdir()
    (d / "locked" / "c.txt").write_text(DECK)
    (d / "locked").chmod(0)
    (d / "deal.txt").write_text("Anna: AS, 10H, QC\n")
    (d / "deal.txt").chmod(0)
    (d / "cards.csv").write_text("name\nSome Card\n")
    (d / "cards.csv").chmod(0)

    def run(*args: str) -> subprocess.CompletedProcess:
        env = dict(os.environ, DECKCHECK_DB=f"sqlite:///{db}", HOME=str(d), COLUMNS="120")
        return subprocess.run(prefix + [EXE, *args], capture_output=True, text=True, cwd=d, env=env, timeout=120)
    yield d, run
    for p in [d / "decks" / "sub", d / "locked"]:
        p.chmod(0o755)
    shutil.rmtree(d)


def test_unreadable_file_is_an_input_error(place):
    d, run = place
    r = run("check", "good.txt", "secret.txt", "--json")
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    good, secret = (json.loads(line) for line in r.stdout.splitlines())
    assert good["legal"] is True
    assert secret["legal"] is None and "permission denied" in secret["input_errors"][0]["message"]


def test_unreadable_subfolder_is_reported_not_skipped(place):
    d, run = place
    r = run("tournament", "check", "decks", "--json")
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    assert [(Path(row["source"]).name, row["legal"]) for row in rows] == [("a.txt", True), ("sub", None)]
    assert "folder cannot be read" in rows[1]["input_errors"][0]["message"]


def test_unreadable_folder_named_directly(place):
    d, run = place
    r = run("check", "locked", "--json")
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    (row,) = [json.loads(line) for line in r.stdout.splitlines()]
    assert row["deck"] == "locked" and "Permission denied" in row["input_errors"][0]["message"]


@pytest.mark.parametrize("args", [("taktik", "deal", "deal.txt"), ("cards", "import", "cards.csv", "--dry-run"),
                                  ("check", "good.txt", "--cards", "cards.csv")])
def test_other_readers_say_permission_denied(place, args):
    d, run = place
    r = run(*args)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    name = next(a for a in args if a.startswith(("deal", "cards.")))
    said = " ".join(r.stderr.split())  # typer checks its Path arguments itself: "path 'x' is not readable"
    assert ("permission denied" in said or "is not readable" in said) and name in said


def test_serve_runs_on_a_database_it_may_only_read(place):
    """`serve` on a file the server may only read serves checks and card pages (they need no writing) rather
    than refusing to start, and leaves the file as it was."""
    import time
    import urllib.request

    from conftest import free_port
    d, _run = place
    (d / "cards.db").chmod(0o444)
    port = free_port()
    env = dict(os.environ, DECKCHECK_DB=f"sqlite:///{d / 'cards.db'}", HOME=str(d))
    proc = subprocess.Popen(_as_other_user() + [EXE, "serve", "--port", str(port)], cwd=d, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            try:
                urllib.request.urlopen(base + "/healthz", timeout=2).close()
                break
            except OSError:
                time.sleep(0.2)
        request = urllib.request.Request(base + "/api/check", data=json.dumps({"decklist": DECK}).encode(),
                                         headers={"content-type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as r:
            assert json.load(r)["legal"] is True
    finally:
        proc.terminate()
        proc.wait(30)
    assert (d / "cards.db").stat().st_mode & 0o777 == 0o444 and not (d / "cards.db-wal").exists()


def test_a_crash_journal_beside_a_file_it_may_only_read_is_named(place):
    """A hot journal needs writing to be replayed: on a file deckcheck may only read it says so and names the
    journal, changing nothing; whoever may write the file replays it by running any command."""
    import hashlib

    from conftest import CRASH
    d, run = place
    db = d / "cards.db"
    subprocess.run([sys.executable, "-c", CRASH, str(db), "delete"], check=False)
    journal = d / "cards.db-journal"
    assert journal.exists()
    db.chmod(0o444)
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    r = run("collection", "list")
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert "read-only" in r.stderr and "'cards.db-journal'" in r.stderr, r.stderr
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before and journal.exists()
    db.chmod(0o666)
    owner = subprocess.run([EXE, "collection", "list", "--db", str(db)], capture_output=True, text=True, cwd=d,
                           env=dict(os.environ, HOME=str(d)))
    assert owner.returncode == 0, owner.stderr
    assert not journal.exists()


@pytest.mark.parametrize("args", [("cards", "import", "sheet.csv", "--dry-run"),
                                  ("collection", "import", "binder.csv", "--dry-run")])
def test_a_dry_run_on_a_database_it_may_only_read(place, args):
    """A dry run only reads: it takes no write lock, so it works on a file the user may only read."""
    d, run = place
    shutil.copy(ROOT / "examples" / "cards" / "my-2e-cards.csv", d / "sheet.csv")
    shutil.copy(ROOT / "examples" / "collection" / "my-binder.csv", d / "binder.csv")
    (d / "cards.db").chmod(0o444)
    r = run(*args)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
