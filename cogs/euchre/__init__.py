"""The euchre extension (``cogs.euchre``): ``/euchre`` commands and the table components.

:mod:`.cog` parses each interaction, calls :mod:`bot.tables` and answers with what
:mod:`bot.render` draws; :mod:`.routes` holds every custom_id's grammar and item, so
the buttons keep working after a restart, and :mod:`.components` builds them from
render's description; :mod:`.keeping` resumes tables at start-up and runs turn limits
and idle closing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cog import Euchre
from .keeping import Keeping

if TYPE_CHECKING:
    from bot.app import EuchreBot

__all__ = ["Euchre", "Keeping", "setup"]


async def setup(bot: EuchreBot) -> None:
    """Add the cogs (discord.py calls this on ``load_extension``)."""
    euchre = Euchre(bot)
    await bot.add_cog(euchre)
    await bot.add_cog(Keeping(bot, euchre))
