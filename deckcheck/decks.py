"""A deck: resolved cards by section, and how a raw decklist becomes one."""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Callable, Iterable, Iterator, Mapping, Protocol

from . import limits
from .cards import Card
from .catalog import CardIndex, Context, Miss, NameMiss, name_score, two_readings, version_marker
from .decklist import SIDE_WORDS, CardText, Grammar, RawDeck, RawLine, parse_card_text, rewrite_line, unquote
from .errors import CardNotFoundError
from .problems import WRONG_SECTION, InputProblem
from .text import normalize


class _NamesFirst(Protocol):
    @property
    def name_edition(self) -> int | None: ...  # deckcheck.rules.Params: names resolve in this edition first


class Buildable(Protocol):
    """What build_deck needs of a format (a deckcheck.formats.Format): its name, sections and where a card goes,
    and the edition whose names come first. Named so, the decks do not import the formats, which hold Decks."""

    @property
    def name(self) -> str: ...

    @property
    def params(self) -> _NamesFirst: ...

    @property
    def sections(self) -> Mapping[str, tuple[str, ...]]: ...

    @property
    def spelling(self) -> Callable[[str], str | None] | None: ...  # a player's way of writing a card -> its name

    @property
    def implied(self) -> Mapping[str, tuple[str, ...]]: ...  # section -> the cards a list that writes none plays

    @property
    def several_a_line(self) -> frozenset[str]: ...  # the sections whose lines may write several cards (`K♠, 2♥`)

    @property
    def cards_in_words(self) -> Callable[[str], tuple[str, ...] | None] | None: ...  # `QH AS` -> ('QH', 'AS')

    @property
    def misspelled(self) -> Callable[[str], tuple[str, ...]] | None: ...  # `Herz Damme` -> ('Queen of Hearts',)

    def section_of(self, written: str | None, card: Card) -> str | None: ...


@dataclass(slots=True)
class Entry:
    """Some copies of one card in one section of a deck."""

    card: Card
    quantity: int
    section: str
    line: int | None = None
    attach: str | None = None


@dataclass(slots=True)
class Player:
    """A player of a table game, and the Hero card they play (None when the name did not resolve)."""

    name: str
    hero: Card | None
    line: int | None = None


@dataclass(slots=True)
class Deck:
    """Entries in sections, plus players for games that have them."""

    entries: list[Entry] = field(default_factory=list)
    source: str = ""
    declared_format: str | None = None
    player: str | None = None
    players: list[Player] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)  # what was read but is not part of the deck (a side board)
    # where add() finds an entry: (game, card id, section, attachment)
    _by_key: dict[tuple[str, str, str, str | None], Entry] = field(default_factory=dict, repr=False, compare=False)
    # the decklist lines each card id was read from, in the list's order (an entry keeps only its first line)
    card_lines: dict[str, list[int]] = field(default_factory=dict, repr=False, compare=False)

    def add(self, card: Card, quantity: int, section: str, line: int | None = None, attach: str | None = None) -> None:
        """Add copies; the same card in the same section (and attachment) adds up (`card_lines` keeps each line)."""
        if line is not None:
            self.card_lines.setdefault(card.id, []).append(line)
        key = (card.game, card.id, section, attach)
        entry = self._by_key.get(key)
        if entry is not None:
            entry.quantity += quantity
            return
        entry = self._by_key[key] = Entry(card, quantity, section, line, attach)
        self.entries.append(entry)

    @classmethod
    def from_entries(cls, entries: Iterable[tuple[Card, str, int]], source: str = "",
                     declared_format: str | None = None) -> "Deck":
        """A deck of resolved (card, section, quantity) entries, as a saved deck keeps them."""
        deck = cls(source=source, declared_format=declared_format)
        for card, section, quantity in entries:
            deck.add(card, quantity, section)
        return deck

    def section(self, name: str) -> list[Entry]:
        """The entries of one section."""
        return [e for e in self.entries if e.section == name]

    def count(self, section: str) -> int:
        """How many cards one section holds."""
        return sum(e.quantity for e in self.entries if e.section == section)

    def __iter__(self) -> Iterator[Entry]:
        return iter(self.entries)


# lines naming no card before a check stops reading (a deck has 50-200 lines), and unknown names given
# suggestions per deck (a deck has 50-70 lines; each costs up to tens of milliseconds, and a hostile 2 MB list
# has 70,000 unknown names): deckcheck.limits
UNREADABLE_LINES_MAX = limits.UNREADABLE_LINES.value
SUGGESTED_LINES_MAX = limits.SUGGESTED_NAMES.value
SUGGESTIONS_SHOWN = 5  # of an unknown name (CardIndex.suggest's own number)


def build_deck(raw: RawDeck, index: CardIndex, fmt: Buildable) -> tuple[Deck, list[InputProblem]]:
    """Resolve every line of a raw decklist for a format; return the deck and every input problem.

    Names are read in two rounds: the first finds the deck's Persona, the second reads the names
    that several Immortals' cards share as the Persona's own card (CONTRACTS.md §2).
    """
    deck = Deck(source=raw.source, declared_format=raw.declared_format, player=raw.player)
    raw = _as_the_game_writes(raw, fmt, index)
    problems = [InputProblem(p.line, p.text, raw.unknown_heading(p.heading, fmt.name) if p.heading else p.message)
                for p in raw.problems]  # the format is known now, given on the command line or not
    edition = fmt.params.name_edition
    context = Context(edition=edition if isinstance(edition, int) else None)
    lines, results, context = _read_lines(raw, index, context, deck.notices)
    aside: dict[str, int] = {}
    counted: dict[int, int] = {}  # line -> copies read on it, for the counts the list states
    suggested = unsuggested = 0  # unknown names looked up for suggestions, and those past SUGGESTED_LINES_MAX
    remarks = _remarks(raw, lines, results, index, context)  # `GLHF`, `Thanks!`, a signature around the list
    shown = {p.line: p.text for p in raw.problems} | {line.line: line.text for line in lines}
    deck.notices += sorted(raw.notices + [_ignored(n, shown[n]) for n in remarks], key=_line_of)
    problems = [p for p in problems if p.line not in remarks]  # `Here's my list for Saturday:`: no heading
    for line, result in zip(lines, results, strict=True):
        if line.line in remarks:
            continue
        if isinstance(result, CardNotFoundError) and _is_unknown(result):
            if line.title and line.section is None and line.kinds is None:
                close = index.suggest(_name_of(line), context=context)
                if not close and len(raw.lines) == 1 and not raw.players:
                    problems.append(InputProblem(line.line, line.text, "no card in the list: this line names no "
                                                 "card (read as a title, nothing follows it)", ()))
                    continue
                title = unquote(line.bare)  # whole: `Kurgan Beatdown @ Regionals [v2]` (a line read as text has it)
                signed = " - " in title and _signed(index, title.rpartition(" - ")[2], context)
                if not close or signed:  # names no card and is close to none (`Connor MacLeod - Björn`: a
                    # Persona and who built it, the part after the dash close to no card): the deck's title
                    deck.notices.append(f"line {line.line} read as the deck's title: {title!r}")
                    continue
                problems.append(InputProblem(line.line, line.text, _message(result, line, raw),
                                             (f"Name: {title}", *close), result.kind))
                continue
            if line.twice:
                problems.append(InputProblem(line.line, line.text, line.twice, (), "bad-line"))
                continue
            if not line.quantity_written and line.set_code is None and is_prose(line.readings[0][1]):
                problems.append(InputProblem(line.line, line.text, "not a card line: it reads as a sentence, and "
                                             "no card has that name (start a remark with # or //)", (),
                                             result.kind))
                continue
            if suggested < SUGGESTED_LINES_MAX:
                suggested += 1
                result = _suggested(line, index, context, fmt)
            else:
                unsuggested += 1
            if line.heading and isinstance(result, CardNotFoundError) and not result.suggestions:
                # `Stuff I like: 3`: no card, and no heading either
                problems.append(InputProblem(line.line, line.text, raw.unknown_heading(line.heading, fmt.name), (),
                                             result.kind))
                continue
        if isinstance(result, CardNotFoundError):
            suggestions, message = tuple(result.suggestions), _message(result, line, raw)
            if (isinstance(result, NameMiss) and result.miss is Miss.BARE_NUMBER and line.quantity_written
                    and line.dash is None and not line.separated):
                # `1x Thrust (ME) 123`: the written 1 stays the quantity (rewrite_line keeps it)
                suggestions = tuple(two_readings(result.text, line.readings[0][0]))
                rewritten = [rewrite_line(line.text, s, raw.grammar) if raw.grammar else s for s in suggestions]
                message = (f"a number after the name is not read by guess: the quantity is written before it; "
                           f"write {rewritten[0]!r} (a collector's number left off)"
                           + (f" or {rewritten[1]!r} for that version" if len(rewritten) > 1 else ""))
            if line.part_of is not None:  # one card of several on the line (`K♠, Kign of Spades`): that card's
                message = f"{message}: {_name_of(line)!r} (the line's other cards are read)"
                suggestions = _in_its_line(line, suggestions, raw.grammar)
            problems.append(InputProblem(line.line, line.text, message, suggestions, result.kind))
            continue
        card, quantity = result
        counted[line.line] = counted.get(line.line, 0) + quantity
        if context.edition is not None and card.edition != context.edition:
            deck.notices.append(f"line {line.line}: {line.readings[0][1]!r} read as the {_ordinal(card.edition)}-"
                                f"edition card {card.name}" + (f" [{card.set}]" if card.set else "")
                                + f": no {_ordinal(context.edition)}-edition card has that name")
        if line.section in SIDE_WORDS:
            aside[line.section] = aside.get(line.section, 0) + quantity
            continue
        section = fmt.section_of(line.section, card)
        if section is None:
            problems.append(InputProblem(line.line, line.text, f"section {line.section!r} is not part of format "
                                                               f"{fmt.name}; its sections are "
                                                               f"{', '.join(fmt.sections)}", kind=WRONG_SECTION))
            continue
        deck.add(card, quantity, section, line.line, line.attach)
    not_read = {p.line for p in problems if p.line is not None} | {line.line for line in raw.lines[len(lines):]}
    deck.notices += stated_notices(raw, counted, deck, fmt, not_read)  # a line not read leaves its count uncompared
    if unsuggested:
        deck.notices.append(f"suggestions were looked for on the first {SUGGESTED_LINES_MAX} unknown names only; "
                            f"{unsuggested} more unknown {'name has' if unsuggested == 1 else 'names have'} none (a "
                            "bound on the work of one check)")
    for side, count in aside.items():
        deck.notices.append(f"{count} {'card' if count == 1 else 'cards'} under {side.title()}: read, not part of "
                            "the deck")
    problems += _read_players(raw, index, deck)
    if fmt.implied:
        problems += _implied(raw, index, fmt, deck)
    problems.sort(key=lambda p: p.line or 0)
    return deck, problems


def _spelled(raw: RawDeck, spelling: Callable[[str], str | None]) -> RawDeck:
    """The list with each reading of a line's name that is another way of writing a built-in card (Format.spelling:
    `QH`, `K♠`, `Pik Ass`) read as that card's name; a line none of whose readings is one stays as written."""
    lines = []
    for line in raw.lines:
        readings = tuple((qty, spelling(name) or name) for qty, name in line.readings)
        lines.append(line if readings == line.readings else replace(line, readings=readings))
    return replace(raw, lines=lines)


def _as_the_game_writes(raw: RawDeck, fmt: Buildable, index: CardIndex) -> RawDeck:
    """The list read as its game's players write it: several cards on a line, other names for built-in cards."""
    if fmt.several_a_line:
        raw = _one_card_a_line(raw, fmt, index)
    return raw if fmt.spelling is None else _spelled(raw, fmt.spelling)


def _one_card_a_line(raw: RawDeck, fmt: Buildable, index: CardIndex) -> RawDeck:
    """The list with each line of a section that may write several cards (Format.several_a_line: Taktik's Deck,
    `K♠, 2♥` as a deal writes a hand, or `QH AS`: Format.cards_in_words) read as one line per card, each with the
    line's number and where its name stands on the line (RawLine.part_of); empty items are passed over. A line
    written under no heading, `Name, 3` (a card and its quantity), or a name a card has stays as written."""
    def several(line: RawLine) -> bool:
        return (not line.separated and line.section is not None
                and _section_named(fmt, line.section) in fmt.several_a_line)
    if not any(several(line) and (_ITEM_MARKS.search(line.bare) or " " in line.bare.strip()) for line in raw.lines):
        return raw
    split = RawDeck(raw.source, grammar=raw.grammar)  # what RawDeck.add makes of each item: a line, or a problem
    for line in raw.lines:
        if not several(line):
            split.lines.append(line)
            continue
        items = list(_ITEM.finditer(line.bare)) if _ITEM_MARKS.search(line.bare) else []
        if not items:  # one item, or none (`,,,`: the line as written)
            if not _in_words(split, line, line, fmt, index):
                split.lines.append(line)
            continue
        for item in items:
            before = len(split.lines)
            split.add(line.line, item.group(), line.section, set_code=line.set_code, kinds=line.kinds,
                      shown=line.text)
            if len(split.lines) > before:  # read (else a problem: a quantity past the bound, no name)
                read = replace(split.lines.pop(), part_of=(line.bare, item.start(), item.end()))
                if not _in_words(split, read, line, fmt, index):
                    split.lines.append(read)
    return replace(raw, lines=split.lines, problems=sorted(raw.problems + split.problems, key=lambda p: p.line))


_ITEM_MARKS = re.compile(r"[,;]")
_ITEM = re.compile(r"[^,;\s](?:[^,;]*[^,;\s])?")  # one item of a line, without the spaces around it


def _in_words(split: RawDeck, read: RawLine, line: RawLine, fmt: Buildable, index: CardIndex) -> bool:
    """Whether `read` (the line, or one comma item of it) writes several cards with spaces between them
    (Format.cards_in_words: `QH AS`); if so each is added to `split` as its own line, or the line's problem when a
    quantity is written on it (which card it counts is not read by guess). A reading that names a card is that
    card (`2 Pik As`: two Aces of Spades); of the others, the first that is cards only is read (`2 Pik Herz Dame`:
    the 2 of Spades and the Queen of Hearts), else the first that holds a card (its unknown words the problem)."""
    def names_card(text: str) -> bool:
        return bool(index.matches(text)) or (fmt.spelling is not None and fmt.spelling(text) is not None)
    if fmt.cards_in_words is None or any(names_card(name) for _qty, name in read.readings):
        return False
    readings = [(i, pieces) for i, (_qty, name) in enumerate(read.readings) if (pieces := fmt.cards_in_words(name))]
    if not readings:
        return False
    at_reading, pieces = next(((i, p) for i, p in readings if all(names_card(piece) for piece in p)), readings[0])
    name = read.readings[at_reading][1]
    if at_reading == 0 and read.quantity_written:  # a line of the section still (a Deck written wrong is no
        # standard one)
        split.lines.append(replace(read, twice="one quantity for several cards on a line: which card it counts is "
                                   "not read by guess; give each card its own, separated by commas "
                                   f"({read.readings[0][0]}x {pieces[0]}, {', '.join(pieces[1:])})"))
        return True
    bare, start, end = read.part_of or (line.bare, 0, len(line.bare))
    found = _spaced(name).search(bare, start, end)
    at, stop = (found.start(), found.end()) if found else (end, end)
    for piece in pieces:
        before = len(split.lines)
        split.add(line.line, piece, line.section, set_code=line.set_code, kinds=line.kinds, shown=line.text)
        where = _spaced(piece).search(bare, at, stop)
        if len(split.lines) > before:
            split.lines[-1] = replace(split.lines[-1], part_of=(bare, where.start(), where.end()) if where else None)
        at = where.end() if where else at
    return True


def _spaced(text: str) -> re.Pattern[str]:
    """The words of a text with any spaces between them (how a line's bare text holds the name read from it)."""
    return re.compile(r"\s+".join(map(re.escape, text.split())))


def _in_its_line(line: RawLine, suggestions: Iterable[str], grammar: Grammar | None) -> tuple[str, ...]:
    """The suggestions for one card of a line that writes several (RawLine.part_of), each written so that clicking
    it (rewrite_line) rewrites only that card: the line's name with the card's replaced (`K♠, Kign of Spades` ->
    `K♠, King of Spades`), else the name alone where rewrite_line picks the card's part itself (`2 QH; 3 Kign`);
    one neither can say is left out (it would drop the line's other cards)."""
    assert line.part_of is not None
    bare, start, end = line.part_of
    found = _spaced(_name_of(line)).search(bare, start, end)
    parsed = parse_card_text(bare)
    if found is None or grammar is None or not isinstance(parsed, CardText):
        return ()
    whole = _spaced(parsed.name).search(bare)
    out = []
    for suggestion in suggestions:
        wanted = bare[:found.start()] + suggestion + bare[found.end():]
        ways = [suggestion]
        if whole is not None and whole.start() <= found.start() and found.end() <= whole.end():
            ways.insert(0, bare[whole.start():found.start()] + suggestion + bare[found.end():whole.end()])
        chosen = next((way for way in ways if rewrite_line(line.text, way, grammar) == wanted), None)
        if chosen is not None:
            out.append(chosen)
    return tuple(dict.fromkeys(out))


def _implied(raw: RawDeck, index: CardIndex, fmt: Buildable, deck: Deck) -> list[InputProblem]:
    """The cards of each section the list writes no line under (Format.implied: a Taktik table's standard deck),
    added to the deck with a notice that says so; a section with a card line of its own (read or refused: `Deck:`
    then `99999999999999999999 K♠`) is the list's."""
    problems = []
    for section, names in fmt.implied.items():
        written = [line.section for line in raw.lines] + [p.section for p in raw.problems]  # a line refused too
        if any(e.section == section for e in deck.entries) or any(
                word is not None and _section_named(fmt, word) == section for word in written):
            continue
        for name in names:
            try:
                deck.add(index.resolve(name), 1, section)
            except CardNotFoundError as exc:  # an implied card is one of the format's built-in cards: never here
                problems.append(InputProblem(None, name, exc.reason, (), exc.kind))
        deck.notices.append(f"the {section} is the game's standard one ({len(names)} card"
                            f"{'' if len(names) == 1 else 's'}): the list writes no {section} lines")
    return problems


Results = list[tuple[Card, int] | CardNotFoundError]


def _read_lines(raw: RawDeck, index: CardIndex, context: Context,
                notices: list[str]) -> tuple[list[RawLine], Results, Context]:
    """The lines read (a list of thousands that name no card stops after UNREADABLE_LINES_MAX), what each
    resolved to, and the context of the second round: the deck's Persona, once the first round found it."""
    read_lines = _dash_lines(raw.lines, index, notices)
    results: Results = []
    unread = 0
    for line in read_lines:
        results.append(_resolve_line(line, index, context))
        unread += isinstance(results[-1], CardNotFoundError)
        if unread >= UNREADABLE_LINES_MAX:
            break
    lines = read_lines[:len(results)]
    if len(lines) < len(raw.lines):
        left = len(raw.lines) - len(lines)
        notices.append(f"reading stopped at line {lines[-1].line}: {UNREADABLE_LINES_MAX:,} lines name no card; "
                       f"the {left:,} {'line after it was' if left == 1 else 'lines after it were'} not read (a "
                       "bound on the work of one check)")
    persona = next((r[0].immortal_key for r in results if not isinstance(r, CardNotFoundError)
                    and r[0].type == "Persona" and r[0].immortal_key), None)
    if persona is not None:
        context = Context(persona, context.edition)
        results = [_resolve_line(line, index, context) if isinstance(r, CardNotFoundError) else r
                   for line, r in zip(lines, results, strict=True)]
    return lines, results, context


def _read_players(raw: RawDeck, index: CardIndex, deck: Deck) -> list[InputProblem]:
    """The players of a `Players:` section, each Hero resolved; the problems of the Heroes that name no card."""
    problems = []
    for p in raw.players:
        try:
            hero: Card | None = index.resolve(p.hero)
        except CardNotFoundError as exc:
            problems.append(InputProblem(p.line, p.text, exc.reason, tuple(exc.suggestions), exc.kind))
            hero = None
        deck.players.append(Player(p.name, hero, p.line))
    return problems


CHAT_WORDS = frozenset("hi hello hey heya hiya yo greetings thanks thank thx ty tia cheers glhf gl hf gg ggs regards "
                       "lmk feedback comments enjoy cya bye ps edit welcome".split())
"""Words of the greetings, thanks and sign-offs around a posted list (`GLHF`, `Thanks!`, `Any feedback welcome`);
no card name holds one (tests/test_paste_leftovers.py checks the bundled cards)."""
_VERY_CLOSE = 0.9  # a chat line this close to a card name is still a card line written wrong


def _signed(index: CardIndex, tail: str, context: Context) -> bool:
    """Whether what follows the dash of a title line (`Connor MacLeod - Björn`) is a name of no card, nor very
    close to one: who built the deck, not a card written wrong."""
    key = normalize(tail)
    return bool(key) and not index.matches(tail) and all(
        name_score(key, normalize(c)) < _VERY_CLOSE for c in index.suggest(tail, context=context))


def is_chatter(text: str) -> bool:
    """A line of greetings, thanks or sign-off: one of its words is a chat word."""
    return not CHAT_WORDS.isdisjoint(normalize(text[:200]).split())


def _name_of(line: RawLine) -> str:
    """The name a line writes: without its quantity when that is a word (`three Thrst` -> `Thrst`)."""
    return line.readings[-1][1] if line.worded else line.readings[0][1]


def _remarks(raw: RawDeck, lines: list[RawLine], results: list[tuple[Card, int] | CardNotFoundError], index: CardIndex,
             context: Context) -> set[int]:
    """The lines of the post around a list, read as remarks (a notice each) rather than cards: before its first
    card or heading, or after its last, naming no card and close to none (a chat word excuses a loose likeness:
    `Cheers` is not `Schemer`). Before the list, every such line once one of them is talk (a greeting, a
    sentence, chat); after it, the talk and the lines after it (`Cheers,` then the signature). A list with no card
    has no post around it: its lines stay errors."""
    if all(isinstance(r, CardNotFoundError) for r in results):
        return set()
    listed = [line.line for line, r in zip(lines, results, strict=True)  # the list: cards, and cards written wrong
              if not isinstance(r, CardNotFoundError) or not _is_unknown(r) or line.quantity_written or line.set_code]
    first, last = min(listed + raw.headings), max(listed + raw.headings)
    found: list[tuple[int, bool, bool]] = []  # (line, talk, free: close to no card)
    for line, result in zip(lines, results, strict=True):
        if (first < line.line < last or not isinstance(result, CardNotFoundError) or not _is_unknown(result)
                or line.quantity_written or line.set_code or line.kinds is not None or line.twice):
            continue
        text = line.bare  # (every line read holds the text it was read from)
        if line.title and not is_chatter(text):
            continue  # the title line
        if len(found) >= SUGGESTED_LINES_MAX:
            break  # each costs a look for close names: past the bound, the lines stay errors (with no suggestions)
        found.append((line.line, is_chatter(text) or is_prose(text), _far(text, _name_of(line), index, context)))
    for p in raw.problems[:SUGGESTED_LINES_MAX]:
        if p.heading and p.line is not None and not first < p.line < last:
            talk = is_chatter(p.heading) or len(p.heading.split()) >= 3
            found.append((p.line, talk, _far(p.heading, p.heading, index, context)))
    found.sort()
    out = set()
    before = [f for f in found if f[0] < first]
    if any(talk and free for _n, talk, free in before):
        out |= {n for n, _talk, free in before if free}
    talking = False
    for n, talk, free in (f for f in found if f[0] > last):
        talking = talking or (talk and free)
        if free and talking:
            out.add(n)
    return out


def _far(text: str, name: str, index: CardIndex, context: Context) -> bool:
    """Whether a line names nothing close to a card (a chat line may be loosely like one)."""
    close = index.suggest(name, context=context)
    if not close:
        return True
    return is_chatter(text) and max(name_score(normalize(name), normalize(c)) for c in close) < _VERY_CLOSE


def _line_of(notice: str) -> int:
    """The line a reader's notice begins with (`line 3 ...`)."""
    word = notice.split(" ", 2)[1] if notice.startswith("line ") else ""
    return int(word) if word.isdigit() else 0


def _ignored(line: int | None, text: str) -> str:
    return f"line {line} ignored: {text.strip()[:80]!r} reads as a remark, not a card"


def _dash_lines(lines: list[RawLine], index: CardIndex, notices: list[str]) -> list[RawLine]:
    """`Dodge - 3` is three copies; `Thrust - 3`, where Thrust has a version 3, is read so only when the list
    shows it writes quantities after ` - ` (a line whose number is no version of its card); alone it stays
    the input error that shows both ways (CONTRACTS §2)."""
    dashed = [line for line in lines if line.dash]
    if not dashed:
        return lines
    versioned = {line.line for line in dashed if _has_version(index, line.readings[0][1], line.dash or "")}
    shown = next((line.line for line in dashed if line.line not in versioned and index.matches(line.readings[0][1])),
                 None)
    out = []
    for line in lines:
        if line.line in versioned and shown is None:
            line = replace(line, readings=line.readings[1:])  # only the whole line: the message with both ways
        elif line.line in versioned:
            qty, name = line.readings[0]
            notices.append(f"line {line.line}: {line.bare!r} read as {qty} {name} (the list writes quantities "
                           f"after ' - ', as on line {shown}); {name} ({line.dash}) is written in brackets")
        out.append(line)
    return out


def _has_version(index: CardIndex, name: str, number: str) -> bool:
    try:
        return bool(index.matches(f"{name} ({number})"))
    except CardNotFoundError:
        return False


def _ordinal(edition: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(edition, f"{edition}th")


def is_prose(text: str) -> bool:
    """A line that reads as a sentence, not a card name: it ends as a sentence does, or runs long."""
    return text.rstrip().endswith((".", "!", "?", ":)", ":-)")) or len(text.split()) >= 8 or ", " in text


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def stated_notices(raw: RawDeck, counted: dict[int, int], deck: Deck, fmt: Buildable, unread: set[int]) -> list[str]:
    """A notice for each count the list states (a heading's, a total's) that differs from the cards read.

    A heading's count is compared with the card lines under it (a heading with none under it, as a total of
    its section); a total with the section it names, else with the deck, any section or the lines since the
    previous heading or total. Lines that could not be read leave their counts uncompared."""
    notices: list[str] = []
    numbers = sorted({line.line for line in raw.lines})  # (a line may hold several cards: `[*]3 A[*]2 B`)

    def lines_in(first: int, end: int | None) -> list[int]:
        return [n for n in numbers if first <= n and (end is None or n < end)]

    def section_count(word: str | None) -> int | None:
        if word is None:
            return None
        if word in SIDE_WORDS:
            return sum(n for line, n in counted.items() if any(r.line == line and r.section == word
                                                                for r in raw.lines))
        name = _section_named(fmt, word)
        return deck.count(name) if name else None

    for stated in raw.stated:
        if stated.heading:
            under = lines_in(stated.line, stated.end)
            if under:
                if unread & set(under):
                    continue
                actual = sum(counted.get(n, 0) for n in under)
                if actual != stated.count:
                    notices.append(f"line {stated.line}: the heading says {stated.count}; {_cards(actual)} "
                                   f"{'follows' if actual == 1 else 'follow'}")
                continue
        if unread:
            continue
        running = sum(counted.get(n, 0) for n in lines_in(stated.since, stated.line))
        whole = sum(e.quantity for e in deck.entries)
        if stated.section is not None:
            held = section_count(stated.section)
            if held is None or stated.count in (held, running):
                continue
            where = _section_named(fmt, stated.section) or stated.section.title()
            notices.append(f"line {stated.line}: the list says {stated.count}; the {where} holds {held}")
        elif stated.count not in (whole, running, *(deck.count(s) for s in fmt.sections)):
            holds = ", ".join(f"{deck.count(s)} in the {s}" for s in fmt.sections)
            notices.append(f"line {stated.line}: the total says {stated.count}; the list holds {holds}")
    return notices


def _section_named(fmt: Buildable, word: str) -> str | None:
    """The format's section a heading word names (`endurance`, `deck` -> Endurance), or None."""
    key = normalize(word)
    return next((s for s, words in fmt.sections.items() if key == normalize(s) or key in words), None)


def _resolve_line(line: RawLine, index: CardIndex, context: Context,
                  suggest: bool = False) -> tuple[Card, int] | CardNotFoundError:
    """The card and quantity of a line: the first reading whose name is a card; else the error of the
    first reading (an ambiguity or a bad set says more than "unknown card"), with suggestions if asked."""
    if line.kinds is not None:
        context = Context(context.persona, context.edition, line.kinds)
    error: CardNotFoundError | None = None
    for qty, name in line.readings:
        try:
            return index.resolve(name, line.set_code, context, suggest=False), qty
        except CardNotFoundError as exc:
            if error is None or (_is_unknown(error) and not _is_unknown(exc) and not line.separated):
                error = exc
    assert error is not None
    if suggest and _is_unknown(error):
        # a number the line holds but not as its quantity (`3) Thrust`, `(3) Thrust`, `3,Thrust`) is never
        # offered back as a version (`Thrust (3)`): the names are sought without it
        name = _NUMBER_MARK.sub("", _name_of(line))  # `three Thrst`: Thrst (never empty: a name follows the mark)
        error = NameMiss(error.text, Miss.NO_CARD, suggestions=index.suggest(name, context=context))
    return error


def _suggested(line: RawLine, index: CardIndex, context: Context, fmt: Buildable) -> tuple[Card, int] | \
        CardNotFoundError:
    """_resolve_line with suggestions: the index's closest names, after the built-in cards the name misspells
    (Format.misspelled: `Herz Damme` -> Queen of Hearts, which the index, knowing English names only, misses)."""
    result = _resolve_line(line, index, context, suggest=True)
    if fmt.misspelled is None or not isinstance(result, NameMiss) or not _is_unknown(result):
        return result
    close = [n for n in fmt.misspelled(_name_of(line)) if n not in result.suggestions]
    if not close:
        return result
    return NameMiss(result.text, Miss.NO_CARD, result.reason,
                    close + list(result.suggestions)[:SUGGESTIONS_SHOWN - len(close)])


_NUMBER_MARK = re.compile(r"^(?:[(\[]\d+[)\]]|\d+[).:,;])\s*(?=\D)")


def _is_unknown(error: CardNotFoundError) -> bool:
    """A name that matches no card (not an ambiguity, nor a set or number written wrong)."""
    return isinstance(error, NameMiss) and error.miss is Miss.NO_CARD


def _message(error: CardNotFoundError, line: RawLine | None = None, raw: RawDeck | None = None) -> str:
    text = error.reason
    if line is not None and raw is not None and line.title and _is_unknown(error) and line.section is None:
        text += " (if this line is the deck's title, start it with # or write it as Name: ...)"
    elif line is not None and _is_unknown(error) and error.suggestions:
        marker = version_marker(_name_of(line))
        if marker is not None and not marker[2] and error.suggestions[0] == f"{marker[0]} ({marker[1]})":
            text += f" (a version is written in round brackets: {error.suggestions[0]})"  # `v1`, `ver. 2`
    return text
