"""The card name indexes of a SQLite database, kept between runs: built once per database version.

`deckcheck check` runs once per deck from scripts; reading 1,500 cards and building their name index took
longer than checking the deck. Each SQLite database gets one cache file in the user's cache folder holding
its indexes (deckcheck.catalog.CardIndex, pickled) under a stamp of the database's version:

- SQLite's own file change counter (the header's bytes 24-27), which every committed write increments, with
  the file's identity (inode, size, times): any write to the database, by deckcheck or anything else, makes
  the stamp differ, and the cache is not used;
- the code that built the index (size and time of this package's files and bundled card sheets): a new
  deckcheck builds anew.

With the indexes the cache keeps the database's meta (its bundle's version), so that a run served from the
cache still says, as reading the cards does, when the database holds another version's bundled cards.

A database in write-ahead-log mode (whose header counter does not move) or on a server has no stamp and no
cache. The cache is written only when the stamp was the same before and after the cards were read, into a
folder only the user can read (0700), by an atomic rename; an unreadable or foreign cache file is ignored.
At most MAX_FILES databases keep a cache (the least recently used are removed). DECKCHECK_CACHE_DIR names
another folder; DECKCHECK_CACHE_DIR=off keeps no cache.
"""
from __future__ import annotations

import os
import pickle
import zlib
from functools import lru_cache
from pathlib import Path
from typing import Any

from deckcheck import version

from .engine import read_head, sqlite_path

CACHE_ENV = "DECKCHECK_CACHE_DIR"
MAX_FILES = 16
_FORMAT = 1  # the cache file's own layout


def database_stamp(url: str) -> str | None:
    """The version of a SQLite database file as its header and the file system tell it; None when it has none
    to trust (not SQLite, no such file, write-ahead-log mode, unreadable)."""
    path = sqlite_path(url)
    if path is None:
        return None
    try:
        head, st = read_head(path)  # never open()/close() the database: that would drop this process's SQLite locks
    except OSError:
        return None
    if len(head) < 100 or not head.startswith(b"SQLite format 3\x00") or head[18] != 1 or head[19] != 1:
        return None  # not SQLite, or in WAL mode (versions 2): its counter does not count commits
    counter = int.from_bytes(head[24:28], "big")
    return f"{st.st_dev}:{st.st_ino}:{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}:{counter}"


@lru_cache(maxsize=1)
def code_stamp() -> str:
    """The code that builds indexes and the bundled data it compares with: every module of the package and the
    bundled card sheets, by name, size and time."""
    roots = [Path(version.__file__).parent, Path(__file__).parent]
    parts = []
    for root in roots:
        for path in sorted([*root.rglob("*.py"), *root.glob("data/*.csv")]):
            try:
                st = path.stat()
            except OSError:
                continue
            parts.append(f"{path}:{st.st_size}:{st.st_mtime_ns}")
    return "\n".join(parts)


def cache_dir() -> Path | None:
    """The folder of the cache files; None when caching is off."""
    chosen = os.environ.get(CACHE_ENV, "")
    if chosen.lower() == "off":
        return None
    if chosen:
        return Path(chosen)
    from platformdirs import user_cache_dir
    return Path(user_cache_dir("deckcheck", appauthor=False)) / "indexes"


def _file_of(url: str) -> Path | None:
    folder = cache_dir()
    path = sqlite_path(url)
    if folder is None or path is None:
        return None
    where = str(path.resolve()).encode("utf-8", "surrogateescape")
    # a name of the database's path (two paths sharing one name only take turns: the key inside tells them apart)
    return folder / f"{zlib.crc32(where):08x}{zlib.adler32(where):08x}.index"


def load(url: str, stamp: str) -> dict[str, Any]:
    """The indexes kept for this database at this stamp ({} when none are)."""
    file = _file_of(url)
    if file is None:
        return {}
    try:
        with open(file, "rb") as f:
            if os.fstat(f.fileno()).st_uid != os.getuid():  # only a file this user wrote is unpickled
                return {}
            kept = pickle.load(f)
    except Exception:  # absent, unreadable, from another version of Python or deckcheck: built anew
        return {}
    if not isinstance(kept, dict) or kept.get("key") != (_FORMAT, stamp, code_stamp()):
        return {}
    indexes = kept.get("indexes")
    return indexes if isinstance(indexes, dict) else {}


def save(url: str, stamp: str, indexes: dict[str, Any]) -> None:
    """Keep these indexes for this database at this stamp (replacing what was kept); never fails a command."""
    file = _file_of(url)
    if file is None:
        return
    import tempfile  # only when an index is kept (the first check after a change), not on every check
    try:
        file.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        data = pickle.dumps({"key": (_FORMAT, stamp, code_stamp()), "indexes": indexes},
                            protocol=pickle.HIGHEST_PROTOCOL)
        fd, tmp = tempfile.mkstemp(dir=file.parent, prefix=".index-")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, file)
        except BaseException:
            os.unlink(tmp)
            raise
        _evict(file.parent)
    except Exception:  # a read-only home, a full disk: the next run builds the index again
        return


def _evict(folder: Path) -> None:
    files = sorted(folder.glob("*.index"), key=lambda p: p.stat().st_mtime, reverse=True)
    for old in files[MAX_FILES:]:
        old.unlink(missing_ok=True)
