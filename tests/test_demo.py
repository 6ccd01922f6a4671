"""The demo (scripts/demo.sh runs scripts/demo.py): every example deck, what it shows, whether it came out as
examples/intended.tsv intends; the manifest itself agrees with the golden reports."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

from test_examples import DECKS, golden_path

ROOT = Path(__file__).resolve().parent.parent


def demo_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("deckcheck_demo", ROOT / "scripts" / "demo.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


demo = demo_module()


def test_the_manifest_names_every_example_deck_with_its_golden_verdict():
    intended = {e.deck: e for e in demo.read_intended()}
    assert sorted(intended) == sorted(DECKS)
    for deck in DECKS:
        reports = json.loads(golden_path(deck).read_text(encoding="utf-8"))
        legal = [r["legal"] for r in reports]
        verdict = demo.VERDICTS[None if None in legal else all(legal)]
        broken = {i["rule"] for r in reports for i in r["issues"] if i["severity"] == "error"}
        assert (intended[deck].verdict, intended[deck].breaks) == (verdict, broken), deck
        assert len(intended[deck].shows) <= 38, deck  # the demo's lines fit 80 columns


def test_the_demo_says_each_verdict_in_at_most_30_lines(cli_env, capsys):
    assert demo.main() == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) <= 30 and max(map(len, lines)) <= 80
    assert "  NOT LEGAL   type1e-kurgan-illegal.txt   illegal on purpose: 7 Back Away" in lines
    assert "  UNREADABLE  type1e-typo.txt             unreadable on purpose: a misspelt card" in lines
    assert "14 of 14 came out as intended. One report in full:" in lines
    assert f"Database: {cli_env.removeprefix('sqlite:///')}" in lines
    assert any("deckcheck serve, then open http://127.0.0.1:8000/" in line for line in lines)


def test_an_example_that_does_not_come_out_as_intended_fails_the_demo(cli_env, capsys, tmp_path):
    manifest = (ROOT / "examples" / "intended.tsv").read_text(encoding="utf-8")
    kurgan = next(line for line in manifest.splitlines() if line.startswith("decks/type1e-kurgan-illegal.txt"))
    wrong = tmp_path / "intended.tsv"
    wrong.write_text(f"deck\tverdict\tbreaks\tcards\tshows\n{kurgan.replace('HL-PREMIUM ', '')}\n", encoding="utf-8")
    assert demo.main([str(wrong)]) == 1
    out = capsys.readouterr().out
    assert "it broke HL-MASTER HL-OTHER-PERSONA HL-PREMIUM HL-TITLE-MAX HL1-BASIC-BLOCKS" in out
    assert "0 of 1 came out as intended" in out

