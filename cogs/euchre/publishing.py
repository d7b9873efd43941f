"""The public table message: edited in place, or posted again when editing no longer works.

Discord limits edits of messages older than an hour, and a message may have been
deleted (by a moderator, or with its channel's history). :func:`publish` edits the
table's message while it is young enough and posts a fresh one otherwise, deleting
the old one where it can; the table then remembers the new message.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import TYPE_CHECKING, Any, Final

import discord

from bot.tables import Table, TableService

if TYPE_CHECKING:
    from bot.app import EuchreBot

__all__ = ["EDITABLE_FOR", "publish", "too_old_to_edit"]

log = logging.getLogger(__name__)

EDITABLE_FOR: Final = timedelta(minutes=55)
"""How old the public message may be before it is posted again instead of edited."""

_GONE: Final = (10003, 10008)  # Unknown Channel, Unknown Message


def too_old_to_edit(message_id: int) -> bool:
    """Whether a message (by its snowflake's time) is past :data:`EDITABLE_FOR`."""
    return discord.utils.utcnow() - discord.utils.snowflake_time(message_id) > EDITABLE_FOR


async def publish(
    bot: EuchreBot,
    service: TableService,
    table: Table,
    *,
    content: str | None,
    embed: discord.Embed,
    view: discord.ui.View | None,
    allowed_mentions: discord.AllowedMentions,
    post_if_missing: bool = False,
) -> None:
    """Show the table in its public message: edit it, or post it anew when it's old or gone.

    A table without a message is posted only with ``post_if_missing`` (at a restart).
    Failures are logged, never raised: the game goes on without its picture.
    """
    old = table.message_id
    if old is None and not post_if_missing:
        return
    channel = bot.get_partial_messageable(table.place.id, guild_id=table.place.guild_id)
    if old is not None and not too_old_to_edit(old):
        try:
            await channel.get_partial_message(old).edit(
                content=content, embed=embed, view=view, allowed_mentions=allowed_mentions
            )
            return
        except discord.NotFound:
            log.info("table %d: its message %d is gone; posting it again", table.id, old)
        except discord.HTTPException as exc:
            log.warning("table %d: could not edit its message: %s", table.id, exc)
            return
    kwargs: dict[str, Any] = {"allowed_mentions": allowed_mentions, "embed": embed}
    if view is not None:
        kwargs["view"] = view
    try:
        sent = await channel.send(content, **kwargs)
    except discord.HTTPException as exc:
        level = logging.INFO if exc.code in _GONE else logging.WARNING
        log.log(level, "table %d: could not post its message again: %s", table.id, exc)
        return
    await service.set_message(table, sent.id)
    if old is not None:
        try:
            await channel.get_partial_message(old).delete()
        except discord.HTTPException as exc:
            log.info("table %d: the old message %d stays: %s", table.id, old, exc)
