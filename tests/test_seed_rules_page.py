"""The guide's list of each seed's rules (docs/guide/seeds.md, issue 36 item 5) against the product: every row has a
status; every "checked" row names rule ids its format runs (or the command that checks it), and each of those ids
is reported by a test of its own; every rule a seed's format runs is on the page. Text only: fast."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from deckcheck.games import get_format

ROOT = Path(__file__).resolve().parents[1]
PAGE = (ROOT / "docs/guide/seeds.md").read_text(encoding="utf-8")
RULE_ID = re.compile(r"\b(?:HL\d?|RS|TK)-[A-Z][A-Z-]*[A-Z]\b")
STATUSES = ("checked", "not checked", "not a deck rule", "not deck rules", "rules of play", "start of play",
            "not bundled", "none exists")


def sections() -> dict[str, list[tuple[str, str]]]:
    """Format name -> the (rule in the seed, status) rows of its section."""
    out: dict[str, list[tuple[str, str]]] = {}
    for block in PAGE.split("\n## ")[1:]:
        heading, _, body = block.partition("\n")
        fmt = re.search(r"format `([^`]+)`", heading)
        assert fmt, heading
        rows = [tuple(c.strip() for c in line.strip().strip("|").split("|")) for line in body.splitlines()
                if line.startswith("|") and not line.startswith(("| rule", "|---"))]
        assert rows and all(len(r) == 2 for r in rows), heading
        out[fmt[1]] = [(r[0], r[1]) for r in rows]
    return out


SECTIONS = sections()


def test_the_page_has_the_four_seeds_formats():
    assert set(SECTIONS) == {"type1e", "type2", "raven-stormcrow", "taktik52"}
    for fmt in SECTIONS:
        assert get_format(fmt).source.removeprefix("seeds/") in PAGE  # its section names the seed's file


@pytest.mark.parametrize("fmt", list(SECTIONS))
def test_every_row_has_a_status(fmt):
    unstated = [rule for rule, status in SECTIONS[fmt] if not status.startswith(STATUSES)]
    assert unstated == []


@pytest.mark.parametrize("fmt", list(SECTIONS))
def test_each_checked_row_names_what_checks_it_and_the_format_runs_it(fmt):
    runs = {r.id for r in get_format(fmt).rules}
    for rule, status in SECTIONS[fmt]:
        if not status.startswith("checked"):
            assert not set(RULE_ID.findall(status)) - runs, (rule, "a row not checked names a rule the format lacks")
            continue
        ids = set(RULE_ID.findall(status))
        assert ids or "`taktik deal`" in status, (rule, "a checked row names its rule ids or its command")
        assert ids <= runs, (rule, sorted(ids - runs))


def _test_texts() -> dict[str, str]:
    here = Path(__file__).name
    return {p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8") for p in (ROOT / "tests").rglob("test_*.py")
            if p.name != here}


def test_every_checked_rule_id_is_reported_by_a_test():
    """Each id a checked row names is asserted by some test (the id written in a test module, beside the words
    of a report: `rule ==`, `rules`, `errors`, `issues`), not only listed here."""
    texts = _test_texts()
    checked = {i for rows in SECTIONS.values() for _rule, status in rows if status.startswith("checked")
               for i in RULE_ID.findall(status)}
    untested = sorted(i for i in checked if not any(f'"{i}"' in text for text in texts.values()))
    assert untested == []


def test_the_deal_rows_have_tests_of_the_deal():
    """The rows `taktik deal` checks: the redeal at 10 LP and above, who begins after the redeals, a tie left open,
    a random deal of too few players."""
    deal = (ROOT / "tests/games/test_taktik.py").read_text(encoding="utf-8")
    for words in ("may_redeal", "starter", "tie", "players 3"):
        assert words in deal, words


@pytest.mark.parametrize("fmt", list(SECTIONS))
def test_every_rule_the_format_runs_is_on_the_page(fmt):
    listed = {i for _rule, status in SECTIONS[fmt] for i in RULE_ID.findall(status)}
    assert sorted({r.id for r in get_format(fmt).rules} - listed) == []
