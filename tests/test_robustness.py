"""Robustness of every reader (hypothesis): generated decklists and sheets, right and wrong, through the commands.

Text, CSV, XLSX (written with xlsxwriter) and JSON decklists are built from card names, quantities
in every written form, headings, metadata, junk text, control characters and random bytes, in
several encodings, shapes and sizes. Each goes through the real command in process, and must end
with an exit code of the contract, no traceback, a JSON line per deck that parses (CONTRACTS.md §3),
and nothing from the input that a terminal would run as an escape sequence.
"""
from __future__ import annotations

import csv
import io
import json
import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inproc import Result, run_cli
from nasty import texts_past_limits

SETTINGS = settings(max_examples=20, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                           HealthCheck.data_too_large])
NAMES = ["Thrust", "Upper Left Attack", "Upper Left Attack (1)", "Connor MacLeod Persona", "Back Away",
         "Connor MacLeod Back Away", "Back Away (Kurgan)", "Lower Center Block", "Katana", "Ace of Spades",
         "10 of Hearts", "Master's Lunge", "Dodge", "Uper Left Atack"]
SECTIONS = ["Pre-Game", "Endurance", "Deck", "Main", "Sideboard", "Players", "Hunters", "Endurence", "Persona",
            "Attacks", ""]
ENCODINGS = ["utf-8", "utf-8-sig", "utf-16", "latin-1", "cp1252"]
NASTY_CHARS = "\x00\x1b\x07\x08\r\x9b\u202e\ud800[]/\\\"';,\t×³٣\uffff"

junk = st.text(alphabet=st.characters(codec="utf-8") | st.sampled_from(NASTY_CHARS), max_size=30)
name = st.sampled_from(NAMES) | junk
quantity = st.integers(-3, 12) | st.sampled_from(["3", "x2", "³", "٣", "99999999999999999999", "2.5", "", " 4 "])


@st.composite
def card_line(draw) -> str:
    n, q = draw(name), draw(st.integers(0, 12))
    form = draw(st.sampled_from(["{q} {n}", "{q}x {n}", "{n} x{q}", "{n} (x{q})", "{n} *{q}", "{n}", "{q} {n} [ME]",
                                 "{n} [Movie Edition] x{q}", "{n} @ {n}", "{q}× {n}", "{n} - {q}"]))
    return form.format(q=q, n=n)


@st.composite
def text_decklist(draw) -> str:
    lines = []
    for _ in range(draw(st.integers(0, 40))):
        kind = draw(st.integers(0, 9))
        if kind == 0:
            lines.append(draw(st.sampled_from(SECTIONS)) + ":")
        elif kind == 1:
            lines.append(draw(st.sampled_from(["Format: ", "Player: ", "Name: ", "# ", "// "])) + draw(junk))
        elif kind == 2:
            lines.append(draw(junk))
        else:
            lines.append(draw(card_line()))
    return draw(st.sampled_from(["\n", "\r\n", "\r"])).join(lines)


def encode(draw, text: str) -> bytes:
    encoding = draw(st.sampled_from(ENCODINGS))
    return text.encode(encoding, "surrogatepass" if encoding.startswith("utf") else "replace")


@st.composite
def text_file(draw) -> bytes:
    if draw(st.integers(0, 9)) == 0:
        return draw(st.binary(max_size=400))
    return encode(draw, draw(text_decklist()))


cell = st.one_of(name, quantity, st.none(), st.floats(allow_nan=False, allow_infinity=False), st.booleans())
headers = st.lists(st.sampled_from(["section", "quantity", "card", "set", "player", "format", "Qty", "Card Name",
                                    "Count", "Edition", "Name", "notes", "Card", ""]) | junk, max_size=7)


@st.composite
def table(draw) -> list[list[object]]:
    header = draw(headers)
    if draw(st.booleans()):
        header = ["section", "quantity", "card"] + header
    width = max(1, len(header))
    rows = [[draw(cell) for _ in range(width)] for _ in range(draw(st.integers(0, 15)))]
    return [list(header)] + rows


@st.composite
def csv_file(draw) -> bytes:
    if draw(st.integers(0, 9)) == 0:
        return draw(st.binary(max_size=400))
    out = io.StringIO()
    writer = csv.writer(out, delimiter=draw(st.sampled_from([",", ";", "\t"])))
    for row in draw(table()):
        writer.writerow(["" if v is None else v for v in row])
    return encode(draw, out.getvalue())


@st.composite
def xlsx_file(draw) -> bytes:
    import xlsxwriter
    if draw(st.integers(0, 14)) == 0:
        return draw(st.binary(max_size=400))
    buf = io.BytesIO()
    book = xlsxwriter.Workbook(buf, {"in_memory": True, "strings_to_formulas": False, "strings_to_numbers": False,
                                     "strings_to_urls": False})
    sheet_names: set[str] = set()
    for _ in range(draw(st.integers(1, 3))):
        title = draw(st.text(alphabet="ABCabc xyz-_0123", min_size=1, max_size=12)).strip() or "S"
        if title.lower() in sheet_names:
            continue
        sheet_names.add(title.lower())
        ws = book.add_worksheet(title)
        for r, row in enumerate(draw(table())):
            for c, value in enumerate(row):
                if value is None:
                    continue
                if r and draw(st.integers(0, 12)) == 0:
                    ws.write_formula(r, c, "=1+1", None, draw(st.sampled_from([2, "#N/A", "#DIV/0!", "x", 0])))
                elif isinstance(value, str):
                    ws.write_string(r, c, value.replace("\x00", "").encode("utf-8", "replace").decode("utf-8"))
                else:
                    ws.write(r, c, value)
    book.close()
    return buf.getvalue()


json_value = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | junk,
                          lambda inner: st.lists(inner, max_size=4) | st.dictionaries(junk, inner, max_size=4),
                          max_leaves=12)
json_card = st.one_of(name, json_value, st.fixed_dictionaries({"card": name}, optional={
    "quantity": quantity | json_value, "set": st.sampled_from(["ME", "SE", "??"]) | json_value,
    "attach": name, "qty": st.integers()}))


@st.composite
def json_file(draw) -> bytes:
    kind = draw(st.integers(0, 9))
    if kind == 0:
        return draw(st.binary(max_size=400))
    if kind == 1:
        data = draw(json_value)
    else:
        data = {"format": draw(st.sampled_from(["type1e", "type2", "nope", None]) | json_value),
                "sections": draw(st.dictionaries(st.sampled_from(SECTIONS) | junk, st.lists(json_card, max_size=8)
                                                 | json_value, max_size=4))}
        if draw(st.booleans()):
            data["players"] = draw(st.lists(st.fixed_dictionaries({"name": name, "hero": name}) | json_value,
                                            max_size=3) | json_value)
        if draw(st.booleans()):
            data["player"] = draw(name | json_value)
    text = json.dumps(data, ensure_ascii=draw(st.booleans()))
    return encode(draw, text)


def assert_contract(r: Result) -> list[dict]:
    """Exit code of the contract, no traceback, every stdout line a §3 object; the reports."""
    assert r.crash is None, r.crash
    assert r.code in (0, 1, 2), (r.code, r.err[-500:])
    reports = [json.loads(line) for line in r.out.decode("utf-8").splitlines()]
    for report in reports:
        assert list(report)[:7] == ["deck", "format", "legal", "persona", "counts", "issues", "input_errors"]
        assert (report["legal"] is None) == bool(report["input_errors"])
    if reports:
        worst = max(2 if rep["legal"] is None else (0 if rep["legal"] else 1) for rep in reports)
        assert r.code == worst
    else:
        assert r.code == 2 and b"error:" in r.err
    return reports


def check_file(suffix: str, data: bytes) -> None:
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / f"deck{suffix}"
        path.write_bytes(data)
        assert_contract(run_cli("check", str(path), "--json"))
        terminal = run_cli("check", str(path))
        assert terminal.crash is None, terminal.crash
        assert terminal.code in (0, 1, 2)
        for raw in (b"\x1b", b"\x07", "\x9b".encode(), "\u202e".encode()):
            assert raw not in terminal.out + terminal.err


@SETTINGS
@given(data=text_file())
def test_text_decklists(cli_env, data):
    check_file(".txt", data)


@SETTINGS
@given(data=csv_file())
def test_csv_decklists(cli_env, data):
    check_file(".csv", data)


@SETTINGS
@given(data=xlsx_file())
def test_xlsx_decklists(cli_env, data):
    check_file(".xlsx", data)


@SETTINGS
@given(data=json_file())
def test_json_decklists(cli_env, data):
    check_file(".json", data)


@SETTINGS
@given(data=text_file())
def test_standard_input(cli_env, data):
    assert_contract(run_cli("check", "-", "--json", stdin=data))


@settings(SETTINGS, max_examples=6)
@given(files=st.lists(st.tuples(st.sampled_from([".txt", ".csv", ".xlsx", ".json"]), st.data()), min_size=1,
                      max_size=4))
def test_tournament_batch(cli_env, files):
    makers = {".txt": text_file(), ".csv": csv_file(), ".xlsx": xlsx_file(), ".json": json_file()}
    with tempfile.TemporaryDirectory() as d:
        for i, (suffix, data) in enumerate(files):
            (Path(d) / f"deck{i}{suffix}").write_bytes(data.draw(makers[suffix]))
        out = Path(d) / "report.json"
        r = run_cli("tournament", "check", d, "--json", "--out", str(out))
        assert r.crash is None, r.crash
        assert r.code in (0, 1, 2)
        rows = [json.loads(line) for line in r.out.decode().splitlines()]
        if out.exists():
            assert json.loads(out.read_text()) == rows


@pytest.mark.parametrize("command", [("collection", "import", "--dry-run"), ("cards", "import", "--dry-run"),
                                     ("taktik", "deal"), ("check", "-", "--cards")])
@settings(SETTINGS, max_examples=8)
@given(suffix_data=st.sampled_from([".csv", ".xlsx"]).flatmap(lambda s: st.tuples(
    st.just(s), csv_file() if s == ".csv" else xlsx_file())))
def test_sheet_commands(cli_env, command, suffix_data):
    suffix, data = suffix_data
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / f"sheet{suffix}"
        path.write_bytes(data)
        r = run_cli(*command, str(path), stdin=b"3 Thrust\n")
        assert r.crash is None, r.crash
        assert r.code in (0, 1, 2), (r.code, r.err[-500:])
        for raw in (b"\x1b", "\x9b".encode()):
            assert raw not in r.out + r.err


# -- decklists handed over as text (library calls, web forms): the limits of a file ----------------------
LIMITS = texts_past_limits()


@pytest.mark.parametrize("name", sorted(LIMITS))
def test_text_past_a_limit_is_refused_as_a_file_is(cli_env, tmp_path, name):
    """check_text gives the report `check -` gives; deck_stats and deck_diff raise DecklistError; same words."""
    import deckcheck
    from deckcheck.errors import DecklistError
    text, words = LIMITS[name]
    report = deckcheck.check_text(text).as_dict()
    assert report["legal"] is None and [e["line"] for e in report["input_errors"]] == [None]
    assert report["input_errors"][0]["message"].startswith(f"-: {words}")
    if name != "lone-surrogate":  # no UTF-8 byte stream holds one: standard input says "not UTF-8" instead
        assert assert_contract(run_cli("check", "-", "--json", stdin=text.encode("utf-8"))) == [report]
        path = tmp_path / "deck.txt"
        path.write_text(text, encoding="utf-8")
        (from_file,) = assert_contract(run_cli("check", str(path), "--json"))
        assert from_file["input_errors"][0]["message"].startswith(f"{path}: {words}")
    with pytest.raises(DecklistError, match=re.escape(words)):
        deckcheck.deck_stats(text)
    with pytest.raises(DecklistError, match=re.escape(words)):
        deckcheck.deck_diff("3 Thrust\n", text)


@st.composite
def pasted_text(draw) -> str:
    """A text decklist as a string, now and then with a line past the limit, a NUL or a lone surrogate."""
    lines = draw(text_decklist()).splitlines()
    extra = draw(st.sampled_from(["", "", "x" * 4097, "3 Thr\x00ust", "3 Thr\ud800ust", "# " + "y" * 4094]))
    lines.insert(draw(st.integers(0, len(lines))), extra)
    return "\n".join(lines)


@settings(SETTINGS, max_examples=12)
@given(text=pasted_text())
def test_check_text_equals_standard_input(cli_env, text):
    """Whatever the text, deckcheck.check_text returns the report `check -` prints for its UTF-8 bytes."""
    import deckcheck
    report = deckcheck.check_text(text).as_dict()
    assert (report["legal"] is None) == bool(report["input_errors"])
    if "\ud800" not in text:
        assert assert_contract(run_cli("check", "-", "--json", stdin=text.encode("utf-8"))) == [report]


def test_a_named_pipe_in_a_folder_is_reported_not_waited_on(cli_env, tmp_path):
    # `check FOLDER` with a FIFO named like a decklist waited for ever on it (found by the trial)
    import os

    from deckcheck.library.api import UnreadableFolder, expand_paths
    (tmp_path / "a.txt").write_text("Persona: Connor MacLeod\n3 Thrust\n", encoding="utf-8")
    os.mkfifo(tmp_path / "pipe.txt")
    found = expand_paths([tmp_path])
    assert isinstance(found[1], UnreadableFolder) and "named pipe" in str(found[1])
    result = run_cli("check", "-q", str(tmp_path))
    assert result.code == 2 and result.crash is None
    assert "pipe.txt: UNREADABLE" in result.text and "a.txt: NOT LEGAL" in result.text


# -- a Taktik table's Deck lines that write several cards (`K♠, 2♥`, `QH AS`) -----------------------------
TAKTIK_RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
TAKTIK_SUITS = {"S": ("♠", "Pik"), "H": ("♥", "Herz"), "D": ("♦", "Karo"), "C": ("♣", "Kreuz")}
GERMAN_RANK = {"A": "Ass", "J": "Bube", "Q": "Dame", "K": "König"}
ENGLISH = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}
SUIT_WORD = {"S": "Spades", "H": "Hearts", "D": "Diamonds", "C": "Clubs"}
TAKTIK_FORMS = [  # the ways the deal reads a card (deckcheck.games.taktik.read_playing_card)
    lambda r, s: f"{r}{s}", lambda r, s: f"{r}{s}".lower(), lambda r, s: f"{r}{TAKTIK_SUITS[s][0]}",
    lambda r, s: f"{TAKTIK_SUITS[s][1]} {GERMAN_RANK.get(r, r)}",
    lambda r, s: f"{GERMAN_RANK.get(r, r)} {TAKTIK_SUITS[s][1]}",
    lambda r, s: f"{TAKTIK_SUITS[s][1]}{GERMAN_RANK.get(r, r)}".lower(),
    lambda r, s: f"{TAKTIK_SUITS[s][1]}-{GERMAN_RANK.get(r, r)}",
    lambda r, s: f"{ENGLISH.get(r, r)} of {SUIT_WORD[s]}", lambda r, s: f"{ENGLISH.get(r, r)} {SUIT_WORD[s]}",
]
taktik_card = st.tuples(st.sampled_from(TAKTIK_RANKS), st.sampled_from(list(TAKTIK_SUITS)),
                        st.integers(0, len(TAKTIK_FORMS) - 1))


@st.composite
def taktik_deck(draw) -> tuple[str, dict[str, int] | None]:
    """A Taktik table's Deck of lines each writing several cards in any form the deal reads, separated by commas,
    semicolons or spaces (trailing marks, a card twice, an item's own quantity); now and then a junk item or one
    quantity before space-separated cards. With it the copies of each card, when every line is right (else None)."""
    lines, right = [], True
    held: dict[str, int] = {}
    for _ in range(draw(st.integers(1, 6))):
        mark = draw(st.sampled_from([", ", ";", " ", "  ", " , "]))
        items = []
        for rank, suit, form in draw(st.lists(taktik_card, min_size=1, max_size=8)):
            quantity = draw(st.integers(1, 3)) if mark.strip() else 1
            items.append((f"{quantity}x " if quantity > 1 else "") + TAKTIK_FORMS[form](rank, suit))
            name = f"{ENGLISH.get(rank, rank)} of {SUIT_WORD[suit]}"
            held[name] = held.get(name, 0) + quantity
        kind = draw(st.integers(0, 9))
        if kind == 0:  # a junk item: whatever it makes of the line, the command keeps its contract
            items.insert(draw(st.integers(0, len(items))), draw(junk))
            right = False
        elif kind == 1 and not mark.strip() and len(items) > 1:  # `2x QH AS`: an input error
            items[0] = "2x " + items[0]
            right = False
        line = mark.join(items) + draw(st.sampled_from(["", ",", ";", ", ,"]) if mark.strip() else st.just(""))
        if re.fullmatch(r"\d+ (pik|herz|karo|kreuz) as", line, re.IGNORECASE):
            right = False  # `2 Pik AS` reads as two Aces of Spades (`Pik As`): a reading whose name exists wins
        lines.append(draw(st.sampled_from(["", "- ", "* "])) + line)
    return "Format: taktik52\nDeck:\n" + "\n".join(lines) + "\n", held if right else None


@SETTINGS
@given(deck=taktik_deck())
def test_taktik_lines_of_several_cards(cli_env, deck):
    """Through `check -`: the contract always; a Deck written right is read as exactly its cards, each counted
    as written (a card twice is two copies), whatever form and mark wrote them."""
    text, held = deck
    (report,) = assert_contract(run_cli("check", "-", "--json", stdin=text.encode("utf-8")))
    if held is not None:
        assert report["input_errors"] == [], (text, report["input_errors"])
        assert report["counts"]["Deck"] == sum(held.values()), text
        extra = next((i["message"] for i in report["issues"] if i["rule"] == "TK-DECK-COMPLETE"), "")
        for card, copies in held.items():
            if copies > 1:
                assert f"{copies - 1} x {card}" in extra, (text, extra)
