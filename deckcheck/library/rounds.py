"""An event's rounds and standings as library calls: check-in from the submitted lists, Swiss rounds, results from
the organiser or from players' phones, drops, standings, a top cut, and their exports.

The rules are deckcheck.swiss (pure); the SQL is deckcheck.db.rounds. Players are their entries in the event
(the key of their decks), shown under their display names (the expected spelling, else their first).
"""
from __future__ import annotations

import io
import json
import secrets
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import swiss
from ..db.rounds import RoundTables, StoredRound
from ..desk import DeskError, Event, EventNotFound, ListsNotLocked, RoundRefused, new_id, now, stamp, text_field
from ..importers.writers import SheetSpec, write_csv_to, write_xlsx
from .desk import Desk

ORGANISER = "organiser"  # reported_by of the organiser's results; a player's is "player:NAME"
EXPORT_KINDS = ("csv", "json", "xlsx")
MAX_SEED = 64
MAX_CLAIM_NOTE = 500
DECISIONS = ("claim", "reported")  # how the organiser settles a dispute: the result claimed, or the one reported


@dataclass(frozen=True)
class Table:
    """A table of a round as pages show it: names, the result, who reported it."""

    round: int
    table: int
    a: str
    b: str | None
    result: swiss.Result | None
    reported_by: str
    a_key: str
    b_key: str

    @property
    def done(self) -> bool:
        """Whether the table has its result (a bye always has)."""
        return self.b is None or self.result is not None

    def reporter(self) -> str:
        """Who reported the result, in words ("the organiser", "Anna")."""
        if self.reported_by == ORGANISER:
            return "the organiser"
        return self.reported_by.removeprefix("player:")

    def as_dict(self) -> dict[str, Any]:
        """CONTRACTS §6's pairing, with its result and reporter once reported."""
        out: dict[str, Any] = {"table": self.table, "a": self.a, "b": self.b}
        if self.result is not None:
            out |= {"a_wins": self.result.a_wins, "b_wins": self.result.b_wins, "draws": self.result.draws,
                    "reported_by": self.reporter()}
        return out


@dataclass(frozen=True)
class Board:
    """Everything an event's rounds page shows: the players, each round's tables, the drops, the standings."""

    event: Event
    players: dict[str, str]  # entry key -> display name
    rounds: list[tuple[StoredRound, list[Table]]]
    dropped: dict[str, int]
    standings: list[swiss.Standing]  # player = display name

    @property
    def current(self) -> list[Table]:
        """The tables of the last round ([] before round one)."""
        return self.rounds[-1][1] if self.rounds else []

    @property
    def waiting(self) -> list[Table]:
        """The last round's tables without a result."""
        return [t for t in self.current if not t.done]

    @property
    def top_started(self) -> bool:
        """Whether the top cut has begun."""
        return any(r.top for r, _ in self.rounds)

    def active(self) -> list[str]:
        """The players still in the event, by name."""
        return [name for key, name in sorted(self.players.items(), key=lambda kv: kv[1].casefold())
                if key not in self.dropped]


class Rounds:
    """The rounds of the desk's events."""

    def __init__(self, desk: Desk):
        self.desk = desk
        self.tables = RoundTables(desk.store.engine)

    # -- reading --------------------------------------------------------------------------------
    def players(self, event: Event) -> dict[str, str]:
        """Check-in: every player with a submitted list, entry key -> display name."""
        current = self.desk.tables.current(event.id)
        return {r.player_key: event.display_name(r.first_spelling or r.player) for r in current}

    def board(self, event_id: str, upto: int | None = None) -> Board:
        """The event's rounds as they stand now, or (`upto`) as they stood once round `upto` was played: its rounds
        up to that one, the standings after it, the drops made by then. EventNotFound for a round not started."""
        event = self.desk.event(event_id)
        players = self.players(event)
        stored = self.tables.rounds(event_id)
        dropped = self.tables.drops(event_id)
        if upto is not None:
            if not any(r.number == upto for r in stored):
                raise EventNotFound(f"no round {upto} in this event")
            stored = [r for r in stored if r.number <= upto]
            dropped = {key: after for key, after in dropped.items() if after < upto}  # gone before a later round
        name = players.get
        rounds = [(r, [Table(r.number, p.table, name(p.a_key, p.a_key), name(p.b_key, p.b_key) if p.b_key else None,
                             _result(p.a_wins, p.b_wins, p.draws), p.reported_by, p.a_key, p.b_key)
                       for p in r.pairings]) for r in stored]
        keyed = swiss.standings(list(players), _engine_rounds(stored), dropped, event.tiebreakers)
        table = [swiss.Standing(s.rank, players.get(s.player, s.player), s.points, s.matches, s.wins, s.losses,
                                s.draws, s.omw, s.gw, s.ogw, s.mw, s.dropped) for s in keyed]
        return Board(event, players, rounds, dropped, table)

    def standings(self, event_id: str) -> list[dict[str, Any]]:
        """CONTRACTS §6's standings, best first."""
        return [s.as_dict() for s in self.board(event_id).standings]

    def round_of(self, event_id: str, number: int) -> list[Table]:
        """The tables of one round; EventNotFound when there is no such round."""
        for r, tables in self.board(event_id).rounds:
            if r.number == number:
                return tables
        raise EventNotFound(f"no round {number} in this event")

    # -- changing -------------------------------------------------------------------------------
    def start(self, event_id: str, seed: object = None, top: object = None) -> dict[str, Any]:
        """The next round, stored: Swiss, or (with `top`: 2, 4, 8...) the first round of a top cut, then its next
        ones. ListsNotLocked before the lists are locked; RoundRefused while the last round lacks results."""
        event = self.desk.event(event_id)
        if event.locked_at is None:
            raise ListsNotLocked("the lists are not locked yet: rounds start once the deadline passed or the "
                                 "organiser closed the event")
        stored = self.tables.rounds(event_id)
        if stored:
            disputed = sorted({c["table"] for c in self.tables.claims(event_id)
                               if c["status"] == "open" and c["round"] == stored[-1].number})
            if disputed:
                raise RoundRefused(f"the result of table {', '.join(map(str, disputed))} of round "
                                   f"{stored[-1].number} is disputed: settle it first")
        players = self.players(event)
        dropped = self.tables.drops(event_id)
        seed_text = stored[0].seed if stored else _seed(seed)
        rounds = _engine_rounds(stored)
        try:
            if top not in (None, "", 0, "0") or any(r.top for r in stored):
                size = _whole(top, "top") if top not in (None, "", 0, "0") else 0
                table = swiss.standings(list(players), rounds, dropped, event.tiebreakers)
                rnd = swiss.top_cut(table, size, rounds)
            else:
                rnd = swiss.pair_round(list(players), rounds, dropped, seed_text, event.tiebreakers)
        except swiss.SwissError as exc:
            raise RoundRefused(str(exc)) from None
        self.tables.add_round(event_id, rnd.number, rnd.top, seed_text, stamp(now()),
                              [(p.table, p.a, p.b or "") for p in rnd.pairings])
        return {"round": rnd.number, "top": rnd.top, "seed": seed_text,
                "pairings": [{"table": p.table, "a": players.get(p.a, p.a),
                              "b": players.get(p.b, p.b) if p.b else None} for p in rnd.pairings]}

    def report(self, event_id: str, number: object, table: object, a_wins: object, b_wins: object,
               draws: object = 0, by: str = ORGANISER, decision: str = "result") -> dict[str, Any]:
        """A table's result (the organiser's overrides any, and settles the table's disputes as `decision`; a
        player's only what the organiser has not entered);
        EventNotFound for a table the round does not have; DeskError for counts that are not games."""
        n, t = _whole(number, "round"), _whole(table, "table")
        try:
            result = swiss.check_result(a_wins, b_wins, draws)
        except swiss.SwissError as exc:
            raise DeskError(str(exc)) from None
        tables = self.round_of(event_id, n)
        found = next((x for x in tables if x.table == t), None)
        if found is None:
            raise EventNotFound(f"no table {t} in round {n}")
        if found.b is None:
            raise RoundRefused(f"table {t} of round {n} is a bye: it has no result to report")
        top = any(r.top and r.number == n for r, _ in self.board(event_id).rounds)
        if top and result.winner == "":
            raise DeskError("a top cut match needs a winner, not a draw")
        changed = self.tables.set_result(event_id, n, t, {
            "a_wins": result.a_wins, "b_wins": result.b_wins, "draws": result.draws, "reported_by": by,
            "reported_at": stamp(now())}, only_unreported=by != ORGANISER)
        if not changed:
            raise RoundRefused(f"the organiser has entered the result of table {t}; if it is wrong, dispute it "
                               "(the organiser settles disputes)")
        if by == ORGANISER:
            self.tables.settle_claims(event_id, n, t, {"decision": decision, "settled_at": stamp(now()),
                                                       "result": _result_json(result)})
        return {"round": n, **Table(n, t, found.a, found.b, result, by, found.a_key, found.b_key).as_dict()}

    def report_by_player(self, event_id: str, deck_id: str, mine: object, theirs: object,
                         draws: object = 0) -> dict[str, Any]:
        """A player's result of their table in the current round, from their own side (their private link)."""
        key = self.desk.submission(event_id, deck_id).key
        board = self.board(event_id)
        table = next((t for t in board.current if key in (t.a_key, t.b_key)), None)
        if table is None or not board.rounds:
            raise RoundRefused("you have no table in the current round")
        name = board.players.get(key, key)
        a, b = (mine, theirs) if key == table.a_key else (theirs, mine)
        if table.result is not None and table.reported_by not in (ORGANISER, f"player:{name}"):
            try:  # the opponent reported first: a different result is a dispute, not the later report winning
                claimed = swiss.check_result(a, b, draws)
            except swiss.SwissError as exc:
                raise DeskError(str(exc)) from None
            if claimed != table.result:
                return {"round": table.round, **table.as_dict(),
                        "dispute": self.dispute(event_id, deck_id, mine, theirs, draws)}
        return self.report(event_id, board.rounds[-1][0].number, table.table, a, b, draws, by=f"player:{name}")

    # -- disputes -------------------------------------------------------------------------------
    def dispute(self, event_id: str, deck_id: str, mine: object, theirs: object, draws: object = 0,
                note: object = "") -> dict[str, Any]:
        """A player disputes the reported result of their table in the current round (their private link), from
        their own side; the organiser settles it (settle), and the next round waits for that. RoundRefused
        without a table, on a bye, or before a result is reported (report it instead); DeskError for a result
        that is not games, the result reported itself, or a note over MAX_CLAIM_NOTE characters."""
        submission = self.desk.submission(event_id, deck_id)
        key = submission.key
        board = self.board(event_id)
        table = next((t for t in board.current if key in (t.a_key, t.b_key)), None)
        if table is None:
            raise RoundRefused("you have no table in the current round")
        if table.b is None or table.result is None:
            raise RoundRefused("a bye has no result to dispute" if table.b is None else
                               f"no result of table {table.table} is reported yet: report it instead")
        a, b = (mine, theirs) if key == table.a_key else (theirs, mine)
        try:
            claimed = swiss.check_result(a, b, draws)
        except swiss.SwissError as exc:
            raise DeskError(str(exc)) from None
        if claimed == table.result:
            raise DeskError(f"{claimed.text()} is the result reported: there is nothing to dispute")
        if board.rounds[-1][0].top and claimed.winner == "":
            raise DeskError("a top cut match needs a winner, not a draw")
        note_text = text_field(note, "note").strip()
        if len(note_text) > MAX_CLAIM_NOTE:
            raise DeskError(f"the note is {len(note_text)} characters long; at most {MAX_CLAIM_NOTE} are allowed")
        moment = now()
        data = {"by": board.players.get(key, key), "a": table.a, "b": table.b, "claimed": _result_json(claimed),
                "reported": _result_json(table.result) | {"reported_by": table.reporter()}, "note": note_text,
                "at": board.event.iso(moment)}
        claim_id = self.tables.add_claim(event_id, new_id(), table.round, table.table, key, stamp(moment), data)
        return self.claim(event_id, claim_id)

    def claims(self, event_id: str) -> list[dict[str, Any]]:
        """Every dispute of the event, oldest first (open and settled)."""
        self.desk.event(event_id)
        return [_public_claim(c) for c in self.tables.claims(event_id)]

    def claim(self, event_id: str, claim_id: object) -> dict[str, Any]:
        """One dispute; EventNotFound for an id the event has no dispute of."""
        found = next((c for c in self.tables.claims(event_id) if c["id"] == claim_id), None)
        if found is None:
            raise EventNotFound(f"no dispute {str(claim_id)[:40]!r} in this event")
        return _public_claim(found)

    def settle(self, event_id: str, claim_id: object, decision: object) -> dict[str, Any]:
        """The organiser settles a dispute: "claim" makes the result claimed the table's, "reported" keeps the one
        reported; either way it becomes the organiser's (players cannot change it again) and every open dispute
        of the table is settled. RoundRefused for one already settled; DeskError for another decision."""
        if decision not in DECISIONS:
            raise DeskError(f"decision must be one of {', '.join(DECISIONS)}, not {str(decision)[:40]!r}")
        found = self.claim(event_id, claim_id)
        if found["status"] != "open":
            raise RoundRefused("this dispute is settled already; enter the table's result to change it again")
        chosen = found["claimed"] if decision == "claim" else found["reported"]
        number, table = found["round"], found["table"]
        self.report(event_id, number, table, chosen["a_wins"], chosen["b_wins"], chosen["draws"], decision=decision)
        return self.claim(event_id, found["id"])

    def table_of(self, event_id: str, deck_id: str) -> Table | None:
        """The player's table in the current round (their private link), None when they have none."""
        key = self.desk.submission(event_id, deck_id).key
        return next((t for t in self.board(event_id).current if key in (t.a_key, t.b_key)), None)

    def drop(self, event_id: str, player: object) -> dict[str, Any]:
        """Drop a player from later rounds (by name, folded as names are); EventNotFound for no such player."""
        event = self.desk.event(event_id)
        key = self.key_of(event, player)
        after = len(self.tables.rounds(event_id))
        self.tables.add_drop(event_id, key, after, stamp(now()))
        return {"player": self.players(event)[key], "dropped_after": self.tables.drops(event_id)[key]}

    def key_of(self, event: Event, player: object) -> str:
        """The entry key of a checked-in player by name (as typed, or their display name, folded)."""
        found = self.desk.key_of(event, player)
        if found is None:
            raise EventNotFound(f"no player {str(player)[:40]!r} in this event")
        return found

    def set_tiebreakers(self, event_id: str, order: object) -> tuple[str, ...]:
        """The event's tie-breaker order after points; DeskError for an unknown one."""
        self.desk.event(event_id)
        if order is not None and not isinstance(order, (str, list)):
            raise DeskError("tiebreakers must be text like omw,gw,ogw or a list")
        try:
            chosen = swiss.check_tiebreakers(order)
        except swiss.SwissError as exc:
            raise DeskError(str(exc)) from None
        self.tables.set_tiebreakers(event_id, ",".join(chosen))
        return chosen

    # -- exports --------------------------------------------------------------------------------
    def export(self, event_id: str, what: str, kind: str) -> bytes:
        """standings or pairings (every round's tables) as CSV, JSON or XLSX."""
        if kind not in EXPORT_KINDS or what not in ("standings", "pairings"):
            raise EventNotFound(f"no {what[:20]}.{kind[:10]}; exports are standings and pairings, "
                                f"as {', '.join(EXPORT_KINDS)}")
        board = self.board(event_id)
        header, rows, data = _export_rows(board, what)
        if kind == "json":
            return json.dumps(data, ensure_ascii=False, indent=1).encode()
        if kind == "csv":
            out = io.StringIO()
            write_csv_to(out, header, rows)
            return out.getvalue().encode()
        with tempfile.TemporaryDirectory(prefix="deckcheck-rounds-") as folder:
            path = Path(folder) / f"{what}.xlsx"
            write_xlsx(path, [SheetSpec(what.title(), header, rows, long_text="mark")])
            return path.read_bytes()


def _export_rows(board: Board, what: str) -> tuple[list[str], list[list[object]], Any]:
    if what == "standings":
        data = [s.as_dict() for s in board.standings]
        header = ["rank", "player", "points", "matches", "wins", "losses", "draws", "omw", "gw", "ogw", "dropped"]
        return header, [[d[h] if h != "dropped" else ("yes" if d[h] else "") for h in header] for d in data], data
    tables = [{"round": r.number, "top": r.top, **t.as_dict()} for r, ts in board.rounds for t in ts]
    header = ["round", "table", "a", "b", "a_wins", "b_wins", "draws", "reported_by"]
    return header, [[t.get(h, "") if t.get(h) is not None else "bye" if h == "b" else "" for h in header]
                    for t in tables], tables


def _engine_rounds(stored: list[StoredRound]) -> list[swiss.Round]:
    """The stored rounds as the engine's, players by entry key."""
    return [swiss.Round(r.number, tuple(swiss.Pairing(p.table, p.a_key, p.b_key or None,
                                                      _result(p.a_wins, p.b_wins, p.draws))
                                        for p in r.pairings), top=r.top) for r in stored]


def _result_json(result: swiss.Result) -> dict[str, int]:
    return {"a_wins": result.a_wins, "b_wins": result.b_wins, "draws": result.draws}


def _public_claim(stored: dict[str, Any]) -> dict[str, Any]:
    """A stored dispute as the API answers it (without the key it is found by)."""
    return {k: v for k, v in stored.items() if k != "player_key"}


def _result(a: int | None, b: int | None, d: int | None) -> swiss.Result | None:
    return None if a is None or b is None else swiss.Result(a, b, d or 0)


def _whole(value: object, what: str) -> int:
    """A whole number from a JSON value or form text; DeskError naming the field otherwise."""
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit() and len(value.strip()) < 7:
        return int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 10**6:
        raise DeskError(f"{what} must be a whole number, not {value!r:.40}")
    return value


def _seed(seed: object) -> str:
    """The first round's seed: as given (printable text, at most MAX_SEED characters), else a random one."""
    if seed is None or seed == "":
        return secrets.token_hex(4)
    if not isinstance(seed, str) or len(seed) > MAX_SEED or not seed.isprintable():
        raise DeskError(f"seed must be text of at most {MAX_SEED} printable characters, not {seed!r:.40}")
    return seed
