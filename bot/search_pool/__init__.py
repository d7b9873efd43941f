"""The search pool: the bot's CPU-heavy work in worker processes, the most urgent first.

Computers' moves, hints, claims, the daily deal and lessons, and reviews all search
with the expert, in compiled code that holds the interpreter for as long as it
runs. Run in the bot's own process they would stand between every click and its
answer; here they run in ``search_workers`` worker processes (by default the
machine's cores less one), queued by :class:`Priority`. Reviews are background work
in a bounded queue; a dead worker is replaced and its job tried once more; a caller
may give a job a timeout (a computer's move falls back to basic's past it).

It imports nothing of the project: what runs in it is handed in (module-level
functions and picklable arguments; ``bot.rules`` makes its games and actions
picklable).
"""

from .pool import (
    IN_PROCESS_SLOTS,
    REVIEW_QUEUE,
    DroppedError,
    PoolClosedError,
    PoolStats,
    SearchPool,
    SearchTimeoutError,
    WorkerCrashedError,
    default_workers,
)
from .priorities import REVIEWS, Priority
from .slots import ProcessSlot, Slot, ThreadSlot, worker_pid

__all__ = [
    "IN_PROCESS_SLOTS",
    "REVIEWS",
    "REVIEW_QUEUE",
    "DroppedError",
    "PoolClosedError",
    "PoolStats",
    "Priority",
    "ProcessSlot",
    "SearchPool",
    "SearchTimeoutError",
    "Slot",
    "ThreadSlot",
    "WorkerCrashedError",
    "default_workers",
    "worker_pid",
]
