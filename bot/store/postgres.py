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
"""

from __future__ import annotations

import contextlib
import functools
import logging
import time
from collections.abc import Iterable, Iterator
from typing import Final, cast

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
    SchemaTooNewError,
    StoreBusyError,
    StoreError,
)
from bot.store.migrations import Migration, latest_version
from bot.store.urls import StoreUrl

__all__ = ["CONNECT_TIMEOUT", "MIGRATION_LOCK", "PostgresDatabase", "numbered"]

log = logging.getLogger(__name__)

CONNECT_TIMEOUT: Final = 10.0
"""Seconds to reach the server before giving up."""

MIGRATION_LOCK: Final = -0x6575_6368_7265_0001
"""Advisory lock key of migrations (guild locks use the guild's positive id)."""

_VERSION_TABLE: Final = (
    "CREATE TABLE IF NOT EXISTS schema_version ("
    "one BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (one), version INTEGER NOT NULL)"
)

_UNREACHABLE: Final = (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError)
"""What connecting raises when the server is not there (or not ready)."""

_DROPPED: Final = (
    asyncpg.PostgresConnectionError,  # class 08, with "connection was closed in the middle"
    asyncpg.AdminShutdownError,
    asyncpg.CrashShutdownError,
    asyncpg.CannotConnectNowError,
    OSError,
)
"""What a statement raises when the server dropped the connection (asyncpg may not know yet)."""

_KINDS: Final = {
    "bigint": "int",
    "integer": "int",
    "smallint": "int",
    "boolean": "bool",
    "double precision": "float",
    "real": "float",
}


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

    def __init__(self, conn: asyncpg.Connection, url: StoreUrl, clock: Clock) -> None:
        """Wrap an open connection; use :meth:`Database.open`."""
        super().__init__(url, clock)
        self._conn = conn
        self._lost_at: float | None = None
        """When the connection was found dropped (monotonic seconds); None while it works."""

    @classmethod
    async def connect(cls, url: StoreUrl, clock: Clock) -> PostgresDatabase:
        """Connect and check the schema version (nothing is written); no migration."""
        conn = await open_connection(url)
        db = cls(conn, url, clock)
        try:
            found = await db._read_version()
            if found > latest_version():
                raise SchemaTooNewError(found, latest_version())
        except BaseException:
            db._closed = True
            await conn.close()
            raise
        db.schema_version = found
        return db

    async def _disconnect(self) -> None:
        if self._connection_lost():
            self._conn.terminate()
            return
        with contextlib.suppress(OSError, asyncpg.InterfaceError, TimeoutError):
            await self._conn.close(timeout=5)

    def _connection_in_transaction(self) -> bool:
        return not self._connection_lost() and self._conn.is_in_transaction()

    def _connection_lost(self) -> bool:
        return self._lost_at is not None or self._conn.is_closed()

    def _lost(self, reason: str) -> ConnectionLostError:
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
        )

    async def _reconnect_if_dropped(self) -> None:
        if not self._connection_lost():
            return
        self._lost("the server closed it")
        try:
            conn = await _connect(self.url)
        except _UNREACHABLE as exc:
            reason = _reason(exc)
            raise ConnectionLostError(
                f"{self.path}: the connection to the database was lost and connecting again "
                f"failed ({reason}); nothing was saved, and the next call tries again",
                reason=reason,
            ) from None
        self._conn.terminate()
        self._conn = conn
        assert self._lost_at is not None
        log.info(
            "%s: connected to the database again, %.1f s after losing the connection",
            self.path,
            time.monotonic() - self._lost_at,
        )
        self._lost_at = None

    async def _control(self, sql: str) -> None:
        with self._errors():
            await self._conn.execute(sql)

    async def _fetch(self, sql: str, params: Params) -> list[Row]:
        rows = await finish_even_if_cancelled(self._conn.fetch(numbered(sql), *params), sql)
        return cast(list[Row], rows)

    async def _execute(self, sql: str, params: Params) -> int:
        status = await finish_even_if_cancelled(self._conn.execute(numbered(sql), *params), sql)
        last = status.rsplit(" ", 1)[-1]
        return int(last) if last.isdigit() else 0

    async def _execute_many(self, sql: str, rows: Iterable[Params]) -> None:
        await finish_even_if_cancelled(self._conn.executemany(numbered(sql), list(rows)), sql)

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
        except _DROPPED as exc:
            raise self._lost(_reason(exc)) from exc
        except (asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            if self._conn.is_closed():  # a FATAL error, or "connection is closed"
                raise self._lost(_reason(exc)) from exc
            raise StoreError(f"{self.path}: {exc}") from exc

    # ------------------------------------------------------------------ migrations

    async def _read_version(self) -> int:
        with self._errors():
            present = await self._conn.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
            if not present:
                return 0
            version = await self._conn.fetchval("SELECT max(version) FROM schema_version")
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

    async def table_names(self) -> set[str]:
        """The tables of the schema, without ``schema_version``."""
        rows = await self.fetch_all(
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
        )
        return {str(r["table_name"]) for r in rows} - {"schema_version"}

    async def table_columns(self, table: str) -> list[tuple[str, str]]:
        """The columns of a table: (name, kind) from their types."""
        rows = await self.fetch_all(
            "SELECT column_name, data_type FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position",
            (table,),
        )
        return [(str(r["column_name"]), _KINDS.get(str(r["data_type"]), "text")) for r in rows]

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


async def open_connection(url: StoreUrl) -> asyncpg.Connection:
    """A connection to the server of ``url``; StoreError saying why when there is none."""
    try:
        return await _connect(url)
    except _UNREACHABLE as exc:
        raise StoreError(f"cannot connect to the database {url.shown}: {_reason(exc)}") from None


async def _connect(url: StoreUrl) -> asyncpg.Connection:
    conn: asyncpg.Connection = await asyncpg.connect(
        url.url,
        timeout=CONNECT_TIMEOUT,
        server_settings={
            "application_name": "euchre-bot",
            "lock_timeout": str(BUSY_TIMEOUT_MS),
        },
    )
    return conn


def _reason(exc: BaseException) -> str:
    return str(exc) or type(exc).__name__


def _name(table: str) -> str:
    if not table.replace("_", "").isalnum():
        raise StoreError(f"{table!r} is not a table name")
    return table
