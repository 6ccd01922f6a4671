"""`deckcheck serve`: a real server process (uvicorn), its workers replaced when one dies, and lazy imports."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from conftest import free_port

ROOT = Path(__file__).resolve().parents[2]
EXE = str(Path(sys.executable).with_name("deckcheck"))
WEB_MODULES = {"fastapi", "starlette", "uvicorn", "jinja2", "multipart", "python_multipart"}
# of deckcheck.web, the CLI may load the package (its create_app is imported on first use) and `serve`'s settings
WEB_CLI_MAY_LOAD = ("deckcheck.web", "deckcheck.web.settings", "deckcheck.web.hosts")



def wait_healthy(url: str, proc: subprocess.Popen, seconds: float = 60) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise AssertionError(f"serve exited: {proc.stderr.read() if proc.stderr else ''}")
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=2) as r:
                if json.load(r) == {"status": "ok"}:
                    return
        except OSError:
            time.sleep(0.2)
    raise AssertionError("the server did not answer /healthz")


def children(pid: int) -> set[int]:
    """The worker processes of a uvicorn supervisor."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid and b"resource_tracker" not in \
                    (entry / "cmdline").read_bytes():  # multiprocessing's helper is not a worker
                found.add(int(entry.name))
    return found


def post_check(url: str, text: str) -> dict:
    req = urllib.request.Request(url + "/api/check", data=json.dumps({"decklist": text}).encode(),
                                 headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.load(r)


def test_serve_with_two_workers_replaces_a_worker_that_dies(web_db):
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen([EXE, "serve", "--port", str(port), "--workers", "2", "--db", web_db],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        wait_healthy(url, proc)
        text = (ROOT / "examples/decks/type1e-kurgan-illegal.txt").read_text()
        assert post_check(url, text)["legal"] is False
        if web_db.startswith("sqlite:///"):  # the file stays in SQLite's default journal: a user who may only
            import sqlite3                     # read it could not open it in write-ahead-log mode
            with sqlite3.connect(web_db.removeprefix("sqlite:///")) as con:
                assert con.execute("pragma journal_mode").fetchone()[0] == "delete"
        end = time.monotonic() + 30
        while len(workers := children(proc.pid)) < 2 and time.monotonic() < end:
            time.sleep(0.2)
        assert len(workers) == 2, workers
        victim = min(workers)
        os.kill(victim, signal.SIGKILL)
        end = time.monotonic() + 30
        while time.monotonic() < end:
            now = children(proc.pid)
            if len(now) == 2 and victim not in now:
                break
            time.sleep(0.2)
        assert len(now) == 2 and victim not in now, now
        for _ in range(4):  # both workers answer
            assert post_check(url, text)["legal"] is False
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_check_and_the_cli_do_not_import_the_web_stack(web_db):
    code = ("import sys, deckcheck.cli.entry as cli, deckcheck.cli.commands\n"
            f"cli.fast_path(['check', 'examples/decks/type1e-connor-legal.txt', '--db', {web_db!r}])\n"
            f"print(sorted(m for m in sys.modules if m.split('.')[0] in {WEB_MODULES!r}\n"
            f"             or m.startswith('deckcheck.web') and m not in {WEB_CLI_MAY_LOAD!r}))")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1] == "[]"


def test_serve_is_in_the_help():
    r = subprocess.run([EXE, "serve", "--help"], capture_output=True, text=True, env=dict(os.environ, COLUMNS="120"))
    assert r.returncode == 0
    for option in ("--host", "--port", "--workers", "--db", "--admin-token", "--upload-limit"):
        assert option in r.stdout
