"""What keeps the pages safe on the open internet: GET only, a rate per address, headers.

Every answer, error pages too, carries the security headers; the Content-Security-Policy
lets a page load only the app's own style sheet, script and pictures (no inline script
or style, nothing from elsewhere). A request that is not GET or HEAD gets 405, an
address over its rate 429, and anything that goes wrong inside a page one plain 500
page (logged), never a traceback.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Final

from aiohttp import web

__all__ = ["SECURITY_HEADERS", "RateLimiter", "client_address", "security_headers"]

log = logging.getLogger(__name__)

SECURITY_HEADERS: Final = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
}

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
_ADDRESSES_KEPT: Final = 50_000
"""Addresses whose buckets are remembered; the least recently seen are forgotten first."""


@dataclass(slots=True)
class _Bucket:
    tokens: float
    stamp: float


class RateLimiter:
    """A token bucket per address: ``per_minute`` requests a minute, in bursts of a tenth."""

    def __init__(self, per_minute: int, *, clock: Callable[[], float] = time.monotonic) -> None:
        """Allow ``per_minute`` requests a minute per address, timed by ``clock`` (seconds)."""
        self.rate = per_minute / 60.0
        self.burst = max(1.0, per_minute / 10.0)
        self._clock = clock
        self._buckets: OrderedDict[str, _Bucket] = OrderedDict()

    def allow(self, address: str) -> bool:
        """Whether ``address`` may make a request now (taking one token if so)."""
        now = self._clock()
        bucket = self._buckets.pop(address, None) or _Bucket(self.burst, now)
        bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.stamp) * self.rate)
        bucket.stamp = now
        self._buckets[address] = bucket
        while len(self._buckets) > _ADDRESSES_KEPT:
            self._buckets.popitem(last=False)
        if bucket.tokens < 1:
            return False
        bucket.tokens -= 1
        return True

    def retry_after(self) -> int:
        """Seconds until one more request is allowed, rounded up."""
        return max(1, int(-(-1 // self.rate)))


def client_address(request: web.Request, *, trust_forwarded: bool) -> str:
    """The client's address: the peer's, or the last X-Forwarded-For hop behind a proxy."""
    if trust_forwarded:
        forwarded = request.headers.get("X-Forwarded-For", "")
        hops = [h.strip() for h in forwarded.split(",") if h.strip()]
        if hops:
            return hops[-1]
    return request.remote or "unknown"


def security_headers(response: web.StreamResponse) -> None:
    """Put the security headers on an answer."""
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
