"""Swiss rounds and standings, pure (standard library only): pairings round by round, results, tie-breakers, a top cut.

The rules are the usual ones of card-game tournaments (Magic's tournament rules, appendix C, which Melee, Cobra
and EventLink follow):
- 3 match points a win, 1 a draw, 0 a loss; a bye is a match won 2-0 (its games count for the player's own
  game-win %, and it is nobody's opponent);
- match-win % = match points / (3 × matches played), game-win % = game points / (3 × games played) (3 a game
  won, 1 a game drawn), each at least 33 %; opponents' match-win % (OMW) and opponents' game-win % (OGW) are the
  averages of the opponents' own floored percentages (33 % for a player who has met nobody yet);
- round 1 is a seeded random draw; later rounds pair players of equal points (in a seeded random order within a
  score, best score first), never two players who already met while a pairing without any rematch exists;
- with an odd number of players the bye goes to the lowest-ranked player who has not had one (the next one up
  when giving it lower would force a rematch);
- a dropped player plays no further round but keeps a place in the standings.

Time is bounded: the search for a pairing without rematches visits at most SEARCH_STEPS partial pairings, then
pairs the rest top-down allowing rematches (events of tens of players never come near it).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Iterable, Sequence

WIN, DRAW = 3, 1
FLOOR = Fraction(33, 100)
TIEBREAKERS = ("omw", "gw", "ogw")  # the default order after points
KNOWN_TIEBREAKERS = ("omw", "gw", "ogw", "mw")
MAX_GAMES = 9  # games one side may win in a match (a best of 3 has at most 3)
SEARCH_STEPS = 200_000
TOP_SIZES = (2, 4, 8, 16, 32)


class SwissError(ValueError):
    """A round, result or drop the rules refuse (the desk gives it its own status)."""


@dataclass(frozen=True)
class Result:
    """A match's result from the first player's side: games won by a, by b, and drawn."""

    a_wins: int
    b_wins: int
    draws: int = 0

    @property
    def winner(self) -> str:
        """"a", "b" or "" (a draw)."""
        return "a" if self.a_wins > self.b_wins else "b" if self.b_wins > self.a_wins else ""

    def text(self) -> str:
        """"2-1" or "1-1-1"."""
        return f"{self.a_wins}-{self.b_wins}" + (f"-{self.draws}" if self.draws else "")


BYE_RESULT = Result(2, 0, 0)


@dataclass(frozen=True)
class Pairing:
    """One table of a round: `b` None is a bye (won 2-0, no result to report)."""

    table: int
    a: str
    b: str | None
    result: Result | None = None

    @property
    def done(self) -> bool:
        """Whether the table has its result (a bye always has)."""
        return self.b is None or self.result is not None

    def as_dict(self) -> dict[str, object]:
        """The pairing as CONTRACTS §6 answers it (`b` null for a bye), with its result once reported."""
        out: dict[str, object] = {"table": self.table, "a": self.a, "b": self.b}
        if self.result is not None:
            out |= {"a_wins": self.result.a_wins, "b_wins": self.result.b_wins, "draws": self.result.draws}
        return out


@dataclass(frozen=True)
class Round:
    """One round: its number, its pairings, and whether it is a Swiss round or a round of the top cut."""

    number: int
    pairings: tuple[Pairing, ...]
    top: bool = False

    @property
    def done(self) -> bool:
        """Whether every table has its result."""
        return all(p.done for p in self.pairings)

    def waiting(self) -> list[Pairing]:
        """The tables still without a result, in table order."""
        return [p for p in self.pairings if not p.done]


@dataclass
class Record:
    """What one player has done so far (Swiss rounds only)."""

    player: str
    points: int = 0
    matches: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    game_points: int = 0
    games: int = 0
    byes: int = 0
    opponents: list[str] = field(default_factory=list)

    @property
    def mw(self) -> Fraction:
        """Match-win %, floored."""
        return max(FLOOR, Fraction(self.points, WIN * self.matches)) if self.matches else FLOOR

    @property
    def gw(self) -> Fraction:
        """Game-win %, floored."""
        return max(FLOOR, Fraction(self.game_points, WIN * self.games)) if self.games else FLOOR


@dataclass(frozen=True)
class Standing:
    """One line of the standings."""

    rank: int
    player: str
    points: int
    matches: int
    wins: int
    losses: int
    draws: int
    omw: Fraction
    gw: Fraction
    ogw: Fraction
    mw: Fraction
    dropped: bool = False

    def as_dict(self) -> dict[str, object]:
        """The CONTRACTS §6 object (fractions to 4 decimals), with the record and whether the player dropped."""
        return {"rank": self.rank, "player": self.player, "points": self.points, "matches": self.matches,
                "omw": _share(self.omw), "gw": _share(self.gw), "ogw": _share(self.ogw),
                "wins": self.wins, "losses": self.losses, "draws": self.draws, "dropped": self.dropped}


def _share(value: Fraction) -> float:
    return round(float(value), 4)


def percent(value: float | Fraction) -> str:
    """A fraction as people read it: "66.67 %"."""
    return f"{float(value) * 100:.2f} %"


def check_result(a_wins: object, b_wins: object, draws: object = 0) -> Result:
    """A reported result; SwissError for counts that are not whole numbers from 0 to MAX_GAMES, or no game."""
    values = []
    for name, value in (("a_wins", a_wins), ("b_wins", b_wins), ("draws", draws)):
        if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
            value = int(value.strip())
        if value is None and name == "draws":
            value = 0
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_GAMES:
            raise SwissError(f"{name} must be a whole number from 0 to {MAX_GAMES}, not {value!r:.40}")
        values.append(value)
    if not sum(values):
        raise SwissError("a result needs at least one game (a_wins, b_wins or draws)")
    return Result(*values)


def check_tiebreakers(order: Iterable[str] | str | None) -> tuple[str, ...]:
    """A tie-breaker order ("omw,gw,ogw"); SwissError naming an unknown one."""
    if order is None or order == "":
        return TIEBREAKERS
    names = [o.strip().lower() for o in (order.split(",") if isinstance(order, str) else order)]
    names = [n for n in names if n]
    for name in names:
        if name not in KNOWN_TIEBREAKERS:
            raise SwissError(f"unknown tie-breaker {name[:20]!r}; known: {', '.join(KNOWN_TIEBREAKERS)}")
    if len(set(names)) != len(names):
        raise SwissError("a tie-breaker is named twice")
    return tuple(names)


def records(players: Sequence[str], rounds: Sequence[Round]) -> dict[str, Record]:
    """Every player's record over the Swiss rounds (a round's tables without a result count nothing yet)."""
    out = {p: Record(p) for p in players}
    for rnd in rounds:
        if rnd.top:
            continue
        for p in rnd.pairings:
            if p.b is None:
                _add(out.setdefault(p.a, Record(p.a)), BYE_RESULT, None)
                out[p.a].byes += 1
                continue
            if p.result is None:
                continue
            r = p.result
            _add(out.setdefault(p.a, Record(p.a)), r, p.b)
            _add(out.setdefault(p.b, Record(p.b)), Result(r.b_wins, r.a_wins, r.draws), p.a)
    return out


def _add(rec: Record, r: Result, opponent: str | None) -> None:
    rec.matches += 1
    rec.games += r.a_wins + r.b_wins + r.draws
    rec.game_points += WIN * r.a_wins + DRAW * r.draws
    if r.winner == "a":
        rec.points, rec.wins = rec.points + WIN, rec.wins + 1
    elif r.winner == "b":
        rec.losses += 1
    else:
        rec.points, rec.draws = rec.points + DRAW, rec.draws + 1
    if opponent is not None:
        rec.opponents.append(opponent)


def standings(players: Sequence[str], rounds: Sequence[Round], dropped: Iterable[str] = (),
              order: Sequence[str] = TIEBREAKERS) -> list[Standing]:
    """The standings, best first: points, then the tie-breakers in `order`, then the name (deterministic)."""
    recs = records(players, rounds)
    gone = set(dropped)

    def average(rec: Record, of: str) -> Fraction:
        values = [getattr(recs[o], of) for o in rec.opponents]
        return sum(values, Fraction(0)) / len(values) if values else FLOOR

    lines = []
    for rec in recs.values():
        lines.append(Standing(0, rec.player, rec.points, rec.matches, rec.wins, rec.losses, rec.draws,
                              average(rec, "mw"), rec.gw, average(rec, "gw"), rec.mw, rec.player in gone))
    lines.sort(key=lambda s: (-s.points, *[-getattr(s, o) for o in order], s.player.casefold(), s.player))
    ranked: list[Standing] = []
    for n, s in enumerate(lines, start=1):
        ranked.append(Standing(n, s.player, s.points, s.matches, s.wins, s.losses, s.draws, s.omw, s.gw, s.ogw,
                               s.mw, s.dropped))
    return ranked


def met(rounds: Sequence[Round]) -> set[frozenset[str]]:
    """The pairs of players who have already played each other."""
    return {frozenset((p.a, p.b)) for r in rounds for p in r.pairings if p.b is not None}


def pair_round(players: Sequence[str], rounds: Sequence[Round], dropped: Iterable[str] = (), seed: str = "",
               order: Sequence[str] = TIEBREAKERS) -> Round:
    """The next Swiss round. SwissError while the last round lacks results, or with fewer than two players left."""
    if rounds and not rounds[-1].done:
        raise SwissError(f"round {rounds[-1].number} still lacks results "
                         f"(table {', '.join(str(p.table) for p in rounds[-1].waiting())})")
    if any(r.top for r in rounds):
        raise SwissError("the top cut has started: no more Swiss rounds")
    gone = set(dropped)
    active = [p for p in players if p not in gone]
    if len(active) < 2:
        raise SwissError("fewer than two players are left to pair")
    number = len(rounds) + 1
    rng = random.Random(f"{seed}:{number}")
    if not rounds:
        ranking = sorted(active, key=lambda p: (p.casefold(), p))
        rng.shuffle(ranking)
    else:
        table = {s.player: s for s in standings(players, rounds, gone, order)}
        shuffled = {p: rng.random() for p in active}
        ranking = sorted(active, key=lambda p: (-table[p].points, shuffled[p]))
    byes = {p for p, r in records(players, rounds).items() if r.byes}
    ranked = [s.player for s in standings(players, rounds, gone, order) if s.player not in gone] if rounds \
        else ranking
    pairs, bye = _pairings(ranking, met(rounds), byes, ranked)
    tables = [Pairing(n, a, b) for n, (a, b) in enumerate(pairs, start=1)]
    if bye is not None:
        tables.append(Pairing(len(tables) + 1, bye, None))
    return Round(number, tuple(tables))


def _pairings(ranking: list[str], played: set[frozenset[str]], byes: set[str],
              ranked: list[str]) -> tuple[list[tuple[str, str]], str | None]:
    """The pairs (in `ranking` order, top first) and the bye: rematch-free when any bye choice allows it."""
    budget = [SEARCH_STEPS]  # shared by every bye tried: the whole pairing stays bounded
    if len(ranking) % 2 == 0:
        found = _search(ranking, played, budget)
        return (found if found is not None else _greedy(ranking, played)), None
    without = [p for p in reversed(ranked) if p not in byes]
    candidates = without or list(reversed(ranked))  # everyone has had one: the lowest-ranked again
    for bye in candidates:
        rest = [p for p in ranking if p != bye]
        found = _search(rest, played, budget)
        if found is not None:
            return found, bye
    bye = candidates[0]
    return _greedy([p for p in ranking if p != bye], played), bye


def _search(ranking: list[str], played: set[frozenset[str]], budget: list[int]) -> list[tuple[str, str]] | None:
    """Pairs without a rematch, the best-ranked player first with the nearest one down it can meet; None when
    none exists (or the search used up `budget`, steps left)."""
    class Exhausted(Exception):
        pass

    def go(left: list[str]) -> list[tuple[str, str]] | None:
        if not left:
            return []
        budget[0] -= 1
        if budget[0] < 0:
            raise Exhausted
        top, rest = left[0], left[1:]
        for i, other in enumerate(rest):
            if frozenset((top, other)) in played:
                continue
            below = go(rest[:i] + rest[i + 1:])
            if below is not None:
                return [(top, other), *below]
        return None

    try:
        return go(ranking)
    except Exhausted:
        return None


def _greedy(ranking: list[str], played: set[frozenset[str]]) -> list[tuple[str, str]]:
    """Pairs top-down, each with the nearest player down it has not met, else the nearest (a rematch forced)."""
    left, out = list(ranking), []
    while len(left) >= 2:
        top = left.pop(0)
        i = next((i for i, o in enumerate(left) if frozenset((top, o)) not in played), 0)
        out.append((top, left.pop(i)))
    return out


def top_cut(table: Sequence[Standing], size: int, rounds: Sequence[Round]) -> Round:
    """The next round of a single-elimination top cut: first 1 v N, 2 v N-1... of the best `size` standings
    (dropped players left out); then the winners of the last top round, bracket order kept."""
    if rounds and not rounds[-1].done:
        raise SwissError(f"round {rounds[-1].number} still lacks results")
    number = len(rounds) + 1
    tops = [r for r in rounds if r.top]
    if tops:
        winners = []
        for p in tops[-1].pairings:
            if p.b is None or p.result is None:
                winners.append(p.a)
                continue
            if p.result.winner == "":
                raise SwissError(f"table {p.table} of round {tops[-1].number} is a draw; a top cut match needs a "
                                 f"winner")
            winners.append(p.a if p.result.winner == "a" else p.b)
        if len(winners) < 2:
            raise SwissError(f"the top cut is over: {winners[0]} won" if winners else "the top cut is over")
        return Round(number, tuple(Pairing(n, winners[2 * n - 2], winners[2 * n - 1])
                                   for n in range(1, len(winners) // 2 + 1)), top=True)
    if size not in TOP_SIZES:
        raise SwissError(f"a top cut is of {', '.join(map(str, TOP_SIZES))} players, not {size!r:.20}")
    seeds = [s.player for s in table if not s.dropped][:size]
    if len(seeds) < size:
        raise SwissError(f"a top {size} needs {size} players who have not dropped; {len(seeds)} have not")
    bracket = _bracket(size)
    return Round(number, tuple(Pairing(n, seeds[a - 1], seeds[b - 1])
                               for n, (a, b) in enumerate(bracket, start=1)), top=True)


def _bracket(size: int) -> list[tuple[int, int]]:
    """The seeds' first matches in bracket order (8: 1v8, 4v5, 2v7, 3v6), so that 1 and 2 meet only in the final."""
    order = [1]
    while len(order) < size:
        n = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, n - seed)]
    return [(order[i], order[i + 1]) for i in range(0, size, 2)]
