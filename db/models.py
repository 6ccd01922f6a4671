"""SQLModel tables: cards (one row per printing), the database's own facts, collections and decks."""
from __future__ import annotations

from typing import Any, Optional

from sqlalchemy import Index, Table, UniqueConstraint, func, literal_column
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlmodel import Field, SQLModel

from deckcheck.cards import DEFAULT_GAME
from deckcheck.errors import DatabaseError


class CardRow(SQLModel, table=True):
    """One printed card. NULL means unknown wherever the card sheet allows "unknown"."""

    __tablename__ = "card"

    id: str = Field(primary_key=True)
    game: str = Field(default=DEFAULT_GAME, index=True)
    name: str = Field(index=True)
    title: str
    immortal: Optional[str] = None
    weapon: Optional[str] = None
    version: Optional[str] = None
    edition: int = 1
    set_code: Optional[str] = Field(default=None, index=True)
    type: Optional[str] = None
    subtype: str = ""
    basic: bool = False
    grid: Optional[int] = None
    grid_inferred: bool = False
    restriction: Optional[int] = 0
    reserved: Optional[bool] = False
    signature: Optional[bool] = False
    unique: Optional[bool] = False
    hand_icons: Optional[int] = 0
    gem_master: Optional[int] = 0
    gem_agility: Optional[int] = 0
    gem_strength: Optional[int] = 0
    gem_toughness: Optional[int] = 0
    gem_empathy: Optional[int] = 0
    gem_reason: Optional[int] = 0
    requires: str = ""
    deckbuilding: str = ""
    extra: str = ""  # the game's own columns (Card.extra) as a JSON object, e.g. {"renown": 5}
    rarity: Optional[str] = None
    text: Optional[str] = None
    source: str = ""


class CardSourceRow(SQLModel, table=True):
    """Where one value of a card came from (deckcheck.provenance): kind, reference, time."""

    __tablename__ = "card_source"

    card_id: str = Field(primary_key=True)
    field_name: str = Field(primary_key=True)
    kind: str
    ref: str = ""
    at: str = ""


class MetaRow(SQLModel, table=True):
    """Facts about the database itself (when it was set up, which bundled data it holds)."""

    __tablename__ = "deckcheck_meta"

    key: str = Field(primary_key=True)
    value: str


class CollectionRow(SQLModel, table=True):
    """A named collection ("main" unless told otherwise) of one owner (CONTRACTS §9): an account's id, NULL for the
    keeper's. Names are unique per owner (the index COLLECTION_OWNER_NAME, below: two accounts may each have "main")."""

    __tablename__ = "collection"

    id: Optional[int] = Field(default=None, primary_key=True)
    name: str
    owner_id: Optional[int] = Field(default=None, index=True)  # added by migration step 9; NULL: the keeper's


class CollectionEntryRow(SQLModel, table=True):
    """Copies of one printing in one condition, language and finish, in one collection."""

    __tablename__ = "collection_entry"
    __table_args__ = (UniqueConstraint("collection_id", "card_id", "condition", "language", "foil",
                                       name="collection_entry_key"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    collection_id: int = Field(foreign_key="collection.id", index=True)
    card_id: str = Field(foreign_key="card.id", index=True)
    condition: str = ""
    language: str = ""
    foil: bool = False
    quantity: int = 0
    trade_quantity: int = 0
    want_quantity: int = 0
    location: str = ""
    notes: str = ""
    price: str = ""  # per copy, as written; added after the first release (Collections adds the column)


class CollectionImportRow(SQLModel, table=True):
    """One import into one collection (CONTRACTS §4, revision 3): what the file held (a digest of its resolved
    entries, to tell a file imported again) and every entry it touched as it was before (to undo it exactly)."""

    __tablename__ = "collection_import"

    id: Optional[int] = Field(default=None, primary_key=True)
    collection_id: int = Field(foreign_key="collection.id", index=True)
    digest: str = Field(index=True)
    label: str = ""  # the file's name
    mode: str = "merge"
    at: str = ""  # ISO 8601, UTC
    created: bool = False  # the import created the collection
    before: str = ""  # JSON: [[card_id, condition, language, foil, values before, values after], ...] (null: absent)
    changes: int = 0
    undone: str = ""  # ISO 8601, UTC, when it was undone ('' while it stands); the row stays, so its id is never reused


class SavedDeckRow(SQLModel, table=True):
    """A deck kept in the database (CONTRACTS §10): its latest decklist text and resolved cards, what it is called,
    who sees it, and which version is the latest (saved_deck_version holds every version).

    `name` is the deck's key, its link (`/decks/NAME`): the primary key that saved_deck_card refers to, kept under
    its first name so that every earlier link and `deck save` name keeps working; `title` is what the deck is
    called (a CLI deck's key and title are the same)."""

    __tablename__ = "saved_deck"

    name: str = Field(primary_key=True)
    format: str = ""
    text: str = ""
    saved_at: str = ""
    # added with kept decks (migration step 6)
    title: str = ""
    visibility: str = "link"  # private | link | public; an earlier deck is a link deck
    owner_id: int = 0  # the owning account's id; 0: the keeper (people.Person.owner_id None)
    version: int = 1
    copied_from: str = ""  # the key of the deck this one was copied from
    updated_at: str = ""


class SavedDeckVersionRow(SQLModel, table=True):
    """One version of a kept deck, as it was saved: its text, its format and its cards as
    JSON [[card id, name, section, quantity], ...] (the name: a game's own cards are in no card table)."""

    __tablename__ = "saved_deck_version"
    __table_args__ = (UniqueConstraint("deck_name", "version", name="saved_deck_version_number"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    deck_name: str = Field(index=True)
    version: int = 1
    format: str = ""
    text: str = ""
    cards: str = "[]"
    at: str = ""


class SavedDeckCardRow(SQLModel, table=True):
    """One line of a saved deck, resolved to a printing."""

    __tablename__ = "saved_deck_card"

    id: Optional[int] = Field(default=None, primary_key=True)
    deck_name: str = Field(foreign_key="saved_deck.name", index=True)
    card_id: str = Field(foreign_key="card.id")
    section: str = ""
    quantity: int = 0


class CardChangeRow(SQLModel, table=True):
    """One change of one value of a card (its history): old -> new, from which source to which, when, and who
    accepted it where a club's organiser reviews answers (deckcheck.db.facts)."""

    __tablename__ = "card_change"

    id: Optional[int] = Field(default=None, primary_key=True)
    card_id: str = Field(index=True)
    field_name: str
    old: str = ""
    new: str = ""
    old_source: str = ""
    new_source: str = ""
    at: str = ""
    accepted_by: str = ""


class FactProposalRow(SQLModel, table=True):
    """A value a player read off a card, waiting for the organiser of a club server (deckcheck.db.facts)."""

    __tablename__ = "card_fact_proposal"

    id: Optional[int] = Field(default=None, primary_key=True)
    card_id: str = Field(index=True)
    field_name: str
    value: str
    old: str = ""
    old_source: str = ""
    by: str = ""
    by_key: str = Field(default="", index=True)
    at: str = ""
    status: str = Field(default="pending", index=True)
    conflict: str = ""
    decided_by: str = ""
    decided_at: str = ""


# The tables of the classes, for queries (sqlalchemy select/insert/update/delete on their columns, `.c.name`).
# SQLModel sets __table__ on table classes; the type checker does not know it.
CARDS: Table = CardRow.__table__  # type: ignore[attr-defined]
CARD_SOURCES: Table = CardSourceRow.__table__  # type: ignore[attr-defined]
META: Table = MetaRow.__table__  # type: ignore[attr-defined]
COLLECTIONS: Table = CollectionRow.__table__  # type: ignore[attr-defined]
COLLECTION_ENTRIES: Table = CollectionEntryRow.__table__  # type: ignore[attr-defined]
IMPORTS: Table = CollectionImportRow.__table__  # type: ignore[attr-defined]
KEEPER_KEY = 0  # what coalesce(owner_id, 0) makes of the keeper's NULL owner (account ids start at 1)
COLLECTION_OWNER_NAME = "collection_owner_name"
# a collection's owner as the unique index reads it (a literal 0: an upsert's ON CONFLICT must name the very expression)
COLLECTION_OWNER = func.coalesce(COLLECTIONS.c.owner_id, literal_column(str(KEEPER_KEY)))
Index(COLLECTION_OWNER_NAME, COLLECTION_OWNER, COLLECTIONS.c.name, unique=True)
SAVED_DECKS: Table = SavedDeckRow.__table__  # type: ignore[attr-defined]
SAVED_DECK_CARDS: Table = SavedDeckCardRow.__table__  # type: ignore[attr-defined]
SAVED_DECK_VERSIONS: Table = SavedDeckVersionRow.__table__  # type: ignore[attr-defined]
CARD_CHANGES: Table = CardChangeRow.__table__  # type: ignore[attr-defined]
PROPOSALS: Table = FactProposalRow.__table__  # type: ignore[attr-defined]


# -- accounts (CONTRACTS §9; deckcheck.db.accounts holds their queries) -----------------------------------------
class AccountRow(SQLModel, table=True):
    """A person who signs in: the password only as an argon2id hash; roles space-separated. An id is never used
    again (SQLite's AUTOINCREMENT, migration step 10; PostgreSQL's sequence): what owner ids name stays theirs."""

    __tablename__ = "account"
    __table_args__ = {"sqlite_autoincrement": True}

    id: Optional[int] = Field(default=None, primary_key=True)
    name: str
    name_key: str = Field(unique=True)  # the name folded (deckcheck.text.normalize): "Ann" and "ann" are one
    password_hash: str
    roles: str = ""
    created_at: str = ""
    password_at: str = ""  # when the password was last set


class SessionRow(SQLModel, table=True):
    """A signed-in browser: only a hash of its cookie's value is stored."""

    __tablename__ = "account_session"

    id_hash: str = Field(primary_key=True)
    account_id: int = Field(foreign_key="account.id", index=True)
    created_at: str = ""


class ApiTokenRow(SQLModel, table=True):
    """A personal token for scripts (Authorization: Bearer TOKEN): only its hash is stored."""

    __tablename__ = "api_token"

    id: Optional[int] = Field(default=None, primary_key=True)
    account_id: int = Field(foreign_key="account.id", index=True)
    label: str = ""
    token_hash: str = Field(unique=True)
    created_at: str = ""


ACCOUNTS: Table = AccountRow.__table__  # type: ignore[attr-defined]
SESSIONS: Table = SessionRow.__table__  # type: ignore[attr-defined]
API_TOKENS: Table = ApiTokenRow.__table__  # type: ignore[attr-defined]


# -- the tournament desk (deckcheck.db.events holds their SQL) -----------------------------------------------
class EventRow(SQLModel, table=True):
    """One event: its organiser token only as a hash; times as fixed-width UTC text."""

    __tablename__ = "desk_event"

    id: str = Field(primary_key=True)
    name: str
    format: str
    deadline: Optional[str] = None
    expected: str = "[]"  # JSON list of player names
    token_hash: str
    created_at: str
    closed_at: Optional[str] = None
    tz_offset: int = 0  # minutes east of UTC (added later: store.add_column brings older databases up to date)
    tiebreakers: str = "omw,gw,ogw"  # the standings' order after points (deckcheck.swiss.KNOWN_TIEBREAKERS)
    owner_id: Optional[int] = None  # the account that made it (CONTRACTS §9); None: the server's keeper


class SubmissionRow(SQLModel, table=True):
    """Every deck ever submitted (a player's older ones stay, to compare); `seq` orders arrivals."""

    __tablename__ = "desk_submission"

    seq: Optional[int] = Field(default=None, primary_key=True)
    id: str = Field(unique=True)  # the random deck id of links
    event_id: str = Field(foreign_key="desk_event.id", index=True)
    player: str
    player_key: str
    submitted_at: str
    address: str = ""
    source: str = ""
    text: str = ""
    verdict: str = ""
    errors: int = 0
    warnings: int = 0
    persona: str = ""
    report: str = "{}"  # the §3 object of the deck as checked when it arrived


class EntryRow(SQLModel, table=True):
    """A player's current deck in an event: exactly one row per (event, player), by a unique key."""

    __tablename__ = "desk_entry"
    __table_args__ = (UniqueConstraint("event_id", "player_key", name="desk_entry_player"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    event_id: str = Field(foreign_key="desk_event.id", index=True)
    player_key: str
    seq: Optional[int] = Field(default=None, foreign_key="desk_submission.seq")  # NULL only while being added
    submissions: int = 0


class DeckCheckRow(SQLModel, table=True):
    """A deck check at the table: a player's locked list counted by a judge (`data`: the JSON object)."""

    __tablename__ = "desk_deckcheck"

    seq: Optional[int] = Field(default=None, primary_key=True)
    id: str = Field(unique=True)
    event_id: str = Field(foreign_key="desk_event.id", index=True)
    player_key: str
    deck_id: str
    at: str
    matches: bool = True
    data: str = "{}"


class RoundRow(SQLModel, table=True):
    """One round of an event (Swiss or the top cut): one row per (event, number), so two servers starting the
    next round at once cannot both start it."""

    __tablename__ = "desk_round"
    __table_args__ = (UniqueConstraint("event_id", "number", name="desk_round_number"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    event_id: str = Field(foreign_key="desk_event.id", index=True)
    number: int
    top: bool = False
    seed: str = ""
    started_at: str = ""


class PairingRow(SQLModel, table=True):
    """One table of a round: players by entry key (`b_key` "" is a bye) and its result once reported."""

    __tablename__ = "desk_pairing"
    __table_args__ = (UniqueConstraint("event_id", "round", "table_no", name="desk_pairing_table"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    event_id: str = Field(foreign_key="desk_event.id", index=True)
    round: int
    table_no: int
    a_key: str
    b_key: str = ""
    a_wins: Optional[int] = None
    b_wins: Optional[int] = None
    draws: Optional[int] = None
    reported_by: str = ""
    reported_at: str = ""


class DropRow(SQLModel, table=True):
    """A player who left the event: paired in no round after `after_round`."""

    __tablename__ = "desk_drop"
    __table_args__ = (UniqueConstraint("event_id", "player_key", name="desk_drop_player"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    event_id: str = Field(foreign_key="desk_event.id", index=True)
    player_key: str
    after_round: int = 0
    at: str = ""


class ClaimRow(SQLModel, table=True):
    """A player's dispute of a reported result (issue 34): open until the organiser settles it; `data` is the JSON
    object (the result claimed, the one reported when it was made, the note, how it was settled)."""

    __tablename__ = "desk_result_claim"

    seq: Optional[int] = Field(default=None, primary_key=True)
    id: str = Field(unique=True)  # random, as the desk's other ids
    event_id: str = Field(foreign_key="desk_event.id", index=True)
    round: int
    table_no: int
    player_key: str
    status: str = "open"  # "open" or "settled"
    at: str = ""
    data: str = "{}"


class JudgeRow(SQLModel, table=True):
    """An account the organiser named a judge of an event (issue 34): it may do that event's deck checks and draws."""

    __tablename__ = "desk_judge"
    __table_args__ = (UniqueConstraint("event_id", "account_id", name="desk_judge_account"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    event_id: str = Field(foreign_key="desk_event.id", index=True)
    account_id: int
    named_at: str = ""


class RateRow(SQLModel, table=True):
    """Submissions from one address in one time window (shared by every server process)."""

    __tablename__ = "desk_rate"

    address: str = Field(primary_key=True)
    bucket: int = Field(primary_key=True)
    hits: int = 0


# SQLModel sets __table__ on table classes; the type checker does not know it
EVENTS: Table = EventRow.__table__  # type: ignore[attr-defined]
SUBMISSIONS: Table = SubmissionRow.__table__  # type: ignore[attr-defined]
ENTRIES: Table = EntryRow.__table__  # type: ignore[attr-defined]
RATES: Table = RateRow.__table__  # type: ignore[attr-defined]
CHECKS: Table = DeckCheckRow.__table__  # type: ignore[attr-defined]
ROUNDS: Table = RoundRow.__table__  # type: ignore[attr-defined]
PAIRINGS: Table = PairingRow.__table__  # type: ignore[attr-defined]
DROPS: Table = DropRow.__table__  # type: ignore[attr-defined]
CLAIMS: Table = ClaimRow.__table__  # type: ignore[attr-defined]
JUDGES: Table = JudgeRow.__table__  # type: ignore[attr-defined]


def dialect_insert(con: Any) -> Any:
    """The INSERT of the connection's dialect, which has ON CONFLICT (SQLite and PostgreSQL alike)."""
    if con.dialect.name == "postgresql":
        return postgresql_insert
    if con.dialect.name == "sqlite":
        return sqlite_insert
    raise DatabaseError(f"unsupported database {con.dialect.name!r}; use SQLite or PostgreSQL")

