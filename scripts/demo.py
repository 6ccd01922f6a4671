"""The demo's main job (scripts/demo.sh): check every example deck and say, one line each, what it shows and whether it
came out as examples/intended.tsv says it should; then where the database is and how to open the web app.

Exit 0 when every example came out as intended, 1 when one did not (the line says what it gave instead).
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import NamedTuple, Sequence

from deckcheck.db.engine import resolve_url, sqlite_path
from deckcheck.library.api import Catalog, check_files
from deckcheck.report import Report

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
INTENDED = EXAMPLES / "intended.tsv"
VERDICTS = {True: "legal", False: "not legal", None: "unreadable"}
URL = "http://127.0.0.1:8000/"


class Example(NamedTuple):
    """One line of examples/intended.tsv."""

    deck: str  # under examples/
    verdict: str  # legal, not legal or unreadable
    breaks: frozenset[str]  # the error rules it breaks on purpose
    cards: tuple[str, ...]  # card sheets under examples/
    shows: str


def read_intended(path: Path = INTENDED) -> list[Example]:
    """The examples of a manifest, in its order (# lines and the header skipped)."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#") or line.startswith("deck\t"):
            continue
        deck, verdict, breaks, cards, shows = line.split("\t")
        out.append(Example(deck, verdict, frozenset(breaks.split()), tuple(cards.split()), shows))
    return out


def outcome(reports: Sequence[Report]) -> tuple[str, frozenset[str]]:
    """The verdict a deck file got (its worst deck's) and the error rules its decks broke."""
    legal = [r.legal for r in reports]
    worst = None if None in legal else all(legal)
    return VERDICTS[worst], frozenset(i.rule for r in reports for i in r.errors)


def check_example(example: Example, db_url: str | None) -> tuple[str, frozenset[str]]:
    """The verdict and the broken rules of one example, checked with its card sheets."""
    catalog = Catalog(db_url, [EXAMPLES / c for c in example.cards])
    return outcome(list(check_files([EXAMPLES / example.deck], catalog)))


def line_of(example: Example, got: tuple[str, frozenset[str]]) -> list[str]:
    """The example's line; a second line when it did not come out as intended."""
    verdict, broken = got
    said = [f"  {verdict.upper():<10}  {Path(example.deck).name:<27} {example.shows}"]
    if (verdict, broken) != (example.verdict, example.breaks):
        rules = " ".join(sorted(broken)) or "no rule"
        said.append(f"    NOT AS INTENDED: {example.verdict} breaking {' '.join(sorted(example.breaks)) or 'no rule'}"
                    f" was meant; it broke {rules}")
    return said


def database_line(db_url: str | None) -> str:
    """Where the checks read their cards from."""
    url = resolve_url(db_url)
    path = sqlite_path(url)
    return f"Database: {path or url}\n  (another: --db FILE or DECKCHECK_DB=FILE before a command)"


def main(argv: Sequence[str] = ()) -> int:
    """Check every example of the manifest (argv[0], else examples/intended.tsv); print at most 30 lines."""
    examples = read_intended(Path(argv[0]) if argv else INTENDED)
    print("The example decks, each checked against its format:")
    wrong, folder = 0, ""
    for example in examples:
        here = str(Path(example.deck).parent)
        if here != folder:
            folder = here
            print(f"examples/{folder}/" + (" (with the card sheets beside them)" if example.cards else ""))
        said = line_of(example, check_example(example, None))
        wrong += len(said) > 1
        print("\n".join(said))
    print(f"{len(examples) - wrong} of {len(examples)} came out as intended. One report in full:\n"
          "  .venv/bin/deckcheck check examples/decks/type1e-kurgan-illegal.txt")
    print(database_line(None))
    print(f"Web app: .venv/bin/deckcheck serve, then open {URL}\n  (the tournament desk: {URL}desk)")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
