"""The SQLite back end of :class:`~bot.store.database.Database`: one file, through aiosqlite.

WAL so readers never wait for the writer; ``BEGIN IMMEDIATE`` with a busy timeout
serialises connections that share the file (another process, a ``python -m bot
migrate`` run, a test). The schema version is ``PRAGMA user_version``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Final, cast

import aiosqlite

from bot.store.database import BUSY_TIMEOUT_MS, Clock, Database, Params, Row
from bot.store.errors import (
    ConstraintError,
    MigrationError,
    StoreBusyError,
    StoreError,
)
from bot.store.migrations import Migration
from bot.store.urls import StoreUrl

__all__ = ["SqliteDatabase"]

log = logging.getLogger(__name__)

_MIN_SQLITE: Final = (3, 35, 0)  # RETURNING, DROP COLUMN


class SqliteDatabase(Database):
    """The database in one SQLite file (or in memory, for quick tests)."""

    dialect = "sqlite"
    _BEGIN_WRITE = "BEGIN IMMEDIATE"
    _BEGIN_READ = "BEGIN"

    def __init__(self, conn: aiosqlite.Connection, url: StoreUrl, clock: Clock) -> None:
        """Wrap an open connection; use :meth:`Database.open`."""
        super().__init__(url, clock)
        self._conn = conn

    @staticmethod
    async def existing_version(url: StoreUrl) -> int:
        """The schema version of an existing file, opened read-only: nothing is created."""
        target = url.path
        assert target is not None
        path = Path(target)
        if target == ":memory:" or not path.is_file():
            raise StoreError(f"{target} does not exist")
        uri = f"{path.resolve().as_uri()}?mode=ro"
        try:
            async with aiosqlite.connect(uri, uri=True) as conn:
                rows = list(await conn.execute_fetchall("PRAGMA user_version"))
        except sqlite3.DatabaseError as exc:
            if "not a database" in str(exc):
                raise StoreError(f"{target} is not an SQLite database") from None
            raise StoreError(f"cannot open the database {target}: {exc}") from None
        return int(rows[0][0])

    @classmethod
    async def connect(cls, url: StoreUrl, clock: Clock) -> SqliteDatabase:
        """Open the file (creating it and its folder) and set the pragmas; no migration."""
        if sqlite3.sqlite_version_info < _MIN_SQLITE:
            raise StoreError(
                f"SQLite {sqlite3.sqlite_version} is too old: the bot needs "
                f"{'.'.join(map(str, _MIN_SQLITE))} or newer"
            )
        target = url.path
        assert target is not None
        in_memory = target == ":memory:"
        if not in_memory:
            try:
                Path(target).parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(f"cannot create the folder for {target}: {exc.strerror}") from None
        try:
            conn = await aiosqlite.connect(target, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the database {target}: {exc}") from None
        conn.row_factory = sqlite3.Row
        db = cls(conn, url, clock)
        async with db._opening():
            with db._errors():
                await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
                # Before anything that could write to the file (journal_mode does).
                db.schema_version = await db._known_version()
            mode = await db._use_wal()
            with db._errors():
                if mode != "wal" and not in_memory:
                    log.warning("%s: journal mode is %s, not WAL", target, mode)
                await conn.execute("PRAGMA foreign_keys = ON")
                await conn.execute("PRAGMA synchronous = NORMAL")
        return db

    async def reader(self) -> SqliteDatabase | None:
        """Another connection to the file that refuses to write (None in memory: no file).

        In WAL its reads never wait for this connection's writes, nor hold them up.
        """
        if self.url.path == ":memory:":
            return None
        db = await _Reader.connect(self.url, self.clock)
        async with db._opening():
            await db._control("PRAGMA query_only = ON")
        db.schema_version = self.schema_version
        return db

    async def _use_wal(self) -> str:
        """Switch to WAL; the journal mode in use after it."""
        # Changing the journal mode fails at once, without the busy handler, while
        # another connection is reading (two processes starting together): retry.
        loop = asyncio.get_running_loop()
        deadline = loop.time() + BUSY_TIMEOUT_MS / 1000
        while True:
            try:
                with self._errors():
                    rows = list(await self._conn.execute_fetchall("PRAGMA journal_mode = WAL"))
                return str(rows[0][0]).lower() if rows else "?"
            except StoreBusyError:
                if loop.time() > deadline:
                    raise
                await asyncio.sleep(0.01)

    async def _disconnect(self) -> None:
        await self._conn.close()

    def _connection_in_transaction(self) -> bool:
        return not self._connection_closed() and self._conn.in_transaction

    def _connection_closed(self) -> bool:
        """Whether aiosqlite's connection is closed: every call on it raises ValueError."""
        return not self._conn._running or self._conn._connection is None

    def _connection_lost(self) -> bool:
        """A file has no server to drop the connection."""
        return False

    async def _reconnect_if_dropped(self) -> None:
        """A file has no server to drop the connection."""

    async def _control(self, sql: str) -> None:
        with self._errors():
            await self._conn.execute(sql)

    async def _fetch(self, sql: str, params: Params) -> list[Row]:
        return cast(list[Row], list(await self._conn.execute_fetchall(sql, params)))

    async def _execute(self, sql: str, params: Params) -> int:
        async with self._conn.execute(sql, params) as cursor:
            return cursor.rowcount

    async def _execute_many(self, sql: str, rows: Iterable[Params]) -> None:
        await self._conn.executemany(sql, rows)

    @contextlib.contextmanager
    def _errors(self) -> Iterator[None]:
        """Turn sqlite3's exceptions into the store's."""
        try:
            yield
        except sqlite3.IntegrityError as exc:
            raise ConstraintError(str(exc)) from exc
        except sqlite3.OperationalError as exc:
            text = str(exc)
            if "locked" in text or "busy" in text:
                raise StoreBusyError(
                    f"{self.path}: the database is locked by another connection "
                    f"(waited up to {BUSY_TIMEOUT_MS / 1000:g} s): {text}"
                ) from exc
            raise StoreError(f"{self.path}: {text}") from exc
        except sqlite3.DatabaseError as exc:
            if "not a database" in str(exc):
                raise StoreError(f"{self.path} is not an SQLite database") from None
            raise StoreError(f"{self.path}: {exc}") from exc
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: {exc}") from exc
        except ValueError as exc:
            if not self._connection_closed():  # a bug, not the store's failure
                raise
            raise StoreError(
                f"{self.path}: the connection to the database file is closed, so nothing "
                "was read or saved"
            ) from exc

    # ------------------------------------------------------------------ migrations

    async def _read_version(self) -> int:
        with self._errors():
            rows = list(await self._conn.execute_fetchall("PRAGMA user_version"))
        return int(rows[0][0])

    async def _lock_for_migration(self) -> None:
        """``BEGIN IMMEDIATE`` already holds the file's write lock."""

    async def _apply(self, migration: Migration, found: int) -> None:
        where = f"migration {migration.version:04d}_{migration.name}"
        try:
            with self._errors():
                await self._conn.execute("PRAGMA defer_foreign_keys = ON")
                for statement in migration.statements:
                    await self._conn.execute(statement)
                broken = list(await self._conn.execute_fetchall("PRAGMA foreign_key_check"))
        except StoreError as exc:
            raise MigrationError(
                f"{where} failed, the database stays at schema {found}: {exc}"
            ) from exc
        if broken:
            raise MigrationError(
                f"{where} leaves {len(broken)} broken foreign keys "
                f"(first in table {broken[0][0]}); the database stays at schema {found}"
            )
        await self._control(f"PRAGMA user_version = {migration.version}")

    async def rewrite_version(self, wait_ms: int) -> None:
        """Write ``user_version`` again, waiting up to ``wait_ms`` for the write lock."""
        await self._control(f"PRAGMA busy_timeout = {int(wait_ms)}")
        async with self.transaction():
            version = await self._read_version()
            await self._control(f"PRAGMA user_version = {version}")

    # ------------------------------------------------------------------ copying

    async def identity_next(self, table: str) -> int:
        """The next id of an AUTOINCREMENT table (above every id it ever gave)."""
        used = await self.fetch_one(
            "SELECT seq FROM sqlite_sequence WHERE name = ?", (_name(table),)
        )
        top = await self.fetch_one(f"SELECT COALESCE(MAX(id), 0) AS top FROM {_name(table)}")
        assert top is not None
        return max(0 if used is None else int(used["seq"]), int(top["top"])) + 1

    async def set_identity_next(self, table: str, next_id: int) -> None:
        """Raise the table's AUTOINCREMENT counter so that its next id is ``next_id`` or more."""
        async with self.transaction():
            await self.execute("DELETE FROM sqlite_sequence WHERE name = ?", (_name(table),))
            await self.execute(
                "INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)",
                (_name(table), max(0, next_id - 1)),
            )


class _Reader(SqliteDatabase):
    """A connection that refuses to write: its transactions are plain (deferred) BEGINs."""

    _BEGIN_WRITE = "BEGIN"


def _name(table: str) -> str:
    if not table.replace("_", "").isalnum():
        raise StoreError(f"{table!r} is not a table name")
    return table
