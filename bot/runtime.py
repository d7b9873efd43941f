"""Process tuning done once start-up is over: the cyclic garbage collector.

A full collection walks every live object, and while it runs no click is answered.
What exists once the tables are restored (modules, restored tables) lives as long as
the process, so it is frozen out of those walks; larger thresholds make the young
collections rarer. Measured with ``python -m lab bench tables`` (see docs/benchmarks.md).
"""

from __future__ import annotations

import gc
from typing import Final

__all__ = ["GC_THRESHOLDS", "tune_gc_after_start"]

GC_THRESHOLDS: Final = (10_000, 20, 20)
"""Allocations before a young collection; young before middle; middle before a full one."""


def tune_gc_after_start() -> tuple[int, int, int]:
    """Freeze what start-up built and raise the thresholds; returns the previous thresholds."""
    previous = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    return previous
