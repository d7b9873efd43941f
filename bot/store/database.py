"""The one :class:`Database` object: a connection, its transactions and migrations.

Every SQL statement of the project goes through here, from the repositories of this
package. Two back ends share this front, picked by :meth:`Database.open` from the URL:
SQLite through aiosqlite (the default, :mod:`bot.store.sqlite`) and PostgreSQL through
asyncpg (:mod:`bot.store.postgres`). SQL is written once, portably, with ``?``
placeholders. One connection per process; an asyncio lock serialises the coroutines
that share it, so a transaction never sees another coroutine's half-done work. (The
web pages read through more connections that only read: :mod:`bot.store.readers`.)
A server's connection that drops (the server restarted) is opened again by the next
call; a call that met the drop runs once more on the new connection when nothing of
it can have been saved, else it fails with :class:`ConnectionLostError` (see
:meth:`Database.transaction`). A server that does not answer within the bound
(``timeout`` of :meth:`Database.open`) is given up the same way, except that nothing
runs again, and the calls that were waiting their turn meanwhile fail with it at once:
each call waits for the server at most about the bound, never once per call queued
before it. Long work that no click waits on (migrations, start-up) runs in
:meth:`Database.unbounded`.
Between processes, a server's rows are written by one process only (its shard's:
:mod:`bot.store.locks`).

    >>> async with await Database.open(settings.database_url) as db:   # doctest: +SKIP
    ...     async with db.transaction():
    ...         ...

Migrations are the numbered SQL files of :mod:`bot.store.migrations`, one source for
both dialects; the database keeps only the number of the last one applied.

Longer than 450 lines on purpose: the lock, the transactions and savepoints, what is
run again after a dropped connection (or not, after a server that stopped answering)
and the migrations all work on the one connection state of this class, and each
relies on how the others use it.
"""

from __future__ import annotations

import abc
import asyncio
import contextlib
import functools
import logging
import os
import time
from collections.abc import (
    AsyncIterator,
    Awaitable,
    Callable,
    Iterable,
    Iterator,
    KeysView,
    Sequence,
)
from contextlib import AbstractAsyncContextManager, asynccontextmanager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, datetime
from types import TracebackType
from typing import Any, ClassVar, Final, Protocol, Self, TypeVar

from bot.store.errors import ConnectionLostError, MigrationError, SchemaTooNewError, StoreError
from bot.store.migrations import Migration, latest_version, load_migrations
from bot.store.urls import Dialect, StoreUrl, parse_url
from bot.waits import before_waiting

__all__ = [
    "BUSY_TIMEOUT_MS",
    "Clock",
    "Database",
    "Params",
    "Row",
    "add_dialect",
    "migrate",
    "utc_now",
]

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS: Final = 5000
"""How long a statement waits for another connection's lock before giving up."""

Params = Sequence[Any]
Clock = Callable[[], datetime]
T = TypeVar("T")


class Row(Protocol):
    """A result row: values by column name or position (sqlite3.Row, asyncpg.Record)."""

    def __getitem__(self, key: str | int, /) -> Any:
        """The value of a column."""
        ...

    def keys(self) -> Iterable[str] | KeysView[str]:
        """The column names, in order."""
        ...


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


_current: ContextVar[tuple[_Transaction, ...]] = ContextVar("bot_store_transactions", default=())
"""The transactions the current task is inside, one per database at most."""


def _entered(db: Database) -> _Transaction | None:
    return next((tx for tx in _current.get() if tx.db is db), None)


_unbounded: ContextVar[tuple[Database, ...]] = ContextVar("bot_store_unbounded", default=())
"""The databases whose bound the current task (and the tasks it starts) goes without."""


class Database(abc.ABC):
    """One connection to the bot's database. Build it with :meth:`open`; close it once."""

    dialect: ClassVar[Dialect]
    _BEGIN_WRITE: ClassVar[str]
    _BEGIN_READ: ClassVar[str]

    def __init__(self, url: StoreUrl, clock: Clock) -> None:
        """Set up the front; use :meth:`open`, which connects and migrates."""
        self._lock = asyncio.Lock()
        self._closed = False
        self._no_answer_at: float | None = None
        """When the server last failed to answer within the bound (monotonic seconds)."""
        self._no_answer_reason = ""
        self.url: Final = url
        self.path: Final = url.shown
        """Where the database is, fit for messages (a file, or a URL without password)."""
        self.clock: Final = clock
        self.schema_version = 0
        """The schema version of the open database."""

    # ------------------------------------------------------------------ life

    @classmethod
    async def open(
        cls,
        target: str | os.PathLike[str],
        *,
        clock: Clock = utc_now,
        timeout: float | None = None,
    ) -> Database:
        """Open ``target`` and migrate it to the newest schema.

        ``target`` is a database URL (``sqlite:///PATH``, ``postgresql://...``) or
        the path of an SQLite file, created with its folder if missing. Raises
        :class:`SchemaTooNewError`, leaving the database untouched, when it comes
        from a newer bot. ``timeout``: seconds a database server gets to answer each
        statement, or to let the store connect (the bot's ``database_timeout``);
        None: no bound on statements (tools that copy or migrate everything).
        SQLite has no server and no bound.
        """
        db = await connect(target, clock, timeout)
        try:
            await db._migrate(latest_version())
        except BaseException:
            await db.close()
            raise
        return db

    async def close(self) -> None:
        """Wait for a running transaction to end, then close the connection. Idempotent."""
        if self._in_transaction():
            raise StoreError("close() called inside a transaction of this database")
        async with self._lock:
            if self._closed:
                return
            self._closed = True
            await self._disconnect()

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

        A dropped server connection: met by BEGIN, the transaction begins again on a
        new connection (nothing ran yet); met inside the block, the block fails with
        :class:`ConnectionLostError` and nothing of it is saved (only its owner can
        run it again); met by COMMIT, it fails with ``unsure`` set, since the server
        may have committed before the answer was lost.
        """
        return self._transaction()

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[None]:
        outer = _entered(self)
        if outer is not None and outer.active:
            if outer.read_only:
                raise StoreError("cannot write inside a snapshot: use a transaction")
            async with self._savepoint(outer):
                yield
            return
        async with self._turn():
            try:
                await self._begin(self._BEGIN_WRITE)
            except BaseException:
                if self._connection_in_transaction():  # begun, then cancelled
                    await self._run_to_end("ROLLBACK")
                raise
            tx = _Transaction(self)
            token = _current.set((*_current.get(), tx))
            try:
                yield
            except BaseException:
                tx.active = False
                if self._connection_in_transaction():  # SQLite may have rolled back already
                    await self._run_to_end("ROLLBACK")
                raise
            else:
                tx.active = False
                lost_before = self._connection_lost()
                try:
                    await self._run_to_end("COMMIT")
                except ConnectionLostError as exc:
                    if lost_before:  # COMMIT was never sent: nothing was saved
                        raise
                    raise self._unsure(exc, "while committing") from exc
                except BaseException:
                    if self._connection_in_transaction():
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
        async with self._turn():
            try:
                await self._begin(self._BEGIN_READ)
                tx = _Transaction(self, read_only=True)
                token = _current.set((*_current.get(), tx))
                try:
                    yield
                finally:
                    tx.active = False
                    _current.reset(token)
            finally:
                if self._connection_in_transaction():
                    await self._run_to_end("ROLLBACK")

    @asynccontextmanager
    async def _savepoint(self, tx: _Transaction) -> AsyncIterator[None]:
        tx.savepoints += 1
        name = f"sp_{tx.savepoints}"
        await self._run_to_end(f"SAVEPOINT {name}")
        try:
            yield
        except BaseException:
            if self._connection_in_transaction():
                await self._run_to_end(f"ROLLBACK TO {name}")
                await self._run_to_end(f"RELEASE {name}")
            raise
        else:
            await self._run_to_end(f"RELEASE {name}")
        finally:
            tx.savepoints -= 1

    def _in_transaction(self) -> bool:
        tx = _entered(self)
        return tx is not None and tx.active

    async def _begin(self, sql: str) -> None:
        """BEGIN, on a new connection if the server's dropped (before BEGIN, or at it)."""
        await self._reconnect_if_dropped()
        try:
            await self._run_to_end(sql)
        except ConnectionLostError as exc:
            if exc.timed_out:  # the server does not answer: another try would wait again
                raise
            # Nothing of the transaction ran yet: begin it on a new connection.
            await self._reconnect_if_dropped()
            await self._run_to_end(sql)

    def _unsure(self, lost: ConnectionLostError, when: str) -> ConnectionLostError:
        """The error of a write whose answer was lost: it may have been saved."""
        message = (
            f"{self.path}: the connection to the database was lost {when} ({lost.reason}): "
            "the change may or may not have been saved; the next call connects again"
        )
        log.warning("%s", message)
        return ConnectionLostError(
            message, reason=lost.reason, unsure=True, timed_out=lost.timed_out
        )

    async def _run_to_end(self, sql: str) -> None:
        """Run a transaction-control statement; cancellation waits for it to finish.

        The database runs the statement whatever happens to the awaiting coroutine,
        so giving up early would leave the lock and the connection's transaction
        state out of step.
        """
        await finish_even_if_cancelled(self._control(sql), sql)

    @asynccontextmanager
    async def _alone(self, *, read: bool = False) -> AsyncIterator[None]:
        """The connection for one statement outside any transaction (opened again if dropped).

        It waits for other coroutines' transactions: on a shared connection a read
        would otherwise see their uncommitted writes.
        """
        async with self._turn(brief=read):
            await self._reconnect_if_dropped()
            yield

    def _check_open(self) -> None:
        if self._closed:
            raise StoreError("the database is closed")

    @asynccontextmanager
    async def _turn(self, *, brief: bool = False) -> AsyncIterator[None]:
        """The connection to this task, once the coroutines before it are done with it.

        A call that waited while the server failed to answer another one fails at once:
        the server was given up while it waited, and trying again would make each queued
        call wait the whole bound in turn. A call that comes later tries again.
        """
        # a wait to come: the interaction at hand is answered first (a lone read of an idle
        # database excepted, once: answering first would cost as much)
        await before_waiting(brief=brief and not self._lock.locked())
        asked = time.monotonic()
        async with self._lock:
            self._check_open()
            if self._no_answer_at is not None and self._no_answer_at >= asked:
                raise ConnectionLostError(
                    f"{self.path}: the database did not answer another call "
                    f"({self._no_answer_reason}) while this one waited its turn; nothing "
                    "was saved, and the next call tries again",
                    reason=self._no_answer_reason,
                    timed_out=True,
                )
            yield

    def _note_no_answer(self, reason: str) -> None:
        """The server did not answer within the bound: the calls waiting now fail with it."""
        self._no_answer_at = time.monotonic()
        self._no_answer_reason = reason

    def unbounded(self) -> contextlib.AbstractContextManager[None]:
        """``with db.unbounded():`` the calls of the block wait for the server as long as it takes.

        For long work no click waits on: migrations, and what the bot reads before it
        connects to Discord (every open table at once, on a big store).
        """
        return self._unbounded()

    @contextmanager
    def _unbounded(self) -> Iterator[None]:
        token = _unbounded.set((*_unbounded.get(), self))
        try:
            yield
        finally:
            _unbounded.reset(token)

    def _bounded(self) -> bool:
        """Whether the current task's calls have the bound (outside :meth:`unbounded`)."""
        return self not in _unbounded.get()

    # ------------------------------------------------------------------ statements

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        """Every row of a query (or of a write's RETURNING clause, inside a transaction).

        Alone, a query that meets a dropped server connection runs once more on a new one
        (not one that got no answer within the bound: it would wait as long again).
        """
        return await self._rows(sql, params, read=True)

    async def write_returning(self, sql: str, params: Params = ()) -> list[Row]:
        """One write and the rows of its RETURNING clause, in one trip: for hot paths.

        Alone, the statement is its own transaction (no BEGIN, COMMIT or savepoint
        trips); if the server connection drops while it runs, it fails with
        :class:`ConnectionLostError` ``unsure`` (it may have been saved).
        """
        return await self._rows(sql, params, read=False)

    async def _rows(self, sql: str, params: Params, *, read: bool) -> list[Row]:
        """The rows of one statement; alone, a dropped connection is handled as ``read`` says."""
        if self._in_transaction():
            with self._errors():
                return await self._fetch(sql, params)
        async with self._alone(read=read):
            try:
                with self._errors():
                    return await self._fetch(sql, params)
            except ConnectionLostError as exc:
                if not read:
                    raise self._unsure(exc, "during a write") from exc
                if exc.timed_out:
                    raise
                await self._reconnect_if_dropped()  # a read changes nothing: run it again
            with self._errors():
                return await self._fetch(sql, params)

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        """The first row of a query, or None."""
        rows = await self.fetch_all(sql, params)
        return rows[0] if rows else None

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one write (in its own transaction unless inside one); return the rows changed."""
        return await self._write(functools.partial(self._execute, sql, params))

    async def execute_many(self, sql: str, rows: Iterable[Params]) -> None:
        """Run one write for each parameter row, all in one transaction."""
        await self._write(functools.partial(self._execute_many, sql, list(rows)))

    async def _write(self, work: Callable[[], Awaitable[T]]) -> T:
        """``work`` in a transaction (a savepoint inside one).

        Alone, its transaction is the store's own: if the server connection dropped
        before COMMIT, nothing was saved, so it runs once more on a new connection
        (unless the server did not answer within the bound).
        """
        alone = not self._in_transaction()
        try:
            async with self.transaction():
                with self._errors():
                    return await work()
        except ConnectionLostError as exc:
            if not alone or exc.unsure or exc.timed_out:
                raise
            log.info("%s: the write runs again on a new connection", self.path)
        async with self.transaction():
            with self._errors():
                return await work()

    # ------------------------------------------------------------------ the back end

    # What each back end does: run a statement without rows (BEGIN, SAVEPOINT...), one
    # with rows, a write (rows changed), a write per parameter row; say whether the
    # connection is in a transaction; turn the driver's exceptions into the store's;
    # close; read the schema version without writing; apply a migration inside the open
    # transaction; wait there until no other connection migrates.
    @abc.abstractmethod
    async def _control(self, sql: str) -> None: ...
    @abc.abstractmethod
    async def _fetch(self, sql: str, params: Params) -> list[Row]: ...
    @abc.abstractmethod
    async def _execute(self, sql: str, params: Params) -> int: ...
    @abc.abstractmethod
    async def _execute_many(self, sql: str, rows: Iterable[Params]) -> None: ...
    @abc.abstractmethod
    def _connection_in_transaction(self) -> bool: ...
    @abc.abstractmethod
    def _errors(self) -> contextlib.AbstractContextManager[None]: ...
    @abc.abstractmethod
    async def _disconnect(self) -> None: ...
    # Whether the server is known to have dropped the connection; outside a transaction
    # only, open a new one if so (ConnectionLostError while the server is unreachable).
    @abc.abstractmethod
    def _connection_lost(self) -> bool: ...
    @abc.abstractmethod
    async def _reconnect_if_dropped(self) -> None: ...
    @abc.abstractmethod
    async def _read_version(self) -> int: ...
    @abc.abstractmethod
    async def _apply(self, migration: Migration, found: int) -> None: ...
    @abc.abstractmethod
    async def _lock_for_migration(self) -> None: ...

    # For copy-db (which reads the tables by bot.store.catalog): the next id of a table
    # whose ids the database gives (ids are never reused), and setting it.
    # For the health check: commit one write that changes nothing (the schema version).
    # For the web pages (bot.store.readers): another connection to the same store that
    # only reads, so that reads run beside this one's writes instead of queueing behind them.
    @abc.abstractmethod
    async def reader(self) -> Database | None: ...

    @abc.abstractmethod
    async def identity_next(self, table: str) -> int: ...
    @abc.abstractmethod
    async def set_identity_next(self, table: str, next_id: int) -> None: ...
    @abc.abstractmethod
    async def rewrite_version(self, wait_ms: int) -> None: ...

    # ------------------------------------------------------------------ migrations

    async def _migrate(self, target: int) -> tuple[int, int]:
        with self.unbounded():  # a migration takes as long as its statements take
            return await self._migrate_unbounded(target)

    async def _known_version(self) -> int:
        """The schema version of the database, which this bot must know (else SchemaTooNewError)."""
        found = await self._read_version()
        if found > latest_version():
            raise SchemaTooNewError(found, latest_version())
        return found

    @asynccontextmanager
    async def _opening(self) -> AsyncIterator[None]:
        """Around setting up a new connection: a failure closes it again, then goes on."""
        try:
            yield
        except BaseException:
            self._closed = True
            await self._disconnect()
            raise

    async def _migrate_unbounded(self, target: int) -> tuple[int, int]:
        start = await self._known_version()
        if start > target:
            raise MigrationError(
                f"the database is at schema {start}, past the requested {target}: "
                "migrations only go forward"
            )
        current = start
        for migration in load_migrations(self.dialect):
            if migration.version <= current or migration.version > target:
                continue
            async with self.transaction():
                # Under the write lock: another connection may have migrated meanwhile.
                await self._lock_for_migration()
                found = await self._known_version()
                if found >= migration.version:
                    current = found
                    continue
                await self._apply(migration, found)
            current = migration.version
            log.info("%s: migrated to schema %d (%s)", self.path, current, migration.name)
        self.schema_version = current
        return start, current


async def finish_even_if_cancelled(work: Awaitable[T], what: str) -> T:
    """Await ``work``; if the caller is cancelled meanwhile, let it finish first, then re-raise."""
    inner = asyncio.ensure_future(work)
    try:
        return await asyncio.shield(inner)
    except asyncio.CancelledError:
        while not inner.done():
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.wait([inner])
        if not inner.cancelled() and inner.exception() is not None:
            log.warning("%s failed while cancelled: %s", what, inner.exception())
        raise


Opener = Callable[[StoreUrl, Clock, float | None], Awaitable["Database"]]
"""How one dialect connects to a database (its :class:`Database` subclass)."""

_OPENERS: Final[dict[Dialect, Opener]] = {}
_EXISTING: Final[dict[Dialect, Callable[[StoreUrl], Awaitable[int]]]] = {}


def add_dialect(
    dialect: Dialect, opener: Opener, existing: Callable[[StoreUrl], Awaitable[int]] | None = None
) -> None:
    """Say how ``dialect`` connects (and reads an existing schema's version without a write).

    The package (``bot/store/__init__.py``) adds both dialects, so this module, which their
    classes subclass, imports neither of them.
    """
    _OPENERS[dialect] = opener
    if existing is not None:
        _EXISTING[dialect] = existing


async def connect(
    target: str | os.PathLike[str], clock: Clock = utc_now, timeout: float | None = None
) -> Database:
    """Connect to ``target`` without migrating; a schema newer than this bot's is refused.

    ``timeout`` is the server's bound, as for :meth:`Database.open`.
    """
    try:
        url = parse_url(target)
    except ValueError as exc:
        raise StoreError(str(exc)) from None
    return await _OPENERS[url.dialect](url, clock, timeout)


async def existing_schema(target: str | os.PathLike[str]) -> int:
    """The schema version of the database at ``target``, which must exist (0: no schema).

    Nothing is created, migrated or written: an SQLite file that is missing is a
    :class:`StoreError`, where :func:`connect` would create it.
    """
    try:
        url = parse_url(target)
    except ValueError as exc:
        raise StoreError(str(exc)) from None
    existing = _EXISTING.get(url.dialect)
    if existing is not None:
        return await existing(url)
    db = await connect(target)
    try:
        return db.schema_version
    finally:
        await db.close()


async def migrate(where: str | os.PathLike[str], *, target: int | None = None) -> tuple[int, int]:
    """Bring the database at ``where`` (URL or SQLite path) to the newest schema (or ``target``).

    Returns (from, to).

    For ``python -m bot migrate``; :meth:`Database.open` does the same on start-up.
    """
    newest = latest_version()
    wanted = newest if target is None else target
    if not 0 <= wanted <= newest:
        raise MigrationError(f"schema {wanted} does not exist (this bot knows 0 to {newest})")
    db = await connect(where)
    try:
        return await db._migrate(wanted)
    finally:
        await db.close()
