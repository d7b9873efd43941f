"""What the euchre cog's mixins share: their base class and the server a command needs.

A mixin is :class:`Mixin`: ``commands.Cog`` for the type checker, so that it may use
the cog's attributes, and ``object`` when it runs, so that
:class:`~cogs.euchre.cog.Euchre`, which lists the mixins among its bases, is the one
cog. :func:`server_id` is the server a command was used in, or the command's own
sentence, privately, where it was used outside one. :data:`MAX_NUMBER` bounds the options
that take a game's or an event's number.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

import discord

from bot.errors import UserFacingError

if TYPE_CHECKING:
    from discord.ext import commands

    Mixin = commands.Cog
else:
    Mixin = object

__all__ = ["MAX_NUMBER", "Mixin", "server_id"]

MAX_NUMBER: Final = 2**53
"""The largest number an option naming a game or an event takes (Discord's integers stop there)."""


def server_id(interaction: discord.Interaction[Any], refusal: str) -> int:
    """The id of the server ``interaction`` came from; ``refusal`` is raised outside one."""
    if interaction.guild_id is None:
        raise UserFacingError(refusal)
    return interaction.guild_id
