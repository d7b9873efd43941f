"""A long run of games or deals cut in pieces and spread over processes.

Every game or deal of a run takes its seed from its number, so how a run is cut
changes no result; the pieces come back in order.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any, Final, TypeVar

__all__ = ["PIECES_PER_JOB", "Progress", "each_index", "in_parts"]

T = TypeVar("T")

Progress = Callable[[int, int], None]
"""Told ``(done, total)`` each time a piece of a long run finishes."""

PIECES_PER_JOB: Final = 20
"""With ``progress``, each process's share is cut this much finer, to be told of."""


def in_parts(
    work: Callable[..., T], total: int, jobs: int, *args: Any, progress: Progress | None = None
) -> list[T]:
    """``work(*args, first, last)`` over ``range(total)`` cut in parts, in ``jobs`` processes.

    The parts come back in order. Without ``progress`` there is one part a process;
    with it, ``PIECES_PER_JOB`` a process, and ``progress`` hears of each as it ends.
    Every game or deal takes its seed from its index, so the cut changes no result.
    """
    jobs = max(1, min(jobs, total))
    pieces = jobs if progress is None else max(1, min(total, jobs * PIECES_PER_JOB))
    bounds = [total * k // pieces for k in range(pieces + 1)]
    spans = list(itertools.pairwise(bounds))
    if jobs == 1:
        results = []
        for lo, hi in spans:
            results.append(work(*args, lo, hi))
            if progress is not None:
                progress(hi, total)
        return results
    with ProcessPoolExecutor(jobs) as pool:
        parts = {pool.submit(work, *args, lo, hi): hi - lo for lo, hi in spans}
        if progress is not None:
            done = 0
            for part in as_completed(parts):
                done += parts[part]
                progress(done, total)
        return [part.result() for part in parts]


def each_index(
    work: Callable[..., T],
    indices: Sequence[int],
    jobs: int,
    *args: Any,
    done: Callable[[int, T], None],
) -> None:
    """``work(*args, i, i + 1)`` for each index in ``jobs`` processes; ``done(i, result)`` each.

    ``done`` runs in this process, as soon as an index is finished (not in order): a run
    that keeps each result as it comes (``ledger.Ledger``) loses at most the indices under
    way when it is stopped.
    """
    if jobs <= 1 or len(indices) <= 1:
        for i in indices:
            done(i, work(*args, i, i + 1))
        return
    with ProcessPoolExecutor(min(jobs, len(indices))) as pool:
        futures = {pool.submit(work, *args, i, i + 1): i for i in indices}
        for future in as_completed(futures):
            done(futures[future], future.result())
