"""Running the web app with uvicorn: one process, or several workers (each builds its app from the environment)."""
from __future__ import annotations

import os
import sys
from pathlib import Path

from fastapi import FastAPI

from .app import create_app
from .hosts import hosts_for_bind
from .settings import Settings


def app_from_env() -> FastAPI:
    """The app a uvicorn worker serves, set up from the environment that `serve` wrote (Settings.as_env)."""
    return create_app(Settings.from_env())


def serve(settings: Settings) -> None:
    """Set the database up (once, before any worker starts), then serve until interrupted.

    The server answers the hosts hosts.hosts_for_bind(settings.host, settings.allowed_hosts) names (DNS
    rebinding), with the connection bounds of deckcheck.web.protocol."""
    import uvicorn

    from deckcheck.db.store import Store, log

    from . import previews
    from .protocol import uvicorn_options
    names = hosts_for_bind(settings.host, [h for h in settings.allowed_hosts.split(",") if h])
    if settings.preview_dir:
        previews.private_folder(settings.preview_dir)  # refused (exit 2) unless private to this user
    raise_file_limit()
    store = Store(settings.db_url)
    if store.init():
        log.info("created the database %s with the bundled cards", store.where())
    store.dispose()
    previews.sweep_stale()  # the preview folders of servers that died, once their previews have expired
    made = None if settings.preview_dir else previews.make_folder()
    settings = settings.model_copy(update={"db_url": store.url, "allowed_hosts": ",".join(names),
                                           "preview_dir": settings.preview_dir or str(made)})
    for name, value in settings.as_env().items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    sys.stderr.write(f"deckcheck: serving {store.url} on http://{settings.host}:{settings.port} with "
                     f"{settings.workers} worker(s); cards are "
                     f"{'editable with the admin token' if settings.admin_token else 'read-only'}; answering the "
                     f"hosts {', '.join(names)}\n")
    try:
        uvicorn.run("deckcheck.web.server:app_from_env", factory=True, host=settings.host, port=settings.port,
                    workers=settings.workers, log_level="warning", proxy_headers=False, server_header=False,
                    timeout_graceful_shutdown=5, **uvicorn_options())
    finally:
        if made is not None:  # the waiting previews go with the server that kept them
            import shutil
            shutil.rmtree(made, ignore_errors=True)
        elif settings.preview_dir:
            previews.sweep(Path(settings.preview_dir))


def raise_file_limit() -> None:
    """Let this process open as many files (connections) as the system allows it, not only the soft limit
    (often 1024): idle connections are closed after the header timeout, and more of them fit meanwhile."""
    try:
        import resource
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        wanted = hard if hard != resource.RLIM_INFINITY else 65536
        if soft != resource.RLIM_INFINITY and soft < wanted:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    except (ImportError, ValueError, OSError):  # not on this system, or not allowed: the soft limit stays
        pass
