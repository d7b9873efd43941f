"""The public table message: edited in place, or posted again when editing no longer works.

Discord limits edits of messages older than an hour, and a message may have been
deleted (by a moderator, or with its channel's history). :func:`publish` edits the
table's message while it is young enough and posts a fresh one otherwise, deleting
the old one where it can; the table then remembers the new message.

A table in a thread meets moderators' thread tools too. An archived thread refuses
edits ("Thread is archived"): the bot unarchives it (allowed to anyone who may send in
a thread that is not locked) and edits again. A deleted thread or channel is reported
to the caller as :data:`GONE`: the table has nowhere to be shown.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import TYPE_CHECKING, Any, Final, Literal, Protocol

import discord

from bot.discord.pace.permissions import may_send, place_of
from bot.discord.refusals import UNKNOWN_CHANNEL, log_refusal
from bot.tables import Place

if TYPE_CHECKING:
    from bot.discord.app import EuchreBot

__all__ = [
    "EDITABLE_FOR",
    "FAILED",
    "GONE",
    "SHOWN",
    "Outcome",
    "Shown",
    "newest",
    "publish",
    "too_old_to_edit",
]

log = logging.getLogger(__name__)

EDITABLE_FOR: Final = timedelta(minutes=55)
"""How old the public message may be before it is posted again instead of edited."""

_GONE: Final = (UNKNOWN_CHANNEL, 10008)  # Unknown Channel, Unknown Message
THREAD_ARCHIVED: Final = 50083
"""Discord's code for a request an archived thread refuses."""

Outcome = Literal["shown", "failed", "gone"]
"""What came of :func:`publish`: shown, failed (logged), or the channel is gone."""
SHOWN: Final[Outcome] = "shown"
FAILED: Final[Outcome] = "failed"
GONE: Final[Outcome] = "gone"


class Shown(Protocol):
    """What showing a table reads of it: a ``TableSnapshot`` (or the ``Table`` itself)."""

    @property
    def id(self) -> int:
        """The table's id."""
        ...

    @property
    def number(self) -> int:
        """The table's number as people see it."""
        ...

    @property
    def place(self) -> Place:
        """Its channel or thread."""
        ...

    @property
    def message_id(self) -> int | None:
        """Its public message, as known when it was shown."""
        ...


def newest(*message_ids: int | None) -> int | None:
    """The newest of some message ids (a snowflake grows with time), None if none is known."""
    known = [m for m in message_ids if m is not None]
    return max(known) if known else None


def too_old_to_edit(message_id: int) -> bool:
    """Whether a message (by its snowflake's time) is past :data:`EDITABLE_FOR`."""
    return discord.utils.utcnow() - discord.utils.snowflake_time(message_id) > EDITABLE_FOR


async def publish(
    bot: EuchreBot,
    table: Shown,
    *,
    message_id: int | None,
    remember: Callable[[int], Awaitable[None]],
    content: str | None,
    embed: discord.Embed,
    view: discord.ui.View | None,
    allowed_mentions: discord.AllowedMentions,
    post_if_missing: bool = False,
) -> Outcome:
    """Show the table in its public message: edit it, or post it anew when it's old or gone.

    ``message_id``: its message now (None: none yet), posted only with ``post_if_missing``
    (at a restart); a message posted anew is handed to ``remember``. Failures are logged,
    never raised: the game goes on without its picture. ``"gone"``: Discord knows the
    table's channel (or thread) no more.
    """
    old = message_id
    if old is None and not post_if_missing:
        return SHOWN
    channel = bot.get_partial_messageable(table.place.id, guild_id=table.place.guild_id)
    if old is not None and not too_old_to_edit(old):
        message = channel.get_partial_message(old)

        async def edit() -> None:
            await message.edit(
                content=content, embed=embed, view=view, allowed_mentions=allowed_mentions
            )

        try:
            await _unarchiving(bot, table, edit)
            return SHOWN
        except discord.NotFound as exc:
            if exc.code == UNKNOWN_CHANNEL:
                log.info("table %d: its channel %d is gone", table.id, table.place.id)
                return GONE
            log.info("table %d: its message %d is gone; posting it again", table.id, old)
        except discord.HTTPException as exc:
            log_refusal(log, exc, f"table {table.id}: editing its message")
            return FAILED
    missing = may_send(bot, table.place.id, post=True, embeds=True)
    if missing is not None:  # Discord would refuse it (403)
        log.warning(
            "table %d: its message could not be posted again: the bot lacks %s", table.id, missing
        )
        return FAILED
    kwargs: dict[str, Any] = {"allowed_mentions": allowed_mentions, "embed": embed}
    if view is not None:
        kwargs["view"] = view
    try:
        sent = await channel.send(content, **kwargs)
    except discord.HTTPException as exc:
        if exc.code == UNKNOWN_CHANNEL:
            log.info("table %d: its channel %d is gone", table.id, table.place.id)
            return GONE
        if exc.code in _GONE:
            log.info("table %d: could not post its message again: %s", table.id, exc)
        else:
            log_refusal(log, exc, f"table {table.id}: posting its message again")
        return FAILED
    await remember(sent.id)
    if old is not None:
        try:
            await _unarchiving(bot, table, channel.get_partial_message(old).delete)
        except discord.NotFound:
            log.info("table %d: the old message %d was deleted already", table.id, old)
        except discord.HTTPException as exc:
            log_refusal(log, exc, f"table {table.id}: deleting its old message {old}")
    return SHOWN


async def _unarchiving(
    bot: EuchreBot, table: Shown, request: Callable[[], Awaitable[object]]
) -> None:
    """Make ``request``; if the table's thread is archived, unarchive it and make it again."""
    try:
        await request()
        return
    except discord.HTTPException as exc:
        if exc.code != THREAD_ARCHIVED or table.place.thread_id is None:
            raise
        archived = exc
    thread_id = table.place.thread_id
    if not await _may_reopen(bot, thread_id):
        log.warning(
            "table %d: its thread %d is archived and the bot may not reopen it (locked, or "
            "no Send Messages in Threads)",
            table.id,
            thread_id,
        )
        raise archived  # Discord would refuse the reopening (403) and count it
    try:
        await bot.http.edit_channel(
            thread_id, archived=False, reason=f"euchre table {table.number} is still being played"
        )
    except discord.HTTPException:
        log.info("table %d: its thread %d is archived; reopening it failed", table.id, thread_id)
        raise
    log.info("table %d: its thread %d was archived; reopened it", table.id, thread_id)
    await request()


async def _may_reopen(bot: EuchreBot, thread_id: int) -> bool:
    """Whether the bot may unarchive its table's thread (a thread it can't read: it tries).

    Not one a moderator locked, and only with Send Messages in Threads. discord.py forgets
    archived threads, so the thread is read first.
    """
    thread: object = place_of(bot, thread_id)
    if thread is None:
        try:
            thread = await bot.fetch_channel(thread_id)
        except discord.HTTPException:
            return True
    if not isinstance(thread, discord.Thread):
        return True
    me = thread.guild.me
    sends = me is None or thread.permissions_for(me).send_messages_in_threads
    return sends and not thread.locked
