"""The fake Discord's limits beyond a channel's messages: global, per route, invalid requests.

:class:`FakeLimits` is what :class:`~tests.kit.fake_discord.FakeDiscord` asks before it
handles a request (:meth:`FakeLimits.admit`: a ban, the global limit, a route bucket)
and tells after it answered (:meth:`FakeLimits.answered`: a 401, 403 or 429 counts as
invalid, and one the test did not expect is a problem). The limits themselves are
tests/kit/discord_limits.py's, shared with the interaction harness.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tests.kit.discord_limits import (
    ROUTE_BUCKETS,
    Bucket,
    GlobalLimit,
    InvalidRequests,
    is_interaction_route,
    route_bucket,
)

__all__ = ["Admission", "FakeLimits"]


@dataclass
class Admission:
    """What :meth:`FakeLimits.admit` decided: the headers to answer with, or a 429."""

    headers: dict[str, str] | None = None
    refusal: dict[str, Any] | None = None
    """The 429's JSON body (None: admitted)."""


@dataclass
class FakeLimits:
    """The global limit, the route buckets and the invalid requests of one fake Discord."""

    clock: Callable[[], float]
    enforced: bool = True
    global_limit: GlobalLimit = field(default_factory=GlobalLimit)
    buckets: dict[tuple[str, str], Bucket] = field(default_factory=dict)
    invalid: InvalidRequests = field(default_factory=InvalidRequests)
    expected: Counter[int] = field(default_factory=Counter)
    """Invalid answers a test said it expects, by status."""
    expected_until: list[tuple[int, float]] = field(default_factory=list)
    """Invalid answers expected until a time (by :attr:`clock`), by status."""
    sizes: dict[str, tuple[int, float]] = field(default_factory=lambda: dict(ROUTE_BUCKETS))
    """Each route bucket's requests per window and seconds (a test may make them smaller)."""

    def expect(self, status: int, times: int = 1, *, until: float | None = None) -> None:
        """The test expects ``times`` more answers of ``status`` (401, 403 or 429).

        ``until``: only until then (by :attr:`clock`).
        """
        if until is None:
            self.expected[status] += times
        else:
            self.expected_until.extend([(status, until)] * times)

    def admit(self, method: str, template: str, params: dict[str, str]) -> Admission:
        """Whether a request may be handled now; the bucket's headers or the 429's."""
        now = self.clock()
        if self.invalid.banned(now):
            body = {
                "message": "You are being blocked from accessing our API temporarily due to "
                "exceeding our rate limits frequently.",
                "retry_after": self.invalid.banned_until - now,
                "global": True,
            }
            return Admission({"Retry-After": str(int(body["retry_after"]) + 1)}, body)
        if not self.enforced:
            return Admission()
        if not is_interaction_route(template):
            wait = self.global_limit.take(now)
            if wait is not None:
                headers = {
                    "Retry-After": str(max(1, round(wait))),
                    "X-RateLimit-Global": "true",
                    "X-RateLimit-Scope": "global",
                    "Via": "1.1 google",
                }
                body = {"message": "You are being rate limited.", "retry_after": wait}
                return Admission(headers, {**body, "global": True})
        found = route_bucket(method, template, params)
        if found is None:
            return Admission()
        bucket = self.buckets.get(found)
        if bucket is None:
            bucket = self.buckets[found] = Bucket(*self.sizes[found[0]])
        fits, after = bucket.take(now)
        headers = bucket.headers(f"{found[0]}-{found[1]}", after, time.time())
        if fits:
            return Admission(headers)
        headers.update({"X-RateLimit-Scope": "user", "Retry-After": str(max(1, round(after)))})
        headers["Via"] = "1.1 google"
        body = {"message": "You are being rate limited.", "retry_after": after, "global": False}
        return Admission(headers, body)

    def answered(self, status: int, headers: dict[str, str] | None, what: str) -> str | None:
        """Count an answer; a problem's text if it is an invalid one nobody expected."""
        scope = (headers or {}).get("X-RateLimit-Scope")
        if not InvalidRequests.counts(status, scope):
            return None
        now = self.clock()
        self.invalid.add(now)
        self.expected_until = [(s, until) for s, until in self.expected_until if until > now]
        index = next((i for i, (s, _) in enumerate(self.expected_until) if s == status), None)
        if index is not None:
            del self.expected_until[index]
            return None
        if self.expected[status] > 0:
            self.expected[status] -= 1
            return None
        return (
            f"{what} was answered {status}: Discord counts it toward the 10,000 invalid "
            "requests in 10 minutes that shut a bot out for an hour"
        )
