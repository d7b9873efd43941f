"""The timed calls of a person's turn: their ping, and a forced card that plays itself.

A turn that passes to a person may start calls on the service's
:class:`~bot.tables.scheduler.Scheduler` (the injected clock): the mention after
``ping_after`` seconds, a forced card after a short visible delay. Each belongs to the
turn it was started at (the table's stamp): it is cancelled when the person acts or the
turn passes on, and a call whose turn is over by the time it runs does nothing.
How long to wait before a ping is the server's ``ping_after`` within the person's own
``pings`` preference (:meth:`~bot.server.preferences.Preferences.ping_delay`).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from bot.server.preference_sources import MemoryPreferences, PreferenceSource
from bot.server.preferences import Preferences

from .scheduler import LoopScheduler, Scheduler, Timer
from .table import Table

__all__ = ["TurnTimers", "person_to_act"]

log = logging.getLogger(__name__)


def person_to_act(table: Table) -> int | None:
    """The person whose turn it is at an open game (None: a computer's, or no game)."""
    game = table.game
    if table.status != "playing" or game is None or game.turn is None:
        return None
    seat = table.seats[game.turn]
    if seat is None or seat.user_id is None or table.is_computer(game.turn):
        return None
    return seat.user_id


class TurnTimers:
    """Each table's calls pending for its current turn, on one clock."""

    def __init__(
        self, scheduler: Scheduler | None = None, preferences: PreferenceSource | None = None
    ) -> None:
        """Calls on ``scheduler`` (default: the event loop's clock).

        Each person's preferences come from ``preferences`` (default: in memory, everyone
        on the defaults).
        """
        self.scheduler: Scheduler = scheduler if scheduler is not None else LoopScheduler()
        self.preferences: PreferenceSource = (
            preferences if preferences is not None else MemoryPreferences()
        )
        self._pending: dict[int, list[Timer]] = {}

    async def preferences_of(self, user_id: int) -> Preferences:
        """A person's preferences; the defaults when they can't be read (logged)."""
        try:
            return await self.preferences.get(user_id)
        except Exception:
            log.warning("user %d: could not read their preferences", user_id, exc_info=True)
            return Preferences()

    def at_turn(
        self,
        table: Table,
        user_id: int,
        delay: float,
        call: Callable[[], Awaitable[None]],
        *,
        name: str,
    ) -> None:
        """Run ``call()`` under the table's lock in ``delay`` seconds.

        Only if the turn is still ``user_id``'s at the same stamp then.
        """
        stamp = table.stamp
        timer: Timer

        async def due() -> None:
            self._forget(table.id, timer)
            async with table.lock:
                if table.is_open and table.stamp == stamp and person_to_act(table) == user_id:
                    await call()

        timer = self.scheduler.call_later(delay, due, name=f"table {table.id} {name}")
        self._pending.setdefault(table.id, []).append(timer)

    def _forget(self, table_id: int, timer: Timer) -> None:
        pending = self._pending.get(table_id, [])
        if timer in pending:
            pending.remove(timer)
        if not pending:
            self._pending.pop(table_id, None)

    def cancel(self, table_id: int) -> None:
        """Drop every call pending for the table's turn (the person acted, or it moved on)."""
        for timer in self._pending.pop(table_id, ()):
            timer.cancel()

    @property
    def pending(self) -> int:
        """How many tables have calls pending."""
        return len(self._pending)
