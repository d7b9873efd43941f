"""The search pool: CPU-heavy jobs run on a few workers, the most urgent first.

    pool = SearchPool(workers=default_workers(), preload=("bot.players",))
    await pool.start()                                   # the workers, ready
    action = await pool.run(Priority.MOVE, choose, factory, level, seed, game, seat,
                            timeout=1.5)                 # SearchTimeoutError past 1.5 s
    pool.close()

A job is a function and its arguments: with worker processes both are pickled, so
the function is a module-level one. The pool keeps its own queue (by priority,
then arrival) and hands a job to a worker only when one is free, so a
move asked after a hundred reviews still goes next. Reviews (:data:`REVIEWS`) wait
in a queue of at most ``review_queue`` jobs: past it the oldest of the least urgent
is dropped, and whoever waits for it gets :class:`DroppedError`. A worker that dies
is replaced and its job tried once more (:class:`WorkerCrashedError` if it dies
again). A job whose caller stops waiting (cancelled, or past its ``timeout``) is
taken out of the queue, or, if it runs already, its answer is thrown away.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import logging
import os
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, TypeVar

from .priorities import REVIEWS, Priority
from .slots import ProcessSlot, Slot, ThreadSlot

__all__ = [
    "IN_PROCESS_SLOTS",
    "REVIEW_QUEUE",
    "DroppedError",
    "PoolClosedError",
    "PoolStats",
    "SearchPool",
    "SearchTimeoutError",
    "WorkerCrashedError",
    "default_workers",
    "machine_cores",
]

log = logging.getLogger(__name__)

T = TypeVar("T")

REVIEW_QUEUE: Final = 200
"""Reviews that may wait at once; past it the oldest of the least urgent is dropped."""

IN_PROCESS_SLOTS: Final = 4
"""Threads of a pool with no worker process (``search_workers = 0``)."""


class PoolClosedError(RuntimeError):
    """The pool was closed (the bot stops) before the job ran."""


class DroppedError(RuntimeError):
    """A review dropped from a full queue to make room for newer ones."""


class WorkerCrashedError(RuntimeError):
    """The job's worker died, and died again when the job was tried once more."""


class SearchTimeoutError(TimeoutError):
    """The job did not come back within its caller's timeout."""


def machine_cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


def default_workers(wanted: int | str = "auto") -> int:
    """``wanted`` workers; ``auto``: the cores, less one for the bot's loop (at least 1)."""
    if isinstance(wanted, int):
        return wanted
    return max(1, machine_cores() - 1)


@dataclass(eq=False)
class _Job:
    priority: Priority
    number: int
    call: Callable[..., Any]
    args: tuple[Any, ...]
    future: asyncio.Future[Any]
    queued_at: float
    tries: int = 2
    counted: bool = False
    """A review that counts against the queue's bound (until it runs or ends)."""

    def __lt__(self, other: _Job) -> bool:
        return (self.priority, self.number) < (other.priority, other.number)


@dataclass
class PoolStats:
    """What the pool did: jobs done by priority, drops, deaths, the time jobs waited."""

    done: Counter[str] = field(default_factory=Counter)
    dropped: int = 0
    restarts: int = 0
    timed_out: int = 0
    waited: dict[str, list[float]] = field(default_factory=dict)
    """Seconds each job waited in the queue before a worker took it, by priority."""

    def text(self) -> str:
        """One line: jobs done, the slowest waits, drops, restarts and timeouts."""
        parts = []
        for name, count in sorted(self.done.items()):
            waits = sorted(self.waited.get(name, []))
            worst = waits[-1] if waits else 0.0
            parts.append(f"{name.lower()} {count} (longest wait {worst:.2f} s)")
        return (
            ", ".join(parts or ["no jobs"])
            + f"; dropped {self.dropped}, workers restarted {self.restarts}, "
            f"timed out {self.timed_out}"
        )


class SearchPool:
    """Run jobs on ``workers`` worker processes (0: threads of this process), urgent first."""

    def __init__(
        self,
        workers: int,
        *,
        review_workers: int | None = None,
        review_queue: int = REVIEW_QUEUE,
        preload: Sequence[str] = (),
        slots: Sequence[Slot] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """A pool of ``workers`` processes, their ``preload`` modules imported once.

        ``review_workers`` more run the reviews in the background (None: one a core, as
        they take only the CPU left). ``workers`` 0 runs every job in
        :data:`IN_PROCESS_SLOTS` threads (tests). ``slots`` replaces the workers (tests),
        ``clock`` times the waits.
        """
        if review_queue < 1:
            raise ValueError("the review queue holds at least one review")
        if slots is None:
            if workers > 0:
                behind = machine_cores() if review_workers is None else review_workers
                slots = [ProcessSlot(str(n), preload) for n in range(workers)]
                slots += [ProcessSlot(f"r{n}", preload, background=True) for n in range(behind)]
            else:
                slots = [ThreadSlot(f"t{n}") for n in range(IN_PROCESS_SLOTS)]
        self.in_process = workers == 0
        self.review_queue = review_queue
        self._slots = list(slots)
        self._idle = list(self._slots)
        self._background = any(slot.background for slot in self._slots)
        self._queue: list[_Job] = []
        self._numbers = itertools.count()
        self._reviews = 0
        self._closed = False
        self._clock = clock
        self.stats = PoolStats()

    @property
    def size(self) -> int:
        """How many jobs may run at once."""
        return len(self._slots)

    @property
    def shown(self) -> str:
        """Its workers and what they run, for the start-up log line."""
        if self.in_process:
            return f"{self.size} threads of this process"
        reviews = sum(1 for slot in self._slots if slot.background)
        if not reviews:
            return f"{_processes(self.size)} for every search"
        return (
            f"{_processes(self.size)}: {self.size - reviews} for the computers' moves, "
            f"hints, claims, the daily deal and lessons, {reviews} for reviews"
        )

    @property
    def waiting(self) -> int:
        """Jobs in the queue (not yet on a worker)."""
        return sum(1 for job in self._queue if not job.future.done())

    async def start(self) -> list[int]:
        """Start every worker and wait until each has run a job; their process ids.

        The workers start in threads: the loop goes on meanwhile (the bot opens its
        store while the fork server imports the search).
        """
        return list(await asyncio.gather(*(asyncio.to_thread(s.first_job) for s in self._slots)))

    async def run(
        self,
        priority: Priority,
        call: Callable[..., T],
        /,
        *args: Any,
        timeout: float | None = None,
    ) -> T:
        """``call(*args)`` on a worker, once it is this job's turn; its answer.

        Raises what ``call`` raised, :class:`SearchTimeoutError` past ``timeout``
        seconds, :class:`DroppedError` for a review dropped from a full queue,
        :class:`WorkerCrashedError` and :class:`PoolClosedError`.
        """
        future = self.submit(priority, call, *args)
        if timeout is None:
            return await future
        try:
            return await asyncio.wait_for(future, max(0.0, timeout))
        except TimeoutError:
            self.stats.timed_out += 1
            raise SearchTimeoutError(f"no answer within {timeout:.2f} s") from None

    def submit(
        self, priority: Priority, call: Callable[..., T], /, *args: Any
    ) -> asyncio.Future[T]:
        """Queue ``call(*args)``: a future of its answer (cancel it to take the job back)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        if self._closed:
            future.set_exception(PoolClosedError("the search pool is closed"))
            return future
        job = _Job(priority, next(self._numbers), call, args, future, self._clock())
        self._queue.append(job)
        if priority in REVIEWS:
            self._reviews += 1
            job.counted = True
            future.add_done_callback(lambda _: self._uncount(job))
            if self._reviews > self.review_queue:
                self._drop_one()
        self._pump()
        return future

    def _uncount(self, job: _Job) -> None:
        """A review no longer waits (it runs, or it ended): it leaves the queue's bound."""
        if job.counted:
            job.counted = False
            self._reviews -= 1

    def _drop_one(self) -> None:
        """Drop the oldest of the least urgent reviews waiting."""
        waiting = [j for j in self._queue if j.priority in REVIEWS and not j.future.done()]
        if not waiting:
            return
        victim = min(waiting, key=lambda j: (-j.priority, j.number))
        self.stats.dropped += 1
        log.info("search pool: a %s dropped, the queue is full", victim.priority.name.lower())
        victim.future.set_exception(
            DroppedError("dropped from a full queue of reviews to make room for newer ones")
        )

    def _pump(self) -> None:
        """Hand each free worker the most urgent job it takes (no review for the foreground)."""
        if not self._idle or not self._queue:
            return
        self._queue = sorted(job for job in self._queue if not job.future.done())
        waiting = self._queue
        for slot in sorted(self._idle, key=lambda s: s.background):
            reviews = slot.background or not self._background
            job = next((j for j in waiting if reviews or j.priority not in REVIEWS), None)
            if job is None:
                continue
            waiting.remove(job)
            self._idle.remove(slot)
            self._start(slot, job)

    def _start(self, slot: Slot, job: _Job) -> None:
        self._uncount(job)
        self.stats.waited.setdefault(job.priority.name, []).append(self._clock() - job.queued_at)
        try:
            running = slot.submit(job.call, job.args)
        except RuntimeError as exc:  # the slot's executor is shut or broken
            self._idle.append(slot)
            self._ended(slot, job, exc)
            return
        running.add_done_callback(functools.partial(self._finished, slot, job))

    def _finished(self, slot: Slot, job: _Job, running: asyncio.Future[Any]) -> None:
        self._idle.append(slot)
        error = None if running.cancelled() else running.exception()
        if running.cancelled():
            error = PoolClosedError("the search pool is closed")
        if error is not None:
            self._ended(slot, job, error)
        else:
            self.stats.done[job.priority.name] += 1
            if not job.future.done():
                job.future.set_result(running.result())
        self._pump()

    def _ended(self, slot: Slot, job: _Job, error: BaseException) -> None:
        """A job that did not return: a dead worker's is tried once more, else it fails."""
        if slot.crashed(error) and not self._closed:
            self.stats.restarts += 1
            slot.restart()
            job.tries -= 1
            if job.tries > 0 and not job.future.done():
                log.warning(
                    "search pool: the worker of a %s died, trying it once more",
                    job.priority.name.lower(),
                )
                self._queue.append(job)
                return
            error = WorkerCrashedError(f"the worker died twice running a {job.priority.name}")
        if not job.future.done():
            job.future.set_exception(error)

    def close(self) -> None:
        """Refuse new jobs, fail the waiting ones (:class:`PoolClosedError`), stop the workers.

        A job under way finishes on its own; its answer is thrown away.
        """
        if self._closed:
            return
        self._closed = True
        for job in self._queue:
            if not job.future.done():
                job.future.set_exception(PoolClosedError("the search pool is closed"))
        self._queue.clear()
        for slot in self._slots:
            slot.close()


def _processes(count: int) -> str:
    return f"{count} worker process{'' if count == 1 else 'es'}"
