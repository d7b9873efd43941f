"""What keeps the pages safe on the open internet: GET only, a rate per address, headers.

Every answer, error pages too, carries the security headers; the Content-Security-Policy
lets a page load only the app's own style sheet, script and pictures (no inline script
or style, nothing from elsewhere). A request that is not GET or HEAD gets 405, an
address over its rate 429, and anything that goes wrong inside a page one plain 500
page (logged), never a traceback.

The rate counts pages, not files: a page (made from the store) takes a token of the
address's page bucket; a static file (served from memory, cached by browsers for good)
one of its file bucket, ten times larger, so that a first visit never runs out while
a flood of files is still held back. Behind proxies, the client's address is read from
``X-Forwarded-For``, as many hops back as there are proxies to trust.

A request aiohttp cannot even parse (a request line or header over 8 KB, say) is
answered 400 by aiohttp itself; :class:`RequestErrorLog` logs such a request once a
minute per address, in one line without a traceback.
"""

from __future__ import annotations

import ipaddress
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from aiohttp import web
from aiohttp.http_exceptions import BadHttpMessage

__all__ = [
    "ACTIVITY_HEADERS",
    "FILES_FACTOR",
    "SECURITY_HEADERS",
    "RateLimiter",
    "RequestErrorLog",
    "client_address",
    "security_headers",
]

log = logging.getLogger(__name__)

SECURITY_HEADERS: Final = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
        "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
}

ACTIVITY_HEADERS: Final = {
    **SECURITY_HEADERS,
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; "
        "img-src 'self' https://cdn.discordapp.com; connect-src 'self'; base-uri 'none'; "
        "form-action 'none'; "
        "frame-ancestors https://discord.com https://*.discord.com https://*.discordsays.com"
    ),
}
"""The Activity's: Discord's client frames it, and it shows people's avatars."""
del ACTIVITY_HEADERS["X-Frame-Options"]

FILES_FACTOR: Final = 10
"""An address's file bucket holds this many times its page bucket."""

_ADDRESSES_KEPT: Final = 50_000
"""Addresses whose buckets are remembered; the least recently seen are forgotten first."""

LOG_EVERY: Final = 60.0
"""Seconds between two log lines about one address's unreadable requests."""


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


def client_address(request: web.Request, *, hops: int) -> str:
    """The client's address: the peer's, or ``hops`` entries back in X-Forwarded-For.

    Each trusted proxy appends the address it was reached from, so with ``hops``
    proxies in front the client is the ``hops``-th entry from the end. A header with
    fewer entries, or an entry that is not an address, is not believed: the peer's
    address counts then (all such requests share its bucket).
    """
    peer = request.remote or "unknown"
    if hops <= 0:
        return peer
    forwarded = ",".join(request.headers.getall("X-Forwarded-For", ()))
    entries = [h.strip() for h in forwarded.split(",") if h.strip()]
    if len(entries) < hops:
        return peer
    try:
        return str(ipaddress.ip_address(entries[-hops]))
    except ValueError:
        return peer


def security_headers(response: web.StreamResponse, *, activity: bool = False) -> None:
    """Put the security headers on an answer (the Activity's, for its addresses)."""
    for name, value in (ACTIVITY_HEADERS if activity else SECURITY_HEADERS).items():
        response.headers.setdefault(name, value)


class RequestErrorLog(logging.Logger):
    """The logger aiohttp's request handler reports to (``AppRunner(logger=...)``).

    A request it could not read (:class:`BadHttpMessage`: a line or header too long,
    a malformed request line) is logged as one warning line, at most once every
    :data:`LOG_EVERY` seconds per address, saying how many more came meanwhile. Other
    errors pass on as they are. Lines go to the ``bot.web.requests`` logger's handlers.
    """

    def __init__(self, *, clock: Callable[[], float] = time.monotonic) -> None:
        """Log through ``bot.web.requests``, timed by ``clock``."""
        super().__init__("bot.web.requests")
        self.parent = logging.getLogger("bot.web")
        self._clock = clock
        self._last: OrderedDict[str, tuple[float, int]] = OrderedDict()

    def exception(self, msg: object, *args: object, exc_info: Any = True, **kwargs: Any) -> None:
        """Log a request error: an unreadable request's once a minute, the rest in full."""
        if not isinstance(exc_info, BadHttpMessage):
            super().exception(msg, *args, exc_info=exc_info, **kwargs)
            return
        address = str(args[0]) if args else "unknown"
        now = self._clock()
        last = self._last.pop(address, None)
        if last is not None and now - last[0] < LOG_EVERY:
            self._last[address] = (last[0], last[1] + 1)
            return
        self._last[address] = (now, 0)
        while len(self._last) > _ADDRESSES_KEPT:
            self._last.popitem(last=False)
        more = f" ({last[1]} more since the last line)" if last is not None and last[1] else ""
        reason = " ".join(str(exc_info.message).split())[:120]
        self.warning("Refused an unreadable request from %s: %s%s", address, reason, more)
