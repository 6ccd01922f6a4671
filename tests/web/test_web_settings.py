"""The web layer in FastAPI's idiom: one Settings object for `serve`'s flags and environment, dependencies through
`Depends` (swappable with dependency_overrides), one exception handler answering each error type with its status."""
from __future__ import annotations

import inspect

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from deckcheck.web import create_app  # noqa: E402
from deckcheck.web.settings import Settings, SettingsError  # noqa: E402


def test_settings_come_from_flags_then_environment_then_defaults():
    env = {"DECKCHECK_DB": "sqlite:///env.db", "DECKCHECK_UPLOAD_LIMIT": "4096", "DECKCHECK_DESK_RATE": "5/60",
           "DECKCHECK_ADMIN_TOKEN": ""}
    s = Settings.from_env(env, upload_limit=8192, host=None)
    assert (s.db_url, s.upload_limit, s.desk_rate, s.admin_token, s.host, s.port) == \
        ("sqlite:///env.db", 8192, "5/60", None, "127.0.0.1", 8000)
    assert s.rate_limit.count == 5 and s.rate_limit.seconds == 60
    assert Settings.from_env({}) == Settings()


def test_settings_written_for_the_workers_read_back_the_same():
    s = Settings(db_url="sqlite:///x.db", admin_token="tok", upload_limit=5000, desk_rate="0")
    env = {k: v for k, v in s.as_env().items() if v is not None}
    assert Settings.from_env(env) == s.model_copy(update={"host": "127.0.0.1"})
    assert Settings().as_env()["DECKCHECK_ADMIN_TOKEN"] is None  # unset for the workers, never the string "None"


@pytest.mark.parametrize("values, words", [
    ({"desk_rate": "ten"}, ["--desk-rate", "$DECKCHECK_DESK_RATE", "'ten'"]),
    ({"upload_limit": 10}, ["--upload-limit", "$DECKCHECK_UPLOAD_LIMIT", "1024"]),
    ({"workers": 0}, ["--workers"]),
    ({"port": 70000}, ["--port"]),
])
def test_a_bad_setting_is_refused_naming_its_flag_and_variable(values, words):
    with pytest.raises(SettingsError) as caught:
        Settings.make(**values)
    assert all(w in str(caught.value) for w in words), str(caught.value)


def test_every_setting_is_a_serve_option_and_every_serve_option_a_setting():
    """One declaration: `deckcheck serve`'s options are the Settings fields, by the flag each field names."""
    import typer.main
    from deckcheck.cli.commands import app, serve
    assert list(inspect.signature(serve).parameters) == list(Settings.model_fields)
    command = typer.main.get_command(app).commands["serve"]  # type: ignore[attr-defined]
    flags = {flag for param in command.params for flag in param.opts}
    assert flags == {Settings.flag(f) for f in Settings.model_fields}


def test_the_app_answers_with_its_settings(web_db):
    app = create_app(Settings(db_url=web_db, upload_limit=2048, allowed_hosts="testserver"))
    with TestClient(app) as client:
        r = client.post("/api/check", json={"decklist": "x" * 4000})
        assert r.status_code == 413 and "2 KB" in r.json()["error"]


def test_dependencies_can_be_swapped_as_fastapi_documents(web_db):
    """Routes take the catalogue through Depends: a test (or a plugin) replaces it with dependency_overrides."""
    from deckcheck.web.deps import catalog

    class NoCards:
        def cards(self):
            return []

    app = create_app(db_url=web_db)
    with TestClient(app) as client:
        assert client.get("/api/cards").json()["total"] > 0
        app.dependency_overrides[catalog] = NoCards
        assert client.get("/api/cards").json() == {"total": 0, "cards": []}


def test_each_error_type_answers_with_its_status():
    from deckcheck import desk
    from deckcheck.db.collections import NoSuchImport, UndoRefused
    from deckcheck.errors import DatabaseError, DeckcheckError, DecklistError
    from deckcheck.library.statsapi import NoSavedDeckError
    from deckcheck.web.errors import NoSuchDeck, status_of
    from deckcheck.web.previews import PreviewsTooLarge, TooManyPreviews
    expected = {desk.DeskError("x"): 400, desk.EventNotFound("x"): 404, desk.EventClosed("x"): 409,
                desk.ListsNotLocked("x"): 409, desk.NotAuthorised("x"): 401, desk.WrongToken("x"): 403,
                desk.RateLimited("x"): 429, desk.TooLarge("x"): 413, NoSavedDeckError("a", "no deck"): 404,
                NoSuchDeck("no deck"): 404, DecklistError("f", "bad"): 400, DeckcheckError("x"): 400,
                DatabaseError("x"): 503, UndoRefused("x"): 409, NoSuchImport("x"): 404,
                TooManyPreviews("x", 5): 429, PreviewsTooLarge("x", 5): 413, ValueError("x"): 500}
    assert {type(e).__name__: status_of(e) for e in expected} == {type(e).__name__: s for e, s in expected.items()}


def subclasses(kind: type[object]) -> list[type[object]]:
    """Every subclass of a class, at any depth."""
    return [sub for direct in kind.__subclasses__() for sub in (direct, *subclasses(direct))]


def test_every_error_type_the_web_can_meet_has_its_status_in_the_one_table_and_carries_none(web_db):
    """Statuses live in web/errors.py only: every DeckcheckError of deckcheck's modules (all loaded once the app is
    built) is a key of ERROR_STATUS, and no exception says its own HTTP status."""
    import inspect

    from deckcheck.errors import DeckcheckError
    from deckcheck.web.errors import ERROR_STATUS
    create_app(db_url=web_db)
    kinds = sorted({k for k in subclasses(DeckcheckError) if k.__module__.startswith("deckcheck.")},
                   key=lambda k: (k.__module__, k.__qualname__))
    assert len(kinds) > 30
    assert [k.__qualname__ for k in kinds if k not in ERROR_STATUS] == []
    own = [c for k in kinds for c in k.__mro__ if c.__module__.startswith("deckcheck.")]
    assert [c.__qualname__ for c in own if "status" in vars(c)] == []  # no class attribute
    assert [c.__qualname__ for c in own if "__init__" in vars(c)  # nor one given when raised
            and "status" in inspect.signature(vars(c)["__init__"]).parameters] == []


def test_one_handler_answers_pages_and_api_alike(web_db):
    """A missing saved deck: 404 JSON on the API, a 404 page for people, neither kept by a cache."""
    with TestClient(create_app(db_url=web_db)) as client:
        api = client.get("/api/decks/AbCdEf12")
        assert api.status_code == 404 and api.json() == {"error": "no saved deck has that id"}
        page = client.get("/decks/AbCdEf12")
        assert page.status_code == 404 and "no saved deck has that link" in page.text
        assert page.headers["content-type"].startswith("text/html")
        for r in (api, page, client.get("/api/diff?a=AbCdEf12&b=AbCdEf13")):
            assert r.headers["cache-control"] == "no-store"
        assert client.get("/api/diff?a=AbCdEf12&b=AbCdEf13").status_code == 404


def test_routes_reach_the_app_state_only_through_dependencies():
    """No route module looks into request.app.state: deckcheck.web.deps is the one place."""
    from pathlib import Path

    import deckcheck.web
    folder = Path(deckcheck.web.__file__).parent
    offenders = [p.name for p in folder.glob("*.py") if p.name not in ("deps.py", "app.py")
                 and "app.state" in p.read_text(encoding="utf-8")]
    assert offenders == []


def test_serve_options_are_generated_from_the_settings():
    """`serve`'s flags, types, defaults, help and variables come from the Settings fields, none retyped."""
    from deckcheck.web.settings import serve_options
    options = {o.field: o for o in serve_options()}
    assert list(options) == list(Settings.model_fields)
    defaults = Settings()
    for name, o in options.items():
        assert o.flag == Settings.flag(name) and o.env == Settings.env_names().get(name)
        assert o.help.startswith(str(Settings.model_fields[name].description))
        if o.default is not None:
            assert o.default == getattr(defaults, name) and isinstance(o.default, o.type)
            assert f"default: {o.default:g}" in o.help if o.type is float else f"default: {o.default}" in o.help
        assert o.env is None or f"env var: {o.env}" in o.help
    assert (options["workers"].min, options["upload_limit"].min, options["allowed_hosts"].multiple) == (1, 1024, True)
    assert options["header_timeout"].type is float and options["db_url"].flag == "--db"
