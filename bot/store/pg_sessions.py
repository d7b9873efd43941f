"""Connections to a PostgreSQL server, and ending the sessions the store gave up.

Every connection of the store (the data connection of
:class:`~bot.store.postgres.PostgresDatabase`, the guild locks' of
:mod:`bot.store.locks`) is opened here, within the store's bound, and named by its
:class:`Session` (pid and start time). A connection given up because the server did
not answer in time may live on on the server, unheard of: holding row locks, a guild
lock, or a statement it will still run. :func:`reconnect` ends those sessions from
the new connection before it is used (``pg_terminate_backend``, PostgreSQL 14 or
newer), so nothing of them runs on after, and what is read next is the final word.
"""

from __future__ import annotations

import asyncio
import logging
import os
from dataclasses import dataclass
from datetime import datetime
from typing import Final

import asyncpg

from bot.store.database import BUSY_TIMEOUT_MS
from bot.store.errors import StoreError
from bot.store.urls import StoreUrl

__all__ = [
    "CONNECT_TIMEOUT",
    "UNREACHABLE",
    "Session",
    "no_answer",
    "open_connection",
    "reason_of",
    "reconnect",
]

log = logging.getLogger(__name__)

CONNECT_TIMEOUT: Final = 10.0
"""Seconds to reach the server before giving up, when the store has no bound of its own."""

UNREACHABLE: Final = (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError)
"""What connecting raises when the server is not there (or not ready)."""

_SESSION_START: Final = "SELECT backend_start FROM pg_stat_activity WHERE pid = pg_backend_pid()"

_END_SESSION: Final = (
    "SELECT pg_terminate_backend(pid, $3) FROM pg_stat_activity "
    "WHERE pid = $1 AND backend_start = $2"
)
"""End one session and wait up to $3 ms for it to go (PostgreSQL 14 or newer).

A pid alone could name another session after a server restart: its start time too.
"""


@dataclass(frozen=True, slots=True)
class Session:
    """A server session, named so that another connection can end it."""

    pid: int
    started: datetime | None


async def open_connection(
    url: StoreUrl, timeout: float | None = None, *, read_only: bool = False
) -> tuple[asyncpg.Connection, Session]:
    """A connection to the server of ``url`` and its session; StoreError saying why if none.

    ``timeout``: seconds to connect (:data:`CONNECT_TIMEOUT` if None). ``read_only``:
    every transaction of the session is read-only.
    """
    try:
        return await _connect(url, timeout, read_only)
    except UNREACHABLE as exc:
        reason = no_answer(timeout) if isinstance(exc, TimeoutError) else reason_of(exc)
        raise StoreError(f"cannot connect to the database {url.shown}: {reason}") from None


async def reconnect(
    url: StoreUrl, timeout: float | None, abandoned: list[Session], *, read_only: bool = False
) -> tuple[asyncpg.Connection, Session]:
    """A new connection, on which the ``abandoned`` sessions are ended first.

    Each one ended (or found gone) leaves the list: whatever it still held or ran is
    over before the new connection is used. Raises what connecting raises
    (TimeoutError when the server does not answer).
    """
    conn, session = await _connect(url, timeout, read_only)
    try:
        while abandoned:
            await _end_session(conn, abandoned[0], timeout)
            del abandoned[0]
    except BaseException as exc:
        conn.terminate()
        if isinstance(exc, TimeoutError):  # this one is given up too
            abandoned.append(session)
        raise
    return conn, session


async def _end_session(conn: asyncpg.Connection, old: Session, timeout: float | None) -> None:
    """End a session this process gave up; half the bound is given to its going."""
    wait = CONNECT_TIMEOUT if timeout is None else timeout
    try:
        ended = await conn.fetchval(
            _END_SESSION, old.pid, old.started, max(1, int(wait * 500)), timeout=wait
        )
    except asyncpg.PostgresError as exc:  # not allowed, or a server older than 14
        log.warning("could not end session %d, given up without an answer: %s", old.pid, exc)
        return
    if ended is None:
        log.info("session %d, given up without an answer, had ended already", old.pid)
    elif ended:
        log.info("ended session %d, given up without an answer: nothing of it runs on", old.pid)
    else:
        log.warning("session %d, given up without an answer, did not end in time", old.pid)


async def _connect(
    url: StoreUrl, timeout: float | None, read_only: bool = False
) -> tuple[asyncpg.Connection, Session]:
    wait = CONNECT_TIMEOUT if timeout is None else timeout
    deadline = asyncio.get_running_loop().time() + wait
    settings = {"application_name": "euchre-bot", "lock_timeout": str(BUSY_TIMEOUT_MS)}
    if read_only:
        settings["default_transaction_read_only"] = "on"
    conn: asyncpg.Connection = await asyncpg.connect(
        url.url, timeout=wait, server_settings=settings
    )
    try:
        left = deadline - asyncio.get_running_loop().time()
        started = await conn.fetchval(_SESSION_START, timeout=max(left, 0.001))
    except BaseException:
        conn.terminate()
        raise
    return conn, Session(conn.get_server_pid(), started)


def no_answer(timeout: float | None) -> str:
    """The reason given when the server did not answer in time."""
    return f"no answer within {CONNECT_TIMEOUT if timeout is None else timeout:g} s"


def reason_of(exc: BaseException) -> str:
    """What the driver said, or the exception's name; the system's words for an OS error.

    An OS error's own text repeats the address ("Connect call failed ('host', 5432)"),
    which the message already names.
    """
    if isinstance(exc, OSError) and exc.errno:
        return os.strerror(exc.errno)
    return str(exc) or type(exc).__name__
