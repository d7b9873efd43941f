"""The euchre extension (``cogs.euchre``): ``/euchre`` commands and the table components.

:mod:`.cog` parses each interaction, calls :mod:`bot.tables` and answers with what
:mod:`bot.render` draws; :mod:`.routes` holds every custom_id's grammar and item, so
the buttons keep working after a restart, and :mod:`.components` builds them from
render's description; :mod:`.presenter` shows what changed (the public message, the
open hands, the pings) for both cogs, each channel's messages paced by
:mod:`.publisher`; :mod:`.keeping` resumes tables at start-up and runs turn limits
and idle closing; :mod:`.card_emojis` uploads the card pictures; :mod:`.guild_profiles`
keeps each server's name and icon for its web pages.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.discord.guild_profiles import GuildProfiles
from bot.discord.tables.card_emojis import CardEmojis
from bot.discord.tables.keeping import Keeping
from bot.discord.tables.presenter import TablePresenter
from cogs.euchre.cog import Euchre

if TYPE_CHECKING:
    from bot.discord.app import EuchreBot

__all__ = ["CardEmojis", "Euchre", "GuildProfiles", "Keeping", "TablePresenter", "setup"]


async def setup(bot: EuchreBot) -> None:
    """Add the cogs (discord.py calls this on ``load_extension``)."""
    presenter = TablePresenter(bot)
    await bot.add_cog(Euchre(bot, presenter))
    await bot.add_cog(Keeping(bot, presenter))
    await bot.add_cog(CardEmojis(bot))
    await bot.add_cog(GuildProfiles(bot))
