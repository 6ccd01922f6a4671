"""Card name resolution: how a name written in a decklist, a sheet or a command finds its card.

One resolver for every command (CONTRACTS.md §2). It never guesses: a name resolves to one card,
or it is an input error that lists what the name could mean (each written so that it resolves
exactly where it is shown) or the closest names. Unknown names are looked up through an index of
the words of every name, built once, so a suggestion costs a bounded amount of work.
"""
from __future__ import annotations

import bisect
import difflib
import heapq
import threading
from collections import defaultdict
from dataclasses import dataclass
from enum import Enum
from typing import Any, Callable, Iterable, Sequence

from .cards import Card, as_one_card, card_groups, one_card, same_card
from .errors import AmbiguousCardError, CardNotFoundError, UnknownCardError
from .memo import Memo as Memo  # (its home was here)
from .text import ends_in_bare_number, normalize, split_set


SETS_HINT = "(deckcheck cards sets lists them all)"  # the CLI's; the web names its own list (web.decks)


@dataclass(frozen=True, slots=True)
class Candidate:
    """One way a name could be read, for an ambiguity message: the card and how to write it."""

    card: Card
    write_as: str


@dataclass(frozen=True, slots=True)
class CardSet:
    """A set (expansion) of printed cards: its code, name, edition and year of release."""

    code: str
    name: str
    edition: int | None = None
    year: str | None = None


@dataclass(frozen=True, slots=True)
class Context:
    """What a name is read against: the deck's own Persona (folded), the format's edition first,
    and, for a card on a heading line (`Persona: Duncan MacLeod`), the card types it names."""

    persona: str | None = None
    edition: int | None = None
    kinds: frozenset[str] | None = None


class Miss(Enum):
    """Why a name found no card, as data (never read back from a message): only NO_CARD is a name a suggestion
    may mend; a set or a number written wrong says what to write instead."""

    NO_CARD = "unknown card"
    UNKNOWN_SET = "unknown set"
    NOT_IN_SET = "no printing in the set"
    BARE_NUMBER = "a number after the name, read neither as a quantity nor as a version"


class NameMiss(UnknownCardError):
    """A name that found no card, and why (`miss`); `reason` is the message (the Miss's own words if none)."""

    def __init__(self, text: str, miss: Miss, reason: str | None = None, suggestions: list[str] | None = None):
        super().__init__(text, reason or miss.value, suggestions)
        self.miss = miss


NO_CONTEXT = Context()
SUGGESTION_CANDIDATES = 40  # names scored closely per unknown name, after the word index picked them
_MAX_QUERY_WORDS = 8  # words of an unknown name looked up (a longer text is no card name)
_SUGGESTION_CACHE = 4096
_FOUND_CACHE = 256  # whole searches kept (a deck builder searches the same words again after every + and −)
_RESOLVED_CACHE = 65536  # (name, set, context) -> card: every line of a large tournament, bounded
_MAX_SUGGEST_TEXT = 200  # characters of an unknown name compared (card names are far shorter)
_MAX_WORD = 30  # a longer word is in no card name: it is not looked up
_COMMON_WORD = 200  # a word in more names than this is looked up only when the rarer words found too few
_MAX_POSTINGS = 2000  # names read per word at most


def _forms(card: Card) -> set[str]:
    """Other ways players write a card's name: Immortal as prefix or in brackets, version left out."""
    bases = {card.title}
    if card.version:
        bases.add(f"{card.title} ({card.version})")
    forms = set()
    for base in bases:
        forms.add(base)
        for written in (card.immortal, card.weapon):
            for owner in {written, _set_key(written)} if written else ():  # "The" optional: "Kurgan Hammer Blow"
                forms.add(f"{owner} {base}")
                forms.add(f"{base} ({owner})")
    name = card.name
    if name.endswith(")") and "(" in name:
        # "Amanda (Premium +1 Ability)" is printed "Amanda": the bracket only tells printings apart
        forms.add(name[: name.rindex("(")])
    return {normalize(f) for f in forms} - {""}


def _kind_forms(card: Card) -> set[str]:
    """What a heading line may name a card by among its kind: a Persona, a Quickening or a Premium by its
    Immortal ("The" optional), a Weapon of Choice by its weapon (`Persona: Duncan MacLeod`, `Quickening:
    Kurgan`, `Weapon: Katana Sword`)."""
    out = {card.title_key}
    if card.immortal:
        out.add(normalize(card.immortal))
        out.add(_set_key(card.immortal))
    if card.weapon:
        out.add(normalize(card.weapon))
    return out - {""}


def _set_key(text: str) -> str:
    """A set name folded, a leading "The" optional."""
    key = normalize(text)
    return key[4:] if key.startswith("the ") else key


_VERSION_WORDS = ("version", "vers", "ver", "v")


def version_marker(text: str) -> tuple[str, str, bool] | None:
    """A version written short after a name: `Upper Left Attack v1`, `... V.2`, `... ver. 2`, `... version 2`,
    `... (v1)`, `... (ver 2)` -> (name, number, whether in round brackets); None otherwise. In round brackets it
    is the version (CONTRACTS §2: a version marker is in round brackets); bare, it is what a suggestion writes."""
    text = text.rstrip()
    if len(text) > 200:
        return None
    bracketed = text.endswith(")") and "(" in text
    if bracketed:
        at = text.rindex("(")
        head, marker = text[:at], text[at + 1:-1]
    else:
        words = text.split(" ")
        take = 2 if len(words) > 2 and words[-1].isdigit() else 1
        head, marker = " ".join(words[:-take]), " ".join(words[-take:])
    key = marker.lower().replace(".", "").replace(" ", "")
    for word in _VERSION_WORDS:
        number = key[len(word):]
        if key.startswith(word) and number.isascii() and number.isdigit() and len(number) <= 2:
            return (head.rstrip(), str(int(number)), bracketed) if head.strip() else None
    return None


def _two_ways(text: str) -> str:
    """The message for a bare trailing number: both ways it could have been meant."""
    head, _, last = text.strip().rpartition(" ")
    number = last.lstrip("-–")
    name = head.rstrip(" -–")
    if _has_version(name):  # `Thrust (2) 3`: a version is written already, never a second one
        return f'a number after the name is not read by guess: write "{number} {name}" for {number} copies'
    return (f'a number after the name is not read by guess: write "{number} {name}" for {number} copies, '
            f'or "{name} ({number})" for version {number}')


def _has_version(name: str) -> bool:
    """Whether a name ends in a version marker in round brackets (`Thrust (2)`, `Thrust (Version 2)`)."""
    if not name.endswith(")") or "(" not in name:
        return False
    inner = name[name.rindex("(") + 1:-1].strip().lower().removeprefix("version").strip()
    marker = version_marker(name)
    return inner.isascii() and inner.isdigit() or (marker is not None and marker[2])


def two_readings(text: str, quantity: int | None = None) -> list[str]:
    """The two ways to write a line ending in a bare number, as suggestions: `N name` and `name (N)`; with a
    quantity written before the name (`1x Thrust (ME) 123`), the number is no quantity: `name` (a collector's
    number dropped) and `name (N)`, each keeping that quantity where the line has it."""
    head, _, last = text.strip().rpartition(" ")
    number, name = last.lstrip("-–"), head.rstrip(" -–")
    versions = [] if _has_version(name) else [f"{name} ({number})"]  # (`Thrust (2) 3`: no `Thrust (2) (3)`)
    return [name, *versions] if quantity is not None else [f"{number} {name}", *versions]


class SetTable:
    """The sets (expansions) of an index's cards: the sets given, and every other set a card names; a set found
    by its code or name, any case, a leading "The" optional."""

    def __init__(self, given: Iterable[CardSet], cards: list[Card]) -> None:
        self.sets: list[CardSet] = self._all_sets(given, cards)
        self._set_codes: dict[str, str] = {}
        for s in self.sets:
            for key in (_set_key(s.code), _set_key(s.name), normalize(s.code), normalize(s.name)):
                self._set_codes.setdefault(key, s.code)
        # the set each card names, as a code: folded once here, not on every look at a printing
        self._code_of = {c.set: self._set_codes.get(_set_key(c.set), c.set) for c in cards if c.set}

    def known(self, text: str) -> str | None:
        """The code of the set a text names exactly (code or name), or None."""
        return self._set_codes.get(_set_key(text)) or self._set_codes.get(normalize(text))

    @staticmethod
    def _all_sets(given: Iterable[CardSet], cards: list[Card]) -> list[CardSet]:
        """The sets given, plus every set the cards name that is not among them (named by its name)."""
        sets = {s.code: s for s in given}
        known = {normalize(s.code) for s in sets.values()} | {normalize(s.name) for s in sets.values()}
        editions: dict[str, set[int]] = defaultdict(set)
        for card in cards:
            if card.set and normalize(card.set) not in known:
                editions[card.set].add(card.edition)
        for name, eds in sorted(editions.items()):
            sets[name] = CardSet(name, name, min(eds) if len(eds) == 1 else None)
        return sorted(sets.values(), key=lambda s: s.edition or 9)  # stable: the given (release) order first

    def code(self, text: str) -> str:
        """The code of the set a text names (code or name, any case, a leading "The" optional);
        NameMiss listing the closest sets otherwise."""
        code = self.known(text)
        if code is not None:
            return code
        names = {_set_key(s.name): s for s in self.sets} | {_set_key(s.code): s for s in self.sets}
        close = difflib.get_close_matches(_set_key(text), list(names), n=3, cutoff=0.4)
        shown = [f"{names[c].code} ({names[c].name})" if names[c].code != names[c].name else names[c].name
                 for c in dict.fromkeys(close)]
        hint = f"; closest sets: {', '.join(dict.fromkeys(shown))}" if shown else ""
        raise NameMiss(f"[{text}]", Miss.UNKNOWN_SET,
                       f"unknown set {text!r}{hint} {SETS_HINT}")

    def holds(self, card: Card, code: str) -> bool:
        """Whether a card is printed in the set of this code."""
        if card.set is None:
            return False
        held = self._code_of.get(card.set)
        return (held if held is not None else self._set_codes.get(_set_key(card.set), card.set)) == code


class CardIndex:
    """All cards of one game (or of every game), found by name: an exact name first, then the other
    written forms, then the rules of CONTRACTS.md §2 (the deck's Persona, the format's edition).

    It resolves; its parts do the rest: `set_table` (SetTable) the sets, `searcher` (CardSearch) `cards
    search`, `suggester` (Suggester) the close names of a name that found nothing."""

    def __init__(self, cards: Iterable[Card], closest: Callable[[str, list[str], int], list[str]] | None = None,
                 sets: Iterable[CardSet] = ()):
        self.cards: list[Card] = list(cards)
        self._exact: dict[str, list[Card]] = defaultdict(list)
        self._forms: dict[str, list[Card]] = defaultdict(list)
        self._kind_forms: dict[str, list[Card]] = defaultdict(list)
        self._by_id: dict[str, Card] = {}
        for card in self.cards:
            self._by_id[card.id] = card
            key = normalize(card.name)
            self._exact[key].append(card)
            for form in _forms(card) - {key}:
                self._forms[form].append(card)
            if card.type:
                for form in _kind_forms(card):
                    self._kind_forms[form].append(card)
        self.set_table = SetTable(sets, self.cards)
        self.sets: list[CardSet] = self.set_table.sets
        self.searcher = CardSearch(self.cards, self.sets)
        self.suggester = Suggester(self, closest or closest_names)
        # what each (text, set, context) resolved to, the card or the miss (text, why, message) without its
        # suggestions: a tournament names the same cards in every deck, tries the same readings of a line that
        # miss, and picking one card of several printings (same_card, as_one_card) is most of a line's reading
        self._resolved: Memo[tuple[str, str | None, Context], Card | tuple[str, Miss, str]] = Memo(_RESOLVED_CACHE)

    def __len__(self) -> int:
        return len(self.cards)

    def by_id(self, card_id: str) -> Card | None:
        """The card with this printing id, or None."""
        return self._by_id.get(card_id)

    def set_code(self, text: str) -> str:
        """The code of the set a text names (SetTable.code)."""
        return self.set_table.code(text)

    def _in_set(self, card: Card, code: str) -> bool:
        return self.set_table.holds(card, code)

    # -- names ---------------------------------------------------------------------------------
    def matches(self, text: str) -> list[Card]:
        """Every card the text names (a `[SET]` after it picks printings): exact names first, else other forms."""
        name, set_text = split_set(text)
        key = normalize(name)
        exact, forms = self._exact.get(key, []), self._forms.get(key, [])
        if ends_in_bare_number(name):
            exact, forms = [c for c in exact if c.name.rstrip()[-1:].isdigit()], []
        if set_text is None:
            return list(exact or forms)
        code = self.set_code(set_text)
        return [c for c in exact if self._in_set(c, code)] or [c for c in forms if self._in_set(c, code)]

    def may_name(self, text: str) -> bool:
        """False when resolve would surely find no card for the text, whatever its set and context (no name or
        other written form is the text's, and it has no bracket that a set or a version may be written in): a test
        that raises nothing, for a caller trying many names that mostly miss."""
        key = normalize(text)
        return key in self._exact or key in self._forms or key in self._kind_forms or "(" in text

    def lookup(self, text: str, set_text: str | None = None, context: Context = NO_CONTEXT) -> Card:
        """The card a name as written anywhere names, a `[SET]` after it included (`cards show "Thrust [ME]"`,
        `collection add "Lower Right Block [SE]"`, a sheet's card cell); `set_text` is a separate set cell."""
        if set_text is None:
            text, set_text = split_set(text)
        return self.resolve(text, set_text, context)

    def resolve(self, text: str, set_code: str | None = None, context: Context = NO_CONTEXT,
                suggest: bool = True) -> Card:
        """The one card the text names (optionally in a set); raise UnknownCardError or AmbiguousCardError.

        With suggest False an unknown name raises without suggestions (a caller trying several
        readings of a line asks for them once, for the reading it reports).
        """
        memo = (text, set_code, context)
        known = self._resolved.get(memo)
        if isinstance(known, Card):
            return known
        if known is not None and not suggest:
            raise NameMiss(*known)  # a new error each time: one raised again would grow its traceback
        try:
            found = self._found(text, set_code, context, suggest)
        except NameMiss as exc:
            if not exc.suggestions:  # a miss with suggestions is the Suggester's to keep
                self._resolved.put(memo, (exc.text, exc.miss, exc.reason))
            raise
        card = _pick(found, context)
        if card is not None:
            self._resolved.put(memo, card)
            return card
        written = f"{text} [{set_code}]" if set_code else text
        cards = len(card_groups(list(found)))
        raise AmbiguousCardError(written, f"ambiguous: {cards} different cards match; write one of "
                                "them", [c.write_as for c in self.candidates(found, context)])

    def _found(self, text: str, set_code: str | None, context: Context, suggest: bool = True) -> list[Card]:
        """Every card the text may name, after the set and the format's edition narrowed them; never empty."""
        key = normalize(text)
        exact, forms = self._exact.get(key, []), self._forms.get(key, [])
        if context.kinds is not None:
            kinds = context.kinds
            exact, forms = [c for c in exact if c.type in kinds], [c for c in forms if c.type in kinds]
            if not exact and not forms:
                forms = [c for c in self._kind_forms.get(key, ()) if c.type in kinds]
        if ends_in_bare_number(text):
            # "Upper Right Attack 2" folds like "Upper Right Attack (2)": only a name printed so is read
            exact = [c for c in exact if c.name.rstrip()[-1:].isdigit()]
            forms = []
            if not exact and version_marker(text) is not None:  # `ver. 2`, `version 2`: a version, written short
                raise NameMiss(text, Miss.NO_CARD, suggestions=self.suggest(text, context=context) if suggest else [])
            if not exact:
                raise NameMiss(text, Miss.BARE_NUMBER, _two_ways(text), suggestions=two_readings(text))
        found = exact or forms
        if not found and set_code is None and text.endswith(")") and "(" in text:
            # `Thrust (ME)`, `Dodge (Series Edition)`: a bracket that is exactly a set, and no version so named
            at = text.rindex("(")
            inner, head = text[at + 1:-1], text[:at].strip()
            if head and self.set_table.known(inner):
                try:
                    return self._found(head, inner, context, False)
                except UnknownCardError:
                    pass
        marker = version_marker(text) if not found else None
        if marker is not None and marker[2]:  # `(v1)`, `(ver. 2)`: the version in round brackets, written short
            try:
                return self._found(f"{marker[0]} ({marker[1]})", set_code, context, False)
            except UnknownCardError:
                pass
        if not found:
            raise NameMiss(text, Miss.NO_CARD, suggestions=self.suggest(text, context=context) if suggest else [])
        if set_code:
            code = self.set_code(set_code)
            in_set = [c for c in exact if self._in_set(c, code)] or [c for c in forms if self._in_set(c, code)]
            if not in_set:
                sets = sorted({c.set or "?" for c in exact + forms})
                raise NameMiss(f"{text} [{set_code}]", Miss.NOT_IN_SET,
                                        f"no printing in set {set_code}; printed in {', '.join(sets)}")
            found = in_set
        if context.edition is not None:
            found = [c for c in found if c.edition == context.edition] or found
        return found

    def candidates(self, cards: list[Card], context: Context = NO_CONTEXT) -> list[Candidate]:
        """How to write each distinct card of a list so that it resolves to that card alone, in this
        context; the deck's Persona's cards and the format's edition first."""
        return [Candidate(group[0], self.write_as(group[0], context))
                for group in card_groups(sorted(cards, key=lambda c: self.rank(c, context)))]

    def write_as(self, card: Card, context: Context = NO_CONTEXT) -> str:
        """The shortest way to write a card that resolves to it (its name, else its name and set)."""
        plain = Context(context.persona, context.edition)
        for name, set_text in ((card.name, None), (card.name, card.set)):
            try:
                found = _pick(self._found(name, set_text, plain, False), plain)
            except CardNotFoundError:
                continue
            if found is not None and same_card([found, card]):
                return f"{name} [{set_text}]" if set_text else name
        return f"{card.name} [{card.set}]" if card.set else card.name

    @staticmethod
    def rank(card: Card, context: Context) -> tuple[bool, bool, str, str]:
        return (context.persona is None or card.immortal_key != context.persona,
                context.edition is not None and card.edition != context.edition, card.name, card.set or "")

    def named(self, key: str) -> list[Card]:
        """The cards a folded name names exactly, else by another written form."""
        return self._exact.get(key) or self._forms.get(key) or []

    # -- search and suggestions: their own parts, each the owner of its caches -----------------------------
    def search(self, text: str) -> list[Card]:
        """The cards a text finds, best first (CardSearch.search)."""
        return self.searcher.search(text)

    def suggest(self, text: str, limit: int = 5, context: Context = NO_CONTEXT) -> list[str]:
        """The closest names to a name that matched nothing, each written so that it resolves (Suggester)."""
        return self.suggester.suggest(text, limit, context)

    def closest(self, text: str, limit: int = 5) -> list[str]:
        """The names closest to a text that found nothing, however far (Suggester.closest)."""
        return self.suggester.closest(text, limit)


class _Built:
    """A part built on first use: a server's threads share one, so it is built under a lock and published
    whole; a kept index (deckcheck.db.indexcache) holds everything but the lock."""

    def __init__(self) -> None:
        self._build_lock = threading.Lock()

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        del state["_build_lock"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._build_lock = threading.Lock()


SearchRow = tuple[frozenset[str], frozenset[str], frozenset[str], str]


class CardSearch(_Built):
    """`cards search`: the cards whose words a text holds, typos allowed, over the words of every card (built
    on first use)."""

    def __init__(self, cards: list[Card], sets: list[CardSet]) -> None:
        super().__init__()
        self.cards = cards
        self._set_names = {s.code: s.name for s in sets}
        self._card_words: list[SearchRow] | None = None
        self._vocabulary: list[str] = []
        self._searched: Memo[str, dict[str, float]] = Memo()
        self._found: Memo[str, tuple[Card, ...]] = Memo(_FOUND_CACHE)

    def __getstate__(self) -> dict[str, Any]:
        state = super().__getstate__()
        state["_found"] = Memo(_FOUND_CACHE)  # a kept index keeps its words, not the searches made since
        return state

    # -- search --------------------------------------------------------------------------------
    def _search_words(self) -> tuple[list[SearchRow], list[str]]:
        """Per card: the words of its name (title, Immortal, weapon), of its type and set, of its rules text,
        and its folded fields as one text; and every word of them (built once)."""
        if self._card_words is None:
            with self._build_lock:
                if self._card_words is None:
                    codes = self._set_names
                    rows = []
                    vocab: set[str] = set()
                    for c in self.cards:
                        named = frozenset(normalize(" ".join(filter(None, (c.name, c.title, c.immortal,
                                                                          c.weapon)))).split())
                        other = frozenset(normalize(" ".join(filter(None, (c.type, c.set, codes.get(c.set or "")))))
                                          .split())
                        text = frozenset(normalize(c.text or "").split()[:400])
                        hay = normalize(" ".join(filter(None, (c.name, c.title, c.immortal, c.type, c.set, c.weapon))))
                        rows.append((named, other, text, hay))
                        vocab |= named | other | text
                    self._vocabulary = sorted(vocab)
                    self._card_words = rows
        return self._card_words, self._vocabulary

    def _word_matches(self, word: str, vocabulary: list[str]) -> dict[str, float]:
        """The words of the cards a query word finds, each with how well: itself 1, a word it begins 0.9, a
        word it misspells its spelling likeness (as the ranker weighs it)."""
        cached = self._searched.get(word)
        if cached is not None:
            return cached
        found = {word: 1.0}
        if len(word) >= 3:
            at = bisect.bisect_left(vocabulary, word)
            while at < len(vocabulary) and vocabulary[at].startswith(word):
                found.setdefault(vocabulary[at], 0.9)
                at += 1
            matcher = difflib.SequenceMatcher(b=word, autojunk=False)
            spread = max(2, len(word) // 3)
            for other in vocabulary:
                if other in found or abs(len(other) - len(word)) > spread:
                    continue
                matcher.set_seq1(other)
                if matcher.real_quick_ratio() >= _TYPO and matcher.quick_ratio() >= _TYPO:
                    ratio = matcher.ratio()
                    if ratio >= _TYPO:
                        found[other] = ratio * 0.95
        return self._searched.put(word, found)

    def search(self, text: str) -> list[Card]:
        """The cards a text finds (`cards search`, the web's card search, `/api/cards?q=`), best first.

        Words in any order, each found in the card's name, title, Immortal, weapon, type, set or rules
        text, typos allowed (`back away kurgan`, `dunkan persona`, `kurgen master`); a card must hold every
        word (the whole text found inside its fields also counts, as a part of a word: `kurg`). Best first:
        words found in the name before words found elsewhere, then how close the name is to the text.
        An empty text finds every card, by name.
        """
        key = normalize(text[:_MAX_SUGGEST_TEXT])
        if not key:
            return sorted(self.cards, key=lambda c: (normalize(c.name), c.edition, c.set or "", c.id))
        known = self._found.get(key)
        if known is None:
            known = self._found.put(key, tuple(self._scored(key)))
        return list(known)

    def _scored(self, key: str) -> list[Card]:
        """The cards a folded text finds, best first (search, not memoised)."""
        rows, vocabulary = self._search_words()
        words = list(dict.fromkeys(key.split()))[:_MAX_QUERY_WORDS]
        matches = [self._word_matches(w, vocabulary) for w in words]
        scored: list[tuple[float, str, int, str, str, Card]] = []
        for card, (named, other, rules_text, hay) in zip(self.cards, rows, strict=True):
            total = 0.0
            for found in matches:
                best = max((found.get(w, 0.0) for w in named), default=0.0)
                if best < 1.0:
                    best = max(best, 0.85 * max((found.get(w, 0.0) for w in other), default=0.0),
                               0.5 * max((found.get(w, 0.0) for w in rules_text), default=0.0))
                if not best:
                    break
                total += best
            else:
                score = 0.8 * total / len(matches) + 0.2 * name_score(key, normalize(card.name))
                scored.append((-score, normalize(card.name), card.edition, card.set or "", card.id, card))
                continue
            if key in hay:  # a part of a word (`kurg`, `ack`): found, after every card that holds the words
                scored.append((-0.4 - 0.1 * name_score(key, normalize(card.name)), normalize(card.name),
                               card.edition, card.set or "", card.id, card))
        scored.sort(key=lambda row: row[:5])
        return [row[5] for row in scored]


class Suggester(_Built):
    """The close names of a name that found nothing, through an index of the words of every name (built on
    first use), each written so that it resolves in the index it serves."""

    def __init__(self, index: CardIndex, closest: Callable[[str, list[str], int], list[str]]) -> None:
        super().__init__()
        self.index = index
        self._closest = closest
        self._names: list[str] = []
        self._grams: dict[str, list[str]] = {}
        self._words: dict[str, list[int]] | None = None  # published last
        self._close_words: Memo[str, list[str]] = Memo()
        self._suggested: Memo[tuple[str, int, Context], list[str]] = Memo()  # (folded text, limit, context)

    def _word_index(self) -> dict[str, list[int]]:
        if self._words is not None:
            return self._words
        with self._build_lock:
            if self._words is None:
                names = sorted({c.name for c in self.index.cards} | {c.title for c in self.index.cards if c.title})
                words: dict[str, list[int]] = defaultdict(list)
                for i, name in enumerate(names):
                    for word in set(normalize(name).split()):
                        words[word].append(i)
                grams: dict[str, list[str]] = defaultdict(list)
                for word in words:
                    for gram in _trigrams(word):
                        grams[gram].append(word)
                self._names, self._grams = names, dict(grams)
                self._words = dict(words)
            return self._words

    def _similar_words(self, word: str) -> list[str]:
        """Up to 3 words of the card names spelt like a word that no name holds (a typo)."""
        found = self._close_words.get(word)
        if found is None:
            counts: dict[str, int] = {}
            for gram in _trigrams(word):
                for other in self._grams.get(gram, ())[:500]:
                    counts[other] = counts.get(other, 0) + 1
            found = [w for w in heapq.nlargest(3, counts, key=counts.__getitem__)
                     if counts[w] * 2 >= len(_trigrams(word))]
            if len(found) < 3 and len(word) >= 3:
                # letters swapped or one letter wrong share few trigrams (`thrsut`): the words sharing most,
                # kept when the ranker's word likeness calls them a typo of it
                shared = heapq.nlargest(50, counts, key=lambda w: (counts[w], w))
                typos = sorted(((_word_match(word, (w,)), w) for w in shared if w not in found), reverse=True)
                found += [w for score, w in typos if score > 0][:3 - len(found)]
            self._close_words.put(word, found)
        return found

    def suggest(self, text: str, limit: int = 5, context: Context = NO_CONTEXT) -> list[str]:
        """The closest names to a name that matched nothing, each written so that it resolves.

        The word index picks at most SUGGESTION_CANDIDATES names sharing words (or near-spelt
        words) with the text; only those are scored closely. The deck's Persona's cards and the
        format's edition come first among the close names.
        """
        key = normalize(text[:_MAX_SUGGEST_TEXT])
        memo = (key, limit, context)
        cached = self._suggested.get(memo)  # one lookup: another thread may clear the cache between two
        if cached is not None:
            return cached
        words = self._word_index()
        hits: list[str] = []
        for word in key.split()[:_MAX_QUERY_WORDS]:
            if len(word) <= _MAX_WORD:
                hits += [word] if word in words else self._similar_words(word)
        hits.sort(key=lambda w: len(words[w]))  # rare words first: they tell the most
        scores: dict[int, float] = {}
        for hit in hits:
            postings = words[hit]
            if len(postings) > _COMMON_WORD and len(scores) >= SUGGESTION_CANDIDATES:
                continue  # "attack", "the": the rarer words already found enough names
            weight = 1.0 + 1.0 / len(postings)
            get = scores.get
            for i in postings[:_MAX_POSTINGS]:
                scores[i] = get(i, 0.0) + weight
        picked = [self._names[i] for i in heapq.nlargest(SUGGESTION_CANDIDATES, scores, key=scores.__getitem__)]
        # a few more than asked: the deck's Persona's and the format's edition's cards come first among them
        close = self._closest(text[:_MAX_SUGGEST_TEXT], picked, limit * 3) if picked else []
        out: list[str] = []
        for name in close:
            for candidate in self._writable(name, context):
                if candidate not in out:
                    out.append(candidate)
        if context.persona or context.edition:
            def rank(written: str) -> tuple[bool, bool]:
                cards = self.index.named(normalize(split_set(written)[0]))
                return min((self.index.rank(c, context)[:2] for c in cards), default=(True, True))
            out.sort(key=rank)
        marker = version_marker(text)
        if marker is not None:  # `Upper Left Attack v1`: that version first, never another printing before it
            versioned = f"{marker[0]} ({marker[1]})"
            try:
                self.index.resolve(versioned, None, Context(context.persona, context.edition), suggest=False)
                out = [versioned] + [o for o in out if o != versioned]
            except CardNotFoundError:
                pass
        return self._suggested.put(memo, out[:limit])

    def closest(self, text: str, limit: int = 5) -> list[str]:
        """The names closest to a text that found nothing (`cards search`): the suggestions, else the best
        names the word index finds however far (a search shows where to look, it rewrites nothing)."""
        found = self.suggest(text, limit)
        if found:
            return found
        key = normalize(text[:_MAX_SUGGEST_TEXT])
        words = self._word_index()
        scores: dict[int, float] = {}
        for word in key.split()[:_MAX_QUERY_WORDS]:
            if len(word) <= _MAX_WORD:
                for hit in ([word] if word in words else self._similar_words(word)):
                    for i in words[hit][:_MAX_POSTINGS]:  # rare words weigh more, as in suggest()
                        scores[i] = scores.get(i, 0.0) + 1.0 + 1.0 / len(words[hit])
        picked = [self._names[i] for i in heapq.nlargest(SUGGESTION_CANDIDATES, scores, key=scores.__getitem__)]
        return [name for name, _score in ranked_names(text, picked, limit, cutoff=0.3)]

    def _writable(self, name: str, context: Context) -> list[str]:
        """A suggested name as it can be written: itself, or each of its printings with a set."""
        try:
            self.index.resolve(name, None, Context(context.persona, context.edition))
            return [name]
        except CardNotFoundError as exc:
            return list(exc.suggestions) or [name]


def _pick(found: Sequence[Card], context: Context) -> Card | None:
    """The one card of several printings (knowing what any of them states: cards.as_one_card), or the deck's
    own Persona's one card; None when ambiguous."""
    if found and one_card(list(found)):
        return as_one_card(list(found))
    if context.persona:
        own = [c for c in found if c.immortal_key == context.persona]
        if own and one_card(own):
            return as_one_card(own)
    return None


def _trigrams(word: str) -> set[str]:
    padded = f" {word} "
    return {padded[i:i + 3] for i in range(len(padded) - 2)}


_MINOR_WORDS = frozenset({"the", "of", "a", "an", "and", "to", "in", "on", "my", "for", "with", "at", "vs", "deck"})
MIN_SCORE = 0.62  # below it a name is not close: no suggestion, and a title line stays a title
_TYPO = 0.75  # two words spelt at least this alike (difflib ratio) are one word mistyped


def _word_match(word: str, words: Sequence[str]) -> float:
    """How well one word of a query is found among a name's words: 1 the same word, 0.9 the start of one
    (`kurg` in `kurgan`), the spelling likeness of the closest one when it is a typo (`dunkan`), else 0."""
    best = 0.0
    for other in words:
        if other == word:
            return 1.0
        if len(word) >= 3 and other.startswith(word):
            best = max(best, 0.9)
        elif abs(len(other) - len(word)) <= max(2, len(word) // 3) and len(word) >= 3:
            ratio = difflib.SequenceMatcher(None, word, other, autojunk=False).ratio()
            if ratio >= _TYPO:
                best = max(best, ratio * 0.95)
    return best


def name_score(key: str, name_key: str) -> float:
    """How close a folded text is to a folded name, from 0 to 1, whatever the order of the words:
    mostly how well each word of the text is found in the name (typos allowed), then how much of the
    name the text accounts for, then the spelling of the whole. The one ranker of every suggestion
    (decklists, sheets, commands, the web app and the desk) and of `cards search`."""
    words = list(dict.fromkeys(key.split()))[:_MAX_QUERY_WORDS]  # a longer text is no card name: bounded work
    names = name_key.split()
    if not words or not names:
        return 0.0
    weights = [0.25 if w in _MINOR_WORDS and len(words) > 1 else 1.0 for w in words]
    found = [_word_match(w, names) for w in words]
    covered = sum(f * w for f, w in zip(found, weights, strict=True)) / sum(weights)
    used = sum(1 for n in names if n in words or any(len(w) >= 3 and n.startswith(w) for w in words)
               or _word_match(n, words) > 0)
    share = used / len(names)
    spelling = difflib.SequenceMatcher(None, key, name_key, autojunk=False).ratio()
    return 0.55 * covered + 0.25 * share + 0.2 * spelling


def ranked_names(text: str, names: Iterable[str], limit: int = 5, cutoff: float = MIN_SCORE) -> list[tuple[str, float]]:
    """The names closest to text, best first (ties by name), with their scores; none below `cutoff`."""
    key = normalize(text)
    scored = [(name_score(key, normalize(name)), name) for name in names]
    best = heapq.nsmallest(limit, ((-score, name) for score, name in scored if score >= cutoff))
    return [(name, -neg) for neg, name in best]


def closest_names(text: str, names: list[str], limit: int = 5) -> list[str]:
    """The names closest to text, best first: `ranked_names` without the scores."""
    return [name for name, _score in ranked_names(text, names, limit)]
