"""Running the web app with uvicorn: one process, or several workers (each builds its app from the environment)."""
from __future__ import annotations

import os
import sys

from .app import ADMIN_TOKEN_ENV, DEFAULT_UPLOAD_LIMIT, create_app

DB_ENV = "DECKCHECK_DB"
UPLOAD_LIMIT_ENV = "DECKCHECK_UPLOAD_LIMIT"


def app_from_env():
    """The app a uvicorn worker serves, set up from the environment that `serve` wrote."""
    return create_app(db_url=os.environ.get(DB_ENV) or None, admin_token=os.environ.get(ADMIN_TOKEN_ENV) or None,
                      upload_limit=int(os.environ.get(UPLOAD_LIMIT_ENV) or DEFAULT_UPLOAD_LIMIT))


def serve(host: str = "127.0.0.1", port: int = 8000, workers: int = 1, db_url: str | None = None,
          admin_token: str | None = None, upload_limit: int = DEFAULT_UPLOAD_LIMIT) -> None:
    """Set the database up (once, before any worker starts), then serve until interrupted."""
    import uvicorn

    from deckcheck.db.store import Store, log

    from .desk import configured_rate_limit
    configured_rate_limit()  # a bad $DECKCHECK_DESK_RATE stops here (exit 2), not in every desk request
    store = Store(db_url)
    if store.init():
        log.info("created the database %s with the bundled cards", store.where())
    store.dispose()
    os.environ[DB_ENV] = store.url
    os.environ[UPLOAD_LIMIT_ENV] = str(upload_limit)
    if admin_token:
        os.environ[ADMIN_TOKEN_ENV] = admin_token
    else:
        os.environ.pop(ADMIN_TOKEN_ENV, None)
    sys.stderr.write(f"deckcheck: serving {store.url} on http://{host}:{port} with {workers} worker(s); "
                     f"cards are {'editable with the admin token' if admin_token else 'read-only'}\n")
    uvicorn.run("deckcheck.web.server:app_from_env", factory=True, host=host, port=port, workers=workers,
                log_level="warning", proxy_headers=False, server_header=False, timeout_graceful_shutdown=5)
