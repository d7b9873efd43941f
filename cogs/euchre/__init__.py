"""The euchre extension (``cogs.euchre``): ``/euchre`` commands and the table components.

:mod:`.cog` parses each interaction, calls :mod:`bot.tables` and answers with what
:mod:`bot.render` draws; :mod:`.components` holds the buttons, whose custom_ids carry
the table id so they keep working after a restart.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cog import Euchre

if TYPE_CHECKING:
    from bot.app import EuchreBot

__all__ = ["Euchre", "setup"]


async def setup(bot: EuchreBot) -> None:
    """Add the cog (discord.py calls this on ``load_extension``)."""
    await bot.add_cog(Euchre(bot))
