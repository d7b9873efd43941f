"""An event's timed steps: check-in, the start, a round's timer, the break, the reminder.

:class:`EventTimers` keeps one timer per open event for what its phase waits on, and
one for the reminder before the start, on the injected
:class:`~bot.tables.scheduler.Scheduler`. When a timer falls due it takes the step the
director would (:class:`TimedSteps`: the runner), with no actor: a step refused by then
(the event moved on) is logged and nothing else happens.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import Protocol

from bot.tables.scheduler import Scheduler, Timer

from .announcements import REMINDER_BEFORE
from .errors import TooFewPlayersError, TournamentError
from .event import Actor
from .model import TournamentEvent
from .running import RunningEvents

__all__ = ["EventTimers", "TimedSteps"]

log = logging.getLogger(__name__)

CATCH_UP = 60.0
"""Seconds after going on from a pause that a step fallen due meanwhile is taken."""


class TimedSteps(Protocol):
    """The director's steps a timer takes (each takes the event's lock)."""

    async def start(self, event_id: int, actor: Actor | None) -> object: ...

    async def next_round(self, event_id: int, actor: Actor | None) -> object: ...

    async def end_round(self, event_id: int, actor: Actor | None) -> object: ...


class EventTimers:
    """The timers of every open event of ``events``, taking ``steps`` when due."""

    def __init__(self, events: RunningEvents, scheduler: Scheduler, steps: TimedSteps) -> None:
        self.events = events
        self.scheduler = scheduler
        self.steps = steps
        self._timers: dict[int, Timer] = {}
        self._reminders: dict[int, Timer] = {}

    def arm(self, event_id: int, *, late: float = 0.0) -> None:
        """Set the event's one timer for what its phase waits on (none: nothing to wait for).

        ``late``: a due time already past runs this many seconds from now.
        """
        self.disarm(event_id)
        state = self.events.get(event_id).state
        settings = state.settings
        now = self.events.clock()
        self._arm_reminder(event_id, state, now)
        due: datetime | None = None
        action: Callable[[], Awaitable[None]] | None = None
        if state.phase in ("signup", "checkin") and settings.start_time is not None:
            opens = settings.start_time - timedelta(minutes=settings.check_in_minutes)
            checks_in = settings.check_in_minutes > 0 and now < settings.start_time
            if state.phase == "signup" and checks_in:  # at once if its time has come
                due, action = opens, lambda: self._check_in(event_id)
            else:
                due, action = settings.start_time, lambda: self._start(event_id)
        elif state.paused:
            return
        elif state.phase == "playing" and settings.round_timer_minutes is not None:
            due = state.rounds[-1].started_at + timedelta(minutes=settings.round_timer_minutes)
            action = lambda: self._timed(event_id, self.steps.end_round)  # noqa: E731
        elif state.phase == "between_rounds" and settings.break_minutes is not None:
            ended = state.rounds[-1].ended_at or now
            due = ended + timedelta(minutes=settings.break_minutes)
            action = lambda: self._timed(event_id, self.steps.next_round)  # noqa: E731
        if due is None or action is None:
            return
        delay = (due - now).total_seconds()
        if delay <= 0 and late:
            delay = late
        self._timers[event_id] = self.scheduler.call_later(
            max(0.0, delay), action, name=f"event {event_id} {state.phase}"
        )

    def go_on(self, event_id: int) -> None:
        """Arm again after a pause: a step that fell due meanwhile runs a minute later."""
        self.arm(event_id, late=CATCH_UP)

    def disarm(self, event_id: int) -> None:
        """Cancel the event's timers."""
        for timers in (self._timers, self._reminders):
            timer = timers.pop(event_id, None)
            if timer is not None:
                timer.cancel()

    def close(self) -> None:
        """Cancel every timer (the bot stops)."""
        for event_id in {*self._timers, *self._reminders}:
            self.disarm(event_id)

    def _arm_reminder(self, event_id: int, state: TournamentEvent, now: datetime) -> None:
        """Tell ``reminder`` when the start is :data:`REMINDER_BEFORE` away (at once if it is)."""
        start = state.settings.start_time
        if state.phase not in ("signup", "checkin") or start is None or now >= start:
            return
        delay = max(0.0, (start - REMINDER_BEFORE - now).total_seconds())
        self._reminders[event_id] = self.scheduler.call_later(
            delay, lambda: self._remind(event_id), name=f"event {event_id} reminder"
        )

    async def _remind(self, event_id: int) -> None:
        self._reminders.pop(event_id, None)
        if self.events.is_open(event_id):
            self.events.tell(event_id, "reminder", "the start is near")

    async def _timed(
        self, event_id: int, action: Callable[[int, Actor | None], Awaitable[object]]
    ) -> None:
        self._timers.pop(event_id, None)
        try:
            await action(event_id, None)
        except TournamentError as refusal:
            log.info("event %d: its timer did nothing: %s", event_id, refusal)

    async def _check_in(self, event_id: int) -> None:
        self._timers.pop(event_id, None)
        events = self.events
        async with events.lock(event_id):
            waiting = events.get(event_id).state.waiting
            try:
                gone = await events.change(event_id, lambda e, now: e.open_check_in(None, now))
            except TournamentError as refusal:
                log.info("event %d: check-in did not open: %s", event_id, refusal)
                return
            self.arm(event_id)
            events.tell(event_id, "checkin", "check-in is open", gone)
            events.tell_moved_up(event_id, waiting)

    async def _start(self, event_id: int) -> None:
        self._timers.pop(event_id, None)
        try:
            await self.steps.start(event_id, None)
        except TooFewPlayersError as refusal:
            self.events.tell(event_id, "start_refused", str(refusal))
        except TournamentError as refusal:
            log.info("event %d: did not start: %s", event_id, refusal)
