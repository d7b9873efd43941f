"""Which event a tournament command means: the channel's, or the server's event of a number.

Small helpers of :mod:`.tournaments`. People name an event by its number on the server
(``shown_number``, as ``/euchre tournament history`` and the web pages show it); what
these return is the event's id, which stays inside the bot.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.errors import UserFacingError
from bot.tournaments.runner import TournamentRunner
from cogs.euchre.mixins import server_id

if TYPE_CHECKING:
    from bot.discord.app import EuchreBot

__all__ = ["channel_event", "numbered_event"]


async def channel_event(
    runner: TournamentRunner, interaction: discord.Interaction[EuchreBot]
) -> int:
    """The open event of this channel (the newest of the server's if none is open here)."""
    channel_id = interaction.channel_id
    open_here = None if channel_id is None else await runner.repo.open_in_channel(channel_id)
    if open_here is not None and open_here.id is not None:
        return open_here.id
    guild_id = interaction.guild_id
    recent = [] if guild_id is None else await runner.repo.list_by_guild(guild_id, limit=25)
    here = [e.id for e in recent if e.channel_id == channel_id and e.id is not None]
    if here:
        return here[0]
    raise UserFacingError(
        "There's no event in this channel: start one with /euchre tournament new."
    )


async def numbered_event(
    runner: TournamentRunner, interaction: discord.Interaction[EuchreBot], number: int
) -> int:
    """The server's event that people know as ``number``; a refusal when it has none."""
    guild_id = server_id(interaction, "Tournaments live in servers, not in direct messages.")
    found = await runner.repo.numbered(guild_id, number)
    if found is None or found.id is None:
        raise UserFacingError(
            f"This server has no event {number}: /euchre tournament history lists its events."
        )
    return found.id
