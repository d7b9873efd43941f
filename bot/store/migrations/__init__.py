"""The schema's numbered migrations, one SQL source for both dialects, and their loader.

Each ``NNNN_name.sql`` file, shipped as package data, takes the schema from version
NNNN-1 to NNNN on SQLite and on PostgreSQL alike. It is written once, in PostgreSQL's
spelling of standard SQL, with ``-- [sqlite]`` / ``-- [postgresql]`` / ``-- [end]``
sections where the two must differ; :mod:`bot.store.migrations.dialects` makes each
dialect's SQL of it. A file is never edited once released: change the schema with a
new file. The database applies them in order (:mod:`bot.store.database`), each in its
own transaction, and keeps only the number of the last one applied.

``python -m bot.store.migrations DIALECT [VERSION]`` prints what a dialect runs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib.resources import files
from importlib.resources.abc import Traversable

from bot.store.errors import MigrationError
from bot.store.migrations.dialects import DIALECTS, render, split_statements
from bot.store.urls import Dialect

__all__ = [
    "SOURCES",
    "Migration",
    "latest_version",
    "load_migrations",
    "split_statements",
]

_FILE_NAME = re.compile(r"(\d{4})_([a-z0-9_]+)\.sql")

SOURCES: Traversable = files(__name__)
"""The folder of the migration sources (the package's own)."""


@dataclass(frozen=True)
class Migration:
    """One migration: the schema version it produces, its name and its statements."""

    version: int
    name: str
    statements: tuple[str, ...]


def load_migrations(dialect: Dialect = "sqlite") -> tuple[Migration, ...]:
    """Every shipped migration in order, as ``dialect`` runs it; versions run 1, 2, 3...

    Every source is checked in both dialects, whichever is asked for.
    """
    key = str(SOURCES)
    if key not in _loaded:
        _loaded[key] = _load(SOURCES)
    return _loaded[key][dialect]


def latest_version() -> int:
    """The schema version this code writes: the number of the newest migration."""
    return load_migrations()[-1].version


_loaded: dict[str, dict[Dialect, tuple[Migration, ...]]] = {}
"""Each folder's migrations in each dialect, loaded once."""


def _load(folder: Traversable) -> dict[Dialect, tuple[Migration, ...]]:
    found: dict[Dialect, list[Migration]] = {dialect: [] for dialect in DIALECTS}
    previous = ""
    for number, (name, source) in enumerate(_sources(folder), start=1):
        match = _FILE_NAME.fullmatch(name)
        assert match is not None
        version, title = int(match[1]), match[2]
        if version == number - 1:
            raise MigrationError(
                f"migrations {previous} and {name} have the same version: "
                "renumber the newer one after the last"
            )
        if version != number:
            raise MigrationError(
                f"migration {name}: expected version {number} "
                "(versions must run 1, 2, 3... without gaps)"
            )
        statements = {d: split_statements(render(source, d, f"migration {name}")) for d in DIALECTS}
        if not any(statements.values()):
            raise MigrationError(f"migration file {name} has no statement")
        for dialect in DIALECTS:
            found[dialect].append(Migration(version, title, statements[dialect]))
        previous = name
    return {dialect: tuple(history) for dialect, history in found.items()}


def _sources(folder: Traversable) -> list[tuple[str, str]]:
    """The sources' file names and texts, in order of version."""
    sources: list[tuple[str, str]] = []
    for entry in folder.iterdir():
        if entry.is_dir():
            _refuse_old_layout(entry)
        elif _FILE_NAME.fullmatch(entry.name):
            sources.append((entry.name, entry.read_text(encoding="utf-8")))
        elif entry.name.endswith(".sql"):
            raise MigrationError(f"migration file {entry.name}: name it NNNN_name.sql")
    if not sources:
        raise MigrationError(
            "no migration files found: is the package installed with its .sql data?"
        )
    return sorted(sources)


def _refuse_old_layout(folder: Traversable) -> None:
    """SQL files in a subfolder are migrations written one file per dialect (``postgresql/``)."""
    stray = sorted(entry.name for entry in folder.iterdir() if entry.name.endswith(".sql"))
    if stray:
        raise MigrationError(
            f"migrations/{folder.name}/ holds {', '.join(stray)}: a migration is one file "
            "for both dialects now; fold each into the file of the same name above it "
            "(docs/development.md says how) and delete the folder"
        )
