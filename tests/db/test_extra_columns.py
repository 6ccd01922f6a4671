"""A game's own card columns (Raven's renown, Taktik's rank ...) are stored in the card table's `extra`
column; a database of an earlier deckcheck, which held them in columns of their own, is brought up to
date on first open, its values kept."""
from __future__ import annotations

from sqlalchemy import create_engine, text

from deckcheck.cardsheet import card_from_row, card_to_row
from deckcheck.db.engine import ready_sqlite
from deckcheck.db.store import Store

# The card table as deckcheck wrote it before `extra` existed (one column per game field).
OLD_CARD_TABLE = """create table card (
    id varchar primary key, game varchar not null, name varchar not null, title varchar not null,
    immortal varchar, weapon varchar, version varchar, edition integer not null, set_code varchar,
    type varchar, subtype varchar not null, basic boolean not null, grid integer, grid_inferred boolean not null,
    restriction integer, reserved boolean, signature boolean, "unique" boolean, hand_icons integer,
    gem_master integer, gem_agility integer, gem_strength integer, gem_toughness integer, gem_empathy integer,
    gem_reason integer, requires varchar not null, deckbuilding varchar not null, renown integer, health integer,
    skill integer, rank varchar, suit varchar, rarity varchar, text varchar, source varchar not null)"""
OLD_ROW = ("insert into card (id, game, name, title, edition, type, subtype, basic, grid_inferred, requires, "
           "deckbuilding, renown, health, skill, rank, suit, source) values (:id, :game, :name, :name, 1, :type, "
           "'', false, false, '', '', :renown, :health, :skill, :rank, :suit, 'sheet')")


def _old_database(url: str) -> None:
    engine = create_engine(url)
    with engine.begin() as con:
        con.execute(text(OLD_CARD_TABLE))
        con.execute(text("create table deckcheck_meta (key varchar primary key, value varchar not null)"))
        con.execute(text("insert into deckcheck_meta (key, value) values ('initialized', '2026-11-01'), "
                         "('bundled', 'no')"))
        none = dict.fromkeys(("renown", "health", "skill", "rank", "suit"))
        con.execute(text(OLD_ROW), [
            none | {"id": "RS-marek", "game": "raven-stormcrow", "name": "Old Marek", "type": "Hunter", "renown": 12,
                    "health": 3},
            none | {"id": "TK-crow", "game": "taktik52", "name": "The Crow", "type": "Hero", "rank": "Q",
                    "suit": "hearts"},
            none | {"id": "RS-nobody", "game": "raven-stormcrow", "name": "Nobody", "type": "Item"}])
    engine.dispose()


def test_an_old_card_table_is_migrated_on_first_open_and_keeps_the_game_values(empty_db_url):
    db_url = empty_db_url
    _old_database(db_url)
    cards = {c.id: c for c in Store(db_url).cards()}
    assert cards["RS-marek"].extra_value("renown") == 12 and cards["RS-marek"].extra_value("health") == 3
    assert cards["RS-marek"].extra_value("skill") is None
    assert (cards["TK-crow"].extra_value("rank"), cards["TK-crow"].extra_value("suit")) == ("Q", "hearts")
    assert cards["RS-nobody"].extra == ()
    engine = create_engine(db_url)
    with engine.connect() as con:  # the old columns stay (unused); the values are in `extra`
        rows: dict[str, str] = dict(con.execute(text("select id, extra from card order by id")).all())
        assert con.execute(text("select renown from card where id = 'RS-marek'")).scalar_one() == 12
    engine.dispose()
    assert rows == {"RS-marek": '{"health": 3, "renown": 12}', "RS-nobody": "",
                    "TK-crow": '{"rank": "Q", "suit": "hearts"}'}
    again = {c.id: c for c in Store(db_url).cards()}  # a second open changes nothing
    assert again == cards


def test_the_fast_sqlite_read_waits_for_the_migration(sqlite_url):
    _old_database(sqlite_url)
    assert ready_sqlite(sqlite_url) is None  # an old table: the SQLAlchemy path migrates it first
    Store(sqlite_url).count()
    con = ready_sqlite(sqlite_url)
    assert con is not None
    con.close()
    assert Store(sqlite_url).cards()[0].extra_value("renown") == 12  # read by sqlite3 alone


def test_game_columns_round_trip_through_the_database(empty_db_url):
    db_url = empty_db_url
    store = Store(db_url)
    store.init(empty=True)
    card = card_from_row({"game": "raven-stormcrow", "id": "RS-x", "name": "X", "type": "Hunter", "renown": "7",
                          "skill": "unknown"})
    assert card is not None and card.extra == (("renown", 7),)
    store.import_cards([card], "test")
    stored = Store(db_url).cards()
    assert stored == [card] and card_to_row(stored[0])["renown"] == "7"
