"""Pacing of a channel's messages under Discord's budget: the newest state wins, none queue.

Discord lets a channel take about 5 message posts, 5 edits and 5 deletes per 5 seconds,
shared by everything in it; past that it answers 429. A :class:`ChannelPacer` is the one
door of a channel. Work is submitted per *key* (one message, like a table's public
message or a turn ping) as a job of one *kind* (``post``, ``edit``, ``delete``):

- a key holds at most one job waiting; a newer job replaces it (the state in between is
  dropped, never queued), and a key has at most one job running;
- a job starts only when its kind has room in the budget; a slot counts as used from
  the start of its request until ``period`` seconds after the request ended (Discord's
  window starts somewhere in between), so pacing never runs into a 429; past a short
  burst, requests of a kind go ``period / per_period`` apart, so that a burst does not
  leave a gap of most of a period after it;
- an *urgent* job (a person's own move) may take a slot kept in reserve, so it need
  not wait behind a stream of others (computer moves), and is spaced from urgent ones
  only;
- keys waiting for the same kind go first come, first served, so several tables of one
  channel share the budget fairly;
- a job that was told to wait anyway (:class:`RetryAfter`, Discord's 429) comes back
  after that wait, unless a newer job for its key replaced it meanwhile.

Time is a :class:`~bot.tables.scheduler.Scheduler`, so tests drive it by hand.
:class:`Pacers` keeps one pacer per channel. Nothing here knows Discord objects: a job is
any coroutine function.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
from collections import deque
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from typing import Final, Literal

from .scheduler import Scheduler, Timer

__all__ = [
    "DISCORD_LIMITS",
    "ChannelLimits",
    "ChannelPacer",
    "Job",
    "Kind",
    "Pacers",
    "RetryAfter",
]

log = logging.getLogger(__name__)

Kind = Literal["post", "edit", "delete"]
"""What a job asks of Discord: each kind has its own budget."""

Job = Callable[[], Awaitable[None]]
"""A request to make: a coroutine function without arguments."""

KINDS: Final[tuple[Kind, ...]] = ("post", "edit", "delete")


@dataclass(frozen=True, slots=True)
class ChannelLimits:
    """Requests of each kind a channel takes per ``period`` seconds (None: no limit)."""

    per_period: int | None = 5
    period: float = 5.0
    burst: int = 2
    """Requests that may go back to back; past that, they go ``period / per_period`` apart.

    Spacing them keeps the window's slots from freeing all at once after a burst, which
    would leave everyone waiting most of a period for the next one."""
    reserve: int = 1
    """Slots of the window that only urgent jobs may take (a person's own move), so
    that they need not wait behind a stream of others (computer moves)."""

    @classmethod
    def unlimited(cls) -> ChannelLimits:
        """No pacing at all (tests of other things, a Discord without limits)."""
        return cls(per_period=None)


DISCORD_LIMITS: Final = ChannelLimits()
"""Discord's budget per channel: 5 posts, 5 edits and 5 deletes per 5 seconds."""


class RetryAfter(Exception):  # noqa: N818 (a signal, not an error)
    """Raised by a job that Discord told to wait ``seconds`` (a 429): it runs again after."""

    def __init__(self, seconds: float) -> None:
        """Wait ``seconds`` before the next request of this kind."""
        super().__init__(f"retry after {seconds:.3f} s")
        self.seconds = seconds


@dataclass(slots=True)
class _Budget:
    """The slots of one kind: requests running now, and when the finished ones end."""

    limits: ChannelLimits
    running: int = 0
    ended: deque[float] = field(default_factory=deque)
    """When each finished request ended, oldest first (dropped ``period`` s later)."""
    blocked_until: float = 0.0
    last_start: float = -math.inf
    last_urgent_start: float = -math.inf

    def free_at(self, now: float, *, urgent: bool = False) -> float:
        """When a request of this kind may start (``now`` if it may start now).

        An urgent one may take the reserved slots, and is spaced from urgent ones only.
        """
        limit, period = self.limits.per_period, self.limits.period
        while self.ended and self.ended[0] + period <= now:
            self.ended.popleft()
        at = now
        if limit is not None:
            used = self.running + len(self.ended)
            cap = limit if urgent else max(1, limit - self.limits.reserve)
            if used >= cap:
                waiting_for = used - cap  # this many slots must free before one is ours
                at = self.ended[waiting_for] + period if waiting_for < len(self.ended) else math.inf
            if used >= self.limits.burst:
                last = self.last_urgent_start if urgent else self.last_start
                at = max(at, last + period / limit)
        return max(at, self.blocked_until)


@dataclass(slots=True)
class _Slot:
    """One key: its waiting job (if any) and whether a job of it runs."""

    kind: Kind | None = None
    job: Job | None = None
    running: bool = False
    since: int = 0
    """The order in which the waiting job started waiting (replacements keep it)."""
    urgent: bool = False
    """The waiting job, or one it replaced, is urgent."""


class ChannelPacer:
    """The one door of a channel's requests; see the module docstring."""

    def __init__(self, scheduler: Scheduler, limits: ChannelLimits = DISCORD_LIMITS) -> None:
        """Pace on ``scheduler``'s clock within ``limits``."""
        self.scheduler = scheduler
        self.limits = limits
        self._budgets = {kind: _Budget(limits) for kind in KINDS}
        self._slots: dict[Hashable, _Slot] = {}
        self._order = 0
        self._timer: Timer | None = None
        self._timer_at = math.inf
        self._tasks: set[asyncio.Task[None]] = set()
        self._idle = asyncio.Event()
        self._idle.set()
        self.started: dict[Kind, int] = dict.fromkeys(KINDS, 0)
        """Requests started, by kind."""
        self.dropped = 0
        """Waiting jobs replaced by a newer one before they started."""
        self.retried = 0
        """Jobs told to wait (429) and run again."""

    # ------------------------------------------------------------------ asking

    def submit(self, key: Hashable, kind: Kind, job: Job, *, urgent: bool = False) -> None:
        """Run ``job`` for ``key`` when the budget allows, replacing the job waiting there.

        ``urgent`` (a person waits to see it) may use the reserved slots; a job that
        replaces an urgent one stays urgent (it shows what the person waits for too).
        """
        slot = self._slots.get(key)
        if slot is None:
            slot = self._slots[key] = _Slot()
        if slot.job is not None:
            self.dropped += 1
            slot.urgent = slot.urgent or urgent
        else:
            self._order += 1
            slot.since, slot.urgent = self._order, urgent
        slot.kind, slot.job = kind, job
        self._idle.clear()
        self._pump()

    def cancel(self, key: Hashable) -> bool:
        """Drop the job waiting for ``key``; True if one was dropped (it never started)."""
        slot = self._slots.get(key)
        if slot is None or slot.job is None:
            return False
        slot.kind = slot.job = None
        self._forget(key, slot)
        return True

    def running(self, key: Hashable) -> bool:
        """Whether a job of ``key`` runs now."""
        slot = self._slots.get(key)
        return slot is not None and slot.running

    def waiting(self, key: Hashable) -> bool:
        """Whether a job of ``key`` waits for its turn."""
        slot = self._slots.get(key)
        return slot is not None and slot.job is not None

    @property
    def idle(self) -> bool:
        """Nothing waits and nothing runs."""
        return not self._slots

    async def flush(self) -> None:
        """Wait until every job submitted so far (and any submitted meanwhile) has run."""
        await self._idle.wait()

    def close(self) -> None:
        """Drop every waiting job and the wake-up timer (running jobs finish)."""
        for key, slot in list(self._slots.items()):
            slot.kind = slot.job = None
            self._forget(key, slot)
        if self._timer is not None:
            self._timer.cancel()
            self._timer, self._timer_at = None, math.inf

    # ------------------------------------------------------------------ running

    def _pump(self) -> None:
        now = self.scheduler.now()
        wake = math.inf
        ready = [(k, s) for k, s in self._slots.items() if s.job is not None and not s.running]
        for key, slot in sorted(ready, key=lambda item: item[1].since):
            assert slot.kind is not None and slot.job is not None
            budget = self._budgets[slot.kind]
            at = budget.free_at(now, urgent=slot.urgent)
            if at <= now:
                self._start(key, slot, budget)
            else:
                wake = min(wake, at)
        self._wake_at(wake, now)

    def _wake_at(self, when: float, now: float) -> None:
        if when == math.inf or when >= self._timer_at:
            return
        if self._timer is not None:
            self._timer.cancel()
        self._timer_at = when

        async def wake() -> None:
            self._timer, self._timer_at = None, math.inf
            self._pump()

        self._timer = self.scheduler.call_later(when - now, wake, name="pacer wake-up")

    def _start(self, key: Hashable, slot: _Slot, budget: _Budget) -> None:
        kind, job = slot.kind, slot.job
        assert kind is not None and job is not None
        slot.kind = slot.job = None
        slot.running = True
        budget.running += 1
        budget.last_start = self.scheduler.now()
        if slot.urgent:
            budget.last_urgent_start = budget.last_start
        slot.urgent = False
        self.started[kind] += 1
        task = asyncio.get_running_loop().create_task(
            self._run(key, slot, kind, job), name=f"pacer {kind} {key!r}"
        )
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _run(self, key: Hashable, slot: _Slot, kind: Kind, job: Job) -> None:
        budget = self._budgets[kind]
        try:
            await job()
        except RetryAfter as wait:
            self.retried += 1
            budget.blocked_until = max(budget.blocked_until, self.scheduler.now() + wait.seconds)
            if slot.job is None:  # nothing newer: the same job goes again
                self._order += 1
                slot.kind, slot.job, slot.since = kind, job, self._order
        except Exception:
            log.exception("paced %s request for %r failed", kind, key)
        finally:
            budget.running -= 1
            budget.ended.append(self.scheduler.now())
            slot.running = False
            self._forget(key, slot)
            self._pump()

    def _forget(self, key: Hashable, slot: _Slot) -> None:
        if slot.job is None and not slot.running:
            self._slots.pop(key, None)
        if not self._slots:
            self._idle.set()


class Pacers:
    """One :class:`ChannelPacer` per channel, made when first asked for."""

    def __init__(self, scheduler: Scheduler, limits: ChannelLimits = DISCORD_LIMITS) -> None:
        """Pacers on ``scheduler``'s clock, each within ``limits``."""
        self.scheduler = scheduler
        self.limits = limits
        self._pacers: dict[int, ChannelPacer] = {}

    def of(self, channel_id: int) -> ChannelPacer:
        """The pacer of a channel."""
        pacer = self._pacers.get(channel_id)
        if pacer is None:
            pacer = self._pacers[channel_id] = ChannelPacer(self.scheduler, self.limits)
        return pacer

    @property
    def channels(self) -> dict[int, ChannelPacer]:
        """Every channel's pacer made so far."""
        return dict(self._pacers)

    async def flush(self, timeout: float) -> bool:
        """Wait (at most ``timeout`` s) until every channel sent what waits; True if done."""
        waits = [p.flush() for p in self._pacers.values() if not p.idle]
        if not waits:
            return True
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*waits), timeout)
            return True
        return False

    def close(self) -> None:
        """Drop every waiting job of every channel."""
        for pacer in self._pacers.values():
            pacer.close()
