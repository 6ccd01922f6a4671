"""deckcheck.library.facts on SQLite and PostgreSQL: answers with provenance, proposals that change nothing for anyone
else until accepted, conflicts, history of every change, and the sheet of values not from the bundle."""
from __future__ import annotations

import pytest

from deckcheck.library.facts import FactError, Facts, ProposalDecided, ProposalNotFound, facts_sheet
from deckcheck.db.store import Store

CARD = "ME-upper-left-attack-1"


@pytest.fixture
def store(db_url):
    s = Store(db_url)
    s.count()
    yield s
    s.dispose()


def card(store, card_id=CARD):
    return next(c for c in store.cards() if c.id == card_id)


def test_answers_apply_with_provenance_and_history(store):
    done = Facts(store).submit(card(store), {"restriction": "none", "reserved": "no"}, " Ann  Lee ", review=False)
    assert {(a["field"], a["old"], a["new"]) for a in done.applied} == {("restriction", "unknown", "none"),
                                                                         ("reserved", "unknown", "no")}
    assert card(store).restriction == 0 and card(store).reserved is False
    history = Facts(store).history(CARD)
    assert {h.field for h in history} == {"restriction", "reserved"}
    assert all(h.new_source.startswith("web:Ann Lee @ ") and h.old == "unknown" for h in history)


def test_proposals_change_nothing_until_accepted(store):
    facts = Facts(store)
    (p,) = facts.submit(card(store), {"restriction": "3"}, "Ann", review=True).proposals
    assert card(store).restriction is None and facts.history(CARD) == []
    (row,) = facts.overlay("ann")  # her own checks see it
    assert row.card.restriction == 3 and row.fields == {"restriction"} and row.card.name == card(store).name
    assert facts.overlay("Bob") == []
    again = facts.submit(card(store), {"restriction": "4"}, "ANN", review=True).proposals[0]  # her later answer
    assert [q.id for q in facts.proposals(status="pending")] == [again.id] and again.id != p.id
    accepted = facts.decide(again.id, True, "Org")
    assert accepted.status == "accepted" and accepted.decided_by == "Org" and card(store).restriction == 4
    (change,) = facts.history(CARD)
    assert change.new_source == f"web:ANN @ {again.at}" and change.accepted_by == "Org"
    with pytest.raises(ProposalDecided):
        facts.decide(again.id, False)
    with pytest.raises(ProposalNotFound):
        facts.decide(123456, True)


def test_conflicts_with_a_named_source_and_with_an_accepted_value(store):
    facts = Facts(store)
    bw = next(c for c in store.cards() if c.name == "Break Weapon" and c.restriction == 3)
    (p,) = facts.submit(bw, {"restriction": "1"}, "Ann", review=True).proposals
    assert (p.conflict or "").startswith("a named public source says 3")
    facts.submit(card(store), {"restriction": "2"}, "Ann", review=False)
    (q,) = facts.submit(card(store), {"restriction": "5"}, "Bo", review=True).proposals
    assert (q.conflict or "").startswith("the accepted value is 2 (web:Ann @ ")
    (same,) = facts.submit(card(store), {"restriction": "2"}, "Cy", review=True).proposals
    assert same.conflict is None


@pytest.mark.parametrize("values, by", [({"restriction": "x"}, "A"), ({"name": "X"}, "A"), ({}, "A"),
                                        ({"restriction": "3"}, ""), ({"restriction": "3"}, None),
                                        ({"text": "\x00"}, "A"), ({"restriction": None}, "A")])
def test_bad_answers_store_nothing(store, values, by):
    for review in (False, True):
        with pytest.raises(FactError):
            Facts(store).submit(card(store), values, by, review=review)
    assert Facts(store).proposals() == [] and Facts(store).history(CARD) == []


def test_the_sheet_holds_only_what_did_not_come_from_the_bundle(store):
    assert facts_sheet(store) == (["game", "id", "name"], [])
    Facts(store).submit(card(store), {"hand_icons": "0", "text": "Hit high."}, "Ann", review=False)
    header, rows = facts_sheet(store)
    assert header == ["game", "id", "name", "hand_icons", "text", "hand_icons_source", "text_source"]
    (row,) = rows
    assert row[:5] == ["highlander", CARD, "Upper Left Attack (1)", "0", "Hit high."]
    assert row[5].startswith("web:Ann @ ") and row[6] == row[5]


def accept_and_reject_at_once(facts: Facts, pid: int) -> dict[bool, str]:
    """Accept and reject one proposal from two threads released together: accept/reject -> status or "409"."""
    import threading
    start = threading.Barrier(2)
    answers: dict[bool, str] = {}

    def decide(accept: bool) -> None:
        start.wait()
        try:
            answers[accept] = facts.decide(pid, accept, "Org").status
        except ProposalDecided:
            answers[accept] = "409"

    threads = [threading.Thread(target=decide, args=(accept,)) for accept in (True, False)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return answers


def test_an_accept_and_a_reject_at_once_leave_one_decision_and_the_value_agrees(store):
    """Issue 28: the accept answered 409 and the reject 200, yet the card held the value. Ten races in a row."""
    facts = Facts(store)
    for run in range(10):
        before = card(store).restriction
        value = str((before or 0) % 6 + 1)  # never the value held: accepting that is no change and has no history
        (p,) = facts.submit(card(store), {"restriction": value}, f"Player {run}", review=True).proposals
        answers = accept_and_reject_at_once(facts, p.id)
        assert sorted(answers.values()) in (["409", "accepted"], ["409", "rejected"]), (run, answers)
        status = facts.get(p.id).status
        assert status in answers.values(), (run, answers, status)
        held = card(store).restriction
        assert held == (int(value) if status == "accepted" else before), (run, answers, status, held)
        accepted = [h for h in facts.history(CARD) if h.new_source == f"web:Player {run} @ {p.at}"]
        assert len(accepted) == (status == "accepted"), (run, status, accepted)


def test_accepting_the_value_the_card_already_holds_is_no_change(store):
    """The race test above once drew the held value: the accept stands, the card and its history stay as they were."""
    facts = Facts(store)
    facts.submit(card(store), {"restriction": "2"}, "Ann", review=False)
    (p,) = facts.submit(card(store), {"restriction": "2"}, "Bo", review=True).proposals
    assert facts.decide(p.id, True, "Org").status == "accepted"
    assert card(store).restriction == 2
    assert [h.new_source.split(" @ ")[0] for h in facts.history(CARD)] == ["web:Ann"]
