"""Time for the tables: a clock and delayed calls, real (:class:`LoopScheduler`) or manual.

Turn limits and idle tables need "call this in 30 seconds". Everything that waits asks
a :class:`Scheduler`, so tests drive time with :class:`ManualScheduler` instead of
sleeping: ``await scheduler.advance(30)`` runs every call that falls due, in order.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Protocol

__all__ = ["Callback", "LoopScheduler", "ManualScheduler", "Scheduler", "Timer"]

log = logging.getLogger(__name__)

Callback = Callable[[], Awaitable[None]]
"""What a scheduler calls: a coroutine function without arguments."""


class Timer(Protocol):
    """A pending call."""

    def cancel(self) -> None:
        """Drop the call if it has not started (a call already running finishes)."""
        ...


class Scheduler(Protocol):
    """A monotonic clock in seconds and delayed calls on it."""

    def now(self) -> float:
        """The current time in seconds (only differences mean anything)."""
        ...

    def call_later(self, delay: float, callback: Callback, *, name: str = "") -> Timer:
        """Run ``callback()`` in ``delay`` seconds."""
        ...

    async def settle(self, timeout: float) -> int:
        """Wait up to ``timeout`` seconds for the calls running now; how many still run."""
        ...

    def close(self) -> None:
        """Cancel every pending call."""
        ...


class _LoopTimer:
    def __init__(self, owner: LoopScheduler, handle: asyncio.TimerHandle) -> None:
        self._owner = owner
        self.handle = handle

    def cancel(self) -> None:
        self.handle.cancel()
        self._owner._pending.discard(self)


class LoopScheduler:
    """The real thing: the running event loop's clock, each call in a task of its own.

    A call's exception is logged, never raised. :meth:`close` cancels pending calls;
    calls already running are left to finish, so none is cut off inside a table's lock.
    """

    def __init__(self) -> None:
        """Use the event loop running when the first call is scheduled."""
        self._pending: set[_LoopTimer] = set()
        self._running: set[asyncio.Task[None]] = set()

    def now(self) -> float:
        """The loop's monotonic time."""
        return asyncio.get_running_loop().time()

    def call_later(self, delay: float, callback: Callback, *, name: str = "") -> Timer:
        """Run ``callback()`` in a new task ``delay`` seconds from now."""
        loop = asyncio.get_running_loop()
        timer: _LoopTimer

        def start() -> None:
            self._pending.discard(timer)
            task = loop.create_task(self._run(callback, name), name=name or None)
            self._running.add(task)
            task.add_done_callback(self._running.discard)

        timer = _LoopTimer(self, loop.call_later(max(0.0, delay), start))
        self._pending.add(timer)
        return timer

    @staticmethod
    async def _run(callback: Callback, name: str) -> None:
        try:
            await callback()
        except Exception:
            log.exception("scheduled call %s failed", name or callback)

    async def settle(self, timeout: float) -> int:
        """Wait up to ``timeout`` seconds for the calls running now (not the caller itself)."""
        running = self._running - {asyncio.current_task()}
        if not running:
            return 0
        _, late = await asyncio.wait(running, timeout=timeout)
        return len(late)

    def close(self) -> None:
        """Cancel every pending call."""
        for timer in list(self._pending):
            timer.cancel()


@dataclass(order=True)
class _ManualCall:
    when: float
    order: int
    callback: Callback = field(compare=False)
    name: str = field(compare=False, default="")
    cancelled: bool = field(compare=False, default=False)

    def cancel(self) -> None:
        self.cancelled = True


class ManualScheduler:
    """A scheduler whose time moves only when told: for tests and benchmarks.

    ``await advance(seconds)`` moves the clock, running each call that falls due at its
    own time, in order, and awaiting it before the next. Exceptions propagate.
    """

    def __init__(self, start: float = 0.0) -> None:
        """Start the clock at ``start``."""
        self.time = start
        self._calls: list[_ManualCall] = []
        self._order = itertools.count()

    def now(self) -> float:
        """The manual clock."""
        return self.time

    def call_later(self, delay: float, callback: Callback, *, name: str = "") -> Timer:
        """Queue ``callback`` for ``delay`` seconds from the manual now."""
        call = _ManualCall(self.time + max(0.0, delay), next(self._order), callback, name)
        heapq.heappush(self._calls, call)
        return call

    @property
    def pending(self) -> list[str]:
        """Names of the calls still waiting, soonest first."""
        return [c.name for c in sorted(self._calls) if not c.cancelled]

    async def advance(self, seconds: float) -> None:
        """Move the clock ``seconds`` on, running what falls due."""
        end = self.time + seconds
        while self._calls and self._calls[0].when <= end:
            call = heapq.heappop(self._calls)
            if call.cancelled:
                continue
            self.time = max(self.time, call.when)
            await call.callback()
        self.time = end

    async def settle(self, timeout: float) -> int:
        """Nothing to wait for: a manual call runs inside :meth:`advance`."""
        return 0

    def close(self) -> None:
        """Drop every pending call."""
        for call in self._calls:
            call.cancel()
        self._calls.clear()
