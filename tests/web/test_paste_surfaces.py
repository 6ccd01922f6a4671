"""Issue 33: every form of the posts under tests/data/pasted that issue 33 added (a Discord chat's fences, phpBB
BBCode, a web page's HTML source and table, a Japanese blog, a French and a German forum) and a list of the other
new forms read to the same deck as the plain list through all five surfaces: the library, `deckcheck check`, the
check page, the desk and `/api/check`."""
from __future__ import annotations

import json
from pathlib import Path

from test_one_ranker import cli
from test_web_pages import visible_text

import deckcheck

PASTED = Path(__file__).resolve().parents[1] / "data" / "pasted"
POSTS = ("chat-discord-fences.txt", "forum-phpbb-bbcode.txt", "web-page-source.txt", "web-table-source.txt",
         "blog-japanese.txt", "forum-french.txt", "forum-german.txt")
FORMS = ("Highland Rush\nby Mark\n2026-03-14\n\u30da\u30eb\u30bd\u30ca\uff1aDuncan MacLeod\n"
         "Attacks (twenty-nine)\n(4) Upper Left Attack\n(3x) Upper Center Attack / 3 Upper Right Attack\n"
         "3 of Middle Left Attack\nThrust\u00d74\nMiddle Right Attack 3\u679a\n\u300cLower Left Attack\u300d\u00d73\n"
         "Lower Center Attack\u00d73\u679a\nLower Right Attack\u30013\nBlocks (18)\n"
         "3 Upper Left Block  # core\n3 Upper Center Block -- fine\n3 Upper Right Block \u2014 tech\n"
         "3 Lower Left Block; 3 Lower Center Block; 3 Lower Right Block\n"
         "Specials (8)\n2 Dodge\n2 Back Away\n1 Duncan MacLeod Master&#39;s Attack\n"
         "1 Duncan MacLeod Razor\u00ads Edge\n2 Duncan MacLeod Power Blow\n"
         "\u30b5\u30a4\u30c9\u30dc\u30fc\u30c9\n2 Duncan MacLeod Trip\n")


def deck_of(report: dict) -> tuple:
    """What makes two reports the same deck: verdict, persona, counts, every issue (they name the cards), no
    input error."""
    return (report["legal"], report["persona"], report["counts"], report["input_errors"],
            [(i["rule"], i["message"]) for i in report["issues"]])


def test_every_post_reads_to_the_plain_deck_on_all_five_surfaces(web_db, client, tmp_path):
    plain = deck_of(deckcheck.check_text((PASTED / "plain.txt").read_text(encoding="utf-8"), "type1e").as_dict())
    assert plain[2] == {"Pre-Game": 1, "Endurance": 55} and plain[3] == []
    texts = {name: (PASTED / name).read_text(encoding="utf-8") for name in POSTS} | {"forms.txt": FORMS}
    for name, text in texts.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    run = cli("check", str(tmp_path), "--json", "--format", "type1e", env_db=web_db)
    by_cli = {Path(r["deck"]).name: r for r in map(json.loads, run.stdout.splitlines())}
    event = client.post("/api/events", json={"name": "Paste Open", "format": "type1e"}).json()
    for n, (name, text) in enumerate(texts.items()):
        library = deckcheck.check_text(text, "type1e").as_dict()
        assert deck_of(library) == plain, name
        assert deck_of(by_cli[name]) == plain and by_cli[name]["notices"] == library["notices"], name
        api = client.post("/api/check", json={"decklist": text, "format": "type1e"}).json()
        assert deck_of(api) == plain and api["notices"] == library["notices"], name
        sent = client.post(f"/api/events/{event['id']}/decks", json={"player": f"Player {n}", "decklist": text})
        assert sent.status_code == 201 and deck_of(sent.json()) == plain, name
        assert sent.json()["notices"] == library["notices"], name
        page = visible_text(client.post("/check", data={"decklist": text, "format": "type1e"}).text)
        assert "Pre-Game 1" in page and "Endurance 55" in page and "Duncan MacLeod" in page, name
        assert "could not be read" not in page.lower() and "unknown card" not in page, name
        assert any(n[:40] in page for n in library["notices"]), name
