"""Every command of the README and of the documentation pages (docs/, tests/docs_pages.py) runs, with the exit code
the page gives it, and prints what the page shows under it (doctest-style: the lines that follow a `$ deckcheck ...`
line in a console block, up to the next command or the end of the block)."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import docs_pages
from inproc import run_cli


ROOT = Path(__file__).resolve().parent.parent
LINE = re.compile(r"^\$ (deckcheck .*?)(?:\s+#\s*exits (\d))?$")


def readme_commands() -> list[tuple[str, int, list[str]]]:
    """(command, exit code, the output lines shown under it, [] when none are shown), page after page."""
    out: list[tuple[str, int, list[str]]] = []
    for page in docs_pages.pages():
        out += page_commands(page.read_text(encoding="utf-8"))
    return out


def page_commands(text: str) -> list[tuple[str, int, list[str]]]:
    """The commands of one page."""
    out: list[tuple[str, int, list[str]]] = []
    in_console = False
    for line in text.splitlines():
        if line.startswith("```"):
            in_console = line.strip() == "```console"
            continue
        m = LINE.match(line.strip())
        if m:
            out.append((m.group(1), int(m.group(2) or 0), []))
        elif in_console and out and line.strip():
            out[-1][2].append(line.rstrip())
    return out


def test_readme_has_commands():
    assert len(readme_commands()) >= 10
    assert len(page_commands((ROOT / "README.md").read_text(encoding="utf-8"))) >= 2  # a taste on the first page


def test_readme_commands_in_order(tmp_path, shared_db, monkeypatch):
    """The README's commands run one after another, as a reader would type them, in one working folder.

    The first command of each of the entry point's two paths (the argparse fast path of `check`, the typer app)
    runs as the installed `deckcheck` program in a process of its own; the others run in this process
    (tests/inproc.py: the same main(), exit code and standard streams), which is what they are about, and a run
    of the whole list takes a fifth of the time."""
    import shlex
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    db = tmp_path / "readme.db"
    shutil.copy(shared_db.removeprefix("sqlite:///"), db)
    for name, value in (("DECKCHECK_DB", str(db)), ("COLUMNS", "120")):
        monkeypatch.setenv(name, value)
    monkeypatch.chdir(tmp_path)
    exe = str(Path(sys.executable).with_name("deckcheck"))
    failures, paths_run = [], set()
    for command, code, shown in readme_commands():
        args = shlex.split(command)[1:]
        path = "fast" if args[:1] in (["check"], ["--version"]) or args[:2] == ["tournament", "check"] else "typer"
        if path not in paths_run:
            paths_run.add(path)
            r = subprocess.run([exe, *args], cwd=tmp_path, capture_output=True, text=True)
            returncode, stdout, stderr = r.returncode, r.stdout, r.stderr
        else:
            ran = run_cli(*args)
            returncode, stdout, stderr = ran.code, ran.text, ran.err.decode("utf-8", "replace") + (ran.crash or "")
        if returncode != code:
            failures.append(f"{command}: exit {returncode}, README says {code}\n{stdout[-1500:]}{stderr[-1500:]}")
        printed = [line.rstrip() for line in stdout.splitlines() if line.strip()]
        if shown and printed != shown:
            failures.append(f"{command}: prints\n" + "\n".join(printed) + "\nREADME shows\n" + "\n".join(shown))
    assert paths_run == {"fast", "typer"}
    assert not failures, "\n\n".join(failures)


def test_readme_shows_what_some_commands_print():
    """The doctest-style reading finds the outputs the README shows, and a console block's outputs only."""
    shown = {command: lines for command, _, lines in readme_commands() if lines}
    kurgan = shown["deckcheck check examples/decks/type1e-kurgan-illegal.txt"]
    assert kurgan[0].startswith("examples/decks/type1e-kurgan-illegal.txt: NOT LEGAL")
    assert any("HL-TITLE-MAX" in line for line in kurgan)
    quiet = shown["deckcheck check -q examples/decks/type1e-connor-legal.txt examples/decks/type1e-kurgan-illegal.txt"]
    assert quiet[-1] == "2 decks: 1 legal, 1 not legal, 0 unreadable"
    assert not any(line.startswith("$") for lines in shown.values() for line in lines)


def test_demo_script_runs_the_main_job(shared_db):
    """The README's first set-up command, on this checkout (its venv already exists when tests run): the web extra
    installed with it, every example as intended, in at most 30 lines."""
    env = dict(os.environ, DECKCHECK_DB=shared_db)
    r = subprocess.run(["bash", "scripts/demo.sh"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    lines = r.stdout.splitlines()
    assert len(lines) <= 30 and "14 of 14 came out as intended. One report in full:" in lines
    venv = ROOT / ".venv" / "bin" / "python"
    assert subprocess.run([str(venv), "-c", "import fastapi, uvicorn"], timeout=60).returncode == 0


def test_the_readme_is_one_or_two_screens_and_links_every_page():
    """README.md: what it is, the two commands, a taste, links (under 250 lines); the rest is in docs/."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) < 250
    pages = [p for p in docs_pages.pages()[1:] if p.parent == docs_pages.DOCS and p.name != "index.md"]
    assert len(pages) >= 12
    assert [docs_pages.where(p) for p in pages if f"]({docs_pages.where(p)})" not in readme] == []
