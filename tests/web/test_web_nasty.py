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
