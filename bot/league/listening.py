"""What the league's listeners read of the table service's and the tournaments' events.

Protocols, so that the league depends on no module above it: ``bot.tables`` passes
its :class:`~bot.tables.events.TableEvent` and its tournament runner's ``EventChanged``;
and :class:`TakeIns`, the work a listener starts and cannot wait for.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

__all__ = ["TableEventLike", "TakeIns", "TournamentChangeLike"]

log = logging.getLogger(__name__)


class TakeIns:
    """A server's finished games taken into the league, each in a task of its own."""

    def __init__(self, take_in: Callable[[int], Awaitable[int]]) -> None:
        """Take a server's games in with ``take_in(guild_id)``."""
        self._take_in = take_in
        self._tasks: set[asyncio.Task[None]] = set()

    def later(self, guild_id: int) -> None:
        """Take the server's finished games in, soon (nothing outside a running loop)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        task = loop.create_task(self._logged(guild_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def settle(self, timeout: float) -> int:
        """Wait up to ``timeout`` s for the take-ins under way; how many are still running."""
        running = [t for t in self._tasks if not t.done()]
        if not running:
            return 0
        _, late = await asyncio.wait(running, timeout=timeout)
        return len(late)

    async def _logged(self, guild_id: int) -> None:
        try:
            await self._take_in(guild_id)
        except Exception:
            log.exception("guild %d: could not take finished games into the league", guild_id)


class _Place(Protocol):
    @property
    def guild_id(self) -> int: ...


class _Table(Protocol):
    @property
    def place(self) -> _Place: ...


class TableEventLike(Protocol):
    """What :meth:`LeagueService.on_table_event` reads of a ``bot.tables.TableEvent``."""

    @property
    def kind(self) -> str:
        """The event's kind; ``"finished"`` once a game is over and archived."""
        ...

    @property
    def snapshot(self) -> _Table:
        """The table it happened at, as it was then."""
        ...


class _Event(Protocol):
    @property
    def guild_id(self) -> int: ...


class TournamentChangeLike(Protocol):
    """What :meth:`LeagueService.on_tournament_change` reads of a tournament's change."""

    @property
    def kind(self) -> str:
        """The change; ``"finished"`` or ``"cancelled"`` once the event is over."""
        ...

    @property
    def event(self) -> _Event:
        """The event as it stands."""
        ...
