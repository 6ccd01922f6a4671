"""The readers' nasty inputs (tests/nasty.py) through /api/check of a real server: never a 500, never a dead worker."""
from __future__ import annotations

import json
import subprocess
import sys
import urllib.error
import urllib.request
import uuid
from pathlib import Path

from nasty import nasty_files
from test_web_serve import children, free_port, wait_healthy

EXE = str(Path(sys.executable).with_name("deckcheck"))


def post_file(url: str, name: str, data: bytes) -> tuple[int, dict]:
    boundary = uuid.uuid4().hex
    body = (f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{name}"\r\n'
            f"Content-Type: application/octet-stream\r\n\r\n").encode() + data + f"\r\n--{boundary}--\r\n".encode()
    req = urllib.request.Request(url + "/api/check", data=body,
                                 headers={"content-type": f"multipart/form-data; boundary={boundary}"})
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as exc:
        return exc.code, json.load(exc)


def test_nasty_files_through_the_api_never_500_and_the_worker_lives(web_db):
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen([EXE, "serve", "--port", str(port), "--workers", "1", "--db", web_db,
                             "--upload-limit", str(8 << 20)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True)
    try:
        wait_healthy(url, proc)
        workers = children(proc.pid)
        answers = {}
        for name, data in nasty_files():
            status, body = post_file(url, name, data)
            answers[name] = status
            assert status in (200, 400, 413), (name, status, body)
            if status == 200:
                assert body["deck"] == name and body["legal"] in (True, False, None), name
            else:
                assert body["error"], name
        assert children(proc.pid) == workers, "a worker died and was replaced"
        wait_healthy(url, proc, seconds=5)
        assert any(s == 200 for s in answers.values())
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_pasted_text_past_a_limit_is_the_report_check_gives(web_db):
    """A pasted decklist past a limit of text decklists: the report `check -` gives (never a 500), on the Check
    page's API (JSON and form), the desk (201, the player sees why), and /api/stats (400 {"error"})."""
    import deckcheck
    from deckcheck.library.desk import RateLimit
    from deckcheck.web import create_app
    from deckcheck.web.deps import rate_limit
    from fastapi.testclient import TestClient
    from nasty import texts_past_limits
    app = create_app(db_url=web_db, upload_limit=16 << 20)  # a form escapes é in 6 bytes: the text limit decides
    app.dependency_overrides[rate_limit] = lambda: RateLimit(0)
    with TestClient(app, raise_server_exceptions=False) as client:
        event = client.post("/api/events", json={"name": "Limits Open", "format": "type1e"}).json()
        for name, (text, words) in texts_past_limits().items():
            expected = deckcheck.check_text(text).as_dict()
            assert expected["input_errors"][0]["message"].startswith(f"-: {words}"), name
            surrogate = "\ud800" in text  # sent as a \u escape, as a JSON client would; NUL always is one
            body = json.dumps({"decklist": text}, ensure_ascii=surrogate).encode()
            as_json = client.post("/api/check", content=body, headers={"content-type": "application/json"})
            assert (as_json.status_code, as_json.json()) == (200, expected), name
            if not surrogate:  # a form field is UTF-8: it cannot carry a lone surrogate
                as_form = client.post("/api/check", data={"decklist": text})
                assert (as_form.status_code, as_form.json()) == (200, expected), name
            stats = client.post("/api/stats", content=body, headers={"content-type": "application/json"})
            assert stats.status_code == 400 and words in stats.json()["error"], name
            submitted = client.post(f"/api/events/{event['id']}/decks", headers={"content-type": "application/json"},
                                    content=json.dumps({"player": name, "decklist": text},
                                                       ensure_ascii=surrogate).encode())
            if name.startswith("too-big"):  # the desk's own limit for a player's deck comes first
                assert submitted.status_code == 413, name
            else:
                assert submitted.status_code == 201, (name, submitted.text)
                got = submitted.json()
                assert got["legal"] is None and words in got["input_errors"][0]["message"], name
