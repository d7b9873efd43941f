"""The schema's numbered SQL migrations, shipped as package data, and their loader.

Each ``NNNN_name.sql`` file takes the schema from version NNNN-1 to NNNN. A file
is never edited once released: change the schema with a new file. The database
applies them in order (:mod:`bot.store.database`), each in its own transaction.

The SQLite files are in this folder; ``postgresql/`` holds the same history for
PostgreSQL, file for file (same numbers, same names, the same schema in that
dialect's types). A migration added to one dialect must be added to the other:
loading refuses two histories that differ.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

from bot.store.errors import MigrationError

__all__ = [
    "DIALECT_PACKAGES",
    "Migration",
    "latest_version",
    "load_migrations",
    "split_statements",
]

_FILE_NAME = re.compile(r"(\d{4})_([a-z0-9_]+)\.sql")


@dataclass(frozen=True)
class Migration:
    """One migration: the schema version it produces, its name and its statements."""

    version: int
    name: str
    statements: tuple[str, ...]


DIALECT_PACKAGES: dict[str, str] = {"sqlite": __name__, "postgresql": f"{__name__}.postgresql"}


@cache
def load_migrations(dialect: str = "sqlite") -> tuple[Migration, ...]:
    """Every shipped migration of a dialect in order; versions run 1, 2, 3... without a gap.

    Both dialects must have the same history (versions and names).
    """
    found = _load(DIALECT_PACKAGES[dialect])
    if dialect != "sqlite":
        reference = [(m.version, m.name) for m in load_migrations("sqlite")]
        mine = [(m.version, m.name) for m in found]
        if mine != reference:
            missing = sorted(set(reference) - set(mine))
            extra = sorted(set(mine) - set(reference))
            raise MigrationError(
                f"the {dialect} migrations differ from the sqlite ones "
                f"(missing {_names(missing)}; extra {_names(extra)}): "
                "every migration exists in both dialects"
            )
    return found


def _names(versions: list[tuple[int, str]]) -> str:
    return ", ".join(f"{v:04d}_{name}.sql" for v, name in versions) or "none"


def _load(package: str) -> tuple[Migration, ...]:
    found: list[Migration] = []
    for entry in files(package).iterdir():
        match = _FILE_NAME.fullmatch(entry.name)
        if match is None:
            if entry.name.endswith(".sql"):
                raise MigrationError(f"migration file {entry.name}: name it NNNN_name.sql")
            continue
        statements = split_statements(entry.read_text(encoding="utf-8"))
        if not statements:
            raise MigrationError(f"migration file {entry.name} has no statement")
        found.append(Migration(int(match[1]), match[2], statements))
    found.sort(key=lambda m: m.version)
    for expected, migration in enumerate(found, start=1):
        if migration.version != expected:
            raise MigrationError(
                f"migration {migration.version:04d}_{migration.name}.sql: "
                f"expected version {expected} (versions must run 1, 2, 3... without gaps)"
            )
    if not found:
        raise MigrationError(
            "no migration files found: is the package installed with its .sql data?"
        )
    return tuple(found)


def latest_version() -> int:
    """The schema version this code writes: the number of the newest migration."""
    return load_migrations()[-1].version


def split_statements(script: str) -> tuple[str, ...]:
    """Cut an SQL script into statements (semicolons inside strings or triggers stay put)."""
    statements: list[str] = []
    pending = ""
    *pieces, last = script.split(";")
    for piece in pieces:
        pending += piece + ";"
        if sqlite3.complete_statement(pending):
            statement = pending.strip()
            if _has_code(statement):
                statements.append(statement)
            pending = ""
    rest = pending + last
    if _has_code(rest):
        raise MigrationError(f"unterminated SQL statement: {rest.strip()[:60]!r}")
    return tuple(statements)


def _has_code(sql: str) -> bool:
    lines = (line.split("--", 1)[0].strip() for line in sql.splitlines())
    return any(line and line != ";" for line in lines)
