"""Which process acts on a server's tables: one PostgreSQL advisory lock per guild.

Several bot processes share one PostgreSQL store, each running some of the bot's
shards. A server's interactions arrive at the process of its shard, but during a
rolling restart the old and the new process of a shard both live for a while. So a
process takes the server's lock before it restores or opens any of its tables, and
holds it while it has a table of that server open: the other one waits (start-up) or
is refused (a new table) until the first has let it go or is gone. The locks are
held by a connection of their own; when a process dies, even by ``kill -9``,
PostgreSQL drops its connection and the locks with it. So a process whose lock
connection drops while it holds locks (the server restarted) must stop: another may
have taken its servers over. Holding none, it connects again for the next lock.

On SQLite there is one process, so :class:`LocalGuildLocks` grants every lock at once.

A lock statement that gets no answer within the store's bound (``timeout``) gives
its connection up like a dropped one: holding locks, the process must stop; holding
none, the next lock connects again and first ends the given-up session on the server,
which may hold the lock whose answer never came.

A PostgreSQL server holds at most ``max_locks_per_transaction * max_connections``
locks (6,400 by default) for all its sessions, about one per server with an open
table here: see docs/scaling.md.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable
from typing import Final, Protocol

import asyncpg

from bot.store.errors import StoreError
from bot.store.pg_sessions import Session, no_answer, open_connection, reconnect
from bot.store.urls import StoreUrl, parse_url

__all__ = ["GuildLocks", "LocalGuildLocks", "PostgresGuildLocks", "open_guild_locks"]

log = logging.getLogger(__name__)

POLL_SECONDS: Final = 0.2
"""How often a lock held elsewhere is tried again."""


class GuildLocks(Protocol):
    """Per-guild ownership between processes."""

    async def acquire(self, guild_id: int, *, timeout: float | None = None) -> bool:
        """Hold the guild's lock (at once if held already); False if ``timeout`` ran out."""
        ...

    def holds(self, guild_id: int) -> bool:
        """Whether this process holds the guild's lock."""
        ...

    async def release(self, guild_id: int) -> None:
        """Let the guild's lock go (no table of it is open here any more)."""
        ...

    async def close(self) -> None:
        """Let every lock go."""
        ...


class LocalGuildLocks:
    """One process (SQLite): every lock is granted at once."""

    def __init__(self) -> None:
        """No lock held yet."""
        self._held: set[int] = set()

    async def acquire(self, guild_id: int, *, timeout: float | None = None) -> bool:
        """Granted."""
        self._held.add(guild_id)
        return True

    def holds(self, guild_id: int) -> bool:
        """Whether ``acquire`` was called for the guild."""
        return guild_id in self._held

    async def release(self, guild_id: int) -> None:
        """Forget the guild's lock."""
        self._held.discard(guild_id)

    async def close(self) -> None:
        """Forget the locks."""
        self._held.clear()


class PostgresGuildLocks:
    """Session advisory locks on a connection of their own; key: the guild id."""

    def __init__(
        self,
        conn: asyncpg.Connection,
        session: Session,
        url: StoreUrl,
        on_lost: Callable[[], None],
        timeout: float | None = None,
    ) -> None:
        """Use :func:`open_guild_locks`."""
        self._conn = conn
        self._session = session
        self._abandoned: list[Session] = []
        self._timeout = timeout
        self._url = url
        self._where = url.shown
        self._held: set[int] = set()
        self._turn = asyncio.Lock()  # one query at a time on the connection
        self._closing = False
        self._on_lost = on_lost
        conn.add_termination_listener(self._terminated)

    def _terminated(self, conn: object) -> None:
        if self._closing or conn is not self._conn:
            return
        if not self._held:
            log.warning(
                "%s: lost the connection for guild locks while holding none; "
                "the next lock taken connects again",
                self._where,
            )
            return
        log.critical(
            "%s: the connection holding %d guild lock(s) was lost; another process may "
            "take them over, so this one must stop",
            self._where,
            len(self._held),
        )
        self._held.clear()
        self._on_lost()

    async def acquire(self, guild_id: int, *, timeout: float | None = None) -> bool:
        """Try the lock every :data:`POLL_SECONDS` until it is ours or ``timeout`` ends."""
        if guild_id in self._held:
            return True
        loop = asyncio.get_running_loop()
        deadline = None if timeout is None else loop.time() + timeout
        told = False
        while True:
            if await self._try(guild_id):
                if told:
                    log.info("guild %d: lock taken over", guild_id)
                return True
            if deadline is not None and loop.time() >= deadline:
                return False
            if not told:
                log.info("guild %d: another process holds its lock; waiting for it", guild_id)
                told = True
            await asyncio.sleep(POLL_SECONDS)

    async def _try(self, guild_id: int) -> bool:
        async with self._turn:
            if guild_id in self._held:
                return True
            where = f"{self._where}: cannot take guild {guild_id}'s lock"
            if self._conn.is_closed():  # dropped (or given up) while no lock was held
                try:
                    self._conn, self._session = await reconnect(
                        self._url, self._timeout, self._abandoned
                    )
                except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as exc:
                    raise StoreError(f"{where}: {self._why(exc)}") from None
                self._conn.add_termination_listener(self._terminated)
            try:
                got = await self._conn.fetchval(
                    "SELECT pg_try_advisory_lock($1)", guild_id, timeout=self._timeout
                )
            except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as exc:
                if isinstance(exc, TimeoutError):
                    self._give_up()
                raise StoreError(f"{where}: {self._why(exc)}") from exc
            if got:
                self._held.add(guild_id)
            return bool(got)

    def holds(self, guild_id: int) -> bool:
        """Whether this process holds the guild's lock."""
        return guild_id in self._held

    async def release(self, guild_id: int) -> None:
        """Let the guild's lock go, for another process to take."""
        async with self._turn:
            if guild_id not in self._held or self._closing:
                return
            self._held.discard(guild_id)
            try:
                await self._conn.fetchval(
                    "SELECT pg_advisory_unlock($1)", guild_id, timeout=self._timeout
                )
            except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as exc:
                log.warning("guild %d: could not let its lock go: %s", guild_id, self._why(exc))
                if isinstance(exc, TimeoutError):
                    self._give_up()

    def _give_up(self) -> None:
        """No answer in time: close the connection (the locks still held are lost with it)."""
        if self._session not in self._abandoned:  # asyncpg may have closed it already
            self._abandoned.append(self._session)
        self._conn.terminate()

    def _why(self, exc: BaseException) -> str:
        return no_answer(self._timeout) if isinstance(exc, TimeoutError) else str(exc)

    async def close(self) -> None:
        """Close the connection: PostgreSQL lets every lock go."""
        self._closing = True
        self._held.clear()
        async with self._turn:
            try:
                await self._conn.close(timeout=self._timeout or 5)
            except (OSError, asyncpg.InterfaceError, TimeoutError):
                self._conn.terminate()


async def open_guild_locks(
    target: str | os.PathLike[str],
    *,
    on_lost: Callable[[], None] = lambda: None,
    timeout: float | None = None,
) -> GuildLocks:
    """The guild locks for the store at ``target``; ``on_lost`` runs if they are lost.

    ``timeout``: seconds the server gets to answer each lock statement, or to connect.
    """
    try:
        url = parse_url(target)
    except ValueError as exc:
        raise StoreError(str(exc)) from None
    if url.dialect != "postgresql":
        return LocalGuildLocks()
    conn, session = await open_connection(url, timeout)
    return PostgresGuildLocks(conn, session, url, on_lost, timeout)
