"""The one gate every request of the bot goes through on its way to Discord.

:class:`RequestGate` is given to discord.py's HTTP session as an aiohttp trace
(:meth:`RequestGate.trace`), so it sees every request the bot makes, discord.py's own
retries included, and holds it until Discord's limits allow it:

- a channel's message posts, edits and deletes are paced before they are made, by the
  gate's :class:`~bot.discord.pace.pacing.Pacers` (the newest state of a message wins);
  the trace reports their answers' headers back to them (:mod:`.headers`);
- thread creation (per channel), members' roles (per server) and scheduled events
  (created or changed, per server) wait for their route's bucket
  (:class:`~bot.discord.pace.buckets.RouteBucket`), one at a time until an answer
  tells the bucket's size;
- every request but an interaction's own (its callback, follow-ups and edits of its
  messages, which Discord does not count) waits for the global budget
  (:class:`~bot.discord.pace.buckets.GlobalWindow`), and a global 429 stops them all for
  the time it asks.

A request that has to wait is made by a task that may be answering an interaction: it
answers first (:func:`bot.waits.before_waiting`). Each 429 the gate sees anyway is
logged, since Discord counts it toward shutting the bot out.
"""

from __future__ import annotations

import asyncio
import logging
import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Final

import aiohttp

from bot.waits import before_waiting

from . import headers
from .buckets import GLOBAL_KEPT, GlobalWindow, RouteBucket
from .pacing import DISCORD_LIMITS, ChannelLimits, Pacers

__all__ = ["BucketKey", "GateCounts", "RequestGate", "bucket_of", "is_interaction"]

log = logging.getLogger(__name__)

BucketKey = tuple[str, int]
"""A route bucket: its kind (``threads``, ``roles``, ``events``) and its resource's id."""

_INTERACTION: Final = re.compile(r"/interactions/\d+/[^/]+/callback$|/webhooks/\d+/[^/]+(/|$)")
_BUCKETS: Final[tuple[tuple[str, re.Pattern[str], str], ...]] = (
    ("POST", re.compile(r"/channels/(\d+)/(?:messages/\d+/)?threads$"), "threads"),
    ("PUT", re.compile(r"/guilds/(\d+)/members/\d+/roles/\d+$"), "roles"),
    ("DELETE", re.compile(r"/guilds/(\d+)/members/\d+/roles/\d+$"), "roles"),
    ("POST", re.compile(r"/guilds/(\d+)/scheduled-events$"), "events"),
    ("PATCH", re.compile(r"/guilds/(\d+)/scheduled-events/\d+$"), "events"),
)


def is_interaction(path: str) -> bool:
    """Whether a request is an interaction's own (its callback, or its token's webhook)."""
    return _INTERACTION.search(path) is not None


def bucket_of(method: str, path: str) -> BucketKey | None:
    """The route bucket a request waits for, if the gate keeps one for its route."""
    for verb, pattern, kind in _BUCKETS:
        found = pattern.search(path)
        if found and method.upper() == verb:
            return kind, int(found[1])
    return None


@dataclass(slots=True)
class GateCounts:
    """What the gate saw: requests, those it held, and Discord's refusals it met anyway."""

    requests: int = 0
    held: int = 0
    rate_limited: int = 0
    global_limited: int = 0


@dataclass(slots=True)
class _Pass:
    """One request in the gate: the bucket it holds a place in."""

    bucket: RouteBucket | None = None
    started: bool = False
    counted: bool = False
    """It counts toward the global budget (an interaction's own requests do not)."""


class RequestGate:
    """Discord's limits for every request of one bot; see the module docstring."""

    def __init__(
        self,
        pacers: Pacers,
        *,
        global_per_second: int = GLOBAL_KEPT,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """A gate with the bot's channel ``pacers``, at most ``global_per_second`` a second."""
        self.pacers = pacers
        self.clock = clock
        self.counts = GateCounts()
        self._global = GlobalWindow(global_per_second)
        self._buckets: dict[BucketKey, RouteBucket] = {}
        self._waiters: set[asyncio.Future[None]] = set()

    @classmethod
    def of(cls, pacers: Pacers, channel_limits: ChannelLimits = DISCORD_LIMITS) -> RequestGate:
        """A gate for a bot; without channel limits (tests of other things), no global one."""
        unlimited = channel_limits.per_period is None
        return cls(pacers, global_per_second=1 << 30 if unlimited else GLOBAL_KEPT)

    def trace(self) -> aiohttp.TraceConfig:
        """The trace for ``discord.Client(http_trace=...)``: every request passes the gate."""
        trace = aiohttp.TraceConfig()
        trace.on_request_start.append(self._on_start)
        trace.on_request_start.append(headers.on_request_start)
        trace.on_request_end.append(headers.on_request_end)
        trace.on_request_end.append(self._on_end)
        trace.on_request_exception.append(self._on_end)
        return trace

    def bucket(self, key: BucketKey) -> RouteBucket:
        """The route bucket of ``key`` (made when first asked for)."""
        found = self._buckets.get(key)
        if found is None:
            found = self._buckets[key] = RouteBucket()
        return found

    # ------------------------------------------------------------------ passing

    async def enter(self, method: str, path: str) -> _Pass:
        """Wait until ``method path`` may go to Discord; the pass to give back at its end."""
        passed = _Pass()
        self.counts.requests += 1
        if is_interaction(path):
            passed.started = True
            return passed
        key = bucket_of(method, path)
        passed.bucket = None if key is None else self.bucket(key)
        waited = False
        while True:
            now = self.clock()
            at = self._global.free_at(now)
            if passed.bucket is not None:
                at = max(at, passed.bucket.free_at(now))
            if at <= now:
                break
            if not waited:
                waited = True
                self.counts.held += 1
                await before_waiting()
                continue
            await self._wait(at - now)
        self._global.start()
        passed.counted = True
        if passed.bucket is not None:
            passed.bucket.start(now)
        passed.started = True
        return passed

    def leave(
        self,
        passed: _Pass,
        method: str,
        path: str,
        status: int | None,
        answer_headers: dict[str, str] | None = None,
    ) -> None:
        """The request is done: answered (``status``, its headers), or failed (None)."""
        if not passed.started:
            return
        passed.started = False
        now = self.clock()
        if passed.counted:
            self._global.end(now)
        got = answer_headers or {}
        retry = _number(got.get("Retry-After")) if status == 429 else None
        if status == 429:
            self.counts.rate_limited += 1
            scope = got.get("X-RateLimit-Scope", "")
            if got.get("X-RateLimit-Global", "").lower() == "true" or scope == "global":
                self.counts.global_limited += 1
                self._global.stop_for(now, retry or 1.0)
            log.warning(
                "Discord answered 429 (%s) to %s %s: retry after %s s",
                scope or "no scope",
                method,
                path,
                retry,
            )
        if passed.bucket is not None:
            if status is None:
                passed.bucket.ended()
            else:
                passed.bucket.answered(
                    now,
                    limit=_integer(got.get("X-RateLimit-Limit")),
                    remaining=_integer(got.get("X-RateLimit-Remaining")),
                    reset_after=_number(got.get("X-RateLimit-Reset-After")),
                    retry_after=retry,
                )
        for waiter in self._waiters:
            if not waiter.done():
                waiter.set_result(None)

    async def _wait(self, seconds: float) -> None:
        """Until ``seconds`` pass or a request ends (a bucket may have room then)."""
        waiter = asyncio.get_running_loop().create_future()
        self._waiters.add(waiter)
        try:
            await asyncio.wait_for(waiter, None if seconds == math.inf else max(0.001, seconds))
        except TimeoutError:
            pass
        finally:
            self._waiters.discard(waiter)

    # ------------------------------------------------------------------ the trace

    async def _on_start(
        self,
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestStartParams,
    ) -> None:
        context.gate_pass = await self.enter(params.method, params.url.path)

    async def _on_end(
        self,
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestEndParams | aiohttp.TraceRequestExceptionParams,
    ) -> None:
        """A request leaves the gate, answered or not (it raised)."""
        passed = getattr(context, "gate_pass", None)
        if passed is None:
            return
        if isinstance(params, aiohttp.TraceRequestEndParams):
            answer = params.response
            self.leave(passed, params.method, params.url.path, answer.status, dict(answer.headers))
        else:
            self.leave(passed, params.method, params.url.path, None)


def _number(text: str | None) -> float | None:
    try:
        return None if text is None else float(text)
    except ValueError:
        return None


def _integer(text: str | None) -> int | None:
    number = _number(text)
    return None if number is None else int(number)
