"""Which database to use (CONTRACTS.md §5), and a light check whether it is ready, without SQLAlchemy."""
from __future__ import annotations

import os
import sqlite3
from pathlib import Path

ENV = "DECKCHECK_DB"
BUNDLED_DIR = Path(__file__).resolve().parent / "data"
BUNDLED_SHEETS = ("highlander-1e.csv", "highlander-2e.csv")


def default_path() -> Path:
    """The SQLite file in the user's data directory."""
    from platformdirs import user_data_dir
    return Path(user_data_dir("deckcheck", appauthor=False)) / "deckcheck.db"


def resolve_url(option: str | None = None) -> str:
    """--db, else $DECKCHECK_DB, else the default SQLite file. A bare path means a SQLite file."""
    url = option or os.environ.get(ENV) or ""
    if not url:
        return f"sqlite:///{default_path()}"
    if "://" not in url:
        return f"sqlite:///{Path(url).expanduser().resolve()}"
    for plain in ("postgresql://", "postgres://"):  # the driver deckcheck installs is psycopg 3
        if url.startswith(plain):
            return "postgresql+psycopg://" + url[len(plain):]
    return url


def sqlite_path(url: str) -> Path | None:
    """The file of a sqlite:/// URL, or None for another database (or an in-memory one)."""
    for prefix in ("sqlite:///", "sqlite+pysqlite:///"):
        if url.startswith(prefix):
            rest = url[len(prefix):].split("?")[0]
            return None if rest in ("", ":memory:") else Path(rest)
    return None


def ready_sqlite(url: str) -> sqlite3.Connection | None:
    """An open sqlite3 connection when the URL names an initialised SQLite file; else None."""
    path = sqlite_path(url)
    if path is None or not path.exists():
        return None
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        found = con.execute("select value from deckcheck_meta where key = 'initialized'").fetchone()
    except sqlite3.Error:
        found = None
    if found is None:
        con.close()
        return None
    return con
