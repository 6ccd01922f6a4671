"""The library calls behind the CLI: cards from the database plus card sheets, and checking files.

Not part of the pure core: it reaches the database (deckcheck.db) and files (deckcheck.importers). What a
`deckcheck check` does not load (collections, card statistics, tournaments, card-sheet reading) is imported
where it is used.
"""
from __future__ import annotations

import os
import stat
from collections import Counter
from copy import copy
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Sequence, Unpack

from ..cards import Card
from ..cardsheet import SheetCard, match_by_name
from ..catalog import CardIndex
from ..check import check_raw, choose_format, validate
from ..db import indexcache
from ..db.engine import resolve_url
from ..db.store import BUNDLE_KEY, Store, bundle_digest, bundled_rows, bundled_sets, set_names
from ..decklist import split_set
from ..decks import build_deck
from ..errors import CardSheetError, DeckcheckError, UnknownCardError
from ..formats import AnyFormat
from ..games import all_formats, get_format, parse_text
from ..importers.decklists import READERS, read_decklists  # READERS: the one table of decklist suffixes
from .people import KEEPER, Person
from ..provenance import FIELDS as PROVENANCE_FIELDS
from ..report import UNREADABLE, InputProblem, Report
from ..text import and_more
from ..todo import Todo, collect

if TYPE_CHECKING:  # imported where used: `deckcheck check` needs none of them
    from ..cardstats import FieldStat
    from ..collection import (CollectionStats, Holding, HoldingCounts, HoldingFields, Holdings, Key, Missing, RowReader,
                             Surplus)
    from ..db.collections import Change, PastImport
    from ..decklist import RawDeck
    from ..decks import Deck
    from ..errors import RowProblem
    from ..provenance import Provenance
    from ..tournament import Tournament


class CardSource:
    """The cards a run sees: stored cards (of a database, or the bundled files), overlaid by this run's cards.

    A card of the overlay replaces the stored card of the same id, or is added. Name indexes are
    built once per game.
    """

    def __init__(self, overlay: Iterable[Card] = (), sheets: Sequence[str | Path] = ()):
        self.overlay: list[SheetCard] = []
        if overlay:
            self.overlay = [SheetCard(c) for c in overlay]  # a whole card states every field
        self.notices: list[str] = []  # what the card sheets held that was ignored (unknown columns)
        self._sheets = [str(s) for s in sheets]
        for sheet in sheets:

            from .. import provenance
            from ..importers.cardsheet import read_card_sheet
            data = read_card_sheet(sheet, consequence="no deck was checked with it")
            origin = provenance.Provenance("sheet", f"{Path(sheet).name} (this run only)")
            self.overlay += with_origin(data.rows, origin)
            self.notices += [f"{sheet}: {notice}" for notice in data.notices]
        self._matched: list[SheetCard] | None = None
        self._indexes: dict[str, CardIndex] = {}

    def _overlay(self) -> list[SheetCard]:
        """This run's rows, those without an id matched by name to the stored cards (CONTRACTS §2), once."""
        if self._matched is None:
            if any(not row.id_stated for row in self.overlay):
                where = f"--cards {', '.join(self._sheets)}" if self._sheets else "the answers"
                self._matched = match_by_name(self.overlay, self.stored(None), where, bundled_sets())
            else:
                self._matched = self.overlay
        return self._matched

    def stored(self, game: str | None = None) -> list[Card]:
        """The stored cards (of one game), in a stable order."""
        raise NotImplementedError

    def cards(self, game: str | None = None) -> list[Card]:
        """Stored cards of a game; this run's cards and sheet rows update the fields they state (same id:
        a whole card replaces it, a partial sheet row changes its columns, CONTRACTS §1a) or add cards."""
        stored = self.stored(game)
        if not self.overlay:
            return stored
        extra = {r.card.id: r for r in self._overlay() if game is None or r.card.game == game}
        merged = [extra.pop(c.id).merged(c) if c.id in extra else c for c in stored]
        return merged + [r.card for r in extra.values()]

    def index_all(self) -> CardIndex:
        """The name index of every game's cards, built once (collections hold cards of any game)."""
        if "*" not in self._indexes:
            self._indexes["*"] = self._built("*", lambda: CardIndex(self.cards(), sets=bundled_sets()))
        return self._indexes["*"]

    def index(self, fmt: AnyFormat) -> CardIndex:
        """The name index of a format's game (built-in cards of the format included), built once."""
        key = f"{fmt.game}:{fmt.name}" if fmt.builtin_cards else fmt.game
        if key not in self._indexes:
            def build() -> CardIndex:
                cards = self.cards(fmt.game)
                if fmt.builtin_cards:
                    cards = fmt.builtin_cards() + cards
                return CardIndex(cards, sets=bundled_sets())
            self._indexes[key] = self._built(key, build)
        return self._indexes[key]

    def _built(self, key: str, build: Callable[[], CardIndex]) -> CardIndex:
        """The index `build` makes (a source that keeps indexes between runs may give it from there)."""
        return build()

    def search(self, text: str) -> list[Card]:
        """The cards a text finds, best first: words in any order, typos allowed (`cards search`, CardIndex.search);
        the cards a format builds in (Taktik's 52) after the stored ones."""
        return self.index_all().search(text) + builtin_index().search(text)

    def builtin(self) -> list[Card]:
        """The cards the formats build in (Taktik's 52 playing cards), each once: they are in no card table, so a
        collection never holds them, but their pages, `cards show` and the searches find them."""
        return builtin_index().cards

    def find(self, name: str) -> list[Card]:
        """The card of this id, or every card the name names (`[SET]` picks printings), as `cards show` shows.

        UnknownCardError (with suggestions) when nothing matches, as a decklist line would get it.
        """
        index = self.index_all()
        found = [c for c in index.cards if c.id == name] or index.matches(name)
        if not found:
            builtin = builtin_index()
            spelled = [n for fmt in all_formats() if fmt.spelling and (n := fmt.spelling(name))]  # `QH`, `Herz Dame`
            found = [c for c in builtin.cards if c.id == name] or builtin.matches(spelled[0] if spelled else name)
        if not found:
            index.lookup(name)  # raises the error a decklist line would get: unknown card, set or number
            raise UnknownCardError(name, "unknown card", index.suggest(name))
        return found

    def set_counts(self) -> list[SetCount]:
        """Every set with how many of these cards it holds (`cards sets`)."""
        index = self.index_all()
        held = Counter(index.set_code(c.set) for c in index.cards if c.set)
        return [SetCount(s.code, s.name, s.edition, s.year, held.get(s.code, 0)) for s in index.sets]

    def card_stats(self) -> CardStats:
        """How many cards by game, edition, set and type, and how much of each rules field is known (`cards stats`)."""
        from ..cardstats import counts, field_stats
        cards = self.cards()
        return CardStats(len(cards), counts(cards), field_stats(cards, self.sources()))

    def stored_sources(self, ids: Sequence[str] | None = None) -> dict[str, dict[str, Provenance]]:
        """Where each value of the stored cards came from (card id -> field -> provenance)."""
        raise NotImplementedError

    def sources(self, ids: Sequence[str] | None = None) -> dict[str, dict[str, Provenance]]:
        """Where each value of the cards came from (card id -> field -> provenance), this run's sheets included."""
        found = self.stored_sources(ids)
        for row in self._overlay():
            if ids is None or row.card.id in ids:
                found.setdefault(row.card.id, {}).update(row.sources)
        return found


def with_origin(rows: Iterable[SheetCard], origin: Provenance) -> list[SheetCard]:
    """A sheet's rows, each carrying where its values came from: its provenance cells, else the sheet (`origin`)."""
    return [replace(row, sources={f: row.sources.get(f, origin) for f in row.fields if f in PROVENANCE_FIELDS})
            for row in rows]


class Overlaid(CardSource):
    """A card source seen with rows laid over it: one person's pending answers (their own check on a club server),
    or a card sheet brought to a check (`where` names it where a row's name matches no card or several)."""

    def __init__(self, base: CardSource, rows: Sequence[SheetCard], where: str = "") -> None:
        super().__init__()
        self.base = base
        self.overlay = list(rows)
        self._sheets = [where] if where else []

    def stored(self, game: str | None = None) -> list[Card]:
        return self.base.cards(game)

    def stored_sources(self, ids: Sequence[str] | None = None) -> dict[str, dict[str, Provenance]]:
        return self.base.sources(ids)


@dataclass(frozen=True)
class SetCount:
    """A set and how many cards of it the catalogue holds; `as_dict()` is a line of `cards sets --json`."""

    code: str
    name: str
    edition: int | None
    year: str | None
    cards: int

    def as_dict(self) -> dict[str, object]:
        return {"code": self.code, "name": self.name, "edition": self.edition or None, "year": self.year or None,
                "cards": self.cards}


@dataclass(frozen=True)
class CardStats:
    """What `cards stats` prints: the number of cards, counts by game/edition/set/type, and per-field known counts."""

    cards: int
    counts: dict[str, Counter[str]]
    fields: list[FieldStat]


class Catalog(CardSource):
    """The cards a command sees: the stored database (CONTRACTS §5), overlaid by this run's cards and sheets."""

    def __init__(self, db_url: str | None = None, sheets: Sequence[str | Path] = (), cards: Iterable[Card] = ()):
        self.url = resolve_url(db_url)
        self._store: Store | None = None
        self._kept: tuple[str, dict[str, Any]] | None = None  # the kept indexes read at a stamp, read once a run
        self._stored: dict[str | None, list[Card]] = {}  # the database's cards by game, read once (as the indexes)
        super().__init__(cards, sheets)

    @property
    def store(self) -> Store:
        """The database (deckcheck.db.store.Store), opened on first use: a check whose index was kept needs none."""
        if self._store is None:
            self._store = Store(self.url)
        return self._store

    def stored(self, game: str | None = None) -> list[Card]:
        """The database's cards (of one game), read once for the catalogue's life as its name indexes are built
        once (a server makes a new catalogue when any process writes cards: deckcheck.web.deps); a new list each
        call, of the same cards."""
        found = self._stored.get(game)
        if found is None:
            found = self._stored[game] = self.store.cards(game)
        return list(found)

    def _built(self, key: str, build: Callable[[], CardIndex]) -> CardIndex:
        """The index of a SQLite database's cards as kept since the database last changed (deckcheck.db.indexcache),
        else built now and kept. This run's cards and sheets (the overlay) are never kept."""
        if self.overlay:
            return build()
        url = self.url
        stamp = indexcache.database_stamp(url)
        if stamp is None:
            return build()
        if self._kept is None or self._kept[0] != stamp:  # one unpickling a run, not one per game's index
            self._kept = (stamp, indexcache.load(url, stamp))
        kept = self._kept[1]
        found = kept.get(key)
        meta = kept.get("meta")
        if isinstance(found, CardIndex) and isinstance(meta, dict):
            if kept.get("stale"):  # what reading the cards says of the database (another version's bundle), said
                self.store.note_stale(meta)
            return found
        self._stored.clear()  # the cards kept with this stamp are read after it was taken, never before
        index = build()
        meta = getattr(self.store, "last_meta", None)
        if isinstance(meta, dict) and indexcache.database_stamp(url) == stamp:  # no write while the cards were read
            stale = meta.get("bundled") == "yes" and meta.get(BUNDLE_KEY) != bundle_digest()
            self._kept = (stamp, {**kept, key: index, "meta": meta, "stale": stale})
            indexcache.save(url, stamp, self._kept[1])
        return index

    def stored_sources(self, ids: Sequence[str] | None = None) -> dict[str, dict[str, Provenance]]:
        """Where each value of the database's cards came from."""
        from ..db.sources import stored_sources
        return stored_sources(self.store, ids)


class BundledCards(CardSource):
    """The bundled cards, read from the package's own files: no database is opened or created, nothing written."""

    def stored(self, game: str | None = None) -> list[Card]:
        """The bundled cards (of one game), in the order a database returns them."""
        return [c for c in _bundled() if game is None or c.game == game]

    def stored_sources(self, ids: Sequence[str] | None = None) -> dict[str, dict[str, Provenance]]:
        """Where each value of the bundled cards came from, as a new database records it."""
        return {row.card.id: dict(row.sources) for row in bundled_rows() if ids is None or row.card.id in ids}


@lru_cache(maxsize=1)
def _bundled() -> tuple[Card, ...]:
    """The bundled cards, sorted like the database's `order by game, edition, set, id`."""
    return tuple(sorted((row.card for row in bundled_rows()),
                        key=lambda c: (c.game, c.edition, c.set is not None, c.set or "", c.id)))


class UnreadableFolder(DeckcheckError):
    """A folder (or subfolder) whose decklists cannot be listed: it is reported, never skipped silently."""

    def __init__(self, folder: str, reason: str):
        self.folder = folder
        self.line = None
        super().__init__(f"{folder}: the folder cannot be read ({reason}); its decklists were not checked")


class NotAFile(UnreadableFolder):
    """A name in a folder that is no regular file (a named pipe, a device): reading it could wait forever."""

    def __init__(self, path: str, what: str):
        self.folder = path
        self.line = None
        DeckcheckError.__init__(self, f"{path}: not a regular file ({what}); it was not read")


def expand_paths(paths: Iterable[str | Path | UnreadableFolder]) -> list[Path | str | UnreadableFolder]:
    """Decklist files named directly, and the decklist files in named folders (sorted).

    A folder that cannot be listed (permission denied) is an UnreadableFolder in the list, where its
    files would have been. Standard input ('-') can be read once: naming it twice is an error.
    """
    out: list[Path | str | UnreadableFolder] = []
    paths = list(paths)
    if sum(str(p) == "-" for p in paths if isinstance(p, str)) > 1:
        raise DeckcheckError("standard input ('-') is named twice; it can be read only once")
    for p in paths:
        if isinstance(p, UnreadableFolder):
            out.append(p)
            continue
        if isinstance(p, str) and p == "-":
            out.append("-")
            continue
        path = Path(p)
        if path.is_dir():
            out += _folder_files(path)
        else:
            out.append(path)
    return out


def _folder_files(folder: Path) -> list[Path | UnreadableFolder]:
    """The decklist files under a folder, sorted; unreadable subfolders are listed in their place."""

    found: list[tuple[str, Path | UnreadableFolder]] = []

    def failed(exc: OSError) -> None:
        where = exc.filename or str(folder)
        found.append((str(where), UnreadableFolder(str(where), exc.strerror or str(exc))))
    for root, _dirs, files in os.walk(folder, onerror=failed):
        for name in files:
            f = Path(root) / name
            if f.suffix.lower() in READERS and not name.startswith((".", "~$")):
                try:
                    mode = f.stat().st_mode
                except OSError:  # a broken link: its reader says so
                    mode = stat.S_IFREG
                if not stat.S_ISREG(mode):  # a named pipe would be waited on for ever
                    what = "a named pipe" if stat.S_ISFIFO(mode) else "a device or a socket"
                    found.append((str(f), NotAFile(str(f), what)))
                    continue
                found.append((str(f), f))
    found.sort(key=lambda item: Path(item[0]).parts)
    return [item for _key, item in found]


def unreadable(source: str, exc: Exception, fmt_name: str = "") -> Report:
    """The report of a deck file that could not be read at all."""
    return Report(deck=source, format=fmt_name, input_errors=[InputProblem(getattr(exc, "line", None),
                                                                           source, str(exc), kind=UNREADABLE)])


def check_files(paths: Iterable[str | Path | UnreadableFolder], catalog: CardSource, fmt: str | None = None,
                progress: Callable[[int], None] | None = None, details: bool = False) -> Iterator[Report]:
    """Check every deck in the files and folders; a file that cannot be read is a report with its error."""
    for path in expand_paths(paths):
        if isinstance(path, UnreadableFolder):
            yield unreadable(path.folder, path, fmt or "")
            continue
        try:
            raws = read_decklists(path)
        except DeckcheckError as exc:
            yield unreadable(str(path), exc, fmt or "")
        else:
            for raw in raws:
                yield check_raw(raw, catalog.index, fmt, details)
        if progress:
            progress(1)


def undecided_cards(paths: Iterable[str | Path], catalog: Catalog, fmt: str | None = None) -> tuple[Todo, list[str]]:
    """The cards and columns that kept rules undecided in these decks (deckcheck.todo.Todo), and the
    sources skipped because they could not be read or resolved."""
    todo, skipped = Todo(), list[str]()
    for path in expand_paths(paths):
        if isinstance(path, UnreadableFolder):
            skipped.append(path.folder)
            continue
        try:
            raws = read_decklists(path)
        except DeckcheckError:
            skipped.append(str(path))
            continue
        for raw in raws:
            chosen = choose_format(raw, fmt)
            deck, problems = build_deck(raw, catalog.index(chosen), chosen)
            if problems:
                skipped.append(raw.source)
                continue
            collect([(deck, validate(deck, chosen))], todo)
    return todo, skipped


def check_tournament(inputs: Sequence[str | Path], fmt: str | None = None, sheets: Sequence[str | Path] = (),
                     db_url: str | None = None, progress: Callable[[int, int], None] | None = None) -> Tournament:
    """Check every deck of folders, files and registration workbooks; an unreadable one is a report too.

    `progress(done, total)` is called before the first file (0 done) and after each: the files checked so far
    and how many there are (the CLI draws its progress bar with it; the library draws nothing)."""
    from ..tournament import Tournament
    if fmt:
        get_format(fmt)
    catalog = Catalog(db_url, sheets)
    paths = expand_paths(inputs)
    tournament = Tournament()
    if progress is None:
        tournament.reports = list(check_files(paths, catalog, fmt))
        return tournament
    done = 0
    progress(done, len(paths))

    def one_more(n: int) -> None:
        nonlocal done
        done += n
        progress(done, len(paths))
    tournament.reports = list(check_files(paths, catalog, fmt, progress=one_more))
    return tournament


# -- collections ---------------------------------------------------------------------------------------
class CollectionApp:
    """Collections and saved decks, with the cards they name resolved like decklists."""

    def __init__(self, db_url: str | None = None, person: Person = KEEPER):
        from ..db.collections import Collections
        self.catalog = Catalog(db_url)
        self.collections = Collections(self.catalog.store).of(*collection_owner(person))

    def for_person(self, person: Person) -> CollectionApp:
        """The same library (its catalogue shared, nothing read again) with `person`'s collections (CONTRACTS §9): an
        account's own, the keeper's for the keeper, none (and none to make) for an anonymous visitor."""
        other = copy(self)
        other.collections = self.collections.of(*collection_owner(person))
        return other

    def index(self) -> CardIndex:
        """All cards of every game, found by name (collections hold cards of any game)."""
        return self.catalog.index_all()

    # what the web reads of the collections and saved decks, so that it holds no deckcheck.db object
    def names(self) -> list[str]:
        """The collections' names."""
        return self.collections.names()

    def holdings(self, name: str | None = "main") -> Holdings:
        """The entries of a collection (None: of every collection)."""
        return self.collections.holdings(name)

    def last_import(self, name: str) -> PastImport | None:
        """The last import into a collection that is not undone, if any."""
        return self.collections.last_import(name)

    def deck(self, name: str) -> tuple[str, str, list[tuple[Card, str, int]]]:
        """A saved deck as stored: (format, text, [(card, section, quantity)]); DeckcheckError when none has the
        name."""
        return self.collections.deck(name)

    def stored_decks(self) -> list[tuple[str, str, str, int]]:
        """The saved decks as stored: (name, format, saved at, cards)."""
        return self.collections.decks()

    def save_text(self, name: str, fmt: str, text: str, entries: Iterable[tuple[Card, str, int]]) -> bool:
        """Keep a resolved deck's text and entries under a name; whether it replaced one."""
        return self.collections.save_deck(name, fmt, text, entries)

    def reader(self) -> RowReader:
        """A row reader for collection sheets, knowing set names as well as codes."""
        from ..collection import RowReader
        return RowReader(self.index(), set_names())

    def import_sheet(self, path: str | Path, collection: str = "main", mode: str = "merge", dry_run: bool = False,
                     skip_bad: bool = False, progress: Callable[[int], None] | None = None, sample: int = 10,
                     again: bool = False,
                     label: str | None = None) -> tuple[str, dict[str, Change], list[RowProblem], int]:
        """Read, check and resolve every row, then change the collection in one transaction (or nothing).

        The import is journalled (`undo` restores the collection as it was). A file whose content was
        imported into the collection before raises AlreadyImported in merge mode unless `again` (a dry run
        says so in each Change's `imported_before`). `label`: the file's name in the journal (default: its
        name on disk)."""
        from ..collection import combine
        from ..importers.collection import read_collection_rows
        sheet = read_collection_rows(path)
        reader = self.reader()
        holdings: list[Holding] = []
        for n, (number, cells, sheet_name) in enumerate(sheet.rows()):
            if sheet_name in sheet.collections:  # our export: the hidden index names the collection
                target = sheet.collections[sheet_name] or collection
            elif sheet.layout != "deckcheck" or len(sheet.sheets) == 1 or "collection" in cells:
                target = collection
            else:
                target = sheet_name
            h = reader.read(number, cells, target)
            if h is not None:
                holdings.append(h)
            if progress and n % 5000 == 4999:
                progress(5000)
        if reader.problems and not skip_bad:
            raise CardSheetError(str(path), reader.problems)
        grouped: dict[str, dict[Key, Holding]] = {}
        for h in combine(holdings).values():
            grouped.setdefault(h.collection or collection, {})[h.key] = h
        if not grouped:
            grouped[collection] = {}
        # a skipped row never deletes: in replace mode the entries of the cards it named stay as they are
        changes = self.collections.apply_all(grouped, mode, dry_run, keep=reader.bad_cards, present=sheet.columns,
                                             sample=sample, label=Path(path).name if label is None else label,
                                             again=again)
        return sheet.layout, changes, reader.problems, sheet.count

    def undo_import(self, collection: str = "main", import_id: int | None = None) -> PastImport:
        """Undo one import into a collection, the last unless `import_id` names it; later changes stay
        (deckcheck.db.collections.PastImport of what was undone; Collections.undo says when it refuses)."""
        return self.collections.undo(collection, import_id)

    def holding(self, card_text: str, set_code: str | None, *, condition: str | None = None,
                language: str | None = None, **values: Unpack[HoldingFields]) -> Holding:
        """A holding of the card a name (and set) names; empty condition/language mean NM/English (§4)."""
        from ..collection import DEFAULT_CONDITION, Holding, language_name
        card = self.index().lookup(card_text, set_code)
        return Holding(card, _condition(condition or "") or DEFAULT_CONDITION, language_name(language or ""), **values)

    def remove(self, collection: str, card_text: str, set_code: str | None, condition: str | None,
               language: str | None, foil: bool | None,
               **values: Unpack[HoldingCounts]) -> tuple[Holding | None, Holding]:
        """Remove copies from the one entry that matches what was given; DeckcheckError listing them if several do."""

        from ..collection import language_name
        card = self.index().lookup(card_text, set_code)
        any_printing = set_code is None and not split_set(card_text)[1]
        found = self.collections.find(collection, card, any_printing,
                                      _condition(condition) if condition else None,
                                      language_name(language) if language else None, foil)
        if not found:
            finish = None if foil is None else ("foil" if foil else "not foil")
            given = " ".join(x for x in (condition, language, finish) if x)
            raise DeckcheckError(f"the collection {collection!r} holds no {card.name}"
                                 f"{f' [{set_code}]' if set_code else ''}{' ' + given if given else ''}")
        if len(found) > 1:
            lines = [f"  {h.describe()}" for h in found[:20]]
            raise DeckcheckError(f"{len(found)} entries of the collection {collection!r} match {card_text!r}; say "
                                 "which with --set, --condition, --language or --foil/--no-foil:\n" +
                                 "\n".join(and_more(lines, len(lines), len(found))))
        target: Holding = replace(found[0], **values)
        return self.collections.edit(collection, target, -1), found[0]

    def resolved(self, raw: RawDeck, fmt_name: str | None = None) -> tuple[Deck, AnyFormat]:
        """(deck, format) of a raw decklist; DeckcheckError naming every line that did not resolve."""
        fmt = choose_format(raw, fmt_name)
        deck, problems = build_deck(raw, self.catalog.index(fmt), fmt)
        if problems:
            raise DeckcheckError(f"{raw.source}: input errors: " + "; ".join(
                f"line {p.line}: {p.text!r}: {p.message}" for p in problems))
        return deck, fmt

    def decks_named(self, names: Sequence[str]) -> dict[str, list[tuple[Card, int]]]:
        """Decks from decklist files or folders, or saved decks by name; DeckcheckError if one cannot be read."""
        out: dict[str, list[tuple[Card, int]]] = {}
        for name in names:
            if Path(name).exists():
                for path in expand_paths([name]):
                    if isinstance(path, UnreadableFolder):
                        raise path
                    for raw in read_decklists(path):
                        deck, _fmt = self.resolved(raw)
                        out[raw.source] = [(e.card, e.quantity) for e in deck.entries]
            else:
                _saved_format, _text, entries = self.collections.deck(self._own_deck_key(name))
                out[name] = [(card, q) for card, _section, q in entries]
        return out

    def _own_deck_key(self, name: str) -> str:
        """The key of the saved deck a name gives: an account's own deck of that name (its key is an id of its
        own), else the name as a key (the keeper's decks are kept under their names)."""
        if self.collections.owner_id is None:
            return name
        own = [d.id for d in self.collections.kept.listing(self.collections.owner_id) if d.name == name]
        return own[0] if len(own) == 1 else name

    def entries(self, collection: str = "main", filter_text: str | None = None) -> Holdings:
        """A collection's entries (deckcheck.collection.Holdings), only those holding the text when one is given."""
        from ..collection import Holdings, filter_holdings
        holdings = self.collections.holdings(collection)
        return Holdings(filter_holdings(holdings, filter_text)) if filter_text else holdings

    def stats(self, collection: str = "main") -> CollectionStats:
        """What a collection holds (deckcheck.collection.CollectionStats): `collection stats`."""
        from ..collection import collection_stats
        return collection_stats(collection, self.collections.holdings(collection), self.collections.cards.values())

    def missing(self, decks: Sequence[str], collection: str = "main") -> Missing:
        """What each deck (a decklist file or folder, or a saved deck's name) and all together still lack from the
        collection (deckcheck.collection.Missing; `as_dict(collection)` is `collection missing --json`)."""
        from ..collection import missing
        return missing(self.decks_named(decks), self.collections.holdings(collection))

    def trades(self, collection: str = "main") -> list[Surplus]:
        """Cards held beyond what the saved decks use, and cards marked for trade (deckcheck.collection.Surplus)."""
        from ..collection import trades
        return trades(self.collections.holdings(collection), self.collections.used_by_decks())

    def saved_deck(self, name: str) -> tuple[Deck, AnyFormat, str]:
        """A saved deck read back from its decklist text, as the web's link reads it: (deck, its format, the text).
        The text keeps what the stored cards cannot (an Item's `@ Hunter`, a table's players, a game's own cards)."""
        fmt, text, _entries = self.collections.deck(name)
        deck, found = self.resolved(parse_text(text, name), fmt)
        return deck, found, text

    def saved_decks(self) -> list[tuple[str, str, str, int]]:
        """(name, format, saved at, cards) of every saved deck (`deck list`): a deck of a game with cards of its own
        (no card table holds them) counted from its read-back text."""
        rows = self.collections.decks()
        own = {fmt for _name, fmt, _at, _n in rows if _own_cards(fmt)}
        return [(name, fmt, at, sum(e.quantity for e in self.saved_deck(name)[0].entries) if fmt in own else n)
                for name, fmt, at, n in rows]

    def save_deck(self, name: str, path: str, fmt_name: str | None = None) -> tuple[bool, Report]:
        """Resolve a decklist file and keep it under a name; return (replaced, its check report)."""
        from ..collection import deck_name
        deck_name(name)  # before any work: a name past the limit is refused at once
        deck, fmt = self.read_deck(path, fmt_name)
        entries = [(e.card, e.section, e.quantity) for e in deck.entries]
        replaced = self.collections.save_deck(name, fmt.name, deck_text(fmt.name, deck), entries)
        return replaced, validate(deck, fmt)

    def read_deck(self, path: str, fmt_name: str | None = None) -> tuple[Deck, AnyFormat]:
        """(deck, format) of a decklist file holding one deck, resolved whole (DeckcheckError otherwise)."""
        raws = read_decklists(path)
        if len(raws) != 1:
            raise DeckcheckError(f"{path!r} holds {len(raws)} decks; save one deck at a time")
        return self.resolved(raws[0], fmt_name)

    def imports(self, collection: str = "main") -> list[PastImport]:
        """The imports into a collection that can be undone (the last 100, the last first)."""
        return self.collections.imports(collection)

    def add(self, collection: str, holding: Holding) -> Holding | None:
        """Add a holding's copies to a collection; the entry as it is now."""
        return self.collections.edit(collection, holding, 1)

    def delete_deck(self, name: str) -> None:
        """Delete a saved deck."""
        self.collections.delete_deck(name)


def collection_owner(person: Person) -> tuple[int | None, bool]:
    """Whose collections a person reaches, as deckcheck.db.collections.Collections.of takes it: (owner id, known) —
    an account's id, None for the keeper, and known False for an anonymous visitor (who reaches none)."""
    return person.owner_id, person.known


def parse_import_id(text: object) -> int:
    """An import's id as `collection imports` lists it; DeckcheckError for anything else."""
    from ..db.collections import import_id
    return import_id(text)


def _own_cards(fmt: str) -> bool:
    """Whether a format's game brings cards of its own (a format no longer registered: no)."""
    try:
        return get_format(fmt).builtin_cards is not None
    except DeckcheckError:
        return False


def _condition(text: str) -> str:
    from ..collection import condition_code
    condition = condition_code(text)
    if condition is None:
        raise DeckcheckError(f"condition {text!r}: use one of M NM LP MP HP D")
    return condition


def printed(card: Card) -> str:
    """A card as a decklist names one printing: its name and set."""
    return card.name + (f" [{card.set}]" if card.set else "")


def deck_text(fmt: str, deck: Deck) -> str:
    """A saved deck as a text decklist, every card with its set so that it reads back to the same printing, each
    Item with its `@ Hunter`, and a table's players with their Heroes."""
    lines = [f"Format: {fmt}"]
    sections: dict[str, list[str]] = {}
    for e in deck.entries:
        sections.setdefault(e.section, []).append(f"{e.quantity} {printed(e.card)}"
                                                  + (f" @ {e.attach}" if e.attach else ""))
    for section, items in sections.items():
        lines += [f"{section}:"] + items
    if deck.players:
        lines += ["Players:"] + [f"{p.name}: {printed(p.hero)}" if p.hero else p.name for p in deck.players]
    return "\n".join(lines) + "\n"


@lru_cache(maxsize=1)
def builtin_index() -> CardIndex:
    """The name index of the cards every format builds in, each card once (CardSource.builtin)."""
    cards = {c.id: c for fmt in all_formats() if fmt.builtin_cards for c in fmt.builtin_cards()}
    return CardIndex(cards.values())
