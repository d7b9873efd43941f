"""The PostgreSQL back end of :class:`~bot.store.database.Database`, through asyncpg.

For several bot processes sharing one store (sharded bots). One connection per
process, like SQLite's; statements are the same portable SQL, their ``?``
placeholders numbered ``$1, $2...`` here (:func:`numbered`), once per statement
text. The schema version is the one row of the ``schema_version`` table; migrations
wait for each other on an advisory lock, so processes starting together migrate once.

Writes take PostgreSQL's row locks; a statement that waits longer than the busy
timeout for one is :class:`~bot.store.errors.StoreBusyError`. A snapshot is a
``REPEATABLE READ`` read-only transaction: its reads see one state.

When the server drops the connection (a restart, a failover, an operator's
``pg_terminate_backend``), the failing statement raises
:class:`~bot.store.errors.ConnectionLostError` and the next call outside a
transaction opens a new connection; what is retried is said in
:mod:`bot.store.database`.

A server that does not answer at all (a host gone without closing the connection, a
frozen machine) would keep a statement waiting until the operating system gives the
connection up, many minutes later. So each statement, and connecting, gets
``timeout`` seconds (the bot's ``database_timeout``); past that the connection is in
an unknown state, so it is closed and the call fails like a dropped one, marked
``timed_out``. The server may not know yet: its session may still hold row or advisory
locks, or run the statement late. The next connection ends that session first
(``pg_terminate_backend``, waiting for it to go), so nothing of it runs on after, and
what is read next is the final word on it.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import time
from collections.abc import Awaitable, Iterable, Iterator
from typing import Final, TypeVar, cast

import asyncpg

from bot.store.database import (
    BUSY_TIMEOUT_MS,
    Clock,
    Database,
    Params,
    Row,
    finish_even_if_cancelled,
)
from bot.store.errors import (
    ConnectionLostError,
    ConstraintError,
    MigrationError,
    StoreBusyError,
    StoreError,
)
from bot.store.migrations import Migration
from bot.store.pg_sessions import (
    UNREACHABLE,
    Session,
    no_answer,
    open_connection,
    reason_of,
    reconnect,
)
from bot.store.urls import StoreUrl

__all__ = ["MIGRATION_LOCK", "PostgresDatabase", "numbered"]

log = logging.getLogger(__name__)

T = TypeVar("T")

MIGRATION_LOCK: Final = -0x6575_6368_7265_0001
"""Advisory lock key of migrations (guild locks use the guild's positive id)."""

_VERSION_TABLE: Final = (
    "CREATE TABLE IF NOT EXISTS schema_version ("
    "one BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (one), version INTEGER NOT NULL)"
)

_DROPPED: Final = (
    asyncpg.PostgresConnectionError,  # class 08, with "connection was closed in the middle"
    asyncpg.AdminShutdownError,
    asyncpg.CrashShutdownError,
    asyncpg.CannotConnectNowError,
    OSError,
)
"""What a statement raises when the server dropped the connection (asyncpg may not know yet)."""


@functools.lru_cache(maxsize=2048)
def numbered(sql: str) -> str:
    """The statement with its ``?`` placeholders written ``$1, $2...`` (not inside quotes)."""
    out: list[str] = []
    count = 0
    quote: str | None = None
    for char in sql:
        if quote is not None:
            if char == quote:
                quote = None
        elif char in "'\"":
            quote = char
        elif char == "?":
            count += 1
            out.append(f"${count}")
            continue
        out.append(char)
    return "".join(out)


class PostgresDatabase(Database):
    """The database on a PostgreSQL server."""

    dialect = "postgresql"
    _BEGIN_WRITE = "BEGIN"
    _BEGIN_READ = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"

    def __init__(
        self,
        conn: asyncpg.Connection,
        session: Session,
        url: StoreUrl,
        clock: Clock,
        timeout: float | None = None,
        *,
        read_only: bool = False,
    ) -> None:
        """Wrap an open connection; use :meth:`Database.open`."""
        super().__init__(url, clock)
        self._conn = conn
        self._read_only = read_only
        """Whether the session's transactions are read-only (a reader: every connection)."""
        self._session = session
        self._abandoned: list[Session] = []
        """Sessions given up without an answer, to end from the next connection."""
        self.timeout: Final = timeout
        """Seconds the server gets to answer a statement, or to let the store connect."""
        self._lost_at: float | None = None
        """When the connection was found dropped (monotonic seconds); None while it works."""

    @classmethod
    async def connect(
        cls, url: StoreUrl, clock: Clock, timeout: float | None = None, *, read_only: bool = False
    ) -> PostgresDatabase:
        """Connect and check the schema version (nothing is written); no migration."""
        conn, session = await open_connection(url, timeout, read_only=read_only)
        db = cls(conn, session, url, clock, timeout, read_only=read_only)
        async with db._opening():
            db.schema_version = await db._known_version()
        return db

    async def reader(self) -> PostgresDatabase:
        """Another connection to the server, on which every transaction is read-only."""
        return await type(self).connect(self.url, self.clock, self.timeout, read_only=True)

    async def _disconnect(self) -> None:
        if self._connection_lost():
            self._conn.terminate()
            return
        try:
            await self._conn.close(timeout=self.timeout or 5)
        except (OSError, asyncpg.InterfaceError, TimeoutError):
            self._conn.terminate()

    def _wait(self) -> float | None:
        """The bound of the current call: None inside :meth:`Database.unbounded`."""
        return self.timeout if self._bounded() else None

    def _connection_in_transaction(self) -> bool:
        return not self._connection_lost() and self._conn.is_in_transaction()

    def _connection_lost(self) -> bool:
        return self._lost_at is not None or self._conn.is_closed()

    def _lost(self, reason: str, *, timed_out: bool = False) -> ConnectionLostError:
        """Note the dropped connection (logged once) and say so."""
        if self._lost_at is None:
            self._lost_at = time.monotonic()
            log.warning(
                "%s: lost the connection to the database (%s); the next call connects again",
                self.path,
                reason,
            )
        return ConnectionLostError(
            f"{self.path}: the connection to the database was lost ({reason}); nothing was "
            "saved, and the next call connects again",
            reason=reason,
            timed_out=timed_out,
        )

    def _no_answer(self) -> ConnectionLostError:
        """A statement got no answer within the bound: give the connection up, say so."""
        reason = no_answer(self._wait())
        if self._session not in self._abandoned:  # asyncpg may have closed it already
            self._abandoned.append(self._session)
        self._conn.terminate()
        self._note_no_answer(reason)
        return self._lost(reason, timed_out=True)

    async def _reconnect_if_dropped(self) -> None:
        if not self._connection_lost():
            return
        self._lost("the server closed it")
        try:
            conn, session = await reconnect(
                self.url, self._wait(), self._abandoned, read_only=self._read_only
            )
        except UNREACHABLE as exc:
            timed_out = isinstance(exc, TimeoutError)
            reason = no_answer(self._wait()) if timed_out else reason_of(exc)
            if timed_out:
                self._note_no_answer(reason)
            raise ConnectionLostError(
                f"{self.path}: the connection to the database was lost and connecting again "
                f"failed ({reason}); nothing was saved, and the next call tries again",
                reason=reason,
                timed_out=timed_out,
            ) from None
        self._conn.terminate()
        self._conn = conn
        self._session = session
        assert self._lost_at is not None
        log.info(
            "%s: connected to the database again, %.1f s after losing the connection",
            self.path,
            time.monotonic() - self._lost_at,
        )
        self._lost_at = None

    async def _control(self, sql: str) -> None:
        with self._errors():
            await self._conn.execute(sql, timeout=self._wait())

    async def _fetch(self, sql: str, params: Params) -> list[Row]:
        work = self._answer(self._conn.fetch(numbered(sql), *params, timeout=self._wait()))
        return cast(list[Row], await finish_even_if_cancelled(work, sql))

    async def _execute(self, sql: str, params: Params) -> int:
        work = self._answer(self._conn.execute(numbered(sql), *params, timeout=self._wait()))
        status = await finish_even_if_cancelled(work, sql)
        last = status.rsplit(" ", 1)[-1]
        return int(last) if last.isdigit() else 0

    async def _execute_many(self, sql: str, rows: Iterable[Params]) -> None:
        work = self._conn.executemany(numbered(sql), list(rows), timeout=self._wait())
        await finish_even_if_cancelled(self._answer(work), sql)

    async def _answer(self, work: Awaitable[T]) -> T:
        """``work``, with its errors made the store's where it runs.

        So even when the caller was cancelled meanwhile (the statement is let finish), a
        statement that got no answer closes the connection.
        """
        with self._errors():
            return await work

    @contextlib.contextmanager
    def _errors(self) -> Iterator[None]:
        """Turn asyncpg's exceptions into the store's."""
        try:
            yield
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise ConstraintError(str(exc)) from exc
        except (asyncpg.LockNotAvailableError, asyncpg.DeadlockDetectedError) as exc:
            raise StoreBusyError(
                f"{self.path}: a row is locked by another connection "
                f"(waited up to {BUSY_TIMEOUT_MS / 1000:g} s): {exc}"
            ) from exc
        except TimeoutError as exc:  # an OSError too: before _DROPPED
            raise self._no_answer() from exc
        except _DROPPED as exc:
            raise self._lost(reason_of(exc)) from exc
        except asyncpg.InternalClientError as exc:
            # asyncpg's protocol out of step with the server (an operation left "in
            # progress" by a connection the server is closing): the connection can't be
            # trusted any more, so it is given up and the next call connects again
            if self._session not in self._abandoned:
                self._abandoned.append(self._session)
            self._conn.terminate()
            raise self._lost(reason_of(exc)) from exc
        except (asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            if self._conn.is_closed():  # a FATAL error, or "connection is closed"
                raise self._lost(reason_of(exc)) from exc
            raise StoreError(f"{self.path}: {exc}") from exc

    # ------------------------------------------------------------------ migrations

    async def _read_version(self) -> int:
        with self._errors():
            present = await self._conn.fetchval(
                "SELECT to_regclass('schema_version') IS NOT NULL", timeout=self._wait()
            )
            if not present:
                return 0
            version = await self._conn.fetchval(
                "SELECT max(version) FROM schema_version", timeout=self._wait()
            )
        return 0 if version is None else int(version)

    async def _lock_for_migration(self) -> None:
        with self._errors():
            await self._conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            # The version table exists from here on: the version read next is the one
            # the previous holder of the lock committed.
            await self._conn.execute(_VERSION_TABLE)

    async def _apply(self, migration: Migration, found: int) -> None:
        where = f"migration {migration.version:04d}_{migration.name}"
        try:
            with self._errors():
                for statement in migration.statements:
                    await self._conn.execute(statement)
                await self._conn.execute(
                    "INSERT INTO schema_version (one, version) VALUES (TRUE, $1) "
                    "ON CONFLICT (one) DO UPDATE SET version = EXCLUDED.version",
                    migration.version,
                )
        except StoreError as exc:
            raise MigrationError(
                f"{where} failed, the database stays at schema {found}: {exc}"
            ) from exc

    async def rewrite_version(self, wait_ms: int) -> None:
        """Write ``schema_version`` again, waiting up to ``wait_ms`` for its row lock."""
        if self.schema_version == 0:
            raise StoreError(f"{self.path} has no schema yet (the bot creates it when it starts)")
        async with self.transaction():
            await self._control(f"SET LOCAL lock_timeout = {int(wait_ms)}")
            await self.execute("UPDATE schema_version SET version = version")

    # ------------------------------------------------------------------ copying

    async def identity_next(self, table: str) -> int:
        """The id the table's identity column gives next (above every id it ever gave)."""
        row = await self.fetch_one(
            "SELECT pg_sequence_last_value(pg_get_serial_sequence(?, 'id')) AS used",
            (table,),
        )
        top = await self.fetch_one(f"SELECT COALESCE(MAX(id), 0) AS top FROM {_name(table)}")
        used = None if row is None else row["used"]
        assert top is not None
        return max(0 if used is None else int(used), int(top["top"])) + 1

    async def set_identity_next(self, table: str, next_id: int) -> None:
        """Move the identity column on so that its next id is ``next_id``."""
        await self.fetch_all(
            "SELECT setval(pg_get_serial_sequence(?, 'id'), ?, false)", (table, max(1, next_id))
        )


def _name(table: str) -> str:
    if not table.replace("_", "").isalnum():
        raise StoreError(f"{table!r} is not a table name")
    return table
