"""The card sheet brought for a browser's session is read and laid over the catalogue once per sheet and
catalogue (web.cardsheets): the same sheet over the same catalogue is the same object, over a new catalogue (the
server's, once its cards changed) a new one, and a sheet of other bytes is never taken for it."""
from __future__ import annotations

from pathlib import Path

from deckcheck.library.api import Catalog
from deckcheck.web import cardsheets

ROOT = Path(__file__).resolve().parents[2]
SHEET = ROOT / "examples" / "other-games" / "raven-stormcrow-cards.csv"


def test_one_sheet_over_one_catalogue_is_laid_once_and_never_over_another(pristine_web_db):
    data = SHEET.read_bytes()
    sheet = cardsheets.read_sheet("mine.csv", data)
    first, second = Catalog(pristine_web_db), Catalog(pristine_web_db)
    over = sheet.over(first)
    assert sheet.over(first) is over and cardsheets.read_sheet("mine.csv", data).over(first) is over
    assert sheet.over(second) is not over  # a catalogue made again (its cards changed): laid over it anew
    other = cardsheets.read_sheet("mine.csv", data.replace(b"Ranger Ann", b"Ranger Bea"))
    assert other.over(first) is not over
    assert "Ranger Bea" in {c.name for c in other.over(first).cards("raven-stormcrow")}
    assert "Ranger Bea" not in {c.name for c in over.cards("raven-stormcrow")}


def test_only_the_last_few_are_kept(pristine_web_db):
    catalog = Catalog(pristine_web_db)
    sheets = [cardsheets.read_sheet(f"s{i}.csv", SHEET.read_bytes().replace(b"Ranger Ann", f"Ranger {i}".encode()))
              for i in range(cardsheets.OVERLAID_MAX + 1)]
    laid = [s.over(catalog) for s in sheets]
    assert sheets[-1].over(catalog) is laid[-1]  # the last is kept
    assert sheets[0].over(catalog) is not laid[0]  # the first was let go
    assert len(cardsheets._OVERLAID) <= cardsheets.OVERLAID_MAX
