"""Discord's limits beyond a channel's messages, kept on the bot's side: global and per route.

Discord takes at most 50 requests a second from a bot, whatever their routes
(interaction callbacks and follow-ups are not counted); past that it answers 429 with
``global: true`` to every request for a while. It also limits some routes per
resource: creating threads (per channel), giving and taking members' roles (per
server) and creating scheduled events (per server) each have a bucket whose size and
window the answers' ``X-RateLimit-*`` headers tell. And each 401, 403 or 429 it
answers counts toward 10,000 in 10 minutes, past which the bot is shut out for an hour.

:class:`GlobalWindow` spends the global budget (a sliding second, each request counted
from its start until a second after its answer, so the network's delays cannot push a
second at Discord over); :class:`RouteBucket` keeps one route
bucket as its answers describe it. Both are plain state on a clock the caller passes;
:mod:`.gate` waits on them.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field
from typing import Final

__all__ = ["GLOBAL_KEPT", "GLOBAL_PER_SECOND", "MARGIN", "GlobalWindow", "RouteBucket"]

GLOBAL_PER_SECOND: Final = 50
"""Discord's global limit: requests a second, the bot's whole traffic but interactions'."""

GLOBAL_KEPT: Final = 45
"""Requests the gate lets reach Discord in any second: a tenth of the 50 kept back for
what the bot cannot see of Discord's own count."""

MARGIN: Final = 0.02
"""Seconds added to a reset the headers give (they are rounded to milliseconds)."""


@dataclass(slots=True)
class GlobalWindow:
    """The requests in flight and those answered in the last second; a stop Discord ordered.

    A request reaches Discord somewhere between its start and its answer, so the gate
    counts it from its start until a second after its answer: then no second at Discord
    can hold more than :attr:`per_second` of them, however the network delays each.
    """

    per_second: int = GLOBAL_KEPT
    period: float = 1.0
    in_flight: int = 0
    answered: deque[float] = field(default_factory=deque)
    blocked_until: float = 0.0

    def free_at(self, now: float) -> float:
        """When the next request may start (``now`` if it may; inf: after the next answer)."""
        while self.answered and self.answered[0] <= now - self.period:
            self.answered.popleft()
        if self.in_flight + len(self.answered) < self.per_second:
            at = now
        elif self.answered and self.in_flight < self.per_second:
            at = self.answered[0] + self.period
        else:
            at = math.inf
        return max(at, self.blocked_until)

    def start(self) -> None:
        """A request starts (the caller checked :meth:`free_at`)."""
        self.in_flight += 1

    def end(self, now: float) -> None:
        """A request was answered now (or failed): it counts one second more."""
        self.in_flight = max(0, self.in_flight - 1)
        self.answered.append(now)

    def stop_for(self, now: float, seconds: float) -> None:
        """Discord answered a global 429: nothing starts for ``seconds``."""
        self.blocked_until = max(self.blocked_until, now + seconds + MARGIN)


@dataclass(slots=True)
class RouteBucket:
    """One route's bucket (thread creation in a channel, roles in a server...).

    Until an answer tells its size, one request at a time; then as many as its window
    has left, the next window when it resets.
    """

    limit: int | None = None
    """Requests a window takes (None: not known yet)."""
    remaining: int = 0
    """Requests the window has left that nobody started yet."""
    resets_at: float = -math.inf
    """When the window resets (inf: opened, its reset not known until an answer)."""
    in_flight: int = 0

    def free_at(self, now: float) -> float:
        """When the next request may start (``now`` if it may; inf: after the next answer)."""
        if self.limit is None:
            return now if self.in_flight == 0 else math.inf
        if now >= self.resets_at:  # a new window, which those still in flight may land in
            return now if self.in_flight < self.limit else math.inf
        return now if self.remaining > 0 else self.resets_at

    def start(self, now: float) -> None:
        """A request starts now (the caller checked :meth:`free_at`)."""
        if self.limit is not None:
            if now >= self.resets_at:  # it opens a new window, its reset known at its answer
                self.remaining, self.resets_at = self.limit - self.in_flight, math.inf
            self.remaining -= 1
        self.in_flight += 1

    def answered(
        self,
        now: float,
        *,
        limit: int | None,
        remaining: int | None,
        reset_after: float | None,
        retry_after: float | None = None,
    ) -> None:
        """The answer of a request: its headers (None: absent), or the wait a 429 asked for."""
        self.in_flight = max(0, self.in_flight - 1)
        if retry_after is not None:
            self.limit = self.limit or 1
            self.remaining, self.resets_at = 0, now + retry_after + MARGIN
        elif limit is not None and remaining is not None and reset_after is not None:
            self.limit = limit
            # those still in flight may not be counted in the answer yet
            self.remaining = max(0, remaining - self.in_flight)
            self.resets_at = now + reset_after + MARGIN
        elif self.limit is not None and self.resets_at == math.inf:
            self.resets_at = now + 1.0  # no headers: a short window, as a guess

    def ended(self) -> None:
        """The request got no answer (cancelled, or the connection failed)."""
        self.in_flight = max(0, self.in_flight - 1)
