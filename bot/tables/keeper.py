"""Keeping tables moving: turn limits, absent players, stalled computers and idle tables.

:class:`TableKeeper` listens to the service's events to know when each table was last
touched by a person and when its current turn began, and looks at every open table
once per ``tick`` seconds of its :class:`~bot.tables.scheduler.Scheduler`:

- a person's turn past half the server's limit: a reminder (once per turn);
- past the whole limit: a computer plays that turn for them (after enough such turns
  in a row, the seat stays with the computer until its owner takes it back);
- a computer's turn that nobody is playing (after a restart, or a failed save):
  the computers are set going again;
- after a timed-out turn, the computers' turns that follow are played;
- a table out of step with the store (a save whose outcome is unknown): it is
  reloaded, so its message shows whether the change was saved;
- a lobby or game nobody touched for the configured time: it is closed.

What the players see of it is the :class:`KeeperNotifier`'s business (the cog).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Protocol

from .errors import TableError
from .events import TableEvent
from .live import LiveTable
from .persistence import Place
from .scheduler import Scheduler, Timer
from .service import TableService
from .snapshots import TableSnapshot
from .turn_timers import person_to_act

__all__ = ["KeeperNotifier", "TableKeeper"]

log = logging.getLogger(__name__)

_TOUCHES = frozenset({"opened", "seated", "left", "host", "started", "back"})
"""Events that only a person causes."""


class KeeperNotifier(Protocol):
    """What the keeper asks of the side that talks to the players.

    Each call carries the table as a frozen :class:`TableSnapshot` (or only its place),
    never the live table: the notifier reads it and never calls the service back.
    """

    async def remind(self, table: TableSnapshot, user_id: int, seconds_left: float) -> int | None:
        """Nudge the player whose turn it is; return the reminder's message id, if any."""
        ...

    async def turn_taken(self, place: Place, reminder_id: int) -> None:
        """The reminded turn at the table of ``place`` is over: the reminder may go."""
        ...

    async def timed_out(
        self, table: TableSnapshot, seat: int, user_id: int, away: bool, reminder_id: int | None
    ) -> None:
        """A computer played a person's turn at ``seat`` (``away``: and keeps it): say so.

        The computers' turns that follow are the keeper's to play, once this returns.
        """
        ...

    async def closed_idle(self, table: TableSnapshot, minutes: float) -> None:
        """The table was closed because nobody touched it for ``minutes``."""
        ...


@dataclass(slots=True)
class _Watch:
    """What the keeper knows of one table."""

    touched: float
    since: float
    turn: tuple[tuple[int, int], int | None] = ((0, 0), None)
    reminded: bool = False
    reminder: int | None = None


class TableKeeper:
    """See the module docstring. ``start`` it once the notifier can talk; ``stop`` it at the end."""

    def __init__(
        self,
        service: TableService,
        scheduler: Scheduler,
        notifier: KeeperNotifier,
        *,
        idle_lobby: float,
        idle_game: float,
        tick: float = 5.0,
    ) -> None:
        """Watch ``service``'s tables; idle limits and tick in seconds."""
        self.service = service
        self.scheduler = scheduler
        self.notifier = notifier
        self.idle_lobby = idle_lobby
        self.idle_game = idle_game
        self.tick_seconds = tick
        self._watches: dict[int, _Watch] = {}
        self._busy: set[int] = set()
        self._timer: Timer | None = None
        self._running = False

    # ------------------------------------------------------------------ life

    def start(self) -> None:
        """Watch every open table from now on (turn clocks restart) and begin ticking."""
        if self._running:
            return
        self._running = True
        now = self.scheduler.now()
        for table in self.service.open_tables:
            self._watch_table(table, now)
        self.service.listeners.append(self.on_event)
        self._timer = self.scheduler.call_later(self.tick_seconds, self.tick, name="table keeper")

    def stop(self) -> None:
        """Stop ticking and listening; nothing is left scheduled."""
        self._running = False
        if self.on_event in self.service.listeners:
            self.service.listeners.remove(self.on_event)
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._watches.clear()

    @property
    def watched(self) -> int:
        """How many tables are being watched."""
        return len(self._watches)

    # ------------------------------------------------------------------ events

    def on_event(self, event: TableEvent) -> None:
        """Note a person's touch and a new turn (called inside the table's lock)."""
        now_seen = event.snapshot
        if not now_seen.is_open:
            watch = self._watches.pop(now_seen.id, None)
            if watch is not None and watch.reminder is not None:
                self._drop_reminder(now_seen.place, watch.reminder)
            return
        now = self.scheduler.now()
        watch = self._watch(now_seen.id, now_seen.place, (now_seen.stamp, now_seen.to_act), now)
        move = event.move
        if event.kind in _TOUCHES or (move is not None and not move.by_computer):
            watch.touched = now

    def _watch(
        self, table_id: int, place: Place, turn: tuple[tuple[int, int], int | None], now: float
    ) -> _Watch:
        """The watch of the table at ``place``, its turn clock restarted when ``turn`` is new.

        ``turn``: the table's stamp and the person to act.
        """
        watch = self._watches.get(table_id)
        if watch is None:
            watch = self._watches[table_id] = _Watch(touched=now, since=now)
        if turn != watch.turn:
            watch.turn, watch.since, watch.reminded = turn, now, False
            if watch.reminder is not None:
                self._drop_reminder(place, watch.reminder)
                watch.reminder = None
        return watch

    def _watch_table(self, table: LiveTable, now: float) -> _Watch:
        return self._watch(table.id, table.place, (table.stamp, person_to_act(table)), now)

    def _drop_reminder(self, place: Place, reminder: int) -> None:
        async def drop() -> None:
            await self.notifier.turn_taken(place, reminder)

        self.scheduler.call_later(0, drop, name=f"place {place.id} reminder")

    # ------------------------------------------------------------------ ticks

    async def tick(self) -> None:
        """Look at every open table once and do what is due (the next tick is set first)."""
        if not self._running or self.service.crew.halting:
            return
        self._timer = self.scheduler.call_later(self.tick_seconds, self.tick, name="table keeper")
        now = self.scheduler.now()
        jobs = []
        for table in self.service.open_tables:
            if table.id in self._busy:
                continue
            job = self._due(table, self._watch_table(table, now), now)
            if job is not None:
                jobs.append(self._run(table, job))
        if jobs:
            await asyncio.gather(*jobs)

    def _due(self, table: LiveTable, watch: _Watch, now: float) -> Awaitable[None] | None:
        idle_for = now - watch.touched
        if idle_for >= (self.idle_lobby if table.status == "lobby" else self.idle_game):
            return self._close_idle(table, watch, now)
        if table.out_of_step:
            return self._reload(table)
        if table.computer_to_act() is not None:
            stalled = not table.turns.computing
            if stalled and now - watch.since >= self.tick_seconds:
                watch.since = now
                return self._resume(table)
            return None
        limit = table.settings.turn_time_limit_seconds
        user = watch.turn[1]
        if limit is None or user is None:
            return None
        waited = now - watch.since
        if waited >= limit:
            return self._time_out(table, watch, user)
        if not watch.reminded and waited >= limit / 2:
            return self._remind(table, watch, user, limit - waited)
        return None

    async def _run(self, table: LiveTable, job: Awaitable[None]) -> None:
        self._busy.add(table.id)
        try:
            await job
        except TableError as exc:
            log.info("table %d: keeper step refused: %s", table.id, exc)
        except Exception:
            log.exception("table %d: keeper step failed", table.id)
        finally:
            self._busy.discard(table.id)

    async def _resume(self, table: LiveTable) -> None:
        await table.turns.resume()

    async def _reload(self, table: LiveTable) -> None:
        await table.reload()

    async def _remind(self, table: LiveTable, watch: _Watch, user: int, left: float) -> None:
        watch.reminded = True
        turn = watch.turn
        reminder = await self.notifier.remind(await table.snapshot(), user, left)
        if reminder is None:
            return
        if watch.turn == turn and self._watches.get(table.id) is watch:
            watch.reminder = reminder
        else:
            await self.notifier.turn_taken(table.place, reminder)

    async def _time_out(self, table: LiveTable, watch: _Watch, user: int) -> None:
        (stamp, _), seat = watch.turn, table.seat_of(user)
        if seat is None:
            return
        reminder, watch.reminder = watch.reminder, None
        result = await table.absence.time_out(seat, stamp)
        if result is None:
            if reminder is not None:
                await self.notifier.turn_taken(table.place, reminder)
            return
        progress, away = result
        played = progress.moves[0].seat if progress.moves else seat
        now_seen = await table.snapshot()
        await self.notifier.timed_out(now_seen, played, user, away, reminder)
        await table.turns.run_computers(requested_by=user)

    async def _close_idle(self, table: LiveTable, watch: _Watch, now: float) -> None:
        if await table.absence.close_idle(watch.touched, now):
            now_seen = await table.snapshot()
            await self.notifier.closed_idle(now_seen, (now - watch.touched) / 60)
