"""Answering interactions: the ephemeral reply that works whether or not we already responded.

Commands and views share these, so every rejected click and every error is answered
the same way.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord.utils import MISSING

from bot.discord.refusals import log_refusal
from bot.errors import UserFacingError

__all__ = ["APOLOGY", "report_error", "send_ephemeral"]

log = logging.getLogger(__name__)

APOLOGY = "Sorry, something went wrong on our side. It has been logged; please try again."


async def send_ephemeral(
    interaction: discord.Interaction[Any],
    content: str = MISSING,
    *,
    embed: discord.Embed = MISSING,
    view: discord.ui.View = MISSING,
) -> None:
    """Send a message only the interaction's user sees.

    The first answer is the interaction response; once the interaction has been
    responded to or deferred, the message goes out as a follow-up instead.
    """
    if interaction.response.is_done():
        await interaction.followup.send(content, embed=embed, view=view, ephemeral=True)
    else:
        await interaction.response.send_message(content, embed=embed, view=view, ephemeral=True)


async def report_error(
    interaction: discord.Interaction[Any], error: BaseException, *, context: str = ""
) -> None:
    """Answer an error ephemerally; this is the error funnel shared by commands and views.

    A :class:`UserFacingError` is answered with its message; anything else is a bug:
    it is logged with its traceback and the user gets :data:`APOLOGY`. ``context``
    names what failed (a command, a view) for the log. Failing to send the answer
    (the interaction expired, Discord is down) is logged, never raised.
    """
    if isinstance(error, UserFacingError):
        content = error.message
    else:
        log.error(
            "Unhandled error in %s (guild %s, channel %s, user %s)",
            context or "interaction",
            interaction.guild_id,
            interaction.channel_id,
            interaction.user.id,
            exc_info=error,
        )
        content = APOLOGY
    try:
        await send_ephemeral(interaction, content)
    except discord.HTTPException as exc:
        log_refusal(log, exc, f"the error reply to user {interaction.user.id}")
