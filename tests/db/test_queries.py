"""Storage through its models (issue 21, item 5): every query is built on the SQLModel table classes, except the
few statements of deckcheck.db.rawsql, and those cannot drift from the tables unnoticed.

- the hot path of `check` (sqlite3 alone) and the model path read the same cards and facts from the same
  database, SQLite and PostgreSQL (on PostgreSQL the hot path's SQL runs through psycopg);
- the columns the card readers name are the card table's, and every column of a table class is written;
- no module but rawsql writes SQL text (an AST scan: text(), SQL literals given to execute or
  exec_driver_sql), and every statement of rawsql is valid against the schema the table classes create;
- every table class is used by queries.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from deckcheck.cards import Card
from deckcheck.db import rawsql
from deckcheck.db.repository import CARD_COLUMNS, LEGACY_EXTRA, card_to_values, cards_from_tuples
from deckcheck.db.store import Store, card_rows, read_meta

ROOT = Path(__file__).resolve().parents[2]
CODE = [ROOT / d for d in ("db", "web", "importers", "deckcheck")]


def _model_columns(table: str) -> list[str]:
    from sqlmodel import SQLModel

    from deckcheck.db import models  # noqa: F401
    return [c.name for c in SQLModel.metadata.tables[table].columns]


def _odd_cards() -> list[Card]:
    """Cards with what a row can hold at its edges: unknowns (NULL), a game's own columns, another game."""
    base = Card(id="Q-odd-1", name="Odd Strike", title="Odd Strike", type="Attack", game="highlander",
                set="Q", restriction=None, reserved=None, signature=True, unique=None, grid=None,
                grid_inferred=False, text="two\nlines", rarity=None)
    other = Card(id="Q-raven-1", name="Raven Thing", title="Raven Thing", game="raven", type="Item",
                 extra=(("renown", 5), ("suit", "cups")), set="Q")
    return [base, other]


def _hot(store: Store, game: str | None) -> tuple[list[Card], dict[str, str]]:
    """The hot path's SQL on the store's database: sqlite3 on a file, psycopg's own connection on PostgreSQL."""
    from deckcheck.db.engine import ready_sqlite
    con = ready_sqlite(store.url)
    if con is not None:
        try:
            rows, meta = rawsql.read_cards(con, game)
        finally:
            con.close()
        return cards_from_tuples(rows), meta
    raw = store.engine.raw_connection()
    try:
        rows, meta = rawsql.read_cards(raw, game, mark="%s")
    finally:
        raw.close()
    return cards_from_tuples(rows), meta


def _model(store: Store, game: str | None) -> tuple[list[Card], dict[str, str]]:
    with store.engine.connect() as con:
        return cards_from_tuples(card_rows(con, game)), read_meta(con, rawsql.META_KEYS)


@pytest.mark.parametrize("game", [None, "highlander", "raven", "nothing"])
def test_the_hot_path_and_the_model_path_read_the_same_cards(db_url, game):
    store = Store(db_url)
    store.import_cards(_odd_cards(), "test")
    store.dispose()
    hot_cards, hot_meta = _hot(Store(db_url), game)
    model_cards, model_meta = _model(Store(db_url), game)
    assert [c.id for c in hot_cards] == [c.id for c in model_cards]  # the same order
    assert hot_cards == model_cards and hot_meta == model_meta
    assert len(hot_cards) == {None: 1493, "highlander": 1492, "raven": 1, "nothing": 0}[game]
    assert hot_meta.keys() == {"bundled", "bundle", "bundle_version"}
    odd = {c.id: c for c in hot_cards}
    if game in (None, "raven"):
        assert odd["Q-raven-1"].extra == (("renown", 5), ("suit", "cups"))
    if game in (None, "highlander"):
        assert odd["Q-odd-1"].restriction is None and odd["Q-odd-1"].reserved is None and odd["Q-odd-1"].signature


def test_store_cards_takes_the_hot_path_on_a_sqlite_file_and_the_model_path_else(sqlite_url, monkeypatch):
    Store(sqlite_url).cards()  # set up
    taken = []
    real_hot, real_model = rawsql.read_cards, card_rows
    import deckcheck.db.store as store_module
    def hot(*args, **kwargs):
        taken.append("hot")
        return real_hot(*args, **kwargs)

    def model(*args, **kwargs):
        taken.append("model")
        return real_model(*args, **kwargs)
    monkeypatch.setattr(rawsql, "read_cards", hot)
    monkeypatch.setattr(store_module, "card_rows", model)
    fresh = Store(sqlite_url)
    a = fresh.cards()
    assert fresh.engine is not None  # an engine is open now: the model path
    b = fresh.cards()
    assert taken == ["hot", "model"] and a == b


def test_the_card_readers_name_exactly_the_card_tables_columns():
    columns = _model_columns("card")
    # every column but `source` (where a row came from, written, never read back into a Card)
    assert sorted(CARD_COLUMNS) == sorted(c for c in columns if c != "source")  # in the field table's order
    assert len(set(CARD_COLUMNS)) == len(CARD_COLUMNS)
    card = _odd_cards()[0]
    assert set(card_to_values(card, "x")) == set(columns)  # every column is written
    assert not set(LEGACY_EXTRA) & set(columns)  # the old game columns are no table's any more
    from sqlalchemy import select  # noqa: F401

    from deckcheck.db.models import CARDS
    assert set(rawsql.CARD_ORDER) <= set(CARDS.c.keys())
    assert set(rawsql.META_KEYS) <= {"bundled", "bundle", "bundle_version"}


def _sql_text_calls(path: Path) -> list[str]:
    """Where a module writes SQL text: text(...) of SQLAlchemy, a string literal (or f-string) given to execute,
    executemany or exec_driver_sql, and exec_driver_sql of anything that is not a statement of rawsql."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    texts = {alias.asname or alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
             and node.module and node.module.startswith("sqlalchemy") for alias in node.names if alias.name == "text"}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        where = f"{path.name}:{node.lineno}"
        if name in texts or (isinstance(func, ast.Attribute) and name == "text" and isinstance(func.value, ast.Name)
                             and func.value.id in ("sqlalchemy", "sa")):
            found.append(f"{where} text()")
        if name in ("execute", "executemany", "exec_driver_sql", "executescript") and node.args:
            first = node.args[0]
            literal = isinstance(first, (ast.JoinedStr, ast.BinOp)) or (
                isinstance(first, ast.Constant) and isinstance(first.value, str))
            from_rawsql = (isinstance(first, ast.Attribute) and isinstance(first.value, ast.Name)
                           and first.value.id == "rawsql") or (
                isinstance(first, ast.Call) and isinstance(first.func, ast.Attribute)
                and isinstance(first.func.value, ast.Name) and first.func.value.id == "rawsql")
            if literal or (name == "exec_driver_sql" and not from_rawsql):
                found.append(f"{where} {name}({ast.unparse(first)[:60]})")
    return found


def test_no_module_but_rawsql_writes_sql_text():
    found = []
    for folder in CODE:
        for path in sorted(folder.rglob("*.py")):
            if path != ROOT / "db" / "rawsql.py":
                found += _sql_text_calls(path)
    assert found == []


def test_the_scan_sees_sql_text(tmp_path):
    """The scan above finds what it looks for (a scan that finds nothing proves nothing)."""
    sample = tmp_path / "sample.py"
    sample.write_text("from sqlalchemy import text as t\n"
                      "def f(con, sql):\n"
                      "    con.execute(t('select 1'))\n"
                      "    con.execute(f'select {sql}')\n"
                      "    con.exec_driver_sql(sql)\n"
                      "    con.execute('select name from card')\n"
                      "    con.exec_driver_sql(rawsql.BEGIN)\n", encoding="utf-8")
    found = _sql_text_calls(sample)
    assert sorted(f.split(" ", 1)[1].split("(")[0] for f in found) == ["exec_driver_sql", "execute", "execute", "text"]


def test_every_statement_of_rawsql_is_valid_against_the_tables(db_url):
    """Each statement runs on a database the table classes made (a column they lack would fail it); the
    legacy read names only the old game columns, which no table class has (checked above)."""
    store = Store(db_url)
    store.cards()
    raw = store.engine.raw_connection()
    try:
        cur = raw.cursor()
        for sql in [rawsql.cards_sql(False), rawsql.META_SQL, rawsql.INITIALIZED_SQL]:
            cur.execute(sql)
            assert cur.fetchall(), sql
        mark = "?" if db_url.startswith("sqlite") else "%s"
        cur.execute(rawsql.cards_sql(True, mark), ("highlander",))
        assert len(cur.fetchall()) == 1491
        if db_url.startswith("sqlite"):
            cur.execute(rawsql.TABLES_SQL)
            assert {r[0] for r in cur.fetchall()} >= {"card", "deckcheck_meta"}
            cur.execute(rawsql.columns_sql("card"))
            assert [r[1] for r in cur.fetchall()] == _model_columns("card")
            cur.execute(rawsql.PROBE_SQL)
    finally:
        raw.close()
    assert rawsql.legacy_extra_sql(["renown", "suit"]).split(" from ")[0] == 'select id, "renown", "suit"'


@pytest.mark.parametrize(("table", "column"), rawsql.LATE_COLUMNS)
def test_a_late_column_is_added_as_its_table_class_declares_it(db_url, table, column):
    """The migrations take the type and default from the table class: the column a database of an earlier
    deckcheck lacks comes back with the model's default for the rows it holds."""
    from sqlalchemy import inspect, select
    from sqlmodel import SQLModel

    from deckcheck.db.migrations import migrate
    store = Store(db_url)
    store.cards()
    with store.engine.begin() as con:
        for index in SQLModel.metadata.tables[table].indexes:  # SQLite drops no column an index names
            if any(f".{column}" in str(expression) for expression in index.expressions):
                con.exec_driver_sql(f'drop index "{index.name}"')
        con.exec_driver_sql(f'alter table "{table}" drop column "{column}"')
        con.exec_driver_sql(f"delete from deckcheck_meta where key = '{rawsql.SCHEMA_KEY}'")  # from before versions
    store.dispose()
    store = Store(db_url)
    store.count()  # opening the database migrates it
    declared = SQLModel.metadata.tables[table].c[column]
    found = {c["name"]: c for c in inspect(store.engine).get_columns(table)}[column]
    assert found["nullable"] is bool(declared.nullable)  # as declared (an event's owner may be none: the keeper)
    if table == "card":
        with store.engine.connect() as con:
            assert set(con.execute(select(declared)).scalars()) == {declared.default.arg}
    assert migrate(store.engine, store.where(), store.translated_errors) == 0  # again: nothing to do


def test_every_table_class_is_used_by_queries():
    """Each table of the metadata is used by a query module (its table constant read or imported) outside
    models.py, which declares them: a table no query uses is a table whose columns nobody checks."""
    from sqlalchemy import Table
    from sqlmodel import SQLModel

    from deckcheck.db import events, models
    constants: dict[str, str] = {}  # constant -> table
    for module in (models, events):
        constants |= {attr: value.name for attr, value in vars(module).items() if isinstance(value, Table)}
    used = set()
    for folder in CODE:
        for path in folder.rglob("*.py"):
            if path.name == "models.py" and path.parent.name == "db":
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in constants:
                    used.add(constants[node.id])
                elif isinstance(node, ast.alias) and node.name in constants:
                    used.add(constants[node.name])
    assert set(constants.values()) == set(SQLModel.metadata.tables)  # every table has its constant
    assert sorted(set(SQLModel.metadata.tables) - used) == []


def test_the_collection_code_names_the_entry_tables_columns():
    """An entry's key and values, as db/collections.py reads and writes them, are the table's columns but its id,
    and the key is the table's unique key (the conflict target of its upserts)."""
    from deckcheck.db.collections import KEY_COLUMNS, VALUE_COLUMNS
    from deckcheck.db.models import COLLECTION_ENTRIES
    assert sorted(KEY_COLUMNS + VALUE_COLUMNS) == sorted(c for c in _model_columns("collection_entry") if c != "id")
    from sqlalchemy import UniqueConstraint
    unique = [c for c in COLLECTION_ENTRIES.constraints if isinstance(c, UniqueConstraint)]
    assert [tuple(col.name for col in u.columns) for u in unique] == [KEY_COLUMNS]


@pytest.mark.parametrize("mode", ["merge", "replace"])
def test_the_bulk_write_and_the_model_path_write_the_same_entries(db_url, mode):
    """A collection import's bulk write (rawsql.executemany: the model's statement, rows handed to the driver)
    and SQLAlchemy's own executemany of the same statement leave the same entries, new ones and updated ones
    (quantities added or replaced, a stored note kept where the row has none), in batches."""
    from sqlalchemy import insert, select

    from deckcheck.db.collections import BATCH, KEY_COLUMNS, VALUE_COLUMNS, entry_upsert
    from deckcheck.db.models import COLLECTION_ENTRIES as e
    from deckcheck.db.models import COLLECTIONS
    store = Store(db_url)
    ids = [c.id for c in store.cards()[:7]]
    columns = KEY_COLUMNS + VALUE_COLUMNS

    def rows(cid: int, step: int) -> list[tuple]:
        return [(cid, card, "NM", "English", n % 2 == 0, n + step, n % 3, 1, "" if n % 2 else f"box {step}",
                 "" if n < 3 else f"note \u00e9 {step}", "" if step else "1.50") for n, card in enumerate(ids)]
    with store.begin() as con:
        hot, model = (con.execute(insert(COLLECTIONS).values(name=n).returning(COLLECTIONS.c.id)).scalar_one()
                      for n in ("hot", "model"))
        for step in (0, 1, 2):
            stmt = entry_upsert(con, mode)
            rawsql.executemany(con, stmt, columns, rows(hot, step), batch=3)
            con.execute(stmt, [dict(zip(columns, r, strict=True)) for r in rows(model, step)])
        found = {cid: sorted(tuple(r) for r in con.execute(
            select(*[e.c[c] for c in columns[1:]]).where(e.c.collection_id == cid)).all()) for cid in (hot, model)}
    assert found[hot] == found[model] and len(found[hot]) == 7 and BATCH > 3
    quantities = sorted(r[4] for r in found[hot])
    assert quantities == (sorted(3 * n + 3 for n in range(7)) if mode == "merge" else sorted(n + 2 for n in range(7)))
    assert {r[-1] for r in found[hot]} == ({"1.50"} if mode == "merge" else {""})  # merge keeps the stored price
