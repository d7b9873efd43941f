"""Requests Discord refused, logged where an operator looks: an ERROR with the route and reason.

A request Discord answers with a 4xx (other than a 429, which discord.py waits out and
tries again) is the bot's fault or the server's doing: a payload past a limit (50035),
a missing permission (50013), a deleted channel. Each is logged as an ERROR naming
the route (``PATCH /channels/…/messages/…``), the status, Discord's code and its
reason, whatever the bot does next. Discord's own trouble (5xx) is a WARNING.

Where a refusal is part of an expected path (the message a moderator deleted is posted
anew, an old hand's token has expired), the caller handles that code first and logs
it plainly; :func:`log_refusal` is for the rest.
"""

from __future__ import annotations

import logging
from collections.abc import Collection
from typing import Final

import discord

__all__ = [
    "EXPIRED_INTERACTION",
    "MISSING_PERMISSIONS",
    "UNKNOWN_CHANNEL",
    "UNREACHABLE_CHANNEL",
    "describe",
    "log_refusal",
    "refused",
]

EXPIRED_INTERACTION: Final = frozenset({10008, 10015, 50027})
"""Unknown Message, Unknown Webhook, Invalid Webhook Token: an interaction's message that
can no longer be edited (its token expired after 15 minutes, or it was dismissed)."""
UNKNOWN_CHANNEL: Final = 10003
MISSING_PERMISSIONS: Final = 50013
UNREACHABLE_CHANNEL: Final = frozenset({UNKNOWN_CHANNEL, 50001, MISSING_PERMISSIONS})
"""Unknown Channel, Missing Access, Missing Permissions: a channel the bot can't post in
until an admin changes the channel or its permissions (trying again will not mend it)."""


def refused(exc: discord.HTTPException) -> bool:
    """Whether Discord refused the request (a 4xx other than 429)."""
    return 400 <= exc.status < 500 and exc.status != 429


def _route(exc: discord.HTTPException) -> str:
    response = exc.response
    method = getattr(response, "method", None)
    url = getattr(response, "url", None)
    path = getattr(url, "path", None) or (str(url) if url is not None else None)
    if method is None or path is None:
        return "a request"
    return f"{method} {path.split('/api/v10', 1)[-1]}"


def describe(exc: discord.HTTPException) -> str:
    """``PATCH /channels/1/messages/2 → 400 (code 50035): In embeds.0...: Must be ...``."""
    reason = (exc.text or getattr(exc.response, "reason", None) or "no reason given").strip()
    return f"{_route(exc)} → {exc.status} (code {exc.code}): {' / '.join(reason.splitlines())}"


def log_refusal(
    log: logging.Logger, exc: discord.HTTPException, what: str, *, expected: Collection[int] = ()
) -> None:
    """Log that ``what`` failed: an ERROR when Discord refused it, else a WARNING.

    ``expected``: Discord's codes the caller expects and handles (logged as INFO).
    """
    level = logging.ERROR if refused(exc) else logging.WARNING
    if exc.code in expected:
        level = logging.INFO
    said = "refused" if refused(exc) else "failed"
    log.log(level, "%s: Discord %s it: %s", what, said, describe(exc))
