"""Discord's rate limit headers of channel message requests, read for the pacers.

Every answer to a message post, edit or delete carries the bucket's state:
``X-RateLimit-Limit``, ``X-RateLimit-Remaining`` and ``X-RateLimit-Reset-After`` (seconds
until the window resets). :func:`on_request_end`, a callback of the gate's aiohttp
trace on discord.py's HTTP session (:mod:`.gate`), reports them to the paced job whose
task made the request (:func:`bot.discord.pace.pacing.request_answered`), and
:func:`on_request_start` reports every request as it starts
(:func:`bot.discord.pace.pacing.request_sent`), so a job that has sent nothing yet can
still be taken back. Requests made outside a paced job are not reported.
:func:`rate_limit_trace` is a trace of these two alone (the pacers without the gate).
"""

from __future__ import annotations

import re
from typing import Final

import aiohttp

from bot.discord.pace.pacing import Kind, request_answered, request_sent

__all__ = ["message_route", "on_request_end", "on_request_start", "rate_limit_trace"]

_MESSAGES: Final = re.compile(r"/channels/(\d+)/messages(/\d+)?/?$")
_KINDS: Final[dict[tuple[str, bool], Kind]] = {
    ("POST", False): "post",
    ("PATCH", True): "edit",
    ("DELETE", True): "delete",
}


def message_route(method: str, path: str) -> tuple[int, Kind] | None:
    """``(channel id, kind)`` of a channel message post, edit or delete; None for the rest."""
    found = _MESSAGES.search(path)
    if found is None:
        return None
    kind = _KINDS.get((method.upper(), found.group(2) is not None))
    return None if kind is None else (int(found.group(1)), kind)


def _number(text: str | None) -> float | None:
    try:
        return None if text is None else float(text)
    except ValueError:
        return None


async def on_request_start(
    session: aiohttp.ClientSession, context: object, params: aiohttp.TraceRequestStartParams
) -> None:
    """A trace callback: the paced job of this task (if any) has sent a request."""
    request_sent()


async def on_request_end(
    session: aiohttp.ClientSession, context: object, params: aiohttp.TraceRequestEndParams
) -> None:
    """A trace callback: a paced message request's headers go to its job's pacer."""
    route = message_route(params.method, params.url.path)
    if route is None:
        return
    headers = params.response.headers
    remaining = _number(headers.get("X-RateLimit-Remaining"))
    limit = _number(headers.get("X-RateLimit-Limit"))
    request_answered(
        route[1],
        route[0],
        remaining=None if remaining is None else int(remaining),
        reset_after=_number(headers.get("X-RateLimit-Reset-After")),
        limit=None if limit is None else int(limit),
    )


def rate_limit_trace() -> aiohttp.TraceConfig:
    """A trace for ``discord.Client(http_trace=...)`` that feeds the pacers Discord's buckets."""
    trace = aiohttp.TraceConfig()
    trace.on_request_start.append(on_request_start)
    trace.on_request_end.append(on_request_end)
    return trace
