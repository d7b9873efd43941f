"""Pages kept in memory a short while, so a popular page is made once, not per request.

Each process keeps its own (nothing shared: any number of processes may serve one
store). A finished game's pages never change and are kept until pushed out by newer
ones; the other pages for ``seconds``.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Generic, TypeVar

__all__ = ["TimedCache"]

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class _Entry(Generic[T]):
    value: T
    until: float


class TimedCache(Generic[T]):
    """Up to ``size`` values, each kept ``seconds`` (None: until pushed out)."""

    def __init__(self, size: int, *, clock: Callable[[], float] = time.monotonic) -> None:
        """Keep at most ``size`` values, timed by ``clock``."""
        self._size = size
        self._clock = clock
        self._entries: OrderedDict[Hashable, _Entry[T]] = OrderedDict()

    def get(self, key: Hashable) -> T | None:
        """The value kept for ``key``, if it has not expired."""
        entry = self._entries.get(key)
        if entry is None:
            return None
        if entry.until < self._clock():
            del self._entries[key]
            return None
        self._entries.move_to_end(key)
        return entry.value

    def put(self, key: Hashable, value: T, seconds: float | None) -> None:
        """Keep ``value`` for ``key`` (``seconds`` None: with no end)."""
        until = float("inf") if seconds is None else self._clock() + seconds
        self._entries[key] = _Entry(value, until)
        self._entries.move_to_end(key)
        while len(self._entries) > self._size:
            self._entries.popitem(last=False)

    def clear(self) -> None:
        """Forget everything."""
        self._entries.clear()
