"""`deck save` on a kept name saves a version; `deck versions`, `deck show --version`, `deck diff NAME@1 NAME@3`
and `deck restore` (CONTRACTS §10), each refusal a clear message and exit 2."""
from __future__ import annotations

import json
from pathlib import Path

from inproc import run_cli

ROOT = Path(__file__).resolve().parent.parent
CONNOR = (ROOT / "examples/decks/type1e-connor-legal.txt").read_text(encoding="utf-8")


def test_versions_from_the_cli(sqlite_url, tmp_path):
    first = tmp_path / "connor.txt"
    first.write_text(CONNOR, encoding="utf-8")
    more = tmp_path / "more.txt"
    more.write_text(CONNOR.replace("4 Thrust (2)", "6 Thrust (2)"), encoding="utf-8")
    fewer = tmp_path / "fewer.txt"
    fewer.write_text(CONNOR.replace("4 Thrust (2)", "2 Thrust (2)"), encoding="utf-8")
    db = ("--db", sqlite_url)
    assert "saved deck 'connor'" in run_cli("deck", "save", "connor", str(first), *db).text
    assert "saved version 2 of deck 'connor'" in run_cli("deck", "save", "connor", str(more), *db).text
    assert "unchanged" in run_cli("deck", "save", "connor", str(more), *db).text  # the same list: no version
    assert "saved version 3" in run_cli("deck", "save", "connor", str(fewer), *db).text
    listed = json.loads(run_cli("deck", "versions", "connor", "--json", *db).out)
    assert [(v["version"], v["changes"]) for v in listed] == [
        (1, "first version"), (2, "+2 Thrust (2)"), (3, "\u22124 Thrust (2)")]
    table = run_cli("deck", "versions", "connor", *db).text
    assert "+2 Thrust (2)" in table and "3 versions" in table
    shown = run_cli("deck", "show", "connor", "--version", "2", *db)
    assert shown.code == 0 and "6 Thrust (2)" in shown.text, shown.err.decode()
    diff = json.loads(run_cli("deck", "diff", "connor@1", "connor@3", "--json", *db).out)
    assert [(c["card"], c["quantity"]) for c in diff["removed"]] == [("Thrust (2)", 2)] and not diff["added"]
    restored = run_cli("deck", "restore", "connor", "1", *db)
    assert "restored version 1 of deck 'connor' as version 4" in restored.text, restored.err.decode()
    assert "4 Thrust (2)" in run_cli("deck", "show", "connor", *db).text
    for args, words in ((("deck", "show", "connor", "--version", "9"), "has no version 9"),
                        (("deck", "diff", "connor@x", "connor"), "write NAME@N"),
                        (("deck", "restore", "nobody", "1"), "no saved deck named 'nobody'"),
                        (("deck", "versions", "nobody"), "no saved deck named 'nobody'")):
        r = run_cli(*args, *db)
        assert r.code == 2 and r.crash is None and words in r.err.decode(), (args, r.err.decode())
