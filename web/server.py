"""Running the web app with uvicorn: one process, or several workers (each builds its app from the environment)."""
from __future__ import annotations

import os
import sys

from .app import create_app
from .settings import Settings


def app_from_env():
    """The app a uvicorn worker serves, set up from the environment that `serve` wrote (Settings.as_env)."""
    return create_app(Settings.from_env())


def serve(settings: Settings) -> None:
    """Set the database up (once, before any worker starts), then serve until interrupted."""
    import uvicorn

    from deckcheck.db.store import Store, log

    store = Store(settings.db_url)
    if store.init():
        log.info("created the database %s with the bundled cards", store.where())
    store.dispose()
    settings = settings.model_copy(update={"db_url": store.url})
    for name, value in settings.as_env().items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    sys.stderr.write(f"deckcheck: serving {store.url} on http://{settings.host}:{settings.port} with "
                     f"{settings.workers} worker(s); cards are "
                     f"{'editable with the admin token' if settings.admin_token else 'read-only'}\n")
    uvicorn.run("deckcheck.web.server:app_from_env", factory=True, host=settings.host, port=settings.port,
                workers=settings.workers, log_level="warning", proxy_headers=False, server_header=False,
                timeout_graceful_shutdown=5)
