"""The one :class:`Database` object: an aiosqlite connection, its transactions and migrations.

Every SQL statement of the project goes through here (called by the repositories
of this package). One connection per process, with WAL so readers never wait for
the writer; an asyncio lock serialises the coroutines that share the connection,
and ``BEGIN IMMEDIATE`` with a busy timeout serialises connections that share the
file (another process, a ``python -m bot migrate`` run, a test).

    >>> async with await Database.open(settings.database_path) as db:   # doctest: +SKIP
    ...     async with db.transaction():
    ...         ...

Schema versions are kept in ``PRAGMA user_version``; the migrations are the
numbered SQL files of :mod:`bot.store.migrations`.

Longer than 450 lines on purpose: the connection, its lock and the transaction state
are private to this one class, and everything that touches them (transactions,
savepoints, snapshots, error mapping, migrations) stands beside them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any, Final, Self

import aiosqlite

from bot.store.errors import (
    ConstraintError,
    MigrationError,
    SchemaTooNewError,
    StoreBusyError,
    StoreError,
)
from bot.store.migrations import latest_version, load_migrations

__all__ = [
    "BUSY_TIMEOUT_MS",
    "Clock",
    "Database",
    "Params",
    "Row",
    "check_writable",
    "migrate",
    "utc_now",
]

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS: Final = 5000
"""How long a statement waits for another connection's write lock before giving up."""

_MIN_SQLITE: Final = (3, 35, 0)  # RETURNING, DROP COLUMN

Row = sqlite3.Row
Params = Sequence[Any]
Clock = Callable[[], datetime]


def utc_now() -> datetime:
    """The current time, timezone-aware in UTC: the default clock of a :class:`Database`."""
    return datetime.now(UTC)


@dataclass
class _Transaction:
    """The transaction the current task (and the tasks it starts meanwhile) is inside."""

    db: Database
    active: bool = True
    savepoints: int = 0
    read_only: bool = False


_current: ContextVar[_Transaction | None] = ContextVar("bot_store_transaction", default=None)


class Database:
    """One connection to the bot's database. Build it with :meth:`open`; close it once."""

    def __init__(self, conn: aiosqlite.Connection, path: str, clock: Clock) -> None:
        """Wrap an open connection; use :meth:`open`, which configures and migrates it."""
        self._conn = conn
        self._lock = asyncio.Lock()
        self._closed = False
        self.path: Final = path
        self.clock: Final = clock
        self.schema_version = 0
        """The schema version of the open database."""

    # ------------------------------------------------------------------ life

    @classmethod
    async def open(cls, path: str | os.PathLike[str], *, clock: Clock = utc_now) -> Database:
        """Open (creating the file and its folder if missing) and migrate to the newest schema.

        Raises :class:`SchemaTooNewError`, leaving the file untouched, when the
        database comes from a newer bot.
        """
        db = await cls._connect(path, clock)
        try:
            await db._migrate(latest_version())
        except BaseException:
            await db.close()
            raise
        return db

    @classmethod
    async def _connect(cls, path: str | os.PathLike[str], clock: Clock) -> Database:
        if sqlite3.sqlite_version_info < _MIN_SQLITE:
            raise StoreError(
                f"SQLite {sqlite3.sqlite_version} is too old: the bot needs "
                f"{'.'.join(map(str, _MIN_SQLITE))} or newer"
            )
        target = os.fspath(path)
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
        db = cls(conn, target, clock)
        try:
            with db._errors():
                await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
                # Before anything that could write to the file (journal_mode does).
                found = await db._user_version()
                if found > latest_version():
                    raise SchemaTooNewError(found, latest_version())
            mode = await db._use_wal()
            with db._errors():
                if mode != "wal" and not in_memory:
                    log.warning("%s: journal mode is %s, not WAL", target, mode)
                await conn.execute("PRAGMA foreign_keys = ON")
                await conn.execute("PRAGMA synchronous = NORMAL")
        except BaseException:
            db._closed = True
            await conn.close()
            raise
        db.schema_version = found
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

    async def close(self) -> None:
        """Wait for a running transaction to end, then close the connection. Idempotent."""
        if self._in_transaction():
            raise StoreError("close() called inside a transaction of this database")
        async with self._lock:
            if self._closed:
                return
            self._closed = True
            await self._conn.close()

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` has run."""
        return self._closed

    async def __aenter__(self) -> Self:
        """Use the database for the block; it is closed at the end."""
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Close the database."""
        await self.close()

    def now(self) -> datetime:
        """The current time by this database's clock (timezone-aware)."""
        return self.clock()

    # ------------------------------------------------------------------ transactions

    def transaction(self) -> AbstractAsyncContextManager[None]:
        """``async with db.transaction():`` all or nothing: COMMIT at the end, ROLLBACK on error.

        Writers queue on one lock, so transactions of concurrent coroutines never
        interleave. A transaction inside a transaction (same task, or a task it
        started meanwhile) is a savepoint: its failure undoes only its own part.
        Do not run several tasks at once inside one transaction.
        """
        return self._transaction()

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[None]:
        outer = _current.get()
        if outer is not None and outer.db is self and outer.active:
            if outer.read_only:
                raise StoreError("cannot write inside a snapshot: use a transaction")
            async with self._savepoint(outer):
                yield
            return
        async with self._lock:
            self._check_open()
            try:
                await self._run_to_end("BEGIN IMMEDIATE")
            except BaseException:
                if self._conn.in_transaction:  # begun, then cancelled
                    await self._run_to_end("ROLLBACK")
                raise
            tx = _Transaction(self)
            token = _current.set(tx)
            try:
                yield
            except BaseException:
                tx.active = False
                if self._conn.in_transaction:  # SQLite may have rolled back already
                    await self._run_to_end("ROLLBACK")
                raise
            else:
                tx.active = False
                try:
                    await self._run_to_end("COMMIT")
                except BaseException:
                    if self._conn.in_transaction:
                        await self._run_to_end("ROLLBACK")
                    raise
            finally:
                tx.active = False
                _current.reset(token)

    def snapshot(self) -> AbstractAsyncContextManager[None]:
        """``async with db.snapshot():`` several reads see one state, as of its first read.

        Inside a transaction it is that transaction. Writing inside is refused.
        """
        return self._snapshot()

    @asynccontextmanager
    async def _snapshot(self) -> AsyncIterator[None]:
        if self._in_transaction():
            yield
            return
        async with self._lock:
            self._check_open()
            try:
                await self._run_to_end("BEGIN")
                tx = _Transaction(self, read_only=True)
                token = _current.set(tx)
                try:
                    yield
                finally:
                    tx.active = False
                    _current.reset(token)
            finally:
                if self._conn.in_transaction:
                    await self._run_to_end("ROLLBACK")

    @asynccontextmanager
    async def _savepoint(self, tx: _Transaction) -> AsyncIterator[None]:
        tx.savepoints += 1
        name = f"sp_{tx.savepoints}"
        await self._run_to_end(f"SAVEPOINT {name}")
        try:
            yield
        except BaseException:
            if self._conn.in_transaction:
                await self._run_to_end(f"ROLLBACK TO {name}")
                await self._run_to_end(f"RELEASE {name}")
            raise
        else:
            await self._run_to_end(f"RELEASE {name}")
        finally:
            tx.savepoints -= 1

    def _in_transaction(self) -> bool:
        tx = _current.get()
        return tx is not None and tx.db is self and tx.active

    async def _run_to_end(self, sql: str) -> None:
        """Run a transaction-control statement; cancellation waits for it to finish.

        The worker thread runs the statement whatever happens to the awaiting
        coroutine, so giving up early would leave the lock and the connection's
        transaction state out of step.
        """
        inner = asyncio.ensure_future(self._control(sql))
        try:
            await asyncio.shield(inner)
        except asyncio.CancelledError:
            while not inner.done():
                with contextlib.suppress(asyncio.CancelledError):
                    await asyncio.wait([inner])
            if not inner.cancelled() and inner.exception() is not None:
                log.warning("%s failed while cancelled: %s", sql, inner.exception())
            raise

    async def _control(self, sql: str) -> None:
        with self._errors():
            await self._conn.execute(sql)

    @asynccontextmanager
    async def _reading(self) -> AsyncIterator[None]:
        # Outside a transaction, wait for other coroutines' transactions: on a shared
        # connection a read would otherwise see their uncommitted writes.
        if self._in_transaction():
            yield
            return
        async with self._lock:
            self._check_open()
            yield

    def _check_open(self) -> None:
        if self._closed:
            raise StoreError("the database is closed")

    # ------------------------------------------------------------------ statements

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        """Every row of a query (or of a write's RETURNING clause, inside a transaction)."""
        async with self._reading():
            with self._errors():
                return list(await self._conn.execute_fetchall(sql, params))

    async def write_returning(self, sql: str, params: Params = ()) -> list[Row]:
        """One write statement and the rows of its RETURNING clause, in one trip to SQLite.

        Alone, the statement is its own transaction (SQLite takes the write lock before
        running it, waiting up to the busy timeout like ``BEGIN IMMEDIATE``); inside a
        transaction it is part of it. For hot paths: no BEGIN, COMMIT or savepoint trips.
        """
        async with self._reading():
            with self._errors():
                return list(await self._conn.execute_fetchall(sql, params))

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        """The first row of a query, or None."""
        rows = await self.fetch_all(sql, params)
        return rows[0] if rows else None

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one write (in its own transaction unless inside one); return the rows changed."""
        async with self.transaction():
            with self._errors():
                async with self._conn.execute(sql, params) as cursor:
                    return cursor.rowcount

    async def execute_many(self, sql: str, rows: Iterable[Params]) -> None:
        """Run one write for each parameter row, all in one transaction."""
        async with self.transaction():
            with self._errors():
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

    # ------------------------------------------------------------------ migrations

    async def _user_version(self) -> int:
        with self._errors():
            rows = list(await self._conn.execute_fetchall("PRAGMA user_version"))
        return int(rows[0][0])

    async def _migrate(self, target: int) -> tuple[int, int]:
        start = await self._user_version()
        if start > latest_version():
            raise SchemaTooNewError(start, latest_version())
        if start > target:
            raise MigrationError(
                f"the database is at schema {start}, past the requested {target}: "
                "migrations only go forward"
            )
        current = start
        for migration in load_migrations():
            if migration.version <= current or migration.version > target:
                continue
            async with self.transaction():
                # Under the write lock: another connection may have migrated meanwhile.
                found = await self._user_version()
                if found > latest_version():
                    raise SchemaTooNewError(found, latest_version())
                if found >= migration.version:
                    current = found
                    continue
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
            current = migration.version
            log.info("%s: migrated to schema %d (%s)", self.path, current, migration.name)
        self.schema_version = current
        return start, current


async def migrate(path: str | os.PathLike[str], *, target: int | None = None) -> tuple[int, int]:
    """Bring the database at ``path`` to the newest schema (or ``target``): (from, to).

    For ``python -m bot migrate``; :meth:`Database.open` does the same on start-up.
    """
    newest = latest_version()
    wanted = newest if target is None else target
    if not 0 <= wanted <= newest:
        raise MigrationError(f"schema {wanted} does not exist (this bot knows 0 to {newest})")
    db = await Database._connect(path, utc_now)
    try:
        return await db._migrate(wanted)
    finally:
        await db.close()


async def check_writable(path: str | os.PathLike[str], *, wait_ms: int = BUSY_TIMEOUT_MS) -> None:
    """Commit one write that changes nothing (the schema version, written again) at ``path``.

    For ``python -m bot health``: raises :class:`StoreError` when the file is missing,
    is not a database of this bot, cannot be written, or stays locked by another
    connection for more than ``wait_ms``. A read-only file or a full disk fails here.
    """
    if not Path(path).is_file():
        raise StoreError(f"{os.fspath(path)} does not exist (the bot creates it when it starts)")
    db = await Database._connect(path, utc_now)
    try:
        await db._control(f"PRAGMA busy_timeout = {int(wait_ms)}")
        async with db.transaction():
            version = await db._user_version()
            await db._control(f"PRAGMA user_version = {version}")
    finally:
        await db.close()
