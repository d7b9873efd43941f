"""Pacing of a channel's messages under Discord's budget: the newest state wins, none queue.

Longer than 450 lines: the pacer, the transport's reports of what it sent and was
answered, and the waiting for room all read one running job's ticket; apart, they
would reach into each other's state.

Discord lets a channel take about 5 message posts, 5 edits and 5 deletes per 5 seconds;
past that it answers 429. Each kind is a bucket with a fixed window: the first request
after a reset opens it, and it resets ``period`` seconds later (every answer says how
many requests are left and when, in its ``X-RateLimit-*`` headers). A
:class:`ChannelPacer` is the one door of a channel. Work is submitted per *key* (one
message, like a table's public message or a turn ping) as a job of one *kind*
(``post``, ``edit``, ``delete``):

- a key holds at most one job waiting; a newer job replaces it (the state in between is
  dropped, never queued), and a key has at most one job running;
- a job starts only when its kind's window has room. The pacer keeps the window as
  Discord does (:class:`~bot.discord.pace.windows.Window`): opened by its first request, and
  read from the answers' headers when the transport reports them
  (:func:`request_answered`), else assumed to reset ``period`` after the first
  request's answer, which is never sooner than Discord resets it;
- within a window the requests of a kind are spread: the n-th may start no sooner
  than ``n - 1`` fifths of the period after the window opened, so a burst does not
  leave a gap of most of a period after it, while the slots a quiet window did not
  spend go at once. Past the fifth, the next window opens the moment the last resets;
- an *urgent* job (a person's own move) may take a slot kept in reserve, and is spread
  among urgent ones only, so it need not wait behind a stream of others (computer
  moves); once urgent jobs have taken the reserve, the others may spend the rest;
- :meth:`ChannelPacer.room` waits until a job of a key would start at once: a computer's
  move waits for it past its delay, so it is made when its table can show it;
- keys waiting for the same kind go first come, first served, so several tables of one
  channel share the budget fairly;
- a job that was told to wait anyway (:class:`RetryAfter`, Discord's 429) comes back
  after that wait, unless a newer job for its key replaced it meanwhile;
- :meth:`ChannelPacer.cancel` drops a key's waiting job, and stops its running one if
  no request of it has gone out yet (:func:`request_sent`).

Time is a :class:`~bot.tables.scheduler.Scheduler`, so tests drive it by hand.
:class:`Pacers` keeps one pacer per channel and drops those idle for a while. Nothing
here knows Discord objects: a job is any coroutine function, and the transport reports
what it sends and what it was answered through two functions that find the job they
belong to in the context of the task running it.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Awaitable, Callable, Hashable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Final, Literal

from bot.tables.scheduler import Scheduler, Timer

from .windows import DISCORD_LIMITS, ChannelLimits, Started, Window

__all__ = [
    "DISCORD_LIMITS",
    "ChannelLimits",
    "ChannelPacer",
    "Job",
    "Kind",
    "Pacers",
    "RetryAfter",
    "request_answered",
    "request_sent",
]

log = logging.getLogger(__name__)

Kind = Literal["post", "edit", "delete"]
"""What a job asks of Discord: each kind has its own budget."""

Job = Callable[[], Awaitable[None]]
"""A request to make: a coroutine function without arguments."""

KINDS: Final[tuple[Kind, ...]] = ("post", "edit", "delete")


class RetryAfter(Exception):  # noqa: N818 (a signal, not an error)
    """Raised by a job that Discord told to wait ``seconds`` (a 429): it runs again after."""

    def __init__(self, seconds: float) -> None:
        """Wait ``seconds`` before the next request of this kind."""
        super().__init__(f"retry after {seconds:.3f} s")
        self.seconds = seconds


@dataclass(eq=False, slots=True)
class _Ticket:
    """One running job, as the transport's reports find it."""

    pacer: ChannelPacer
    kind: Kind
    started: Started
    """Its request in its kind's window."""
    task: asyncio.Task[None] | None = None
    sent: bool = False
    """A request of it went out: it can no longer be taken back."""
    began: bool = False
    """Its task has started running (a task cancelled before that never runs its end)."""
    stopped: bool = False


_TICKET: ContextVar[_Ticket | None] = ContextVar("paced_job", default=None)


def request_sent() -> None:
    """The transport is sending a request for the paced job running in this task (if any)."""
    ticket = _TICKET.get()
    if ticket is not None:
        ticket.sent = True
        ticket.pacer.traced = True


def request_answered(
    kind: Kind,
    channel_id: int,
    *,
    remaining: int | None,
    reset_after: float | None,
    limit: int | None = None,
) -> None:
    """A request of ``kind`` in ``channel_id`` made by the paced job of this task was answered.

    ``remaining``, ``reset_after`` (seconds) and ``limit`` are the bucket as the answer's
    rate limit headers give it (None: absent).
    """
    ticket = _TICKET.get()
    if ticket is not None:
        ticket.pacer._answered(ticket, kind, channel_id, remaining, reset_after, limit)


@dataclass(slots=True)
class _Slot:
    """One key: its waiting job (if any) and its running one."""

    kind: Kind | None = None
    job: Job | None = None
    running: _Ticket | None = None
    since: int = 0
    """The order in which the waiting job started waiting (replacements keep it)."""
    urgent: bool = False
    """The waiting job, or one it replaced, is urgent."""


class ChannelPacer:
    """The one door of a channel's requests; see the module docstring."""

    def __init__(
        self,
        scheduler: Scheduler,
        limits: ChannelLimits = DISCORD_LIMITS,
        *,
        channel_id: int | None = None,
    ) -> None:
        """Pace on ``scheduler``'s clock within ``limits`` (of channel ``channel_id``)."""
        self.scheduler = scheduler
        self.limits = limits
        self.channel_id = channel_id
        self._budgets = {kind: Window(limits, limits.per_period or 1) for kind in KINDS}
        self._slots: dict[Hashable, _Slot] = {}
        self._order = 0
        self._timer: Timer | None = None
        self._timer_at = math.inf
        self._idle = asyncio.Event()
        self._idle.set()
        self._watchers: set[asyncio.Event] = set()
        """Those waiting in :meth:`room`: woken whenever the pacer's state changes."""
        self.active_at = scheduler.now()
        """When a job was last submitted or ended."""
        self.traced = False
        """The transport reports the requests it sends (:func:`request_sent`)."""
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
        self.active_at = self.scheduler.now()
        self._idle.clear()
        self._pump()

    def cancel(self, key: Hashable) -> bool:
        """Drop the job waiting for ``key``, and stop its running one if nothing went out.

        True if a waiting job was dropped. A running job is stopped only when the
        transport reports what it sends (else nobody knows whether it did).
        """
        slot = self._slots.get(key)
        if slot is None:
            return False
        ticket = slot.running
        if ticket is not None and self.traced and not ticket.sent and ticket.task is not None:
            ticket.stopped = True
            if ticket.began:  # else its task, when it runs, ends at once (and frees the key)
                ticket.task.cancel()
        if slot.job is None:
            return False
        slot.kind = slot.job = None
        self._forget(key, slot)
        return True

    def running(self, key: Hashable) -> bool:
        """Whether a job of ``key`` runs now (and was not stopped before it sent anything)."""
        slot = self._slots.get(key)
        return slot is not None and slot.running is not None and not slot.running.stopped

    def waiting(self, key: Hashable) -> bool:
        """Whether a job of ``key`` waits for its turn."""
        slot = self._slots.get(key)
        return slot is not None and slot.job is not None

    def free_at(self, key: Hashable, kind: Kind, now: float | None = None) -> float:
        """When a job of ``kind`` for ``key`` (not urgent) submitted ``now`` would start.

        ``inf`` while it could not be known: a job of ``key`` runs, or jobs of other keys
        wait for that kind's budget and go first.
        """
        slot = self._slots.get(key)
        if slot is not None and slot.running is not None:
            return math.inf
        if any(
            other.job is not None and other.kind == kind and other.running is None
            for each, other in self._slots.items()
            if each != key
        ):
            return math.inf
        at = self.scheduler.now() if now is None else now
        return self._budgets[kind].free_at(at, urgent=False)

    async def room(self, key: Hashable, kind: Kind, *, not_before: float, until: float) -> None:
        """Wait until ``not_before``, and until a job of ``kind`` for ``key`` would start at once.

        Never past ``until`` (the caller goes on then, and its job waits its turn).
        """
        while True:
            now = self.scheduler.now()
            at = max(not_before, self.free_at(key, kind, now))
            if at <= now or now >= until:
                return
            woken = asyncio.Event()

            async def ring(woken: asyncio.Event = woken) -> None:
                woken.set()

            timer = self.scheduler.call_later(min(at, until) - now, ring, name="pacer room")
            self._watchers.add(woken)
            try:
                await woken.wait()
            finally:
                timer.cancel()
                self._watchers.discard(woken)

    @property
    def idle(self) -> bool:
        """Nothing waits and nothing runs."""
        return not self._slots

    def dormant(self, now: float) -> bool:
        """Idle for ``idle_after`` seconds, every window over: nothing is lost by dropping it."""
        return (
            self.idle
            and now - self.active_at >= self.limits.idle_after
            and all(budget.quiet(now) for budget in self._budgets.values())
        )

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
        ready = [(k, s) for k, s in self._slots.items() if s.job is not None and s.running is None]
        for key, slot in sorted(ready, key=lambda item: item[1].since):
            assert slot.kind is not None
            budget = self._budgets[slot.kind]
            at = budget.free_at(now, urgent=slot.urgent)
            if at <= now:
                self._start(key, slot, budget, now)
            else:
                wake = min(wake, at)
        self._wake_at(wake, now)
        for woken in self._watchers:
            woken.set()

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

    def _start(self, key: Hashable, slot: _Slot, budget: Window, now: float) -> None:
        kind, job = slot.kind, slot.job
        assert kind is not None and job is not None
        ticket = _Ticket(self, kind, budget.start(now, urgent=slot.urgent))
        slot.kind = slot.job = None
        slot.running, slot.urgent = ticket, False
        self.started[kind] += 1
        ticket.task = asyncio.get_running_loop().create_task(
            self._run(key, slot, ticket, job), name=f"pacer {kind} {key!r}"
        )

    async def _run(self, key: Hashable, slot: _Slot, ticket: _Ticket, job: Job) -> None:
        budget = self._budgets[ticket.kind]
        _TICKET.set(ticket)
        ticket.began = True
        try:
            if not ticket.stopped:
                await job()
        except RetryAfter as wait:
            self.retried += 1
            budget.blocked_until = max(budget.blocked_until, self.scheduler.now() + wait.seconds)
            if slot.job is None:  # nothing newer: the same job goes again
                self._order += 1
                slot.kind, slot.job, slot.since = ticket.kind, job, self._order
        except asyncio.CancelledError:
            if not ticket.stopped:
                raise
        except Exception:
            log.exception("paced %s request for %r failed", ticket.kind, key)
        finally:
            now = self.scheduler.now()
            if self.traced and not ticket.sent and not ticket.started.answered:
                budget.refund(ticket.started)
            budget.answered(now, ticket.started)
            slot.running = None
            self.active_at = now
            self._forget(key, slot)
            self._pump()

    def _answered(
        self,
        ticket: _Ticket,
        kind: Kind,
        channel_id: int,
        remaining: int | None,
        reset_after: float | None,
        limit: int | None,
    ) -> None:
        now = self.scheduler.now()
        budget = self._budgets[kind]
        ours = self.channel_id is None or channel_id == self.channel_id
        headers = ours and remaining is not None and reset_after is not None
        if kind == ticket.kind:
            budget.answered(now, ticket.started, headers=headers)
        if headers:
            assert remaining is not None and reset_after is not None
            budget.observe(now, remaining, reset_after, limit)
        self._pump()

    def _forget(self, key: Hashable, slot: _Slot) -> None:
        if slot.job is None and slot.running is None:
            self._slots.pop(key, None)
        if not self._slots:
            self._idle.set()


class Pacers:
    """One :class:`ChannelPacer` per channel, made when first asked for, dropped when dormant."""

    PRUNE_EVERY: Final = 64
    """Look for dormant pacers every this many :meth:`of` calls."""

    def __init__(self, scheduler: Scheduler, limits: ChannelLimits = DISCORD_LIMITS) -> None:
        """Pacers on ``scheduler``'s clock, each within ``limits``."""
        self.scheduler = scheduler
        self.limits = limits
        self._pacers: dict[int, ChannelPacer] = {}
        self._asked = 0

    def of(self, channel_id: int) -> ChannelPacer:
        """The pacer of a channel."""
        self._asked += 1
        if self._asked % self.PRUNE_EVERY == 0:
            self.prune()
        pacer = self._pacers.get(channel_id)
        if pacer is None:
            pacer = ChannelPacer(self.scheduler, self.limits, channel_id=channel_id)
            self._pacers[channel_id] = pacer
        return pacer

    def prune(self) -> int:
        """Drop the pacers that are dormant (see :meth:`ChannelPacer.dormant`); how many."""
        now = self.scheduler.now()
        dormant = [cid for cid, pacer in self._pacers.items() if pacer.dormant(now)]
        for channel_id in dormant:
            del self._pacers[channel_id]
        return len(dormant)

    @property
    def channels(self) -> dict[int, ChannelPacer]:
        """Every channel's pacer kept now."""
        return dict(self._pacers)

    async def flush(self, timeout: float) -> bool:
        """Wait (at most ``timeout`` s) until every channel sent what waits; True if done.

        Given up (or cancelled), it stops waiting and leaves the jobs to run. Each
        channel is waited for in a task of its own, cancelled then: a gather cancelled
        from outside would end with an error nobody retrieves, which asyncio logs.
        """
        waits = [asyncio.ensure_future(p.flush()) for p in self._pacers.values() if not p.idle]
        if not waits:
            return True
        try:
            _, late = await asyncio.wait(waits, timeout=timeout)
        finally:
            for wait in waits:
                wait.cancel()
        return not late

    def close(self) -> None:
        """Drop every waiting job of every channel."""
        for pacer in self._pacers.values():
            pacer.close()
