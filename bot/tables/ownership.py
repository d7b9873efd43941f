"""Which servers' tables this process serves: those of its shards, under their guild locks.

A server belongs to shard ``(guild_id >> 22) % shard_count`` (Discord's rule). A bot
split over processes gives each process some shards; a process restores and opens
only the tables of its servers, and only after it holds the server's lock (see
:mod:`bot.store.locks`), so two processes never act on one table, even while a
restarted process and its predecessor both run.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol

from .errors import TableMovingError

__all__ = ["GuildLockSource", "Ownership", "shard_of"]

MOVING = (
    "This server's tables are being handed to another process of the bot. "
    "Try again in a few seconds."
)


class GuildLockSource(Protocol):
    """Per-guild locks between processes (:mod:`bot.store.locks`)."""

    async def acquire(self, guild_id: int, *, timeout: float | None = None) -> bool:
        """Hold the guild's lock; False if ``timeout`` ran out first."""
        ...

    async def release(self, guild_id: int) -> None:
        """Let the guild's lock go."""
        ...


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard whose gateway connection carries the guild's events."""
    return (guild_id >> 22) % shard_count


@dataclass(frozen=True)
class Ownership:
    """This process's shards and the locks that make its servers its own.

    ``shard_count`` 0 or no ``shard_ids``: every server. No ``locks``: nothing to wait for.
    """

    shard_count: int = 0
    shard_ids: frozenset[int] = field(default_factory=frozenset)
    locks: GuildLockSource | None = None
    claim_timeout: float = 2.0
    """How long opening a table waits for a server held by another process."""

    @classmethod
    def of(
        cls, shard_count: int, shard_ids: Iterable[int], locks: GuildLockSource | None = None
    ) -> Ownership:
        """Ownership from the settings' ``shard_count`` and ``shard_ids``."""
        return cls(shard_count, frozenset(shard_ids), locks)

    def owns(self, guild_id: int) -> bool:
        """Whether the server is on one of this process's shards."""
        if not self.shard_count or not self.shard_ids:
            return True
        return shard_of(guild_id, self.shard_count) in self.shard_ids

    async def claim(self, guild_id: int, *, wait: bool = False) -> None:
        """Hold the server's lock: wait for it (``wait``), else refuse after ``claim_timeout``."""
        if self.locks is None:
            return
        timeout = None if wait else self.claim_timeout
        if not await self.locks.acquire(guild_id, timeout=timeout):
            raise TableMovingError(MOVING)

    async def release(self, guild_id: int) -> None:
        """Let the server go: this process has no table of it open any more."""
        if self.locks is not None:
            await self.locks.release(guild_id)
