"""What a database's schema holds, read for comparing two databases; released migrations.

``released_migrations.json`` keeps the statements each dialect ran for schemas 1 to 22
when SQLite and PostgreSQL had a file each per migration (comments dropped, white space
folded by :func:`folded`). It never changes: it is what databases in use were made by.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import asyncpg

from bot.store.migrations import Migration
from bot.store.urls import Dialect

from .conftest import sql

RELEASED_FILE = Path(__file__).with_name("released_migrations.json")

_COMMENT = re.compile(r"('(?:[^']|'')*'|\"(?:[^\"]|\"\")*\")|--[^\n]*")


def folded(statement: str) -> str:
    """A statement without its comments, its runs of white space made one space."""
    bare = _COMMENT.sub(lambda found: found[1] or "", statement)
    return re.sub(r"\s+", " ", bare).strip()


@cache
def released(dialect: Dialect) -> tuple[Migration, ...]:
    """The released migrations of a dialect, as it ran them."""
    doc = json.loads(RELEASED_FILE.read_text(encoding="utf-8"))
    return tuple(
        Migration(int(key[:4]), key[5:], tuple(statements))
        for key, statements in doc[dialect].items()
    )


async def pg_rows(url: str, query: str) -> list[tuple[str, ...]]:
    """Rows read with asyncpg itself (no version check), as text."""
    conn = await asyncpg.connect(url)
    try:
        return [tuple(str(v) for v in r.values()) for r in await conn.fetch(query)]
    finally:
        await conn.close()


async def schema(url: str | Path) -> list[tuple[str, ...]]:
    """What the schema holds: tables, columns with types and defaults, indexes, constraints.

    SQLite's definitions are compared as :func:`folded` text.
    """
    if str(url).startswith("postgresql"):
        url = str(url)
        columns = await pg_rows(
            url,
            "SELECT table_name, column_name, data_type, is_nullable, column_default "
            "FROM information_schema.columns WHERE table_schema = current_schema() "
            "ORDER BY table_name, column_name",
        )
        indexes = await pg_rows(
            url,
            "SELECT tablename, indexname, indexdef FROM pg_indexes "
            "WHERE schemaname = current_schema() ORDER BY indexname",
        )
        checks = await pg_rows(
            url,
            "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) "
            "FROM pg_constraint WHERE connamespace = current_schema()::regnamespace "
            "ORDER BY conrelid::regclass::text, conname",
        )
        return [*columns, *indexes, *checks]
    rows = await sql(
        url,
        "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' "
        "ORDER BY type, name",
    )
    return [(r["type"], r["name"], folded(r["sql"] or "")) for r in rows]
