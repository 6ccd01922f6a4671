"""The private folder where uploaded collection sheets wait for their confirmation (the import preview).

Another user of the machine must not read, swap or plant files there, and strangers must not fill the disk:

- the folder is made by `tempfile.mkdtemp` (a fresh random name, mode 0700, created atomically) once per
  `serve` (its workers share it through Settings.preview_dir) and removed when the server stops; a folder
  named with `--preview-dir` is made 0700 if missing, and refused unless it is a real directory (not a
  symlink) owned by the server's user that no one else may enter;
- each sheet is written under a random name with O_CREAT|O_EXCL|O_NOFOLLOW, mode 0600;
- at most MAX_FILES sheets and MAX_BYTES in all wait at once (past them: 429 or 413, saying why); a sheet
  waits EXPIRE_SECONDS at most;
- on start, `serve` sweeps the folders that servers which died left behind, once they are EXPIRE_SECONDS old.
"""
from __future__ import annotations

import os
import secrets
import shutil
import stat
import tempfile
import threading
import time
from pathlib import Path

from deckcheck.errors import DeckcheckError

PREFIX = "deckcheck-previews-"
LEGACY = "deckcheck-pending"    # the shared fixed-name folder of earlier versions
EXPIRE_SECONDS = 3600
MAX_FILES = 200                 # previews waiting at once: a club's busiest evening needs a handful
MAX_BYTES = 256 * 2**20         # in all: 128 sheets at the default 2 MB upload limit
MARK = ".imported"              # empty marks a confirmed preview leaves (web.collection): not counted
SHEET_SUFFIXES = (".csv", ".tsv", ".xlsx", ".xlsm", ".ods")  # the sheets a preview keeps (collections, cards)

FOLDER: Path | None = None      # this process's folder (set by `use`, or made on first use)
_lock = threading.Lock()


class PreviewFolderError(DeckcheckError):
    """The preview folder is not private to the server's user (or cannot be made)."""


class PreviewsFull(DeckcheckError):
    """Too many previews, or too many bytes of them, wait for confirmation; `retry_after`: when the oldest expires."""

    def __init__(self, message: str, retry_after: int):
        super().__init__(message)
        self.retry_after = retry_after


class TooManyPreviews(PreviewsFull):
    """MAX_FILES previews wait already (HTTP 429)."""


class PreviewsTooLarge(PreviewsFull):
    """The previews waiting and this sheet would pass MAX_BYTES (HTTP 413)."""


def make_folder() -> Path:
    """A new private folder in the system's temporary folder (mkdtemp: random name, 0700)."""
    return Path(tempfile.mkdtemp(prefix=PREFIX))


def private_folder(path: str | Path) -> Path:
    """`path` as the preview folder: made (0700) if missing; PreviewFolderError unless it is a directory, not a
    symlink, owned by this user, that no other user may enter."""
    path = Path(path)
    try:
        path.mkdir(mode=0o700)
    except FileExistsError:
        pass
    except OSError as exc:
        raise PreviewFolderError(f"--preview-dir {str(path)!r}: {exc.strerror or exc}") from None
    info = os.lstat(path)
    if stat.S_ISLNK(info.st_mode) or not stat.S_ISDIR(info.st_mode):
        raise PreviewFolderError(f"--preview-dir {str(path)!r} is not a folder (a symlink is refused)")
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        raise PreviewFolderError(f"--preview-dir {str(path)!r} belongs to another user")
    if info.st_mode & 0o077:
        raise PreviewFolderError(f"--preview-dir {str(path)!r} may be read by other users (chmod 700 it)")
    return path


def use(path: str | None) -> None:
    """Keep previews in `path` (checked by private_folder); None: a folder of this process's own, made on first
    use."""
    global FOLDER
    with _lock:
        FOLDER = private_folder(path) if path else FOLDER


def folder() -> Path:
    """The folder previews wait in (made on first use, private)."""
    global FOLDER
    with _lock:
        if FOLDER is None:
            FOLDER = make_folder()
        return FOLDER


def _sheets(where: Path) -> list[os.DirEntry[str]]:
    try:
        return [e for e in os.scandir(where) if not e.name.endswith(MARK) and e.is_file(follow_symlinks=False)]
    except FileNotFoundError:
        return []


def sweep(where: Path, now: float | None = None) -> None:
    """Delete what has waited longer than EXPIRE_SECONDS (sheets and marks)."""
    cutoff = (time.time() if now is None else now) - EXPIRE_SECONDS
    try:
        entries = list(os.scandir(where))
    except FileNotFoundError:
        return
    for entry in entries:
        try:
            if entry.stat(follow_symlinks=False).st_mtime < cutoff:
                os.unlink(entry.path)
        except OSError:
            pass


def keep(data: bytes, suffix: str, prefix: str = "") -> str:
    """Write an uploaded sheet into the folder under a new random token (its file name is prefix + token + suffix:
    a prefix keeps another kind of sheet apart); PreviewsFull when MAX_FILES sheets or MAX_BYTES already wait."""
    where = folder()
    sweep(where)
    sheets = _sheets(where)
    oldest = min((e.stat(follow_symlinks=False).st_mtime for e in sheets), default=time.time())
    wait = max(1, int(oldest + EXPIRE_SECONDS - time.time()) + 1)
    if len(sheets) >= MAX_FILES:
        raise TooManyPreviews(f"{len(sheets)} import previews wait for their confirmation, the most this server "
                              f"keeps; confirm one, or try again in {wait // 60 + 1} min, when the oldest expires",
                              wait)
    held = sum(e.stat(follow_symlinks=False).st_size for e in sheets)
    if held + len(data) > MAX_BYTES:
        raise PreviewsTooLarge(f"the import previews waiting for confirmation hold {held / 2**20:.0f} MB; this "
                               f"sheet ({len(data) / 2**20:.1f} MB) would pass the limit of {MAX_BYTES // 2**20} MB; "
                               "confirm or let them expire first", wait)
    token = secrets.token_urlsafe(32)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(where / f"{prefix}{token}{suffix}", flags, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    return token


def sweep_stale(tmp: str | None = None, now: float | None = None) -> list[Path]:
    """Remove the preview folders of servers that stopped without cleaning up (this user's, untouched for
    EXPIRE_SECONDS), and the sheets of the legacy shared folder; return the folders removed."""
    base = Path(tmp or tempfile.gettempdir())
    cutoff = (time.time() if now is None else now) - EXPIRE_SECONDS
    removed: list[Path] = []
    try:
        entries = [e for e in os.scandir(base) if e.name.startswith(PREFIX) or e.name == LEGACY]
    except OSError:
        return removed
    for entry in entries:
        try:
            info = entry.stat(follow_symlinks=False)
            if not stat.S_ISDIR(info.st_mode) or (hasattr(os, "getuid") and info.st_uid != os.getuid()):
                continue  # someone else's, or a symlink: not ours to touch
            newest = max([info.st_mtime] + [e.stat(follow_symlinks=False).st_mtime for e in os.scandir(entry.path)])
            if newest < cutoff:
                shutil.rmtree(entry.path)
                removed.append(Path(entry.path))
        except OSError:
            pass
    return removed
