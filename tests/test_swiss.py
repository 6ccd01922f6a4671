"""The Swiss engine (deckcheck.swiss): tie-breakers against a hand computation, and over many random events the
pairing's promises: everyone active plays once, the bye to the lowest-ranked player without one, no rematch
while one can be avoided, standings in order."""
from __future__ import annotations

from fractions import Fraction
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from deckcheck.swiss import (FLOOR, Pairing, Result, Round, SwissError, check_result, check_tiebreakers, met,
                             pair_round, standings, top_cut)

F = Fraction


def hand_event() -> list[Round]:
    """A 2-1 B, C 1-1-1 D; then A 2-0 C, B 2-1 D."""
    return [Round(1, (Pairing(1, "A", "B", Result(2, 1)), Pairing(2, "C", "D", Result(1, 1, 1)))),
            Round(2, (Pairing(1, "A", "C", Result(2, 0)), Pairing(2, "B", "D", Result(2, 1))))]


def test_tiebreakers_match_a_hand_computation() -> None:
    table = {s.player: s for s in standings("ABCD", hand_event())}
    # match-win %: A 6/6, B 3/6, C and D 1/6 -> the floor; game-win %: A 12/15, B 9/18, C 4/15 -> floor, D 7/18
    assert (table["A"].mw, table["B"].mw, table["C"].mw, table["D"].mw) == (1, F(1, 2), FLOOR, FLOOR)
    assert (table["A"].gw, table["B"].gw, table["C"].gw, table["D"].gw) == (F(4, 5), F(1, 2), FLOOR, F(7, 18))
    assert table["A"].omw == (F(1, 2) + FLOOR) / 2 and table["A"].ogw == (F(1, 2) + FLOOR) / 2
    assert table["B"].omw == (1 + FLOOR) / 2 and table["B"].ogw == (F(4, 5) + F(7, 18)) / 2
    assert table["C"].omw == (FLOOR + 1) / 2 and table["C"].ogw == (F(7, 18) + F(4, 5)) / 2
    assert table["D"].omw == (FLOOR + F(1, 2)) / 2 and table["D"].ogw == (FLOOR + F(1, 2)) / 2
    assert [s.player for s in standings("ABCD", hand_event())] == ["A", "B", "C", "D"]  # C's OMW .665 > D's .415
    assert standings("ABCD", hand_event())[0].as_dict() == {
        "rank": 1, "player": "A", "points": 6, "matches": 2, "omw": 0.415, "gw": 0.8, "ogw": 0.415,
        "wins": 2, "losses": 0, "draws": 0, "dropped": False}


def test_the_tiebreaker_order_is_configurable() -> None:
    order = check_tiebreakers("gw, omw")
    assert order == ("gw", "omw")
    assert [s.player for s in standings("ABCD", hand_event(), order=order)] == ["A", "B", "D", "C"]  # D's GW wins
    with pytest.raises(SwissError, match="unknown tie-breaker 'elo'"):
        check_tiebreakers("omw,elo")


def test_a_bye_is_a_two_nil_win_and_nobody_s_opponent() -> None:
    rounds = [Round(1, (Pairing(1, "A", "B", Result(2, 0)), Pairing(2, "C", None)))]
    table = {s.player: s for s in standings("ABC", rounds)}
    assert (table["C"].points, table["C"].gw, table["C"].omw) == (3, 1, FLOOR)
    assert table["A"].omw == FLOOR  # B's 0 floored; C's bye is not A's opponent


def test_results_are_checked() -> None:
    assert check_result("2", 1, None) == Result(2, 1, 0)
    for bad in ((0, 0, 0), (-1, 2, 0), (True, 1, 0), (10, 0, 0), ("٢", 0, 0)):
        with pytest.raises(SwissError):
            check_result(*bad)


def test_a_round_waits_for_the_last_one_s_results() -> None:
    first = pair_round("ABCD", [], seed="s")
    with pytest.raises(SwissError, match="round 1 still lacks results"):
        pair_round("ABCD", [first], seed="s")


def test_the_first_round_is_a_seeded_draw() -> None:
    players = [f"P{n}" for n in range(12)]
    assert pair_round(players, [], seed="a") == pair_round(list(reversed(players)), [], seed="a")
    draws = {tuple((p.a, p.b) for p in pair_round(players, [], seed=s).pairings) for s in "abcdef"}
    assert len(draws) > 1


def test_top_cut_pairs_the_bracket_then_its_winners() -> None:
    players = [f"P{n}" for n in range(8)]
    rounds = [Round(1, tuple(Pairing(n + 1, players[2 * n], players[2 * n + 1], Result(2, 0)) for n in range(4)))]
    table = standings(players, rounds)
    top = top_cut(table, 4, rounds)
    seeds = [s.player for s in table]
    assert [(p.a, p.b) for p in top.pairings] == [(seeds[0], seeds[3]), (seeds[1], seeds[2])]
    done = Round(top.number, tuple(Pairing(p.table, p.a, p.b, Result(0, 2)) for p in top.pairings), top=True)
    final = top_cut(table, 4, [*rounds, done])
    assert [(p.a, p.b) for p in final.pairings] == [(seeds[3], seeds[2])]
    with pytest.raises(SwissError, match="no more Swiss rounds"):
        pair_round(players, [*rounds, done])


def test_the_bye_moves_up_when_the_lowest_would_force_a_rematch() -> None:
    w = Result(2, 0)
    rounds = [Round(1, (Pairing(1, "A", "B", w), Pairing(2, "C", "E", w), Pairing(3, "D", None),
                        Pairing(4, "F", None))),
              Round(2, (Pairing(1, "A", "C", w), Pairing(2, "B", "D", w), Pairing(3, "E", "F", w))),
              Round(3, (Pairing(1, "A", "D", w), Pairing(2, "B", "E", w), Pairing(3, "C", None)))]
    # E (lowest, no bye) out would leave A with only opponents met; B, next up, takes the bye instead
    fourth = pair_round("ABCDEF", rounds, dropped=["F"], seed="s")
    assert [(p.a, p.b) for p in fourth.pairings] == [("A", "E"), ("C", "D"), ("B", None)]


def _perfect_without_rematch(players: list[str], played: set[frozenset[str]]) -> bool:
    if not players:
        return True
    top, rest = players[0], players[1:]
    return any(frozenset((top, o)) not in played and _perfect_without_rematch(rest[:i] + rest[i + 1:], played)
               for i, o in enumerate(rest))


results = st.sampled_from([Result(2, 0), Result(2, 1), Result(0, 2), Result(1, 2), Result(1, 1, 1), Result(1, 1)])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 9), rounds_wanted=st.integers(1, 6), seed=st.text(max_size=4), data=st.data())
def test_random_events_keep_the_pairing_promises(n: int, rounds_wanted: int, seed: str, data: st.DataObject) -> None:
    players = [f"P{i}" for i in range(n)]
    rounds: list[Round] = []
    dropped: list[str] = []
    for _ in range(rounds_wanted):
        active = [p for p in players if p not in dropped]
        if len(active) < 2:
            break
        byes_before = {p.a for r in rounds for p in r.pairings if p.b is None}
        ranked = [s.player for s in standings(players, rounds, dropped) if s.player not in dropped]
        played = met(rounds)
        rnd = pair_round(players, rounds, dropped, seed)
        seated = [x for p in rnd.pairings for x in (p.a, p.b) if x is not None]
        assert sorted(seated) == sorted(active)  # every active player once, nobody dropped
        byes = [p.a for p in rnd.pairings if p.b is None]
        assert len(byes) == len(active) % 2
        rematches = [p for p in rnd.pairings if p.b is not None and frozenset((p.a, p.b)) in played]
        candidates = [p for p in reversed(ranked) if p not in byes_before] or list(reversed(ranked))
        if byes:
            assert byes[0] in candidates  # nobody gets a second bye while a player has had none
            if rounds:  # below the one who got it, every player would have forced a rematch
                for lower in candidates[:candidates.index(byes[0])]:
                    assert not _perfect_without_rematch([p for p in active if p != lower], played)
        if rematches:  # no choice of the bye (and no pairing) avoided them
            assert not any(_perfect_without_rematch([p for p in active if p != bye], played)
                           for bye in (candidates if byes else [None]))
        rounds.append(Round(rnd.number, tuple(p if p.b is None else Pairing(p.table, p.a, p.b, data.draw(results))
                                              for p in rnd.pairings)))
        if data.draw(st.booleans()) and data.draw(st.booleans()):
            dropped.append(data.draw(st.sampled_from(active)))
    table = standings(players, rounds, dropped)
    assert [s.rank for s in table] == list(range(1, n + 1))
    keys = [(s.points, s.omw, s.gw, s.ogw) for s in table]
    assert keys == sorted(keys, reverse=True)
    assert all(FLOOR <= s.omw <= 1 and FLOOR <= s.gw <= 1 and FLOOR <= s.ogw <= 1 for s in table)
    won = [p.b is None or (p.result is not None and p.result.winner != "") for r in rounds for p in r.pairings]
    assert sum(s.points for s in table) == sum(3 if w else 2 for w in won)
    assert {s.player for s in table if s.dropped} == set(dropped)


def test_many_players_pair_quickly() -> None:
    import time
    players = [f"P{i:03d}" for i in range(301)]
    rounds: list[Round] = []
    start = time.perf_counter()
    for _ in range(5):
        rnd = pair_round(players, rounds, seed="big")
        rounds.append(Round(rnd.number, tuple(p if p.b is None else Pairing(p.table, p.a, p.b, Result(2, 1))
                                              for p in rnd.pairings)))
    assert time.perf_counter() - start < 10
    assert not any(frozenset((p.a, p.b)) in met(rounds[:i]) for i, r in enumerate(rounds) for p in r.pairings
                   if p.b is not None)
