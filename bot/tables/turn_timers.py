"""The timed calls of a person's turn: their ping, and a forced card that plays itself.

A turn that passes to a person may start calls on the service's
:class:`~bot.tables.scheduler.Scheduler` (the injected clock, the crew's): the mention after
``ping_after`` seconds, a forced card after a short visible delay. Each belongs to the
turn it was started at (the table's stamp): it is cancelled when the person acts or the
turn passes on, and a call whose turn is over by the time it runs does nothing.
How long to wait before a ping is the server's ``ping_after`` within the person's own
``pings`` preference (:meth:`~bot.server.preferences.Preferences.ping_delay`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from .crew import Crew
from .scheduler import Timer
from .table import Table

__all__ = ["TurnTimers", "person_to_act"]


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
    """One table's calls pending for its current turn, on its crew's clock."""

    def __init__(self, table: Table, crew: Crew) -> None:
        """Calls of ``table``'s turns, on ``crew.scheduler`` as it is when each starts."""
        self.table = table
        self.crew = crew
        self._pending: list[Timer] = []

    def at_turn(
        self,
        user_id: int,
        delay: float,
        call: Callable[[], Awaitable[None]],
        *,
        name: str,
    ) -> None:
        """Run ``call()`` under the table's lock in ``delay`` seconds.

        Only if the turn is still ``user_id``'s at the same stamp then.
        """
        table = self.table
        stamp = table.stamp
        timer: Timer

        async def due() -> None:
            if timer in self._pending:
                self._pending.remove(timer)
            async with table.lock:
                if table.is_open and table.stamp == stamp and person_to_act(table) == user_id:
                    await call()

        timer = self.crew.scheduler.call_later(delay, due, name=f"table {table.id} {name}")
        self._pending.append(timer)

    def cancel(self) -> None:
        """Drop every call pending for the table's turn (the person acted, or it moved on)."""
        pending, self._pending = self._pending, []
        for timer in pending:
            timer.cancel()

    @property
    def pending(self) -> int:
        """How many calls are pending."""
        return len(self._pending)
