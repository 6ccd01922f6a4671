"""The statistics panel and deck comparison on the web: same objects as the library and CLI, pages, errors."""
from __future__ import annotations

from pathlib import Path

import pytest

import deckcheck

ROOT = Path(__file__).resolve().parents[2]
CONNOR = (ROOT / "examples/decks/type1e-connor-legal.txt").read_text()
CHANGED = CONNOR.replace("3 Lower Right Block (3)\n", "") + "2 Connor MacLeod Power Blow\n"


def save(client, csrf, text: str) -> str:
    r = client.post("/decks", data={"decklist": text, "csrf_token": csrf}, follow_redirects=False)
    assert r.status_code == 303, r.text
    return r.headers["location"].rsplit("/", 1)[-1]


def test_api_stats_is_the_library_object(client):
    r = client.post("/api/stats", json={"decklist": CONNOR})
    assert r.status_code == 200
    assert r.json() == deckcheck.deck_stats(CONNOR).as_dict()
    r = client.post("/api/stats?hand=7&exertion=3", data={"decklist": CONNOR})
    assert r.json() == deckcheck.deck_stats(CONNOR, hand=7, exertion=3).as_dict()


@pytest.mark.parametrize("query, body, message", [
    ("", {"decklist": "3 Uper Left Attack"}, "'3 Uper Left Attack': unknown card"),
    ("?hand=-1", {"decklist": CONNOR}, "hand must be a whole number from 0 to 1000, got -1"),
    ("?exertion=x", {"decklist": CONNOR}, "exertion"),
    ("", {"decklist": "Deck:\nAce of Spades\n", "format": "taktik52"}, "statistics are for Highlander decks"),
    ("", {"decklist": ""}, "no decklist"),
])
def test_api_stats_bad_input_is_400_with_one_message(client, query, body, message):
    r = client.post("/api/stats" + query, json=body)
    assert r.status_code == 400 and message in r.json()["error"]


def test_saved_deck_stats_and_page_panel(client, csrf):
    deck_id = save(client, csrf, CONNOR)
    r = client.get(f"/api/decks/{deck_id}/stats")
    assert r.status_code == 200
    want = deckcheck.deck_stats(CONNOR, source=f"/decks/{deck_id}").as_dict()
    assert r.json() == want
    page = client.get(f"/decks/{deck_id}").text
    assert 'class="stats-panel"' in page and "Opening hand of 15 holds a block" in page
    assert "Upper Left: 89.2% (6 blocks in the Endurance)" in page
    assert "Connor MacLeod Back Away" in page.split('class="stats-unknown"', 1)[1]
    assert client.get("/api/decks/nosuchdeck1/stats").status_code == 404


def test_check_page_shows_the_panel_for_a_checked_deck_only(client):
    page = client.post("/check", data={"decklist": CONNOR}).text
    assert page.count('class="stats-panel"') == 1 and "Exertion of 5 finds a defense" in page
    assert "Middle Center (Thrust): 99.2%" in page
    typo = client.post("/check", data={"decklist": "3 Uper Left Attack"}).text
    assert 'class="stats-panel"' not in typo


def test_diff_page_and_api(client, csrf):
    a, b = save(client, csrf, CONNOR), save(client, csrf, CHANGED)
    want = deckcheck.deck_diff(CONNOR, CHANGED, sources=(f"/decks/{a}", f"/decks/{b}")).as_dict()
    assert client.get(f"/api/diff?a={a}&b=/decks/{b}").json() == want
    page = client.get("/diff", params={"a": f"http://testserver/decks/{a}", "b": b}).text
    assert "+2</span> Connor MacLeod Power Blow" in page and "−3</span> Lower Right Block (3)" in page
    assert "Newly broken: <code>HL1-BASIC-BLOCKS</code>" in page
    assert page.count('class="stats-panel"') == 2
    assert client.get("/diff").status_code == 200  # the empty form


def test_diff_of_unknown_decks_is_404_and_escapes_the_input(client):
    r = client.get("/diff", params={"a": "<script>alert(1)</script>", "b": "abcdefgh"})
    assert r.status_code == 404 and "<script>alert" not in r.text and "&lt;script&gt;" in r.text
    r = client.get("/api/diff", params={"a": "abcdefgh", "b": "abcdefgi"})
    assert r.status_code == 404 and "no saved deck has the link /decks/abcdefgh" in r.json()["error"]


def contrast(fg: tuple[float, ...], bg: tuple[float, ...]) -> float:
    """WCAG contrast ratio of two sRGB colours (0-255 channels)."""
    def lum(c):
        lin = [v / 255 / 12.92 if v / 255 <= 0.03928 else ((v / 255 + 0.055) / 1.055) ** 2.4 for v in c]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    high, low = sorted((lum(fg), lum(bg)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def rgb(hex_colour: str) -> tuple[int, int, int]:
    return int(hex_colour[1:3], 16), int(hex_colour[3:5], 16), int(hex_colour[5:7], 16)


@pytest.mark.parametrize("deck", ["type1e-kurgan-illegal.txt", "type1e-connor-legal.txt", "type2-duncan-katana.txt"])
def test_heat_grid_text_reads_on_its_cell(client, deck):
    """Each cell's two lines (the chance and the count) keep a contrast of at least 4.5:1 (WCAG AA) against the
    cell's colour, the navy laid over white at the cell's opacity, whatever the chance."""
    import re
    page = client.post("/check", data={"decklist": (ROOT / "examples/decks" / deck).read_text()}).text
    cells = re.findall(r'<g class="cell">(.*?)</g>', page, flags=re.S)
    assert len(cells) == 27, deck
    for cell in cells:
        found = re.search(r'fill="#1f2a44"\s+fill-opacity="([\d.]+)"', cell)
        assert found is not None, cell
        opacity = float(found.group(1))
        background = tuple(255 * (1 - opacity) + c * opacity for c in rgb("#1f2a44"))
        for colour in re.findall(r'<text [^>]*fill="(#[0-9a-f]{6})"', cell):
            assert contrast(rgb(colour), background) >= 4.5, (deck, opacity, colour)


def test_heat_grid_gets_darker_as_the_chance_grows():
    from deckcheck.web.svg import heat
    opacities = [float(heat(p / 100)[0]) for p in range(101)]
    assert opacities == sorted(opacities) and opacities[0] < 0.1 and opacities[-1] > 0.9
