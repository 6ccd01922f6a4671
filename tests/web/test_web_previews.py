"""Uploaded collection sheets wait in a private folder (issue 19, item 4): made by mkdtemp, mode 0700, owned by
the server's user, files written without following symlinks, capped in number and bytes, swept on start."""
from __future__ import annotations

import os
import re
import stat
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from deckcheck.web import create_app, previews
from deckcheck.web.security import CSRF_COOKIE

DATA = Path(__file__).resolve().parents[1] / "data"
SHEET = b"card,quantity\nThrust (2),1\n"


@pytest.fixture()
def folder(tmp_path, monkeypatch) -> Path:
    where = previews.private_folder(tmp_path / "previews")
    monkeypatch.setattr(previews, "FOLDER", where)
    return where


@pytest.fixture()
def client(folder, web_db):
    with TestClient(create_app(db_url=web_db)) as c:
        c.get("/")
        yield c


def upload(client, data: bytes = SHEET, name: str = "binder.csv"):
    return client.post("/collection/import", data={"csrf_token": client.cookies[CSRF_COOKIE]},
                       files={"file": (name, data)})


def test_the_default_folder_is_private_and_not_the_shared_fixed_name(monkeypatch):
    monkeypatch.setattr(previews, "FOLDER", None)
    where = previews.folder()
    try:
        info = os.lstat(where)
        assert stat.S_ISDIR(info.st_mode) and stat.S_IMODE(info.st_mode) == 0o700 and info.st_uid == os.getuid()
        assert where.name.startswith(previews.PREFIX) and where.name != previews.LEGACY
        assert previews.folder() == where  # one per process: the preview and its confirmation meet
    finally:
        where.rmdir()


def test_a_sheet_is_kept_private_under_a_random_name(client, folder):
    r = upload(client)
    assert r.status_code == 200
    found = re.search(r'name="token" value="([^"]+)"', r.text)
    assert found is not None
    kept = folder / f"{found.group(1)}.csv"
    assert kept.read_bytes() == SHEET and stat.S_IMODE(kept.stat().st_mode) == 0o600


@pytest.mark.parametrize("make", ["symlink", "other_mode", "file"])
def test_a_folder_that_is_not_private_is_refused(tmp_path, make):
    target = tmp_path / "elsewhere"
    target.mkdir()
    where = tmp_path / "previews"
    if make == "symlink":  # planted by another user: it would lead our sheets where they can read them
        where.symlink_to(target)
    elif make == "other_mode":
        where.mkdir(mode=0o755)
        where.chmod(0o755)
    else:
        where.write_text("x")
    with pytest.raises(previews.PreviewFolderError):
        previews.private_folder(where)


def test_a_planted_symlink_is_not_followed(folder, monkeypatch):
    victim = folder.parent / "victim"
    victim.write_text("keep me")
    monkeypatch.setattr(previews.secrets, "token_urlsafe", lambda n: "planted")
    (folder / "planted.csv").symlink_to(victim)
    with pytest.raises(OSError):
        previews.keep(SHEET, ".csv")
    assert victim.read_text() == "keep me"


def test_previews_are_capped_in_number(client, folder, monkeypatch):
    monkeypatch.setattr(previews, "MAX_FILES", 3)
    assert [upload(client).status_code for _ in range(3)] == [200, 200, 200]
    r = upload(client)
    assert r.status_code == 429 and "previews wait" in r.text and int(r.headers["retry-after"]) > 0
    assert len(list(folder.iterdir())) == 3
    # an expired one makes room again
    old = time.time() - previews.EXPIRE_SECONDS - 10
    first = sorted(folder.iterdir())[0]
    os.utime(first, (old, old))
    assert upload(client).status_code == 200


def test_previews_are_capped_in_bytes(client, folder, monkeypatch):
    monkeypatch.setattr(previews, "MAX_BYTES", 3 * len(SHEET))
    assert [upload(client).status_code for _ in range(3)] == [200, 200, 200]
    r = upload(client)
    assert r.status_code == 413 and "MB" in r.text and "limit" in r.text
    assert len(list(folder.iterdir())) == 3


def test_start_sweeps_the_folders_servers_left_behind(tmp_path):
    old = time.time() - previews.EXPIRE_SECONDS - 60
    stale = tmp_path / f"{previews.PREFIX}dead"
    stale.mkdir(mode=0o700)
    (stale / "x.csv").write_bytes(SHEET)
    os.utime(stale / "x.csv", (old, old))
    os.utime(stale, (old, old))
    live = tmp_path / f"{previews.PREFIX}live"
    live.mkdir(mode=0o700)
    (live / "y.csv").write_bytes(SHEET)  # a running server's: fresh
    legacy = tmp_path / previews.LEGACY
    legacy.mkdir()
    os.utime(legacy, (old, old))
    elsewhere = tmp_path / "target"
    elsewhere.mkdir()
    (tmp_path / f"{previews.PREFIX}link").symlink_to(elsewhere)
    removed = previews.sweep_stale(str(tmp_path))
    assert set(removed) == {stale, legacy}
    assert live.exists() and elsewhere.exists() and (tmp_path / f"{previews.PREFIX}link").is_symlink()
