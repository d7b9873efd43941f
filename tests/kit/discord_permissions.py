"""What Discord refuses for want of a permission, as both fakes answer it.

Shared by the interaction harness (tests/kit/harness/rest.py) and the e2e fake
(tests/kit/fake_discord.py): a request to a channel without View Channel is 403
``50001 Missing Access``; posting without Send Messages (Send Messages in Threads in a
thread), a message with embeds without Embed Links, one with files without Attach
Files, a thread without Create Public Threads, or reopening an archived thread without
Send Messages in Threads is 403 ``50013 Missing Permissions``. An interaction's own
answers are never refused so: Discord lets an application answer wherever it is used.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import discord

__all__ = ["MISSING_ACCESS", "MISSING_PERMISSIONS", "channel_refusal"]

MISSING_ACCESS: Final = (403, 50001, "Missing Access")
MISSING_PERMISSIONS: Final = (403, 50013, "Missing Permissions")

_MESSAGES: Final = "/channels/{channel_id}/messages"
_MESSAGE: Final = "/channels/{channel_id}/messages/{message_id}"
_THREADS: Final = (
    "/channels/{channel_id}/threads",
    "/channels/{channel_id}/messages/{message_id}/threads",
)


def channel_refusal(
    held: discord.Permissions,
    method: str,
    template: str,
    body: Mapping[str, Any] | None,
    *,
    in_thread: bool,
    files: bool = False,
) -> tuple[int, int, str] | None:
    """Discord's refusal of a channel request the bot's permissions ``held`` do not allow."""
    if not template.startswith("/channels/{channel_id}"):
        return None
    if not held.view_channel:
        return MISSING_ACCESS
    body = body or {}
    embeds = bool(body.get("embeds"))
    if (method, template) == ("POST", _MESSAGES):
        may_post = held.send_messages_in_threads if in_thread else held.send_messages
        if not may_post or (embeds and not held.embed_links) or (files and not held.attach_files):
            return MISSING_PERMISSIONS
    elif (method, template) == ("PATCH", _MESSAGE):
        if (embeds and not held.embed_links) or (files and not held.attach_files):
            return MISSING_PERMISSIONS
    elif method == "POST" and template in _THREADS:
        private = body.get("type") == discord.ChannelType.private_thread.value
        if not (held.create_private_threads if private else held.create_public_threads):
            return MISSING_PERMISSIONS
    elif (method, template) == ("PATCH", "/channels/{channel_id}") and in_thread:
        reopens = body.get("archived") is False
        if reopens and not held.send_messages_in_threads:
            return MISSING_PERMISSIONS
    return None
