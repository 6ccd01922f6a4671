"""API leftovers of the pasted-lists round: draw sizes in a stats body, JSON that does not parse said so (with where)
whatever the content type, `decklist` and `file` both sent refused by name, empty files unreadable, a deck's name
bounded (deckcheck.limits.DECK_NAME)."""
from __future__ import annotations

import pytest

import deckcheck
from deckcheck import limits

CONNOR = (deckcheck.__file__.rsplit("/deckcheck/", 1)[0] + "/examples/decks/type1e-connor-legal.txt")


def connor() -> str:
    with open(CONNOR, encoding="utf-8") as f:
        return f.read()


# -- /api/stats: hand and exertion in the body -------------------------------------------------------------
def test_stats_reads_hand_and_exertion_from_a_json_body_or_a_form_and_the_query_still_works(client):
    want = deckcheck.deck_stats(connor(), hand=7, exertion=3).as_dict()
    assert client.post("/api/stats", json={"decklist": connor(), "hand": 7, "exertion": 3}).json() == want
    assert client.post("/api/stats", data={"decklist": connor(), "hand": "7", "exertion": "3"}).json() == want
    assert client.post("/api/stats?hand=7&exertion=3", json={"decklist": connor()}).json() == want
    assert client.post("/api/stats?hand=7", json={"decklist": connor(), "exertion": 3}).json() == want
    assert client.post("/api/stats?hand=7", json={"decklist": connor(), "hand": 7, "exertion": 3}).json() == want
    assert client.post("/api/stats", json={"decklist": connor()}).json()["odds"]["hand"] == 15


@pytest.mark.parametrize("query,body,message", [
    ("?hand=7", {"hand": 8}, "hand is given twice: 7 in the query, 8 in the body; give it once"),
    ("", {"hand": "7"}, "hand must be a whole number from 0 to 1000, got '7'"),
    ("", {"exertion": True}, "exertion must be a whole number from 0 to 1000, got True"),
    ("", {"hand": -1}, "hand must be a whole number from 0 to 1000, got -1"),
    ("", {"hand": 1001}, "got 1001"), ("", {"exertion": 2.5}, "got 2.5"), ("", {"hand": [7]}, "got [7]"),
])
def test_stats_draw_sizes_in_the_body_that_are_no_size_are_400_naming_them(client, query, body, message):
    r = client.post("/api/stats" + query, json={"decklist": connor(), **body})
    assert r.status_code == 400 and message in r.json()["error"]


def test_a_form_draw_size_that_is_no_number_is_400(client):
    r = client.post("/api/stats", data={"decklist": connor(), "hand": "seven"})
    assert r.status_code == 400 and "hand must be a whole number from 0 to 1000, got 'seven'" in r.json()["error"]


# -- JSON that does not parse, whatever the content type says -----------------------------------------------
@pytest.mark.parametrize("url", ["/api/check", "/api/stats"])
@pytest.mark.parametrize("kind", [None, "text/plain", "application/x-www-form-urlencoded", "application/json"])
def test_a_json_body_is_read_as_json_and_broken_json_is_told_where(client, url, kind):
    headers = {"content-type": kind} if kind else {}
    ok = client.post(url, content=('{"decklist": "3 Thrust"}').encode(), headers=headers)
    assert ok.status_code == 200, ok.text
    r = client.post(url, content=b'{"decklist": "3 Thrust",\n "format": }', headers=headers)
    assert r.status_code == 400
    assert r.json()["error"] == "the body is not valid JSON: Expecting value at line 2, column 12"


def test_broken_json_on_the_desk_and_facts_says_where_too(client):
    event = client.post("/api/events", json={"name": "Where Open", "format": "type1e"}).json()
    r = client.post(f"/api/events/{event['id']}/decks", content=b'{"player": "Ann" "decklist": ""}',
                    headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"] == (
        "the body is not valid JSON: Expecting ',' delimiter at line 1, column 18")
    r = client.post(f"/api/events/{event['id']}/decks", content=b'{"player": "Ann", "decklist": "3 Thrust"}')
    assert r.status_code == 201, r.text  # no content type: JSON all the same
    card = client.get("/api/cards?q=thrust&limit=1").json()["cards"][0]["id"]
    r = client.post(f"/api/cards/{card}/facts", content=b'{"by": "Ann",', headers={"content-type": "application/json"})
    assert r.status_code == 400 and "at line 1, column 14" in r.json()["error"]


def test_a_number_past_pythons_digits_is_named_not_pythons_setting(client):
    r = client.post("/api/stats", content=b'{"decklist": "3 Thrust", "hand": 1' + b"9" * 5000 + b"}")
    assert r.status_code == 400 and r.json()["error"] == (
        "the body is not valid JSON: a number in it has more than 4,300 digits")


def test_bytes_that_are_not_utf8_and_other_content_types_are_named(client):
    r = client.post("/api/check", content=b'{"decklist": "\xff"}', headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"] == (
        "the body is not valid JSON: it is not UTF-8 text (byte 15 of the body)")
    r = client.post("/api/check", content=b"3 Thrust", headers={"content-type": "text/plain"})
    assert r.status_code == 400 and r.json()["error"].endswith("(the request says 'text/plain')")


# -- decklist and file both ------------------------------------------------------------------------------
def test_decklist_and_file_both_sent_to_the_api_are_refused_naming_both(client):
    files = {"file": ("deck.txt", connor().encode())}
    for url in ("/api/check", "/api/stats"):
        r = client.post(url, data={"decklist": "3 Thrust"}, files=files)
        assert r.status_code == 400 and "both `decklist` and `file` were sent" in r.json()["error"], url
    event = client.post("/api/events", json={"name": "Both Open", "format": "type1e"}).json()
    r = client.post(f"/api/events/{event['id']}/decks", data={"player": "Ann", "decklist": "3 Thrust"}, files=files)
    assert r.status_code == 400 and "both `decklist` and `file` were sent" in r.json()["error"]
    assert client.get(f"/desk/{event['id']}").status_code == 200
    # either alone is checked; an empty text field beside a file is no text
    assert client.post("/api/check", data={"decklist": " \n"}, files=files).json()["legal"] is True
    assert client.post("/api/check", data={"decklist": "3 Thrust"}, files={"file": ("", b"")}).status_code == 200


def test_the_check_page_still_checks_the_file_it_was_given(client):
    page = client.post("/check", data={"decklist": "3 Thrust"}, files={"file": ("deck.txt", connor().encode())})
    assert page.status_code == 200 and "deck.txt" in page.text


# -- empty files --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name,data,message", [
    ("deck.txt", b"", "deck.txt: the file is empty"), ("deck.txt", b" \r\n\n\t\n", "deck.txt: the file holds only "
                                                                                  "blank lines"),
    ("deck.txt", b"\xef\xbb\xbf\n", "deck.txt: the file holds only blank lines"),
    ("deck.csv", b"", "deck.csv: the file is empty"), ("deck.xlsx", b"", "deck.xlsx: the file is empty"),
    ("deck.json", b"", "deck.json: the file is empty"),
])
def test_an_empty_upload_is_an_unreadable_deck_saying_so(client, name, data, message):
    report = client.post("/api/check", files={"file": (name, data)}).json()
    assert report["legal"] is None and [e["message"] for e in report["input_errors"]] == [message]


@pytest.mark.parametrize("data,message", [(b"", "the file is empty"), (b"\n \n", "the file holds only blank lines")])
def test_an_empty_decklist_file_is_unreadable_in_the_cli_named_once(cli_env, tmp_path, data, message):
    from test_one_ranker import cli
    for suffix in (".txt", ".csv") if not data else (".txt",):
        path = tmp_path / f"empty{suffix}"
        path.write_bytes(data)
        run = cli("check", str(path), env_db=cli_env)
        assert run.returncode == 2
        assert run.stdout.splitlines() == [f"{path}: NOT CHECKED  ", f"  unreadable: {message}"]
        assert cli("check", "-q", str(path), env_db=cli_env).stdout.startswith(f"{path}: UNREADABLE")


def test_an_unreadable_file_is_named_once_in_plain_text(cli_env, tmp_path):
    from test_one_ranker import cli
    path = tmp_path / "deck.xlsx"
    path.write_bytes(b"not a zip")
    run = cli("check", str(path), env_db=cli_env)
    assert run.returncode == 2 and run.stdout.count(str(path)) == 1
    assert "  unreadable: not a readable workbook (" in run.stdout
    missing = cli("check", str(tmp_path / "gone.txt"), env_db=cli_env)
    assert missing.stdout.splitlines()[1:] == ["  unreadable: no such file"]


def test_the_library_reports_an_empty_text_as_check_dash_does(cli_env):
    """`check_text` gives the report `check -` gives (README): an empty text is unreadable in both."""
    for text, message in (("", "-: standard input is empty"), ("\n\n ", "-: standard input holds only blank lines")):
        report = deckcheck.check_text(text)
        assert report.legal is None and [e.message for e in report.input_errors] == [message]
    import subprocess
    import sys
    from pathlib import Path
    exe = Path(sys.executable).with_name("deckcheck")
    run = subprocess.run([str(exe), "check", "-q", "-"], input="", capture_output=True, text=True)
    assert run.returncode == 2 and run.stdout.startswith("-: UNREADABLE")


# -- a saved deck's name ------------------------------------------------------------------------------------
def test_a_saved_decks_name_is_bounded(cli_env, tmp_path):
    from test_one_ranker import cli
    db = f"sqlite:///{tmp_path / 'names.db'}"
    most = limits.DECK_NAME.value
    run = cli("deck", "save", "x" * 5000, CONNOR, "--db", db, env_db=db)
    assert run.returncode == 2
    assert f"a deck's name is at most {most} characters; {'x' * 40!r}... has 5,000" in run.stderr
    assert cli("deck", "save", "y" * (most + 1), CONNOR, "--db", db, env_db=db).returncode == 2
    assert cli("deck", "save", "a\nb", CONNOR, "--db", db, env_db=db).returncode == 2
    assert cli("deck", "save", "  ", CONNOR, "--db", db, env_db=db).returncode == 2
    ok = cli("deck", "save", "z" * most, CONNOR, "--db", db, env_db=db)
    assert ok.returncode == 0, ok.stderr
    listed = cli("deck", "list", "--db", db, env_db=db).stdout
    assert listed.removeprefix("# ").startswith("1 saved deck")  # only the name within the bound was kept


def test_the_storage_refuses_a_long_name_from_any_caller(tmp_path):
    from deckcheck.db.collections import Collections
    from deckcheck.db.store import Store
    from deckcheck.errors import DeckcheckError
    collections = Collections(Store(f"sqlite:///{tmp_path / 'c.db'}"))
    with pytest.raises(DeckcheckError, match="at most 100 characters"):
        collections.save_deck("n" * 5000, "type1e", "3 Thrust\n", [])
    assert collections.decks() == []


@pytest.mark.parametrize("body,headers", [
    (b"[" * 100_000, {}), (b"{" * 60_000, {"content-type": "text/plain"}), (b'{"decklist": "3 Thrust", "hand": 1'
                                                                           + b"9" * 5000 + b"}", {}),
    (b'{"decklist": "3 Thrust", "hand": NaN}', {}), (b'{"decklist": "3 Thrust", "hand": 1e999}', {}),
    (b'{"decklist": "3 Thrust", "exertion": -0.0}', {}),
    (b"  \r\n\t{", {"content-type": "application/x-www-form-urlencoded"}),
    (b"\xef\xbb\xbf{\"decklist\": \"3 Thrust\"}", {}), (b'{"decklist": "3 Thrust", "hand": {"n": 5}}', {}),
    (b"decklist=3+Thrust&hand=" + b"9" * 5000, {"content-type": "application/x-www-form-urlencoded"}),
    (b"decklist=3+Thrust&hand=%00", {"content-type": "application/x-www-form-urlencoded"}),
    (b'{"decklist": "3 Thrust", "hand": 5}' + b" " * 70_000, {}),
])
def test_hostile_bodies_get_a_4xx_with_one_message_never_a_500(client, body, headers):
    """What the new readers (JSON without its content type, draw sizes in the body) do with the worst bodies."""
    for url in ("/api/stats", "/api/check"):
        r = client.post(url, content=body, headers=headers)
        assert r.status_code in (200, 400, 413), (url, r.status_code, r.text[:200])
        if r.status_code != 200:
            message = r.json()["error"]
            assert len(message) < 400 and "\n" not in message, message
