"""A database made slow on purpose, and what a slow database costs an interaction's answer.

Discord drops an interaction not answered within 3 s; the bot's budget is 2.5 s
(:data:`ANSWER_BUDGET`). Every database round trip can be slow on a loaded server, so
the interaction harness counts the round trips an interaction makes before its first
answer and charges each :data:`ROUND_TRIP` seconds (300 ms: a database across a slow
network), whatever the machine's speed: that total must stay within the budget.

``EUCHRE_TEST_SLOW_DB=0.3`` also makes the databases of the tests really slow, as
``docs/testing.md`` describes: an SQLite commit waits that long first (the slow-commit
hook, :func:`slow_commits`), and a test's PostgreSQL is reached through a
:class:`~tests.kit.tcp_proxy.BlackHoleProxy` that holds each request that long. The e2e
bot processes get the same hook (``tests/kit/bot_process.py``).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Final

from bot.store.database import Database
from bot.store.postgres import PostgresDatabase
from bot.store.sqlite import SqliteDatabase

__all__ = [
    "ANSWER_BUDGET",
    "ROUND_TRIP",
    "SLOW_DB",
    "TOKEN_LIFETIME",
    "counted_round_trips",
    "slow_commits",
]

ANSWER_BUDGET: Final = 2.5
"""Seconds an interaction's first answer may take: Discord's 3, less a margin."""

TOKEN_LIFETIME: Final = 15 * 60.0
"""Seconds an interaction's token takes follow-ups and edits."""

ROUND_TRIP: Final = 0.3
"""Seconds each database round trip before the first answer is charged."""

SLOW_DB: Final = float(os.environ.get("EUCHRE_TEST_SLOW_DB") or 0)
"""Seconds each commit (SQLite) or request (PostgreSQL) really waits; 0: not slowed."""

_TRIPS: Final = ("_control", "_fetch", "_execute", "_execute_many")
"""The back ends' primitives: each is one round trip to the database."""


_counters: list[Callable[[], None]] = []
_commit_wait: list[float] = [0.0]


def _wrap_trips() -> None:
    """Wrap each back end's primitives once: each call tells the counters, and an SQLite
    COMMIT waits while :func:`slow_commits` says so."""
    for cls in (SqliteDatabase, PostgresDatabase):
        for name in _TRIPS:
            original = cls.__dict__[name]
            if getattr(original, "_wrapped", False):
                continue
            commits = cls is SqliteDatabase and name == "_control"

            async def trip(
                self: Database, *args: Any, _original: Any = original, _commits: bool = commits
            ) -> Any:
                for count in list(_counters):
                    count()
                if _commits and args[0] == "COMMIT" and _commit_wait[0] > 0:
                    await asyncio.sleep(_commit_wait[0])
                return await _original(self, *args)

            trip._wrapped = True  # type: ignore[attr-defined]
            setattr(cls, name, trip)


@contextmanager
def counted_round_trips(count: Callable[[], None]) -> Iterator[None]:
    """Call ``count()`` before each round trip of every database, while the block runs."""
    _wrap_trips()
    _counters.append(count)
    try:
        yield
    finally:
        _counters.remove(count)


@contextmanager
def slow_commits(seconds: float) -> Iterator[None]:
    """Every SQLite COMMIT waits ``seconds`` first, as on a slow disk, while the block runs."""
    _wrap_trips()
    before, _commit_wait[0] = _commit_wait[0], seconds
    try:
        yield
    finally:
        _commit_wait[0] = before
