"""`--help` whole in 80 columns (issue 35): every option's name whole, every default shown, no line wider; `serve`'s
options are the Settings fields' (deckcheck.web.settings), and reading them loads no FastAPI."""
from __future__ import annotations

import re
import subprocess
import sys
from typing import Any

import pytest
import typer.core
import typer.main

from deckcheck.cli.commands import app
from deckcheck.web.settings import serve_options
from inproc import run_cli


def commands() -> dict[str, Any]:
    """Every leaf command (typer's own click) by its words (`cards facts export`)."""
    found: dict[str, Any] = {}

    def walk(cmd: Any, path: tuple[str, ...]) -> None:
        subs = getattr(cmd, "commands", None)
        if subs:
            for name, sub in subs.items():
                walk(sub, path + (name,))
        else:
            found[" ".join(path)] = cmd
    walk(typer.main.get_command(app), ())
    return found


def flags_of(words: str) -> list[str]:
    """The option names of a command (--db, -f, ...)."""
    return [flag for p in commands()[words].params if isinstance(p, typer.core.TyperOption) for flag in p.opts]


def test_the_option_names_are_found():
    assert {"--connections-per-address", "--port", "--db"} <= set(flags_of("serve"))
    assert {"--format", "-f", "--json", "-q"} <= set(flags_of("check"))


def help_text(monkeypatch, words: str) -> str:
    monkeypatch.setenv("COLUMNS", "80")
    r = run_cli(*words.split(), "--help")
    assert r.crash is None and r.code == 0, (words, r.crash, r.err)
    return r.text


@pytest.mark.parametrize("words", sorted(commands()))
def test_help_shows_every_option_whole_in_80_columns(monkeypatch, words):
    text = help_text(monkeypatch, words)
    lines = text.splitlines()
    assert max(map(len, lines)) <= 80 and "…" not in text, text
    for flag in flags_of(words):
        assert any(f" {flag} " in f" {line} " or f" {flag}," in f" {line}" for line in lines), (flag, text)
    # a help text's "[default: ...]" read as markup left "Port to listen on ." and empty brackets
    assert not re.search(r"\w \.(\s|$)", text) and "[]" not in text, text


def test_serve_help_shows_each_settings_default_and_variable(monkeypatch):
    shown = " ".join(help_text(monkeypatch, "serve").split())  # click wraps the help at spaces
    for option in serve_options():
        assert f"{option.flag} <" in shown or (option.flag in shown and option.type is bool), option.flag
        described = " ".join(option.help.split())
        assert described in shown, (option.flag, described)
    assert "--port <int range> Port to listen on. [default: 8000]" in shown
    assert "[default: 64; env var: DECKCHECK_CONNECTIONS_PER_ADDRESS]" in shown


def test_serve_takes_its_options_as_settings(monkeypatch):
    """The generated options reach Settings: a value given, a list joined, a bound refused."""
    import deckcheck.web.server as server
    got: list[Any] = []
    monkeypatch.setattr(server, "serve", got.append)
    r = run_cli("serve", "--port", "9001", "--allowed-host", "a.example", "--allowed-host", "b.example",
                "--check-rate", "0", "--db", "x.db")
    assert r.code == 0 and r.crash is None, (r.err, r.crash)
    (settings,) = got
    assert (settings.port, settings.allowed_hosts, settings.check_rate) == (9001, "a.example,b.example", "0")
    assert settings.db_url == "x.db" and settings.host == "127.0.0.1"
    assert run_cli("serve", "--workers", "0").code == 2


def test_the_settings_load_no_fastapi():
    code = "import sys, deckcheck.web.settings; print(sorted(m for m in ('fastapi', 'starlette') if m in sys.modules))"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "[]", r.stdout + r.stderr
