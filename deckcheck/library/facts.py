"""Card facts from the players who hold the cards (CONTRACTS §6, revision 3): answers, proposals, history, export.

A player reads a value off a card (its Restriction number, the Reserved or Signature sword, Hand icons,
the grid, the text) and gives it with their name. On a personal server (no admin token) the answer is
stored at once, with provenance `web:NAME @ time`. On a club server it waits as a proposal: it counts in
that person's own checks (`overlay`) and, once the organiser accepts it, for everyone. A proposal that
contradicts a named public source, or a value someone's answer or card sheet set, carries a conflict.

Every change of a value, from any path (card sheets, the web, a bundle update), is kept in the
`card_change` table by deckcheck.db.updates; `history(card_id)` reads it back. The SQL is deckcheck.db.facts.
"""
from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from .. import provenance as prov
from ..cards import CORE_FIELDS, Card
from ..cells import NONE
from ..cardsheet import BY_NAME, UNKNOWN, SheetCard, card_to_row, sheet_card_from_row, value_of
from ..db.facts import account_named, add_proposal, change_rows, decide_proposal, proposal_rows
from ..db.sources import read_sources, stored_sources
from ..db.store import Store, bundled_rows, read_cards
from ..db.updates import cards_writers_turn, update_cards, update_cards_on
from ..errors import DeckcheckError
from ..games import registry
from ..provenance import Provenance

# What a player can read off a card, from the field table (deckcheck.fields: a field with a label may be answered,
# in the order of Field.asked; one with the form's words is asked by the fill-in form).
_ANSWERED = tuple(sorted((f for f in registry().fields if f.label), key=lambda f: f.asked))
# What an answer may state: the rules fields printed on a card (the API takes these; the form those it asks).
FACT_FIELDS = tuple(f.name for f in _ANSWERED)
FORM_FIELDS = tuple(f.name for f in _ANSWERED if f.form[0])
LABELS = {f.name: f.label for f in _ANSWERED}
# The fill-in form's groups, one per thing to read off the cards: its title and what to look for.
GROUP_WORDS = {f.name: f.form for f in _ANSWERED if f.form[0]}
# What the form offers where it offers a choice; the API takes any value a card sheet takes.
CHOICES = {f.name: f.choices for f in _ANSWERED if f.choices}


def form_fields_of(card: Card) -> tuple[str, ...]:
    """The fields the fill-in form asks of a card: the core's and its own game's (a Raven card has no Restriction)."""
    game = next((g for g in registry().games if g.name == card.game), None)
    own = {f.name for f in game.fields} if game is not None else set()
    core = {f.name for f in CORE_FIELDS}
    return tuple(f for f in FORM_FIELDS if f in core or f in own)


MAX_BY = 60
MAX_VALUE = 2000
MAX_TEXT = 2000
STATUSES = ("pending", "accepted", "rejected")


class FactError(DeckcheckError):
    """An answer that cannot be used: a bad name, field or value (HTTP 400); nothing was stored."""


class ProposalNotFound(DeckcheckError):
    """No proposal has that id (HTTP 404)."""


class ProposalDecided(DeckcheckError):
    """The proposal was already accepted or rejected (HTTP 409)."""


def now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


def clean_by(text: object, what: str = "name") -> str:
    """A person's name as given (spaces folded), or FactError: empty, too long, or holding control characters."""
    if not isinstance(text, str):
        raise FactError(f"the {what} is text")
    name = " ".join(text.split())
    if not name:
        raise FactError(f"say who you are: the {what} is recorded with each value")
    if len(name) > MAX_BY:
        raise FactError(f"a {what} of {len(name)} characters is over the limit of {MAX_BY}")
    if not name.isprintable() or any(c in name for c in "@\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"):
        raise FactError(f"the {what} {name[:40]!r} holds a character it cannot hold (control, bidi or @)")
    return name


def by_key(name: str) -> str:
    """Who, compared: case and spaces folded."""
    return " ".join(name.casefold().split())


@dataclass(frozen=True)
class Author:
    """Who gave answers: a signed-in account (its name, and the key `@ID`, which no typed name can be: clean_by
    refuses `@`), or a name typed by someone not signed in (the key: the name folded). An account's proposals are
    its own: nobody typing its name replaces them, reads them into their checks or is accepted as it."""

    name: str
    key: str

    @classmethod
    def typed(cls, text: object, what: str = "name") -> Author:
        """A name as typed (FactError when it cannot be a name: clean_by)."""
        name = clean_by(text, what)
        return cls(name, by_key(name))

    @classmethod
    def of_account(cls, account_id: int, name: str) -> Author:
        return cls(name, f"@{account_id}")

    @property
    def signed_in(self) -> bool:
        return self.key.startswith("@")


def author_of(by: object) -> Author:
    """An Author as given, or the typed name `by`."""
    return by if isinstance(by, Author) else Author.typed(by)


def value_text(card: Card, field: str) -> str:
    """A card's value of a field as a card sheet writes it, never blank: `unknown`, `none` for no Restriction
    number and for a grid covering nothing."""
    if value_of(card, field) is None:
        return UNKNOWN
    return card_to_row(card)[field] or _zero_words(field) or ""


def _zero_words(field: str) -> str | None:
    """How people read a blank number that means none (Field.blank 0): its cell (`0`), `none` where the sheet writes
    it blank (no Restriction number printed); None for any other field."""
    f = BY_NAME.get(field)
    if f is None or not f.numeric or f.blank != 0:
        return None
    return f.write(0) or NONE


def shown(field: str, text: str) -> str:
    """A value as people read it (`none` for Restriction 0; a history's blank numbers are their defaults)."""
    zero = _zero_words(field)
    if zero is not None and text in ("0", ""):
        return zero
    return text or "—"


def sheet_text(field: str, text: str | None) -> str | None:
    """A changed value (deckcheck.db.updates.FieldChange) as a card sheet reads it back: never blank for numbers."""
    zero = _zero_words(field)
    if zero is not None and text in ("", "0"):
        return zero
    return text or None


def parse_values(card: Card, values: object) -> dict[str, str]:
    """The answers about one card, checked as card-sheet cells: field -> value as a sheet writes it.

    FactError (naming the field or value) for anything else: a field that is not a fact printed on a card,
    a value that is not text or does not read, no value at all. `none` (or `-`) in a number means none printed, and
    so does an empty `restriction`, as an empty cell of a card sheet (§1); another empty value is refused.
    """
    if not isinstance(values, Mapping):
        raise FactError('"values" is an object: {"restriction": "3", ...}')
    if not values:
        raise FactError("no values: give at least one field")
    out: dict[str, str] = {}
    for field, raw in values.items():
        if field not in FACT_FIELDS:
            raise FactError(f"unknown field {str(field)[:40]!r}; the fields are {', '.join(FACT_FIELDS)}")
        if not isinstance(raw, (str, int)) or isinstance(raw, bool):
            raise FactError(f"{field}: the value is text, as in a card sheet")
        text = " ".join(str(raw).split()) if field != "text" else str(raw).strip()
        if len(text) > (MAX_TEXT if field == "text" else MAX_VALUE):
            raise FactError(f"{field}: a value of {len(text)} characters is over the limit")
        if not text and _zero_words(field) == NONE:  # as an empty Restriction cell of a card sheet (§1): none printed
            text = NONE
        if not text:
            raise FactError(f"{field}: the value is empty (write `unknown` for not known)")
        if field == "text" and not all(c.isprintable() or c in "\n\t" for c in text):
            raise FactError("text: it holds a control character")
        out[field] = text
    row: dict[str, object] = {"id": card.id, "name": card.name, "game": card.game, **out}
    problems: list[Any] = []
    item = sheet_card_from_row(row, 1, problems)
    if problems or item is None:
        first = problems[0] if problems else None
        what = f"{first.column}: {str(first.value)[:60]!r}: {first.message}" if first else "the values do not read"
        raise FactError(what)
    merged = item.merged(card)
    return {f: value_text(merged, f) for f in out}


@dataclass(frozen=True)
class Proposal:
    """A value a player gave on a club server, and what became of it."""

    id: int
    card_id: str
    card: str
    field: str
    value: str
    old: str
    old_source: str
    by: str
    at: str
    status: str
    conflict: str | None
    decided_by: str = ""
    decided_at: str = ""
    by_key: str = ""  # whose it is: `@ID` for an account's, else the typed name folded (Author.key)

    def as_dict(self) -> dict[str, Any]:
        """The JSON object of CONTRACTS §6 (revision 3), plus what the review page shows."""
        return {"id": self.id, "card": self.card_id, "name": self.card, "field": self.field, "old": self.old,
                "old_source": self.old_source, "value": self.value, "by": self.by, "at": self.at,
                "status": self.status, "conflict": self.conflict, "decided_by": self.decided_by or None,
                "decided_at": self.decided_at or None}


@dataclass(frozen=True)
class Change:
    """One change of a value in a card's history."""

    card_id: str
    field: str
    old: str
    new: str
    old_source: str
    new_source: str
    at: str
    accepted_by: str

    def as_dict(self) -> dict[str, Any]:
        return {"card": self.card_id, "field": self.field, "old": self.old, "new": self.new,
                "old_source": self.old_source or None, "source": self.new_source or None, "at": self.at,
                "accepted_by": self.accepted_by or None}


@dataclass
class Submitted:
    """What an answer did: values applied at once (personal server) or proposals made (club server)."""

    applied: list[dict[str, Any]]
    proposals: list[Proposal]

    def as_dict(self) -> dict[str, Any]:
        return {"applied": self.applied, "proposals": [p.as_dict() for p in self.proposals]}


def conflict_of(card: Card, field: str, value: str, source: Provenance | None) -> str | None:
    """Why a proposed value contradicts a named public source or a value a person set; None if it does not."""
    held = value_text(card, field)
    if held == UNKNOWN or held == value or source is None:
        return None
    if source.kind == "source":
        return f"a named public source says {shown(field, held)} ({source.ref or 'source'})"
    if source.kind in ("web", "sheet"):
        return f"the accepted value is {shown(field, held)} ({source})"
    return None


class Facts:
    """Answers, proposals and history on one store (deckcheck.db.store.Store)."""

    def __init__(self, store: Store):
        self.store = store

    # -- answers --------------------------------------------------------------------------------
    def submit(self, card: Card, values: object, by: object, review: bool) -> Submitted:
        """Store a player's answers about a card (review=False) or keep them as proposals (review=True).

        FactError (nothing stored) when the name or a value is bad."""
        done, problems = self.submit_many([(card, values)], by, review)
        if problems:
            raise problems[0][1]
        return done

    def submit_many(self, answers: Iterable[tuple[Card, object]], by: object, review: bool
                    ) -> tuple[Submitted, list[tuple[Card, FactError]]]:
        """The answers about several cards (a deck's fill-in form) in one transaction: what was applied or
        proposed, and each card whose values are bad with its FactError (its answers are left out, the others
        kept). FactError when the name is bad, or is an account's name typed by someone not signed in as it
        (nothing stored). `by`: an Author, or a typed name."""
        author = author_of(by)
        name = author.name
        good: list[tuple[Card, dict[str, str]]] = []
        problems: list[tuple[Card, FactError]] = []
        for card, values in answers:
            try:
                good.append((card, parse_values(card, values)))
            except FactError as exc:
                problems.append((card, exc))
        if not good:
            return Submitted([], []), problems
        if not review:
            result = update_cards(self.store, [{"id": card.id, **parsed} for card, parsed in good], prov.web(name),
                                  overwrite=True)
            return Submitted([{"card": c.card_id, "field": c.field, "old": sheet_text(c.field, c.old),
                               "new": sheet_text(c.field, c.new),
                               "source": str(c.new_source) if c.new_source else None}
                              for c in result.changes if c.field != "name"], []), problems
        made: list[int] = []
        stamp = now()
        with self.store.begin() as con:
            if not author.signed_in and account_named(con, name):
                raise FactError(f"{name!r} is the name of an account of this server: sign in as {name} to give "
                                "answers under it, or give another name")
            ids = [card.id for card, _parsed in good]
            stored = read_cards(con, ids)
            all_sources = read_sources(con, ids)
            for card, parsed in good:
                card = stored.get(card.id, card)  # as stored now, not as the caller read it
                sources = all_sources.get(card.id, {})
                for field, value in parsed.items():
                    where = sources.get(field)
                    old = value_text(card, field)
                    conflict = conflict_of(card, field, value, where)
                    made.append(add_proposal(con, {
                        "card_id": card.id, "field_name": field, "value": value, "old": old,
                        "old_source": str(where) if where else "", "by": name, "conflict": conflict or ""},
                        author.key, stamp))
        return Submitted([], list(reversed(self.proposals(ids=made)))), problems

    def proposals(self, status: str | None = None, by: str | Author | None = None, ids: Iterable[int] | None = None,
                  card_id: str | None = None, limit: int | None = None) -> list[Proposal]:
        """Proposals (newest first), filtered by status, by who made them (an Author, or a typed name: never an
        account's), by ids or by card; at most `limit`."""
        wanted = None if ids is None else list(ids)
        if wanted == []:
            return []
        key = None if by is None else by.key if isinstance(by, Author) else by_key(by)
        with self.store.engine.connect() as con:
            rows = proposal_rows(con, status, key, wanted, card_id, limit)
        names = self._names({r[1] for r in rows})
        return [Proposal(int(r[0]), r[1], names.get(r[1], r[1]), r[2], r[3], r[4], r[5], r[6], r[7], r[8],
                         r[9] or None, r[10], r[11], by_key=r[12]) for r in rows]

    def _names(self, ids: set[str]) -> dict[str, str]:
        if not ids:
            return {}
        with self.store.engine.connect() as con:
            return {card_id: card.name for card_id, card in read_cards(con, sorted(ids)).items()}

    def get(self, pid: int) -> Proposal:
        found = self.proposals(ids=[pid])
        if not found:
            raise ProposalNotFound(f"no proposal has the id {pid}")
        return found[0]

    def decide(self, pid: int, accept: bool, decided_by: str = "the organiser") -> Proposal:
        """Accept (store the value, provenance `web:NAME @ time` of the proposal) or reject a pending proposal.

        One transaction: the status moves from pending only where it still is pending, and the value is written in
        the same transaction, so two decisions at once (an accept and a reject) leave exactly one standing, and the
        stored value and the proposal's status always agree. ProposalDecided for the one that came second."""
        proposal = self.get(pid)
        with self.store.begin() as con:
            cards_writers_turn(con)  # before the proposal's row: every card writer takes the two in this order
            done = decide_proposal(con, pid, "accepted" if accept else "rejected", decided_by, now())
            if done and accept:
                update_cards_on(con, self.store, [{"id": proposal.card_id, proposal.field: proposal.value}],
                                Provenance("web", proposal.by, proposal.at), overwrite=True, accepted_by=decided_by)
        if not done:
            raise ProposalDecided(f"proposal {pid} was already {self.get(pid).status}")
        return self.get(pid)

    def accept_all(self, by: str | Author, decided_by: str = "the organiser") -> list[Proposal]:
        """Accept every pending proposal of one person (oldest first: a later answer wins); `by` as in proposals,
        or the key a Proposal's `by_key` holds (the review page's button)."""
        if isinstance(by, str) and by.startswith("@"):
            by = Author("", by)
        done = []
        for proposal in reversed(self.proposals(status="pending", by=by)):
            try:
                done.append(self.decide(proposal.id, True, decided_by))
            except ProposalDecided:
                continue
        return done

    def overlay(self, by: str | Author) -> list[SheetCard]:
        """One person's pending answers as partial card-sheet rows (the latest per field), for their own check
        (`by` as in proposals)."""
        rows: dict[str, dict[str, str]] = {}
        names: dict[str, str] = {}
        for pending in reversed(self.proposals(status="pending", by=by)):
            rows.setdefault(pending.card_id, {})[pending.field] = pending.value
            names[pending.card_id] = pending.card
        out = []
        for card_id, values in rows.items():
            item = sheet_card_from_row({"id": card_id, "name": names[card_id], **values}, 0, [])
            if item is not None:
                source = {f: Provenance("web", f"{by.name if isinstance(by, Author) else by} (pending)", "")
                          for f in values}
                out.append(SheetCard(item.card, 0, frozenset(values), source))
        return out

    # -- history --------------------------------------------------------------------------------
    def history(self, card_id: str) -> list[Change]:
        """Every recorded change of the card's values, newest first."""
        with self.store.engine.connect() as con:
            return [Change(*r) for r in change_rows(con, card_id)]


# -- sharing between clubs -------------------------------------------------------------------------
BUNDLE_KINDS = ("checklist", "default", "derived", "source")  # what the bundle's values are credited to

def facts_sheet(store: Store) -> tuple[list[str], list[list[str]]]:
    """Every stored value that did not come from the bundle, as a §1a card sheet with `FIELD_source` columns:
    (header, rows). A value counts when its card is not bundled, or its value or provenance differs from the
    bundle's. Cells of other fields are blank (a blank cell leaves the stored value)."""
    bundled = {r.card.id: r for r in bundled_rows()}
    sources = stored_sources(store)
    found: list[tuple[Card, dict[str, str], dict[str, str]]] = []
    for card in store.cards():
        mine = sources.get(card.id, {})
        base = bundled.get(card.id)
        values, where = {}, {}
        row, base_row = card_to_row(card), (card_to_row(base.card) if base is not None else {})
        for field in prov.FIELDS:
            source = mine.get(field)
            if base is None:
                if source is None and value_of(card, field) is None:
                    continue
            elif row.get(field) == base_row.get(field) and (source is None or source.kind in BUNDLE_KINDS):
                continue  # the bundle's value (its source may be a newer bundle's)
            values[field] = "" if field == "text" and card.text is None else value_text(card, field)
            where[field] = str(source) if source is not None else ""
        if values:
            found.append((card, values, where))
    fields = [f for f in prov.FIELDS if any(f in v for _c, v, _w in found)]
    header = ["game", "id", "name"] + fields + [prov.column(f) for f in fields]
    rows = [[card.game, card.id, card.name] + [values.get(f, "") for f in fields] + [where.get(f, "") for f in fields]
            for card, values, where in found]
    return header, rows
