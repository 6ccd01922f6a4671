"""Decks you build and keep (CONTRACTS §10): the library calls under `/api/decks`, the builder page and `deckcheck
deck ...`. Each takes the `Person` who asks (deckcheck.library.people) and decides with `.owns` what they may see
and change: another's private deck is not found (so ids leak nothing), another's visible deck is read-only.

A deck's text is what is kept and read back (as the saved-deck link always read it): its cards resolve against the
current catalogue whenever it is shown. A change from the builder resolves the card as a decklist line would, in
the deck's own context (its Persona), and writes the deck back in the decklist grammar, grouped by section.
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from ..adding import Additions
from ..cards import Card
from ..check import check_raw, choose_format
from ..collection import deck_name
from ..db.keptdecks import Cards, DeckVersion, KeptDeck, Revision, changes_text, stored_cards
from ..decklist import SIDE_WORDS
from ..decks import Deck, build_deck
from ..errors import CardNotFoundError, DeckcheckError
from ..games import get_format
from ..report import Report
from ..stats import EXERTION, HAND, DeckStats, fills, open_squares
from ..textlimits import parse_checked
from .api import CardSource, deck_text, printed
from .people import Person
from .statsapi import NoSavedDeckError, stats_in

if TYPE_CHECKING:
    from ..db.collections import Collections
    from ..formats import AnyFormat

VISIBILITIES = ("private", "link", "public")
DELTA_MAX = 99  # copies one change adds or removes: more is no deck's (a huge delta is refused, nothing changed)
ID_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


class DeckNotFound(NoSavedDeckError):
    """No deck of that id that the person may see (404: another's private deck answers the same)."""

    def __init__(self, key: str, version: int | None = None, message: str = "no saved deck has that id"):
        super().__init__(key, message if version is None else f"the deck {key[:40]!r} has no version {version}")


class NotYourDeck(DeckcheckError):
    """A change to a deck the person may see but does not own (403)."""


class ChangeRefused(CardNotFoundError):
    """A builder's change whose card does not resolve (unknown, ambiguous, of another game): 400 with the
    suggestions a decklist line would get; nothing changed."""

    def __str__(self) -> str:
        tail = f"; did you mean: {', '.join(self.suggestions[:8])}" if self.suggestions else ""
        return f"{self.text!r}: {self.reason}{tail}; the deck was not changed"


def new_id() -> str:
    """A new deck's link: 8 letters and digits (no `-` or `_`: a link starting with `-` reads as an option)."""
    return "".join(secrets.choice(ID_LETTERS) for _ in range(8))


def visible(person: Person, deck: KeptDeck) -> bool:
    """Whether a person may see a deck: its owner, the keeper, and anyone holding a link or public deck's id."""
    return deck.visibility != "private" or person.owns(deck.owner_id)


def visibility_of(text: str | None) -> str | None:
    """A visibility as given (None: unchanged); DeckcheckError naming the three."""
    if text is None:
        return None
    if text not in VISIBILITIES:
        raise DeckcheckError(f"visibility {text[:40]!r} is not one of {', '.join(VISIBILITIES)}")
    return text


def stored(deck: Deck) -> Cards:
    """A resolved deck's entries as a version keeps them."""
    return stored_cards((e.card.id, e.card.name, e.section, e.quantity) for e in deck.entries)


@dataclass(frozen=True)
class VersionInfo:
    """One line of a deck's history: its number, when, its verdict now, and what it changed."""

    version: int
    at: str
    legal: bool | None
    changes: str

    def as_dict(self) -> dict[str, object]:
        """The JSON object of `GET /api/decks/{id}/versions`."""
        return {"version": self.version, "at": self.at, "legal": self.legal, "changes": self.changes}


class DeckBook:
    """The kept decks of a database, read against a catalogue (the web's shared one: no card read per call; with a
    card sheet laid over it, web.cardsheets)."""

    def __init__(self, catalog: CardSource, collections: Collections):
        self.catalog = catalog
        self.collections = collections
        self.kept = collections.kept

    # -- reading text ---------------------------------------------------------------------------------
    def resolve(self, text: str, fmt_name: str | None, source: str = "-") -> tuple[Deck, AnyFormat]:
        """(deck, format) of a decklist text; DeckcheckError naming every line that does not resolve."""
        raw = parse_checked(text, source)
        fmt = choose_format(raw, fmt_name)
        deck, problems = build_deck(raw, self.catalog.index(fmt), fmt)
        if problems:
            raise DeckcheckError("the decklist has input errors; fix them before saving: " + "; ".join(
                f"line {p.line}: {p.text[:80]!r}: {p.message}" for p in problems[:10]))
        return deck, fmt

    def report_of(self, text: str, fmt_name: str, source: str) -> Report:
        """The check report of a kept text, read now (an unreadable one: its input errors, no verdict)."""
        return check_raw(parse_checked(text, source), self.catalog.index, fmt_name or None, details=True)

    # -- reading decks --------------------------------------------------------------------------------
    def get(self, person: Person, key: str) -> KeptDeck:
        """The deck of this id as `person` may see it; DeckNotFound otherwise."""
        deck = self.kept.get(key) if len(key) <= 64 else None
        if deck is None or not visible(person, deck):
            raise DeckNotFound(key)
        return deck

    def version(self, person: Person, key: str, version: int | None = None,
                kept: KeptDeck | None = None) -> tuple[KeptDeck, DeckVersion]:
        """A deck and one of its versions (None: the latest); DeckNotFound when there is no such version. `kept`:
        the deck as `person` has just read it (the latest version is then read from it, not again)."""
        deck = kept if kept is not None and kept.id == key else self.get(person, key)
        if version is None or version == deck.version:
            return deck, DeckVersion(deck.version, deck.format, deck.text, deck.cards, deck.updated_at)
        found = self.kept.version(key, version)
        if found is None:
            raise DeckNotFound(key, version)
        return deck, found

    def count(self, key: str) -> int:
        """How many versions a deck has."""
        return len(self.kept.versions(key))

    def owned(self, person: Person, key: str) -> KeptDeck:
        """A deck the person may change; DeckNotFound (cannot see it) or NotYourDeck (may only read it)."""
        return self.may_change(person, self.get(person, key))

    @staticmethod
    def may_change(person: Person, deck: KeptDeck) -> KeptDeck:
        """The deck when the person may change it; DeckNotFound (may not see it) or NotYourDeck (may only read it)."""
        if not visible(person, deck):
            raise DeckNotFound(deck.id)
        if not person.owns(deck.owner_id):
            # said alike by the command line and the web: no route, no command, not its name (a link's holder may
            # read it, but a refusal tells nothing beyond the id asked: tests/web/test_cross_account.py)
            raise NotYourDeck(f"the deck {deck.id} is not yours: make a copy of your own to change it")
        return deck

    def mine(self, person: Person) -> list[KeptDeck]:
        """The person's own decks (the keeper's: the keeper's); nobody's for an anonymous visitor."""
        if not person.known:
            return []
        return self.kept.listing(person.owner_id)

    def public(self) -> list[KeptDeck]:
        """The public decks, newest first."""
        return self.kept.listing(public=True)

    def find(self, person: Person, name: str) -> KeptDeck:
        """A deck by its id, else by its name among the person's own (`deck show NAME`); DeckNotFound, or
        DeckcheckError when several of the person's decks have that name."""
        try:
            return self.get(person, name)
        except DeckNotFound:
            pass
        named = [d for d in self.mine(person) if d.name == name]
        if len(named) > 1:
            raise DeckcheckError(f"{len(named)} of your decks are called {name!r}: name one by its id "
                                 f"({', '.join(d.id for d in named)})")
        if not named:
            raise DeckNotFound(name, message=f"no saved deck named {name[:80]!r}")
        return named[0]

    def named(self, person: Person, name: str) -> KeptDeck:
        """A deck as a command line names it (`deck show NAME --as ACCOUNT`): one of the person's own decks by its
        name first, else by its id (another's link or public deck is read by its id, as on the web)."""
        own = [d for d in self.mine(person) if d.name == name]
        return own[0] if len(own) == 1 else self.find(person, name)

    def keep(self, person: Person, name: str, deck: Deck, fmt: AnyFormat) -> tuple[KeptDeck, int | None]:
        """Keep a resolved deck as the person's deck of that name (`deck save NAME FILE --as ACCOUNT`): a new version
        of their deck so named, else a new deck of theirs (a link deck, with a new id: another's deck may have the
        name for its id); (the deck now, the version it had before: None for a new deck)."""
        deck_name(name)
        own = [d for d in self.mine(person) if d.name == name]
        if len(own) > 1:
            raise DeckcheckError(f"{len(own)} of your decks are called {name!r}: name one by its id "
                                 f"({', '.join(d.id for d in own)})")
        text, cards = deck_text(fmt.name, deck), stored(deck)
        if own:
            done = self.kept.revise(own[0].id, lambda _d: Revision(text=text, format=fmt.name, cards=cards))
            if done is not None:
                return done[0], own[0].version
        return self.kept.create(new_id(), name, fmt.name, text, cards, person.owner_id), None

    def history(self, person: Person, key: str) -> list[VersionInfo]:
        """Every version of a deck, the first first, with its verdict now and what it changed."""
        self.get(person, key)
        out, before = [], None
        for v in self.kept.versions(key):
            legal = self.report_of(v.text, v.format, f"/decks/{key}").legal
            changes = "first version" if before is None else (changes_text(before, v.cards) or "no card changed")
            out.append(VersionInfo(v.version, v.at, legal, changes))
            before = v.cards
        return out

    def deck_at(self, person: Person, key: str, version: int | None = None,
                kept: KeptDeck | None = None) -> tuple[Deck, AnyFormat]:
        """A version of a deck as saved (its cards; its text read again when a card is in no card table), its
        source its link (`@N` for a version before the latest), for statistics and the diff; `kept` as in
        `version`."""
        deck, v = self.version(person, key, version, kept)
        fmt = get_format(v.format)
        known = self.collections.cards
        if all(c.card_id in known for c in v.cards):
            resolved = Deck.from_entries([(known[c.card_id], c.section, c.quantity) for c in v.cards],
                                         declared_format=v.format)
        else:
            resolved, fmt = self.resolve(v.text, v.format)
        resolved.source = f"/decks/{key}" + ("" if v.version == deck.version else f"@{v.version}")
        return resolved, fmt

    def effects(self, person: Person, key: str, kept: KeptDeck | None = None) -> Effects:
        """What adding each card would do to a deck's latest version, kept while that version is the latest and
        the catalogue the same (a builder searches many times between two changes); `kept` as in `version`."""
        kept = kept if kept is not None and kept.id == key else self.get(person, key)
        found = _EFFECTS.get((kept.id, kept.version, kept.updated_at))
        if found is not None and found[0] is self.catalog:
            return found[1]
        deck, fmt = self.deck_at(person, key, kept=kept)
        effects = Effects(deck, fmt)
        if len(_EFFECTS) >= EFFECTS_KEPT:
            _EFFECTS.pop(next(iter(_EFFECTS)), None)
        _EFFECTS[(kept.id, kept.version, kept.updated_at)] = (self.catalog, effects)
        return effects

    # -- changing -------------------------------------------------------------------------------------
    def create(self, person: Person, name: str, text: str, fmt_name: str | None = None, visibility: str = "link",
               copied_from: str = "", key: str | None = None) -> KeptDeck:
        """A new deck of the person's, version 1, its text resolving whole (DeckcheckError naming what does not)."""
        deck_name(name)
        visibility = visibility_of(visibility) or "link"
        resolved, fmt = self.resolve(text, fmt_name)
        key = key or new_id()
        return self.kept.create(key, name, fmt.name, text, stored(resolved), person.owner_id, visibility,
                                copied_from)

    def update(self, person: Person, key: str, text: str | None = None, name: str | None = None,
               visibility: str | None = None, fmt_name: str | None = None) -> tuple[KeptDeck, bool]:
        """Change a deck's list, name, visibility or format (owner only); (the deck, whether a version was made)."""
        if name is not None:
            deck_name(name)
        visibility = visibility_of(visibility)
        current = self.owned(person, key)

        def revise(deck: KeptDeck) -> Revision:
            if text is None and fmt_name is None:
                return Revision(name=name, visibility=visibility)
            resolved, fmt = self.resolve(deck.text if text is None else text, fmt_name or deck.format)
            return Revision(text=deck.text if text is None else text, format=fmt.name, cards=stored(resolved),
                            name=name, visibility=visibility)
        return self._revised(current.id, revise)

    def change(self, person: Person, key: str, card: str, delta: int, section: str | None = None,
               bounded: bool = False) -> tuple[KeptDeck, bool]:
        """Add (`delta` > 0) or remove copies of one card, resolved as a decklist line in the deck's context; the
        section defaults to the card's own. ChangeRefused (nothing changed) for a card that does not resolve;
        `bounded` (the builder's copies field): DeckcheckError for more copies than the format's title max."""
        if not isinstance(delta, int) or isinstance(delta, bool) or not 1 <= abs(delta) <= DELTA_MAX:
            raise DeckcheckError(f"delta is a whole number from -{DELTA_MAX} to {DELTA_MAX}, not 0")
        if len(key) > 64:
            raise DeckNotFound(key)
        card = card.strip()
        if not card or len(card) > 200 or not card.isprintable():
            raise DeckcheckError("card is one line naming a card (its name, NAME [SET] or its id), at most 200 "
                                 "characters")
        def revise(deck: KeptDeck) -> Revision:
            self.may_change(person, deck)  # read once, in the change's own transaction
            most = copies_max(get_format(deck.format))
            if bounded and abs(delta) > most:
                raise DeckcheckError(f"copies is a whole number from 1 to {most} ({deck.format}'s most copies of "
                                     "one title); the deck was not changed")
            resolved, fmt = changed(self, deck, card, delta, section)
            return Revision(text=deck_text(fmt.name, resolved), format=fmt.name, cards=stored(resolved))
        return self._revised(key, revise)

    def restore(self, person: Person, key: str, version: int) -> tuple[KeptDeck, bool]:
        """A new version equal to version `version` (owner only)."""
        self.owned(person, key)
        _deck, old = self.version(person, key, version)
        return self._revised(self.owned(person, key).id, lambda _d: Revision(text=old.text, format=old.format,
                                                                            cards=old.cards))

    def copy(self, person: Person, key: str, name: str | None = None) -> KeptDeck:
        """A deck of the person's, version 1, equal to the latest version of one they may see; private (until its
        owner shares it), its `copied_from` naming the origin."""
        if not person.known:
            raise NotYourDeck("copying a deck makes it yours: sign in first")
        origin = self.get(person, key)
        called = deck_name(name) if name is not None else origin.name
        return self.kept.create(new_id(), called, origin.format, origin.text, origin.cards, person.owner_id,
                                "private", copied_from=origin.id)

    def _revised(self, key: str, revise: Callable[[KeptDeck], Revision]) -> tuple[KeptDeck, bool]:
        done = self.kept.revise(key, revise)
        if done is None:  # none, or deleted meanwhile
            raise DeckNotFound(key)
        return done


def copies_max(fmt: AnyFormat) -> int:
    """The most copies one change of the builder's copies field adds: the format's title max (a format without
    one: DELTA_MAX), at most DELTA_MAX."""
    most = getattr(fmt.params, "title_max", None)
    return min(most, DELTA_MAX) if isinstance(most, int) and most > 0 else DELTA_MAX


def changed(book: DeckBook, deck: KeptDeck, card: str, delta: int, section: str | None) -> tuple[Deck, AnyFormat]:
    """The deck with `delta` copies of `card` added or removed: the card read as one more line of the deck's text
    (so it resolves as the deck would read it, its Persona's cards by their short names), in `section` or its own."""
    raw = parse_checked(deck.text, f"/decks/{deck.id}")
    fmt = choose_format(raw, deck.format)
    if section is not None and section not in fmt.sections:
        side = " (a side board is not part of the deck)" if section.casefold() in SIDE_WORDS else ""
        raise DeckcheckError(f"section {section[:40]!r} is not one of {fmt.name}'s: {', '.join(fmt.sections)}"
                             + side)
    index = book.catalog.index(fmt)
    by_id = next((c for c in index.cards if c.id == card), None)
    if by_id is not None:  # a card's id: the line that names exactly that printing
        card = printed(by_id)
    base, _problems = build_deck(raw, index, fmt)
    # the card's line: first, before any heading, where a line goes to the card's own section; or at the end,
    # under the heading of the section asked for
    if section is None:
        text, line = f"1 {card}\n" + deck.text, 1
    else:
        text = deck.text.rstrip("\n") + f"\n\n{section}:\n1 {card}\n"
        line = len(text.splitlines())
    added, problems = build_deck(parse_checked(text, f"/decks/{deck.id}"), index, fmt)
    mine = [p for p in problems if p.line == line]
    if mine:
        raise ChangeRefused(card, mine[0].message, list(mine[0].suggestions))
    before = {(e.card.id, e.section, e.attach): e.quantity for e in base.entries}
    grown = [e for e in added.entries if e.quantity > before.get((e.card.id, e.section, e.attach), 0)]
    if not grown:
        raise ChangeRefused(card, f"is not read into {fmt.name}'s sections (a side board is not part of the deck)")
    target = grown[0]
    key = (target.card.id, target.section, target.attach)
    have = before.get(key, 0)
    if have + delta < 0:
        raise DeckcheckError(f"the deck holds {have} {target.card.name} in {target.section}: "
                             f"{-delta} cannot be removed; the deck was not changed")
    out = Deck(source=base.source, declared_format=base.declared_format, player=base.player, players=base.players)
    for e in base.entries:
        q = have + delta if (e.card.id, e.section, e.attach) == key else e.quantity
        if q:
            out.add(e.card, q, e.section, e.line, e.attach)
    if key not in before:
        out.add(target.card, delta, target.section, None, target.attach)
    return out, fmt


def deck_report(book: DeckBook, deck: KeptDeck, version: DeckVersion | None = None) -> Report:
    """The report of a deck's version, read now, whose `deck` is the deck's link."""
    v_text, v_fmt = (deck.text, deck.format) if version is None else (version.text, version.format)
    report = book.report_of(v_text, v_fmt, f"/decks/{deck.id}")
    report.deck = f"/decks/{deck.id}"
    return report


def report_dict(book: DeckBook, deck: KeptDeck, version: DeckVersion | None = None) -> dict[str, object]:
    """The §3 report of a deck's version, read now, as a dict whose `deck` is the deck's link."""
    return deck_report(book, deck, version).as_dict()


def verdict(book: DeckBook, deck: KeptDeck) -> tuple[bool | None, bool]:
    """(legal, unverified) of a deck's latest version, read now."""
    report = book.report_of(deck.text, deck.format, f"/decks/{deck.id}")
    return report.legal, bool(report.unverified)




@dataclass(frozen=True)
class Effect:
    """What adding one copy of a card would do to a deck as it stands: the error rules it would add (none: the deck
    may take it), and whether a rule could not be verified for it (unknown data: kept in, marked)."""

    copy: int  # the copy it would be (a 7th Back Away: 7)
    rules: tuple[str, ...]
    unverified: bool

    @property
    def playable(self) -> bool:
        """Whether the deck may take the card (unknown data keeps a card in)."""
        return not self.rules

    def describe(self, name: str) -> str:
        """"adding a 7th Back Away breaks HL-TITLE-MAX", "adding The Kurgan Persona breaks HL-OTHER-PERSONA"
        (nothing for a card the deck may take)."""
        if not self.rules:
            return ""
        what = name if self.copy == 1 else f"a {ordinal(self.copy)} {name}"
        return f"adding {what} breaks {', '.join(self.rules)}"


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th ... 11th, 12th, 13th, 21st."""
    tail = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{tail}"


class Effects:
    """The effect of adding each card to one deck, each card worked out once (deckcheck.adding: the rules it may
    change run again, the others keep what they said of the deck)."""

    def __init__(self, deck: Deck, fmt: AnyFormat):
        self.deck, self.fmt = deck, fmt
        self.additions = Additions(deck, fmt)
        self.held: dict[object, int] = {}
        for e in deck.entries:
            self.held[e.card.card_key] = self.held.get(e.card.card_key, 0) + e.quantity
        self._seen: dict[str, Effect] = {}
        self.stats: DeckStats | None = None
        try:
            self.stats = stats_in(deck, fmt, HAND, EXERTION)
        except DeckcheckError:  # a game without statistics has no grid to cover
            pass
        self.open = open_squares(self.stats) if self.stats is not None else {"defense": (), "attack": ()}

    def fills(self, card: Card) -> tuple[str, ...]:
        """The squares the deck still leaves open that one copy of `card` would cover ("covers a square I still
        lack"); none for a card of unknown grid, or of another game."""
        return fills(card, self.open) if card.game == self.fmt.game else ()

    def of(self, card: Card) -> Effect:
        """What adding one copy of `card` (in its own section) would do."""
        if card.id in self._seen:
            return self._seen[card.id]
        copy = self.held.get(card.card_key, 0) + 1
        section = self.fmt.section_of(None, card)
        if section is None or card.game != self.fmt.game:
            found = Effect(copy, ("not in this format",), False)
        else:
            found = Effect(copy, *self.additions.of(card, section))
        self._seen[card.id] = found
        return found


EFFECTS_KEPT = 64  # decks whose effects are kept (each a dict of up to a bundle's cards)
# (id, version, saved at) -> (catalogue, effects): a deleted deck's name saved again is another deck
_EFFECTS: dict[tuple[str, int, str], tuple[object, "Effects"]] = {}


def available(collections: Collections, person: Person, deck_id: str) -> dict[object, int]:
    """Copies of each card (as the rules see it) the collections hold beyond what the person's other decks use."""
    book_decks = collections.kept.listing(person.owner_id) if person.known else []
    free: dict[object, int] = {}
    for holding in collections.holdings(None):
        free[holding.card.card_key] = free.get(holding.card.card_key, 0) + holding.quantity
    known = collections.cards
    for deck in book_decks:
        if deck.id == deck_id:
            continue
        for c in deck.cards:
            if c.card_id in known:
                key = known[c.card_id].card_key
                free[key] = free.get(key, 0) - c.quantity
    return {k: n for k, n in free.items() if n > 0}
