"""The tournament desk as a library, on SQLite and PostgreSQL: tokens, ids, submissions, races, limits, reports."""
from __future__ import annotations

import csv
import datetime as dt
import io
import json
import threading
import uuid

import pytest

from deckcheck.rates import RateError

from deckcheck.library.desk import MAX_DECKLIST_BYTES, Desk, RateLimit
from deckcheck.errors import UnknownFormatError
from deckcheck.desk import (DeskError, EventClosed, EventNotFound, NotAuthorised, RateLimited, TooLarge, WrongToken,
                            hash_token, parse_deadline, player_key)

from conftest import EXAMPLE_DECKS as DECKS, ILLEGAL, LEGAL, ROOT, TYPO


@pytest.fixture(scope="module")
def module_desk(module_db_url):
    d = Desk(module_db_url, rate_limit=RateLimit(0))
    yield d
    d.store.dispose()


@pytest.fixture
def desk(module_desk):
    return module_desk


@pytest.fixture
def db_url(module_db_url):
    """Tests that make desks of their own share the module's database too."""
    return module_db_url


def test_token_is_32_random_bytes_and_only_its_hash_is_stored(desk):
    event, token = desk.create_event("Spring Open", "type1e")
    other, other_token = desk.create_event("Spring Open", "type1e")
    import base64
    assert len(base64.urlsafe_b64decode(token + "=")) == 32
    assert token != other_token and event.id != other.id and len(event.id) >= 16
    from sqlalchemy import text
    with desk.store.engine.connect() as con:
        stored = [tuple(r) for r in con.execute(text("select * from desk_event")).all()]
    assert not any(token in str(v) for row in stored for v in row)
    assert any(hash_token(token) in row for row in stored)


def test_authorise_needs_the_events_own_token(desk):
    event, token = desk.create_event("Open", "type1e")
    other, other_token = desk.create_event("Other", "type1e")
    assert desk.authorise(event.id, token).id == event.id
    with pytest.raises(NotAuthorised):
        desk.authorise(event.id, None)
    with pytest.raises(NotAuthorised):
        desk.authorise(event.id, "")
    with pytest.raises(WrongToken):
        desk.authorise(event.id, other_token)
    with pytest.raises(WrongToken):
        desk.authorise(event.id, token[:-1])
    with pytest.raises(WrongToken):  # an unknown event answers like a wrong token: ids are not revealed
        desk.authorise("no-such-event", token)


def test_newest_submission_counts_and_every_one_is_kept(desk):
    event, _ = desk.create_event("Open", "type1e", expected=["Anna", "Bob", "Carl"])
    first = desk.submit_deck(event.id, "Anna", ILLEGAL)
    second = desk.submit_deck(event.id, "  anna ", LEGAL, replaces=first.id)  # through her private link
    desk.submit_deck(event.id, "Bob", TYPO)
    rows = desk.rows(event.id)
    assert [(r.player_key if hasattr(r, "player_key") else player_key(r.player), r.verdict, r.submissions)
            for r in rows] == [("anna", "legal", 2), ("bob", "unreadable", 1)]
    assert rows[0].deck_id == second.id
    assert [s.id for s in desk.history(second)] == [first.id, second.id]
    assert desk.submission(event.id, first.id).verdict == "NOT LEGAL"
    assert desk.missing(desk.event(event.id)) == ["Carl"]
    assert [r.player for r in desk.rows(event.id, verdicts=("unreadable",))] == ["Bob"]
    assert [r.player for r in desk.rows(event.id, search="connor")] == ["Anna"]  # the name first given


def test_a_deck_is_found_only_in_its_own_event(desk):
    event, _ = desk.create_event("Open", "type1e")
    other, _ = desk.create_event("Other", "type1e")
    deck = desk.submit_deck(event.id, "Anna", LEGAL)
    with pytest.raises(EventNotFound):
        desk.submission(other.id, deck.id)
    with pytest.raises(EventNotFound):
        desk.submit_deck("nope", "Anna", LEGAL)


def test_no_submission_after_the_deadline_or_the_close(desk):
    past = dt.datetime.now(dt.timezone.utc) - dt.timedelta(seconds=1)
    late, _ = desk.create_event("Late", "type1e", deadline=past)
    with pytest.raises(EventClosed):
        desk.submit_deck(late.id, "Anna", LEGAL)
    event, _ = desk.create_event("Open", "type1e", deadline=past + dt.timedelta(hours=1))
    desk.submit_deck(event.id, "Anna", LEGAL)
    closed = desk.close_event(event.id)
    assert closed.closed_at is not None and not closed.is_open()
    with pytest.raises(EventClosed):  # the web answers it 409 (web/errors.py)
        desk.submit_deck(event.id, "Anna", ILLEGAL)
    assert [r.verdict for r in desk.rows(event.id)] == ["legal"]
    assert desk.close_event(event.id).closed_at == closed.closed_at  # closing twice keeps the first time


def test_the_store_refuses_a_submission_racing_the_close(desk):
    """The open check is repeated in the insert itself: a deck checked before the close is not stored after it."""
    event, _ = desk.create_event("Open", "type1e")
    report_values = {"id": "x" * 16, "event_id": event.id, "player": "Anna", "player_key": "anna",
                     "submitted_at": dt.datetime.now(dt.timezone.utc), "report": "{}"}
    desk.close_event(event.id)
    with pytest.raises(EventClosed):
        desk.tables.add_submission(report_values)
    assert desk.tables.count_submissions(event.id) == 0


def test_bad_input_is_a_typed_error(desk):
    with pytest.raises(UnknownFormatError):
        desk.create_event("Open", "no-such-format")
    with pytest.raises(DeskError, match="event name is empty"):
        desk.create_event("  ", "type1e")
    event, _ = desk.create_event("Open", "type1e")
    with pytest.raises(DeskError, match="player name is empty"):
        desk.submit_deck(event.id, "\x00 ", LEGAL)
    with pytest.raises(DeskError, match="at most 80"):
        desk.submit_deck(event.id, "A" * 81, LEGAL)
    with pytest.raises(DeskError, match="no decklist"):
        desk.submit_deck(event.id, "Anna", "  ")
    with pytest.raises(TooLarge):
        desk.submit_deck(event.id, "Anna", "1 Thrust\n" * (MAX_DECKLIST_BYTES // 9 + 1))
    with pytest.raises(DeskError, match="not a date"):
        parse_deadline("tomorrow")
    assert desk.tables.count_submissions(event.id) == 0


def test_decks_read_from_files_and_unreadable_files_are_reports(desk):
    from deckcheck.library.api import unreadable
    from deckcheck.importers.decklists import read_decklists
    event, _ = desk.create_event("Open", "type1e")
    methos = desk.submit_deck(event.id, "Methos", read_decklists(DECKS / "type1e-methos.json"), "type1e-methos.json")
    assert methos.source == "type1e-methos.json" and methos.report.legal is not None
    assert "Endurance:" in methos.text and methos.report.deck == "type1e-methos.json"
    richie = desk.submit_deck(event.id, "Richie", read_decklists(DECKS / "type1e-richie-ryan.csv"), "richie.csv")
    assert richie.report.counts and richie.report.player == "Richie"
    broken = desk.submit_deck(event.id, "Carl", unreadable("deck.xlsx", DeskError("deck.xlsx: not a workbook")),
                              "deck.xlsx")
    assert broken.verdict == "unreadable" and broken.report.format == "type1e"
    several = desk.submit_deck(event.id, "Dora", read_decklists(ROOT / "examples" / "tournament" / "registration.csv"),
                               "registration.csv")
    assert several.verdict == "unreadable" and "submit only yours" in several.report.input_errors[0].message
    assert [r.verdict for r in desk.rows(event.id)][2:] == ["unreadable", "unreadable"]


def test_reports_are_the_clis_reports_of_the_same_decks(desk, tmp_path):
    from deckcheck.library.api import check_tournament
    event, _ = desk.create_event("Open", "type1e")
    folder = tmp_path / "decks"
    folder.mkdir()
    for player, text in (("anna", LEGAL), ("bob", ILLEGAL), ("carl", TYPO)):
        desk.submit_deck(event.id, player, text)
        (folder / f"{player}.txt").write_text(text)
    cli = check_tournament([folder], fmt="type1e", db_url=desk.store.url)
    ours = list(csv.reader(io.StringIO(desk.report_file(event.id, "csv").decode("utf-8-sig"))))
    theirs = cli.summary_rows()
    assert [(r[0], r[6], r[7], r[8]) for r in ours[1:]] == [(r[0], r[6], str(r[7]), str(r[8])) for r in theirs]
    reports = json.loads(desk.report_file(event.id, "json"))
    assert [{k: v for k, v in r.items() if k not in ("deck", "source", "submitted_at")} for r in reports] == \
           [{k: v for k, v in r.items() if k not in ("deck", "source", "submitted_at")} for r in cli.as_dicts()]
    from python_calamine import CalamineWorkbook
    book = CalamineWorkbook.from_filelike(io.BytesIO(desk.report_file(event.id, "xlsx")))
    assert book.sheet_names == ["Summary", "Issues", "Input errors"]
    summary = book.get_sheet_by_name("Summary").to_python()
    assert [(r[0], r[6]) for r in summary[1:]] == [(r[0], r[6]) for r in theirs]
    with pytest.raises(EventNotFound):
        desk.report_file(event.id, "exe")


def test_rate_limit_is_shared_by_every_process_on_the_database(db_url):
    one, two = Desk(db_url, rate_limit=RateLimit(3, 3600)), Desk(db_url, rate_limit=RateLimit(3, 3600))
    address = f"10.0.0.{uuid.uuid4()}"
    try:
        event, _ = one.create_event("Open", "type1e")
        one.submit_deck(event.id, "Anna", LEGAL, address=address)
        two.submit_deck(event.id, "Bob", LEGAL, address=address)
        one.submit_deck(event.id, "Carl", LEGAL, address=address)
        with pytest.raises(RateLimited) as caught:
            two.submit_deck(event.id, "Dora", LEGAL, address=address)
        assert caught.value.retry_after > 0  # the web answers it 429 with Retry-After (web/errors.py)
        two.submit_deck(event.id, "Dora", LEGAL, address=address + "b")  # another address has its own count
        assert len(one.rows(event.id)) == 4
    finally:
        one.store.dispose()
        two.store.dispose()


def test_rate_limit_setting():
    assert RateLimit.parse("10/30") == RateLimit(10, 30)
    assert RateLimit.parse("0") == RateLimit(0, 60)
    for bad in ("ten", "5/0", "-1/60"):
        with pytest.raises(RateError):
            RateLimit.parse(bad)


def race(desks: list[Desk], submit_one, count: int = 8) -> tuple[list, list]:
    """`count` calls of submit_one(desk, n) at once, from separate engines (as separate processes): the answers
    and the failures."""
    start = threading.Barrier(count)
    results, failures = [], []

    def submit(n: int) -> None:
        start.wait()
        try:
            results.append(submit_one(desks[n % len(desks)], n))
        except Exception as exc:  # noqa: BLE001 - any failure is what the test looks for
            failures.append(exc)

    threads = [threading.Thread(target=submit, args=(n,)) for n in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results, failures


@pytest.fixture
def desks(db_url):
    """Four desks on one database, each with its own engine, connected (and the cards indexed) before a race."""
    desks = [Desk(db_url, rate_limit=RateLimit(0)) for _ in range(4)]
    event, _ = desks[0].create_event("Open", "type1e")
    for d in desks:
        d.check_deck(d.event(event.id), "x", LEGAL)
    yield desks, event
    for d in desks:
        d.store.dispose()


def test_racing_submissions_for_one_player_leave_exactly_one_current_deck(desks):
    """Eight resubmissions of one player at once, each through her private link, as from separate processes."""
    desks, event = desks
    first = desks[0].submit_deck(event.id, "Anna", LEGAL)
    results, failures = race(desks, lambda d, n: d.submit_deck(event.id, "Anna" if n % 2 else "anna", LEGAL,
                                                               replaces=first.id))
    assert failures == []
    rows = desks[0].rows(event.id)
    assert len(rows) == 1 and rows[0].submissions == 9 and not rows[0].name_shared
    history = desks[0].history(first)
    assert len(history) == 9 and rows[0].deck_id == history[-1].id  # the last to arrive counts
    assert sorted(s.number for s in results) == list(range(2, 10))  # stored one after the other
    assert next(s.id for s in results if s.number == 9) == rows[0].deck_id


def test_players_racing_under_one_name_get_separate_numbered_decks(desks):
    """Issue 28, a name is not a key: eight players typing one name at once are eight players, none sees another's
    decks, and the organiser sees every one of them flagged."""
    desks, event = desks
    results, failures = race(desks, lambda d, n: d.submit_deck(event.id, "Anna" if n % 2 else "anna", LEGAL))
    assert failures == []
    assert sorted(s.player.casefold() for s in results) == ["anna"] + [f"anna ({n})" for n in range(2, 9)]
    assert all(s.number == 1 and desks[0].history(s) == [desks[0].submission(event.id, s.id)] for s in results)
    assert sum(bool(s.name_taken) for s in results) == 7
    rows = desks[0].rows(event.id)
    assert len(rows) == 8 and all(r.name_shared and r.submissions == 1 for r in rows)


def test_sqlite_writers_of_two_processes_take_turns(sqlite_url, tmp_path):
    """A submission waits, without error, while another process holds the writers' turn on the file.

    The turn is an advisory lock (flock) on the database file, beside SQLite's own locks: a writer that
    waits there is woken as soon as the one before it is done, instead of sleeping in SQLite's retries.
    """
    import subprocess
    import sys
    pytest.importorskip("fcntl")
    desk = Desk(sqlite_url, rate_limit=RateLimit(0))
    event, _token = desk.create_event("Turns", "type1e")
    path = sqlite_url.removeprefix("sqlite:///")
    holder = subprocess.Popen(
        [sys.executable, "-c", "import fcntl, os, sys\n"
         f"fd = os.open({path!r}, os.O_RDONLY); fcntl.flock(fd, fcntl.LOCK_EX); print('held', flush=True)\n"
         "sys.stdin.read()"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        done: list = []
        worker = threading.Thread(target=lambda: done.append(desk.submit_deck(event.id, "Ann", LEGAL)))
        worker.start()
        worker.join(0.5)
        assert worker.is_alive() and not done and desk.rows(event.id) == []  # waiting for its turn
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(10)
    worker.join(10)
    assert not worker.is_alive() and len(done) == 1
    assert [row.player for row in desk.rows(event.id)] == ["Ann"]


def test_a_file_system_without_flock_still_takes_submissions(sqlite_url, monkeypatch):
    """The writers' turn is a speed-up: where the file system refuses flock, SQLite's own waiting does."""
    import errno
    fcntl = pytest.importorskip("fcntl")

    def no_locks(fd: int, operation: int) -> None:
        raise OSError(errno.ENOLCK, "No locks available")
    monkeypatch.setattr(fcntl, "flock", no_locks)
    desk = Desk(sqlite_url, rate_limit=RateLimit(0))
    event, _token = desk.create_event("No locks", "type1e")
    desk.submit_deck(event.id, "Ann", LEGAL)
    assert [row.player for row in desk.rows(event.id)] == ["Ann"]


def test_tokens_are_compared_in_constant_time(desk, monkeypatch):
    """Every token check, for a known event or not, goes through hmac.compare_digest (never ==)."""
    import hmac

    import deckcheck.desk as pure
    event, token = desk.create_event("Open", "type1e")
    calls: list[tuple[str, str]] = []
    real = hmac.compare_digest

    def spy(a, b):
        calls.append((a, b))
        return real(a, b)
    monkeypatch.setattr(pure.hmac, "compare_digest", spy)
    assert desk.authorise(event.id, token).id == event.id
    for wrong in (token[:-1] + ("y" if token.endswith("x") else "x"), "x"):  # never the token itself
        with pytest.raises(WrongToken):
            desk.authorise(event.id, wrong)
    with pytest.raises(WrongToken):
        desk.authorise("no-such-event", token)
    assert len(calls) == 4 and all(len(a) == len(b) == 64 for a, b in calls)  # hashes of equal length
    assert calls[0] == (hash_token(token), hash_token(token))


def test_names_ids_and_deadlines_from_strangers():
    """The pure rules under the desk's 400s: what a name keeps, what an id may be, which deadlines are taken."""
    from deckcheck.desk import clean_name, expected_players, is_id, new_id
    assert clean_name("\u202eAnna\u200b \x00 Smith\u2069", "player name", 80) == "Anna Smith"
    assert clean_name("Jose\u0301", "player name", 80) == "Jos\u00e9"
    assert clean_name("\u0639\u0644\u064a", "player name", 80) == "\u0639\u0644\u064a"
    assert clean_name("Zo\u00eb \U0001F468\u200d\U0001F469", "player name", 80) == "Zo\u00eb \U0001F468\u200d\U0001F469"
    for bad, message in (("\ud800", "is empty"), ("\u200b\ufeff", "is empty"), ("\x85", "is empty"),
                         (["Anna"], "must be text, not a list"), (3, "must be text, not a number")):
        with pytest.raises(DeskError, match=message):
            clean_name(bad, "player name", 80)
    assert expected_players("Anna\n\nanna \nBob\u200b") == ["Anna", "Bob"]
    with pytest.raises(DeskError, match="names"):
        expected_players(["Anna", None])  # type: ignore[list-item]
    assert is_id(new_id()) and not any(is_id(x) for x in ("", "a\x00", "x" * 65, "a b", "\u00e9", None, 5))
    assert parse_deadline("2030-07-01T10:00", 120) == dt.datetime(2030, 7, 1, 8, 0, tzinfo=dt.timezone.utc)
    assert parse_deadline("2030-07-01T10:00Z", 120) == dt.datetime(2030, 7, 1, 10, 0, tzinfo=dt.timezone.utc)
    assert parse_deadline("  ") is None and parse_deadline(None) is None
    for bad in ("0001-01-01T00:30+01:00", "9999-12-31T23:59-01:00", "1969-12-31T23:59Z", "9999-01-01T00:00Z",
                "2030-02-30T10:00", "2030-01-01T10:00+24:00", 1767225600, ["2030-01-01"]):
        with pytest.raises(DeskError):
            parse_deadline(bad)  # type: ignore[arg-type]


def test_a_submission_the_deadline_overtakes_is_refused_by_the_insert_itself(desk, monkeypatch):
    """Issue 28: the deadline dropped from the insert's own recheck was caught by no test. Here the desk's first look
    finds the event open (its deadline an hour away), and the deck is stamped past the deadline (a check that took
    that long): only the INSERT's own recheck can refuse it, and nothing is stored. A resubmission likewise."""
    from deckcheck.library import desk as desk_module
    deadline = dt.datetime.now(dt.timezone.utc) + dt.timedelta(hours=1)
    event, _ = desk.create_event("Late", "type1e", deadline=deadline)
    first = desk.submit_deck(event.id, "Anna", LEGAL)
    monkeypatch.setattr(desk_module, "now", lambda: deadline + dt.timedelta(seconds=1))
    assert desk.event(event.id).is_open()  # the check before the insert lets it through
    for replaces in (None, first.id):
        with pytest.raises(EventClosed):
            desk.submit_deck(event.id, "Bob" if replaces is None else "Anna", ILLEGAL, replaces=replaces)
    rows = desk.rows(event.id)
    assert [(r.player, r.submissions, r.deck_id) for r in rows] == [("Anna", 1, first.id)]
    assert desk.tables.count_submissions(event.id) == 1
