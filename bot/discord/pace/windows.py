"""A channel's budget of one kind of request, kept the way Discord keeps it.

Discord gives each channel a bucket per kind of message request (posts, edits,
deletes): a window opened by the first request after the last one reset, good for
``per_period`` requests, that resets ``period`` seconds after it opened. Every answer
says how many requests are left and when the window resets (``X-RateLimit-Remaining``
and ``-Reset-After``). A :class:`Window` keeps what the pacer knows of it: the requests
it started, those still in flight (which may land in the next window), and what the
answers' headers said; without headers it assumes the window resets ``period`` after
its first request was answered, which is never sooner than Discord resets it. It also
decides when the next request may start (:meth:`Window.free_at`): the slots kept for
urgent requests, and the spreading of a window's requests.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Final

__all__ = ["DISCORD_LIMITS", "MARGIN", "ChannelLimits", "Started", "Window"]

MARGIN: Final = 0.02
"""Seconds added to a window's reset as the headers give it (they are rounded to ms)."""


@dataclass(frozen=True, slots=True)
class ChannelLimits:
    """Requests of each kind a channel takes per ``period`` seconds (None: no limit)."""

    per_period: int | None = 5
    period: float = 5.0
    reserve: int = 1
    """Slots of the window that only urgent jobs may take (a person's own move), so
    that they need not wait behind a stream of others (computer moves)."""
    spread: bool = True
    """Spread a window's requests a ``period / per_period`` apart (:meth:`Window.free_at`)."""
    idle_after: float = 60.0
    """Seconds a pacer with nothing to do and its windows over is kept
    (:class:`~bot.discord.pace.pacing.Pacers`)."""

    @classmethod
    def unlimited(cls) -> ChannelLimits:
        """No pacing at all (tests of other things, a Discord without limits)."""
        return cls(per_period=None)


DISCORD_LIMITS: Final = ChannelLimits()
"""Discord's budget per channel: 5 posts, 5 edits and 5 deletes per 5 seconds."""


@dataclass(eq=False, slots=True)
class Started:
    """A request started in a window: what the window needs to know when it ends."""

    window: int
    """The window it started in (windows are counted)."""
    urgent: bool
    first: bool = False
    """It opened its window (so Discord counts it there, however late its answer)."""
    answered: bool = False


@dataclass(slots=True)
class Window:
    """The window of one kind of request in one channel, as the pacer knows it."""

    limits: ChannelLimits
    limit: int
    window: int = 0
    """Counts the windows opened."""
    opened_at: float = -math.inf
    resets_at: float = -math.inf
    """When the window has surely reset (inf: not known until its first answer)."""
    remaining: int = 0
    urgent_used: int = 0
    in_flight: int = 0
    """Requests started and not answered yet (they may land in the next window)."""
    late: list[float] = field(default_factory=list)
    """When requests of the window were answered after it may have reset: each may count
    in the next window, which resets at most ``period`` after that answer."""
    blocked_until: float = 0.0

    @property
    def gap(self) -> float:
        """Seconds between a spread window's requests."""
        return self.limits.period / self.limit

    def free_at(self, now: float, *, urgent: bool) -> float:
        """When a request of this kind may start (``now`` if it may start now).

        An urgent one may take the reserved slots, and is spread among urgent ones only.
        The reserve keeps a window's last slots for urgent requests until urgent requests
        have taken as many in the window; then the others may spend what is left.
        """
        limits = self.limits
        if limits.per_period is None:
            return max(now, self.blocked_until)
        keep = 0 if urgent else min(limits.reserve, self.limit - 1)
        if now >= self.resets_at:  # this request opens the next window
            late = self._late(now)
            if self.limit - self.in_flight - len(late) > keep:
                at = now
            else:
                at = min(late) + limits.period if late else math.inf
        elif self.remaining <= max(0, keep - self.urgent_used):  # a reserve used is released
            at = self.resets_at
        elif limits.spread:
            used = self.urgent_used if urgent else self.limit - self.remaining
            at = max(now, self.opened_at + used * self.gap)
        else:
            at = now
        return max(at, self.blocked_until)

    def start(self, now: float, *, urgent: bool) -> Started:
        """A request starts now (the caller checked :meth:`free_at`)."""
        started = Started(self.window, urgent)
        self.in_flight += 1
        if self.limits.per_period is None:
            return started
        if now >= self.resets_at:
            self.window += 1
            self.opened_at, self.resets_at = now, math.inf
            self.remaining = self.limit - (self.in_flight - 1) - len(self._late(now))
            self.urgent_used, self.late = 0, []
            started.first = True
        started.window = self.window
        self.remaining -= 1
        self.urgent_used += urgent
        return started

    def answered(self, now: float, started: Started, *, headers: bool = False) -> None:
        """The request is done: answered, or its job ended without an answer.

        ``headers``: the answer's rate limit headers follow (:meth:`observe`).
        """
        if started.answered:
            return
        started.answered = True
        self.in_flight -= 1
        if self.limits.per_period is None:
            return
        late = now >= self.opened_at + self.limits.period
        if started.window == self.window and late and not started.first:
            self.late.append(now)
        if started.window == self.window and self.resets_at == math.inf and not headers:
            self.resets_at = now + self.limits.period

    def refund(self, started: Started) -> None:
        """The request's job ended having sent nothing: its slot is free again."""
        if self.limits.per_period is not None and started.window == self.window:
            self.remaining += 1
            self.urgent_used -= started.urgent

    def observe(self, now: float, remaining: int, reset_after: float, limit: int | None) -> None:
        """Headers of an answer: ``remaining`` requests in the window, reset in ``reset_after``."""
        if self.limits.per_period is None:
            return
        if limit is not None and 0 < limit < self.limit:
            self.limit = limit
        at, half = now + reset_after + MARGIN, self.limits.period / 2
        left = remaining - self.in_flight  # those in flight may not be counted yet
        if self.resets_at == math.inf or abs(at - self.resets_at) <= half:
            self.resets_at = min(self.resets_at, at)
            self.opened_at = at - MARGIN - self.limits.period
            self.remaining = min(self.remaining, left)
            self.late = []
        elif at > self.resets_at + half:  # Discord reset sooner than known: a new window
            self.window += 1
            self.opened_at, self.resets_at = at - self.limits.period - MARGIN, at
            self.remaining, self.urgent_used, self.late = left, 0, []
        # else: the answer of a request in an older window

    def _late(self, now: float) -> list[float]:
        return [at for at in self.late if at + self.limits.period > now]

    def quiet(self, now: float) -> bool:
        """Nothing in flight, nothing blocked, and the window is over."""
        return self.in_flight == 0 and now >= self.resets_at and now >= self.blocked_until
