"""What each of the bot's actions needs from a server, checked before the bot acts.

A request the bot's permissions do not allow gets 403 (50013 Missing Permissions, or
50001 Missing Access without View Channel), and Discord counts each toward shutting the
bot out. So the bot looks first: a command says in one sentence which permission is
missing and where (:func:`lacking`), and a request made in the background (a table's
message, a ping, an event's notice) is not made at all (:func:`may_send`), and logged.

What each action needs (an interaction's own answers need nothing: Discord lets an
application answer, with embeds and files, wherever it is used):

- a table in a channel: View Channel, Send Messages and Embed Links there (its message
  is edited and posted again, the turn pings are new messages);
- a table in a thread, and a tournament's round tables: Create Public Threads in the
  channel, and View Channel, Send Messages in Threads and Embed Links;
- an event's message and notices: View Channel, Send Messages and Embed Links in its channel;
- a champion role: Manage Roles (and the role below the bot's highest);
- a timed event's Discord reminder: Create Events (or Manage Events) in the server;
- a picture posted in a channel: Attach Files (none today: pictures go in answers).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

import discord

__all__ = [
    "BOT_PERMISSIONS",
    "CHANNEL_TABLE",
    "EVENT_CHANNEL",
    "INVITE_SCOPES",
    "NAMES",
    "THREAD_TABLE",
    "bot_permissions_in",
    "invite_url",
    "lacking",
    "may_send",
    "needs_of_message",
    "place_of",
    "table_needs",
]

BOT_PERMISSIONS: Final = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    embed_links=True,
    attach_files=True,
    create_events=True,
)
"""What the bot needs (Create Events: a timed tournament's reminder); README shows the integer."""

INVITE_SCOPES: Final = ("bot", "applications.commands")

NAMES: Final = {
    "view_channel": "View Channel",
    "send_messages": "Send Messages",
    "send_messages_in_threads": "Send Messages in Threads",
    "create_public_threads": "Create Public Threads",
    "embed_links": "Embed Links",
    "attach_files": "Attach Files",
    "manage_roles": "Manage Roles",
    "create_events": "Create Events",
}
"""Each permission the bot checks, as Discord's settings name it."""

CHANNEL_TABLE: Final = ("view_channel", "send_messages", "embed_links")
"""A table shown in a channel."""
THREAD_TABLE: Final = (
    "view_channel",
    "create_public_threads",
    "send_messages_in_threads",
    "embed_links",
)
"""A table in a thread of the channel (a tournament's round tables too)."""
EVENT_CHANNEL: Final = (*CHANNEL_TABLE, "create_public_threads", "send_messages_in_threads")
"""A tournament's channel: its message and notices there, its tables in its threads."""


def table_needs(*, in_thread: bool) -> tuple[str, ...]:
    """What a table shown where it is opened needs (in a thread: sending in threads)."""
    if in_thread:
        return ("view_channel", "send_messages_in_threads", "embed_links")
    return CHANNEL_TABLE


def invite_url(application_id: int) -> str:
    """The link that adds the bot to a server with :data:`BOT_PERMISSIONS`."""
    return discord.utils.oauth_url(
        application_id, permissions=BOT_PERMISSIONS, scopes=INVITE_SCOPES
    )


def place_of(
    client: discord.Client, channel_id: int
) -> discord.abc.GuildChannel | discord.Thread | None:
    """The channel or thread of ``channel_id`` as the bot's cache has it."""
    channel = client.get_channel(channel_id)
    if isinstance(channel, discord.abc.GuildChannel | discord.Thread):
        return channel
    for guild in client.guilds:
        thread = guild.get_thread(channel_id)
        if thread is not None:
            return thread
    return None


def bot_permissions_in(client: discord.Client, channel_id: int) -> discord.Permissions | None:
    """The bot's permissions in a channel or thread it knows (None: it knows it not)."""
    place = place_of(client, channel_id)
    me = None if place is None else place.guild.me
    return None if place is None or me is None else place.permissions_for(me)


def lacking(
    permissions: discord.Permissions | None, needed: Iterable[str], where: str
) -> str | None:
    """The first of ``needed`` not held, as "the Embed Links permission in <where>" (None: all).

    Unknown permissions (None) lack nothing: Discord will say.
    """
    if permissions is None:
        return None
    for name in needed:
        if not getattr(permissions, name):
            return f"the {NAMES[name]} permission in {where}"
    return None


def needs_of_message(*, in_thread: bool, post: bool, embeds: bool, files: bool) -> list[str]:
    """What a message request needs: posting it, or editing or deleting the bot's own."""
    needed = ["view_channel"]
    if post:
        needed.append("send_messages_in_threads" if in_thread else "send_messages")
    if embeds:
        needed.append("embed_links")
    if files:
        needed.append("attach_files")
    return needed


def may_send(
    client: discord.Client,
    channel_id: int,
    *,
    post: bool,
    embeds: bool = False,
    files: bool = False,
) -> str | None:
    """What the bot lacks for a message request in a channel (None: nothing, or can't tell)."""
    place = place_of(client, channel_id)
    in_thread = isinstance(place, discord.Thread)
    needed = needs_of_message(in_thread=in_thread, post=post, embeds=embeds, files=files)
    return lacking(bot_permissions_in(client, channel_id), needed, f"<#{channel_id}>")
