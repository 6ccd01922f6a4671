"""Who may do what (CONTRACTS §9): every state-changing route's rule in one table, and the one function deciding.

A route's rule is `ANYONE` (a check changes nothing; a desk link or a sign-in carries its own secret), `OWN_TOKEN`
(the route asks for its own credential: an event's organiser token, the admin token), `EVENT_JUDGE` (the
organiser token, or a signed-in account with the judge role that the event's organiser named: the route asks), or
a role a person must hold (deckcheck.library.people.ROLES, `SIGNED_IN` for any account, `PROPOSE` for card facts).
Which of them binds depends on the server:

- a personal server (bound to a loopback address, no accounts, no admin token): whoever reaches it sits at the
  machine; every change is allowed, as before there were accounts;
- any other server: a role rule needs a person holding the role. On a server without accounts or admin token the
  requests from the machine itself are its keeper's (deckcheck.web.deps.person), other machines' are anonymous.

deckcheck.web.deps.allow, a dependency of every route (deckcheck.web.app), asks here, so a route added later is
covered: a state-changing route without a row here is the keeper's alone until it has one
(tests/web/test_accounts_matrix.py fails on it).
"""
from __future__ import annotations

from enum import Enum

from deckcheck.library.people import Person

ANYONE = "anyone"
OWN_TOKEN = "own token"
SIGNED_IN = "signed in"
EVENT_JUDGE = "event judge"  # the event's organiser token, or an account with the judge role the organiser named
PROPOSE = "propose"  # card facts: a player's; on a club server anyone's, as answers there wait for a reviewer
STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})


class Mode(str, Enum):
    """What kind of server this is, for deciding (CONTRACTS §9)."""

    PERSONAL = "personal"  # bound to loopback, no accounts, no admin token
    OPEN = "open"  # bound to another address, no accounts, no admin token: other machines only look and check
    CLUB = "club"  # accounts exist, or an admin token is set


RULES: dict[tuple[str, str], str] = {
    # checks and statistics change nothing
    ("POST", "/api/check"): ANYONE, ("POST", "/check"): ANYONE, ("POST", "/api/stats"): ANYONE,
    # saved decks
    ("POST", "/decks"): "player",
    # kept decks and the builder (CONTRACTS §10): a player's own (the library refuses another's: 404 or 403)
    ("POST", "/api/decks"): "player", ("PUT", "/api/decks/{deck_id}"): "player",
    ("POST", "/api/decks/{deck_id}/changes"): "player", ("POST", "/api/decks/{deck_id}/restore"): "player",
    ("POST", "/api/decks/{deck_id}/copy"): "player", ("POST", "/decks/new"): "player",
    ("POST", "/decks/{deck_id}/edit"): "player", ("POST", "/decks/{deck_id}/rename"): "player",
    ("POST", "/decks/{deck_id}/restore"): "player",
    # card facts: a player's answers (on a club server they wait for a reviewer); the review; the keeper's edit
    ("POST", "/check/facts"): PROPOSE, ("POST", "/decks/{deck_id}/facts"): PROPOSE,
    ("POST", "/cards/{card_id:path}/facts"): PROPOSE, ("POST", "/api/cards/{card_id:path}/facts"): PROPOSE,
    ("POST", "/cards/proposals"): OWN_TOKEN, ("POST", "/cards/proposals/decide"): OWN_TOKEN,
    ("POST", "/api/proposals/{pid}/{action}"): OWN_TOKEN, ("POST", "/cards/{card_id:path}/edit"): OWN_TOKEN,
    # a person's own collection
    ("POST", "/collection/import"): "player", ("POST", "/collection/import/confirm"): "player",
    ("POST", "/collection/undo"): "player",
    # a card sheet into the server's database (every player's cards): the keeper's or a reviewer's, with its undo
    ("POST", "/cards/import"): "reviewer", ("POST", "/cards/import/confirm"): "reviewer",
    ("POST", "/cards/import/undo"): "reviewer",
    # the desk: an organiser makes an event; its links and organiser token do the rest
    ("POST", "/api/events"): "organiser", ("POST", "/desk"): "organiser",
    ("POST", "/api/events/{event_id}/decks"): ANYONE, ("POST", "/desk/{event_id}"): ANYONE,
    ("POST", "/api/events/{event_id}/close"): OWN_TOKEN, ("POST", "/desk/{event_id}/admin/close"): OWN_TOKEN,
    # deck checks and draws: the organiser's token, or a judge the organiser named for that event (the route asks)
    ("POST", "/api/events/{event_id}/deckchecks"): EVENT_JUDGE, ("POST", "/api/events/{event_id}/draw"): EVENT_JUDGE,
    ("POST", "/desk/{event_id}/admin/check"): EVENT_JUDGE, ("POST", "/desk/{event_id}/admin/draw"): EVENT_JUDGE,
    ("PUT", "/api/events/{event_id}/judges"): OWN_TOKEN, ("POST", "/desk/{event_id}/admin/judges"): OWN_TOKEN,
    ("POST", "/api/events/{event_id}/rounds"): OWN_TOKEN, ("POST", "/api/events/{event_id}/rounds/{number}/results"):
        OWN_TOKEN, ("POST", "/api/events/{event_id}/drops"): OWN_TOKEN, ("POST", "/desk/{event_id}/admin/rounds"):
        OWN_TOKEN, ("POST", "/desk/{event_id}/admin/rounds/{number}/results"): OWN_TOKEN,
    ("POST", "/desk/{event_id}/admin/drops"): OWN_TOKEN, ("POST", "/desk/{event_id}/admin/tiebreakers"): OWN_TOKEN,
    ("POST", "/desk/{event_id}/decks/{deck_id}/result"): ANYONE,  # a player's result, through their deck's link
    # disputes of results: a player's through their deck's link; the organiser's token settles them
    ("POST", "/api/events/{event_id}/decks/{deck_id}/dispute"): ANYONE,
    ("POST", "/desk/{event_id}/decks/{deck_id}/dispute"): ANYONE,
    ("POST", "/api/events/{event_id}/disputes/{claim_id}"): OWN_TOKEN,
    ("POST", "/desk/{event_id}/admin/disputes/{claim_id}"): OWN_TOKEN,
    # signing in and out, and (serve --signup) making a player account: their own name and password
    ("POST", "/api/session"): ANYONE, ("DELETE", "/api/session"): ANYONE, ("POST", "/signin"): ANYONE,
    ("POST", "/signout"): ANYONE, ("POST", "/signup"): ANYONE,
    ("POST", "/api/tokens"): SIGNED_IN, ("DELETE", "/api/tokens/{token_id}"): SIGNED_IN,
}
UNLISTED = "keeper"  # a state-changing route nobody gave a rule: its keeper's alone (the matrix test fails)


def rule_of(method: str, path: str) -> str:
    """The rule of a route (by its method and path template); ANYONE for what changes nothing."""
    if method not in STATE_CHANGING:
        return ANYONE
    return RULES.get((method, path), UNLISTED)


def may(person: Person, rule: str, mode: Mode) -> bool:
    """Whether `person` may call a route of this rule on a server of this mode: the one decision."""
    if rule in (ANYONE, OWN_TOKEN) or mode is Mode.PERSONAL:
        return True
    if rule == EVENT_JUDGE:  # the organiser's token (the route checks it), or a signed-in judge it named
        return True
    if rule == SIGNED_IN:
        return person.account_id is not None
    if rule == PROPOSE:  # a club's answers change nothing until a reviewer accepts them
        return mode is Mode.CLUB or person.can("player")
    return person.can(rule)


def refusal(person: Person, rule: str, mode: Mode) -> str:
    """Why a person may not (the 403's words): how to get what is missing."""
    rule = "player" if rule == PROPOSE else rule
    if rule == SIGNED_IN:
        return "sign in first (at /signin): this is an account's own; the server's keeper makes accounts"
    if person.known:
        return f"this needs the {rule} role, which your account does not have; ask the server's keeper for it"
    if mode is Mode.OPEN:
        return ("this server keeps its keeper's collections, saved decks, card facts and events safe: from another "
                "machine you can check decks, browse the cards and use the links you were given. To change "
                "anything else, ask the server's keeper for an account (made on the server's machine) and sign in at "
                "/signin")
    return (f"sign in first (at /signin) with an account that has the {rule} role; the server's keeper makes "
            "accounts on the server's machine")
