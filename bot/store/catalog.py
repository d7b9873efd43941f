"""What the schema of an open database holds, read from its own catalog, in one shape for both.

:func:`describe` reads every table of the bot's schema: its columns (the type as the
database names it, the kind of Python value it holds, whether it takes NULL), its
primary key, its unique constraints, its foreign keys and the indexes made by
``CREATE INDEX``. ``copy-db`` copies by it, and the tests check by it that the
migrations give SQLite and PostgreSQL the same schema. The runner's own bookkeeping
(PostgreSQL's ``schema_version``) is left out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Final

from bot.store.database import Database, Row

__all__ = ["Column", "ForeignKey", "Index", "TableShape", "describe"]

EXPRESSION: Final = "(expression)"
"""How an index names a key part that is an expression, not a column."""


@dataclass(frozen=True)
class Column:
    """A column: its name, its type as the database names it, its kind, NULL or not."""

    name: str
    type: str
    """SQLite's declared type, upper case (``INTEGER``), or PostgreSQL's (``bigint``)."""
    kind: str
    """The Python value it holds: ``int``, ``float``, ``bool`` or ``text``."""
    nullable: bool


@dataclass(frozen=True)
class ForeignKey:
    """Columns that must name a row of another table, and what deleting that row does."""

    columns: tuple[str, ...]
    table: str
    references: tuple[str, ...]
    on_delete: str
    """``CASCADE``, ``SET NULL``, ``SET DEFAULT``, ``RESTRICT`` or ``NO ACTION``."""


@dataclass(frozen=True)
class Index:
    """An index made by ``CREATE INDEX``: its key parts in order (``col``, ``col DESC``)."""

    name: str
    columns: tuple[str, ...]
    unique: bool
    partial: bool
    """Whether it covers only the rows of a WHERE clause."""


@dataclass(frozen=True)
class TableShape:
    """One table of the schema."""

    name: str
    columns: tuple[Column, ...]
    """In the order of the table (which may differ between dialects after a migration)."""
    primary_key: tuple[str, ...]
    uniques: frozenset[tuple[str, ...]] = field(default_factory=frozenset)
    foreign_keys: frozenset[ForeignKey] = field(default_factory=frozenset)
    indexes: frozenset[Index] = field(default_factory=frozenset)

    def column(self, name: str) -> Column:
        """The column of that name (KeyError if there is none)."""
        for column in self.columns:
            if column.name == name:
                return column
        raise KeyError(f"{self.name} has no column {name}")


async def describe(db: Database) -> dict[str, TableShape]:
    """Every table of the schema by name, read in one snapshot."""
    async with db.snapshot():
        if db.dialect == "sqlite":
            shapes = [
                await _sqlite_table(db, str(r["name"])) for r in await db.fetch_all(_SQLITE_TABLES)
            ]
        else:
            shapes = await _postgres_tables(db)
    by_name = {shape.name: shape for shape in shapes}
    return {name: _resolve_references(shape, by_name) for name, shape in sorted(by_name.items())}


def _resolve_references(shape: TableShape, tables: dict[str, TableShape]) -> TableShape:
    """A foreign key that names no columns refers to the other table's primary key."""
    keys = frozenset(
        key
        if key.references or key.table not in tables
        else replace(key, references=tables[key.table].primary_key)
        for key in shape.foreign_keys
    )
    return replace(shape, foreign_keys=keys)


def kind_of(declared: str) -> str:
    """The kind of value a type holds, by SQLite's rules for a declared type's affinity."""
    upper = declared.upper()
    if "INT" in upper:
        return "int"
    if "BOOL" in upper:
        return "bool"
    if any(key in upper for key in ("REAL", "FLOA", "DOUB")):
        return "float"
    return "text"


# ---------------------------------------------------------------------------- SQLite

_SQLITE_TABLES: Final = (
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
)


async def _sqlite_table(db: Database, table: str) -> TableShape:
    info = await db.fetch_all(f"SELECT * FROM pragma_table_info('{_name(table)}')")
    primary = sorted((int(r["pk"]), str(r["name"])) for r in info if int(r["pk"]))
    rowid = (
        len(primary) == 1
        and str(next(r["type"] for r in info if r["name"] == primary[0][1])).upper() == "INTEGER"
    )
    columns = tuple(
        Column(
            str(r["name"]),
            str(r["type"]).upper(),
            kind_of(str(r["type"])),
            # An INTEGER PRIMARY KEY is the row id: never NULL, though not declared so.
            not (int(r["notnull"]) or (rowid and int(r["pk"]))),
        )
        for r in info
    )
    uniques: set[tuple[str, ...]] = set()
    indexes: set[Index] = set()
    for index in await db.fetch_all(f"SELECT * FROM pragma_index_list('{_name(table)}')"):
        parts = await db.fetch_all(
            f"SELECT * FROM pragma_index_xinfo('{_name(str(index['name']))}') "
            "WHERE key ORDER BY seqno"
        )
        keys = tuple(_sqlite_part(part) for part in parts)
        if index["origin"] == "u":
            uniques.add(keys)
        elif index["origin"] == "c":
            indexes.add(
                Index(str(index["name"]), keys, bool(index["unique"]), bool(index["partial"]))
            )
    keys_out = await db.fetch_all(f"SELECT * FROM pragma_foreign_key_list('{_name(table)}')")
    return TableShape(
        table,
        columns,
        tuple(name for _, name in primary),
        frozenset(uniques),
        frozenset(_sqlite_foreign_keys(keys_out)),
        frozenset(indexes),
    )


def _sqlite_part(part: Row) -> str:
    name = EXPRESSION if part["name"] is None else str(part["name"])
    return f"{name} DESC" if part["desc"] else name


def _sqlite_foreign_keys(rows: Sequence[Row]) -> list[ForeignKey]:
    by_id: dict[int, list[Row]] = {}
    for row in rows:
        by_id.setdefault(int(row["id"]), []).append(row)
    keys = []
    for parts in by_id.values():
        parts.sort(key=lambda r: int(r["seq"]))
        named = [str(r["to"]) for r in parts if r["to"] is not None]
        keys.append(
            ForeignKey(
                tuple(str(r["from"]) for r in parts),
                str(parts[0]["table"]),
                tuple(named) if len(named) == len(parts) else (),
                str(parts[0]["on_delete"]).upper(),
            )
        )
    return keys


def _name(name: str) -> str:
    if not name.replace("_", "").isalnum():
        raise ValueError(f"{name!r} is not a table or index name")
    return name


# ---------------------------------------------------------------------------- PostgreSQL

_PG_COLUMNS: Final = (
    "SELECT table_name, column_name, data_type, is_nullable = 'YES' AS nullable "
    "FROM information_schema.columns c WHERE table_schema = current_schema() "
    "AND table_name IN (SELECT table_name FROM information_schema.tables "
    "WHERE table_schema = current_schema() AND table_type = 'BASE TABLE') "
    "AND table_name <> 'schema_version' ORDER BY table_name, ordinal_position"
)
_PG_CONSTRAINTS: Final = (
    "SELECT c.contype::text AS kind, t.relname AS table_name, f.relname AS other, "
    "c.confdeltype::text AS on_delete, "
    "ARRAY(SELECT a.attname::text FROM unnest(c.conkey) WITH ORDINALITY k (n, i) "
    "JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n ORDER BY k.i) AS cols, "
    "ARRAY(SELECT a.attname::text FROM unnest(c.confkey) WITH ORDINALITY k (n, i) "
    "JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n ORDER BY k.i) AS refs "
    "FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid "
    "LEFT JOIN pg_class f ON f.oid = c.confrelid "
    "WHERE c.connamespace = current_schema()::regnamespace AND c.contype IN ('p', 'u', 'f')"
)
_PG_INDEXES: Final = (
    "SELECT i.relname AS name, t.relname AS table_name, x.indisunique AS is_unique, "
    "x.indpred IS NOT NULL AS partial, "
    "ARRAY(SELECT CASE WHEN x.indkey[k - 1] = 0 THEN '" + EXPRESSION + "' "
    "ELSE pg_get_indexdef(x.indexrelid, k, true) END "
    "|| CASE WHEN x.indoption[k - 1] & 1 = 1 THEN ' DESC' ELSE '' END "
    "FROM generate_series(1, x.indnkeyatts) k ORDER BY k) AS parts "
    "FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid "
    "JOIN pg_class t ON t.oid = x.indrelid "
    "WHERE t.relnamespace = current_schema()::regnamespace "
    "AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)"
)
_PG_ON_DELETE: Final = {
    "a": "NO ACTION",
    "r": "RESTRICT",
    "c": "CASCADE",
    "n": "SET NULL",
    "d": "SET DEFAULT",
}
_PG_KINDS: Final = {
    "bigint": "int",
    "integer": "int",
    "smallint": "int",
    "double precision": "float",
    "real": "float",
    "boolean": "bool",
}


async def _postgres_tables(db: Database) -> list[TableShape]:
    columns: dict[str, list[Column]] = {}
    for r in await db.fetch_all(_PG_COLUMNS):
        kind = _PG_KINDS.get(str(r["data_type"]), "text")
        column = Column(str(r["column_name"]), str(r["data_type"]), kind, bool(r["nullable"]))
        columns.setdefault(str(r["table_name"]), []).append(column)
    primary: dict[str, tuple[str, ...]] = {}
    uniques: dict[str, set[tuple[str, ...]]] = {}
    keys: dict[str, set[ForeignKey]] = {}
    for r in await db.fetch_all(_PG_CONSTRAINTS):
        table, cols = str(r["table_name"]), tuple(r["cols"])
        if r["kind"] == "p":
            primary[table] = cols
        elif r["kind"] == "u":
            uniques.setdefault(table, set()).add(cols)
        else:
            key = ForeignKey(cols, str(r["other"]), tuple(r["refs"]), _PG_ON_DELETE[r["on_delete"]])
            keys.setdefault(table, set()).add(key)
    indexes: dict[str, set[Index]] = {}
    for r in await db.fetch_all(_PG_INDEXES):
        index = Index(str(r["name"]), tuple(r["parts"]), bool(r["is_unique"]), bool(r["partial"]))
        indexes.setdefault(str(r["table_name"]), set()).add(index)
    return [
        TableShape(
            table,
            tuple(cols),
            primary.get(table, ()),
            frozenset(uniques.get(table, ())),
            frozenset(keys.get(table, ())),
            frozenset(indexes.get(table, ())),
        )
        for table, cols in columns.items()
    ]
