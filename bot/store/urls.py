"""Where the store lives: ``sqlite:///PATH`` (the default, a file) or ``postgresql://...``.

One parser for every place that takes a database URL (settings, ``python -m bot
migrate``, ``copy-db``, the benchmark), and one way to print a URL without its password.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit, urlunsplit

__all__ = ["POSTGRES_SCHEMES", "SQLITE_PREFIX", "StoreUrl", "parse_url", "sqlite_url"]

SQLITE_PREFIX = "sqlite:///"
POSTGRES_SCHEMES = ("postgresql", "postgres")

Dialect = Literal["sqlite", "postgresql"]


@dataclass(frozen=True, slots=True)
class StoreUrl:
    """A parsed database URL: the dialect and, for SQLite, the file."""

    dialect: Dialect
    url: str
    """The URL as given (for PostgreSQL, what asyncpg connects to)."""
    path: str | None = None
    """The SQLite file (``:memory:`` for an in-memory database); None for PostgreSQL."""

    @property
    def shown(self) -> str:
        """The URL fit for a log line or an error message: the password is left out."""
        if self.path is not None:
            return self.path
        parts = urlsplit(self.url)
        if parts.password is None:
            return self.url
        host = parts.hostname or ""
        if parts.port is not None:
            host = f"{host}:{parts.port}"
        user = f"{parts.username}:***@" if parts.username else ""
        return urlunsplit((parts.scheme, user + host, parts.path, parts.query, ""))


def sqlite_url(path: str | os.PathLike[str]) -> str:
    """The URL of an SQLite file (a relative path stays relative to the working folder)."""
    return SQLITE_PREFIX + os.fspath(path)


def parse_url(target: str | os.PathLike[str]) -> StoreUrl:
    """Parse a database URL; a bare path is an SQLite file. ValueError says what is wrong."""
    if not isinstance(target, str):
        path = os.fspath(target)
        return StoreUrl("sqlite", sqlite_url(path), path)
    if target.startswith(SQLITE_PREFIX):
        path = target[len(SQLITE_PREFIX) :]
        if not path:
            raise ValueError(
                f"{target!r}: name the SQLite file, as in sqlite:///data/euchre.sqlite3"
            )
        return StoreUrl("sqlite", target, path)
    scheme, sep, _ = target.partition("://")
    if sep and scheme.lower() in POSTGRES_SCHEMES:
        parts = urlsplit(target)
        if not parts.hostname and "host=" not in parts.query:
            raise ValueError(
                f"{StoreUrl('postgresql', target).shown}: name the server, as in "
                "postgresql://user:password@host:5432/euchre"
            )
        return StoreUrl("postgresql", target)
    if target.lower().startswith("sqlite:"):
        raise ValueError(
            f"{target}: an SQLite URL is sqlite:/// and the file's path, as in "
            "sqlite:///data/euchre.sqlite3 (from the working folder) "
            "or sqlite:////srv/euchre.sqlite3 (from the root)"
        )
    if sep:
        raise ValueError(
            f"{target.split('://')[0]}: not a known database; use sqlite:///PATH "
            "or postgresql://user:password@host/database"
        )
    return StoreUrl("sqlite", sqlite_url(target), target)


def sqlite_file(url: StoreUrl) -> Path | None:
    """The SQLite file of a URL, or None (PostgreSQL, in-memory)."""
    if url.path is None or url.path == ":memory:":
        return None
    return Path(url.path)
