"""Discord's rate limits beyond a channel's messages, as the test kit's fakes enforce them.

Shared by the end-to-end fake Discord (tests/kit/fake_discord.py) and the interaction
harness (tests/kit/harness), as tests/kit/payloads.py is:

- :class:`GlobalLimit`: 50 requests in any second from the bot, interaction callbacks and
  webhooks (follow-ups, edits of an interaction's messages) not counted; past it, 429
  with ``global: true``, ``X-RateLimit-Global: true`` and ``X-RateLimit-Scope: global``;
- :data:`ROUTE_BUCKETS` and :func:`route_bucket`: per-route buckets, each window opened by
  its first request: thread creation per channel, members' roles per server, scheduled
  events per server (Discord does not publish their sizes; these are the fake's, told in
  each answer's headers as Discord does);
- :class:`InvalidRequests`: every 401, 403 and 429 (but a 429 of ``shared`` scope)
  counts toward 10,000 in 10 minutes, past which Discord shuts the bot out for an hour
  (every request then answers 429). The fakes also list each one a test did not say it
  expects (``expect_invalid``), and such a test fails.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, field
from typing import Final

__all__ = [
    "BAN_SECONDS",
    "GLOBAL_PER_SECOND",
    "INVALID_LIMIT",
    "INVALID_WINDOW",
    "ROUTE_BUCKETS",
    "Bucket",
    "GlobalLimit",
    "InvalidRequests",
    "is_interaction_route",
    "route_bucket",
]

GLOBAL_PER_SECOND: Final = 50
INVALID_LIMIT: Final = 10_000
INVALID_WINDOW: Final = 600.0
BAN_SECONDS: Final = 3600.0

ROUTE_BUCKETS: Final[dict[str, tuple[int, float]]] = {
    "threads": (10, 10.0),
    "roles": (10, 10.0),
    "events": (5, 10.0),
}
"""Each route bucket's requests per window and the window's seconds (the fake's sizes)."""

_ROUTES: Final[tuple[tuple[str, re.Pattern[str], str, str], ...]] = (
    ("POST", re.compile(r"^/channels/\{channel_id\}(/messages/\{message_id\})?/threads$"), "threads", "channel_id"),
    ("PUT", re.compile(r"^/guilds/\{guild_id\}/members/\{user_id\}/roles/\{role_id\}$"), "roles", "guild_id"),
    ("DELETE", re.compile(r"^/guilds/\{guild_id\}/members/\{user_id\}/roles/\{role_id\}$"), "roles", "guild_id"),
    ("POST", re.compile(r"^/guilds/\{guild_id\}/scheduled-events$"), "events", "guild_id"),
    ("PATCH", re.compile(r"^/guilds/\{guild_id\}/scheduled-events/\{\w+\}$"), "events", "guild_id"),
)  # fmt: skip


def is_interaction_route(template: str) -> bool:
    """An interaction's own route (its callback, its token's webhook): not globally limited."""
    return template.startswith(("/interactions/", "/webhooks/"))


def route_bucket(method: str, template: str, params: dict[str, str]) -> tuple[str, str] | None:
    """The route bucket of a request (its kind, its resource's id), if the fake keeps one."""
    for verb, pattern, kind, resource in _ROUTES:
        if method == verb and pattern.match(template):
            return kind, params.get(resource, "")
    return None


@dataclass
class GlobalLimit:
    """The requests of the last second; whether one more may come."""

    per_second: int = GLOBAL_PER_SECOND
    seen: deque[float] = field(default_factory=deque)

    def take(self, now: float) -> float | None:
        """Count a request now; the seconds to wait if it is one too many (not counted)."""
        while self.seen and self.seen[0] <= now - 1.0:
            self.seen.popleft()
        if len(self.seen) >= self.per_second:
            return self.seen[0] + 1.0 - now
        self.seen.append(now)
        return None


@dataclass
class Bucket:
    """One route bucket's window: opened by its first request, reset ``period`` later."""

    limit: int
    period: float
    resets_at: float = 0.0
    used: int = 0

    def take(self, now: float) -> tuple[bool, float]:
        """Count a request now: whether it fits, and the seconds until the window resets."""
        if now >= self.resets_at:
            self.resets_at, self.used = now + self.period, 0
        after = self.resets_at - now
        if self.used >= self.limit:
            return False, after
        self.used += 1
        return True, after

    def headers(self, name: str, after: float, epoch: float) -> dict[str, str]:
        """The answer's ``X-RateLimit-*`` headers."""
        return {
            "X-RateLimit-Limit": str(self.limit),
            "X-RateLimit-Remaining": str(max(0, self.limit - self.used)),
            "X-RateLimit-Reset": f"{epoch + after:.3f}",
            "X-RateLimit-Reset-After": f"{after:.3f}",
            "X-RateLimit-Bucket": name,
        }


@dataclass
class InvalidRequests:
    """The bot's 401, 403 and 429 answers in the last 10 minutes, and a ban past the limit."""

    limit: int = INVALID_LIMIT
    window: float = INVALID_WINDOW
    seen: deque[float] = field(default_factory=deque)
    banned_until: float = 0.0
    total: int = 0

    @staticmethod
    def counts(status: int, scope: str | None) -> bool:
        """Whether Discord counts an answer as invalid."""
        return status in (401, 403) or (status == 429 and scope != "shared")

    def add(self, now: float) -> None:
        """One more invalid request; past the limit, the bot is shut out for an hour."""
        self.total += 1
        self.seen.append(now)
        while self.seen and self.seen[0] <= now - self.window:
            self.seen.popleft()
        if len(self.seen) >= self.limit:
            self.banned_until = now + BAN_SECONDS

    def banned(self, now: float) -> bool:
        """Whether the bot is shut out now."""
        return now < self.banned_until
