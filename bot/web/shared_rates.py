"""The rate per address kept in memory that several serving processes share.

``python -m bot web`` with ``web_processes`` above 1 forks its page processes from one
parent, which made these tables first: an address's requests are counted together
whichever process accepts them, so the limit a visitor meets does not grow with the
processes. Each table is an anonymous shared mapping of fixed slots (a hash of the
address, its tokens, when they were last counted) under one lock; an address looks
at :data:`PROBES` slots from its hash's place, and when all are taken by others the one
seen longest ago is forgotten (that address starts again with a full burst, as
:class:`~.guard.RateLimiter` forgets its least recently seen). The clock must be one
all processes share: ``time.monotonic`` is, on Linux.

    rates = SharedRates.make(120)          # before forking
    rates.pages.allow("203.0.113.7")       # in any process forked after
"""

from __future__ import annotations

import hashlib
import mmap
import multiprocessing
import struct
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from .guard import FILES_FACTOR, RateLimiter

__all__ = ["PROBES", "SLOTS", "SharedRateLimiter", "SharedRates"]

SLOTS: Final = 1 << 16
"""Addresses a table can hold at once (2 MiB of shared memory)."""
PROBES: Final = 8
"""Slots an address may sit in, from its hash's place on."""

_SLOT: Final = struct.Struct("<16sdd")
_EMPTY: Final = bytes(16)


class SharedRateLimiter(RateLimiter):
    """:class:`~.guard.RateLimiter`'s token bucket per address, in memory forked processes share."""

    def __init__(
        self, per_minute: int, *, clock: Callable[[], float] = time.monotonic, slots: int = SLOTS
    ) -> None:
        """Allow ``per_minute`` requests a minute per address, in a table of ``slots`` made now."""
        super().__init__(per_minute, clock=clock)
        self._slots = slots
        self._table = mmap.mmap(-1, slots * _SLOT.size)
        self._lock = multiprocessing.get_context("fork").Lock()

    def allow(self, address: str) -> bool:
        """Whether ``address`` may make a request now (taking one token if so)."""
        key = hashlib.blake2b(address.encode(), digest_size=16).digest()
        start = int.from_bytes(key[:8], "little")
        with self._lock:
            now = self._clock()
            offset, tokens, stamp = self._find(key, start, now)
            tokens = min(self.burst, tokens + (now - stamp) * self.rate)
            allowed = tokens >= 1
            _SLOT.pack_into(self._table, offset, key, tokens - 1 if allowed else tokens, now)
        return allowed

    def _find(self, key: bytes, start: int, now: float) -> tuple[int, float, float]:
        """The slot of ``key`` (its offset, tokens and stamp); a new one holds a full burst."""
        oldest, oldest_stamp = -1, float("inf")
        for probe in range(min(PROBES, self._slots)):
            offset = ((start + probe) % self._slots) * _SLOT.size
            held, tokens, stamp = _SLOT.unpack_from(self._table, offset)
            if held == key:
                return offset, tokens, stamp
            if held == _EMPTY:
                return offset, self.burst, now
            if stamp < oldest_stamp:
                oldest, oldest_stamp = offset, stamp
        return oldest, self.burst, now


@dataclass(frozen=True, slots=True)
class SharedRates:
    """The page and file buckets of every address, shared by the processes forked after."""

    pages: SharedRateLimiter
    files: SharedRateLimiter

    @classmethod
    def make(cls, per_minute: int, *, clock: Callable[[], float] = time.monotonic) -> SharedRates:
        """Tables for ``per_minute`` pages a minute per address (files: ten times as many)."""
        return cls(
            SharedRateLimiter(per_minute, clock=clock),
            SharedRateLimiter(per_minute * FILES_FACTOR, clock=clock),
        )
