"""Every Python block of the README and of the documentation pages (tests/docs_pages.py) runs as written, in order,
in a folder holding the examples, and what a `print(...)  # OUTPUT` line prints is what its comment shows (`...`
stands for the rest)."""
from __future__ import annotations

import ast
import io
import re
import shutil
from contextlib import redirect_stdout
from pathlib import Path

import pytest

import docs_pages

ROOT = Path(__file__).resolve().parent.parent
BLOCK = re.compile(r"```python\n(.*?)```", re.S)


def readme_blocks() -> list[tuple[str, str]]:
    """(page:line where it starts, code) of each ```python block of every page."""
    out = []
    for page in docs_pages.pages():
        text = page.read_text(encoding="utf-8")
        out += [(f"{docs_pages.where(page)}:{text[:m.start()].count(chr(10)) + 2}", m.group(1))
                for m in BLOCK.finditer(text)]
    return out


LITERAL = r"""(?:[\[\('"{]|-?\d|True\b|False\b|None\b)"""


def shown_output(line: str) -> str | None:
    """The output a `print(...)` line's comment shows: a comment that starts with a Python literal ([...], (...),
    '...', {...}, a number, True/False/None), or with one word and then a literal (`ambiguous-card [...]`, what
    print(a, b) shows); None when the comment is prose."""
    code, hash_, comment = line.partition("#")
    comment = comment.strip()
    if not hash_ or not code.strip().startswith("print("):
        return None
    return comment if re.match(rf"(?:[\w-]+ )?{LITERAL}", comment) else None


def matches(shown: str, printed: str) -> bool:
    """Whether printed output is what a comment shows, `...` standing for any text."""
    pattern = ".*".join(re.escape(part.strip(" ,")) for part in shown.split("..."))
    return re.match(pattern, printed) is not None


@pytest.fixture()
def reader_folder(tmp_path, shared_db, monkeypatch):
    """What a reader has: the examples beside them, the CLI's database (a copy of the tests' own)."""
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    db = tmp_path / "cards.db"
    shutil.copy(shared_db.removeprefix("sqlite:///"), db)
    monkeypatch.setenv("DECKCHECK_DB", f"sqlite:///{db}")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_the_readme_has_python_blocks():
    assert len(readme_blocks()) >= 3


@pytest.mark.parametrize("start, code", readme_blocks(), ids=lambda v: v if ":" in v and "\n" not in v else "")
def test_readme_python_block_runs_and_prints_what_it_says(start, code, reader_folder):
    tree = ast.parse(code)
    lines = code.splitlines()
    checks = {i + 1: shown for i, line in enumerate(lines) if (shown := shown_output(line)) is not None}
    printed: dict[int, str] = {}
    namespace: dict[str, object] = {"__name__": "__readme__"}
    for node in tree.body:  # statement by statement, so that each print is caught with its line
        out = io.StringIO()
        with redirect_stdout(out):
            exec(compile(ast.Module(body=[node], type_ignores=[]), start, "exec"), namespace)
        if node.lineno in checks:
            printed[node.lineno] = out.getvalue().strip()
    page, first = start.rsplit(":", 1)
    wrong = {f"{page} line {int(first) + n - 1}": (checks[n], printed.get(n)) for n in checks
             if not matches(checks[n], printed.get(n, ""))}
    assert not wrong, wrong


def test_a_comment_that_differs_from_the_output_is_caught():
    assert matches("ambiguous-card ('Amanda Back Away', ...)", "ambiguous-card ('Amanda Back Away', 'B')")
    assert not matches("ambiguous-card ['Back Away (Kern)', ...]", "ambiguous-card ('Amanda Back Away', 'B')")
    assert shown_output("print(x)   # ['HL-TITLE-MAX', ...]") == "['HL-TITLE-MAX', ...]"
    assert shown_output("print(x)   # the same object as `check --json`") is None
