"""``/euchre daily``: the server's deal of the day, played privately, as a mixin of the euchre cog.

Every message is ephemeral. A move's button (:class:`.routes.DailyButton`) carries the
day and the action number it was drawn at; the play is kept in the store after each
move (:class:`bot.league.daily_play.DailyService`), so a restart resumes it and a second
try, from any process, is refused with the stored result.
"""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.errors import UserFacingError
from bot.league.daily_play import DailyService, DailyStep
from bot.render.daily import daily_text, leaderboard_text, result_text, solo_buttons

from .league import league_of
from .routes import DailyButton

if TYPE_CHECKING:
    from discord.ext import commands

    from bot.app import EuchreBot
    from bot.tables import TableService

    _Mixin = commands.Cog
else:
    _Mixin = object

__all__ = ["DailyCommands", "daily_answer"]

_SHOW = [
    app_commands.Choice(name="play today's deal", value="play"),
    app_commands.Choice(name="today's leaderboard", value="leaderboard"),
]


def daily_answer(step: DailyStep) -> tuple[str, discord.ui.View | None]:
    """The message of a daily deal's step: the deal and the moves, or the result."""
    view = step.view
    if view is None:
        assert step.points is not None and step.par is not None
        team = step.deal.seat % 2
        tricks = step.game.results[0].tricks if step.game.results else (0, 0)
        taken = (tricks[team], tricks[1 - team])
        return result_text(step.day, step.points, step.par, taken), None
    buttons = discord.ui.View(timeout=None)
    for button in solo_buttons(view):
        buttons.add_item(
            DailyButton(
                step.day, step.index, str(button.action), button.position, label=button.label
            )
        )
    buttons.stop()
    return daily_text(step.day, view), buttons


def _guild_id(interaction: discord.Interaction[EuchreBot]) -> int:
    if interaction.guild_id is None:
        raise UserFacingError("The daily deal belongs to a server: play it in one.")
    return interaction.guild_id


class DailyCommands(_Mixin):
    """``/euchre daily [show]`` and the daily deal's move buttons."""

    bot: EuchreBot
    service: TableService

    @property
    def daily(self) -> DailyService:
        """The daily deal (kept in the league's database)."""
        return league_of(self.bot).daily

    @app_commands.command(name="daily", description="Play the server's deal of the day, privately")
    @app_commands.describe(show="Play today's deal (default) or see today's leaderboard")
    @app_commands.choices(show=_SHOW)
    async def daily_deal(
        self,
        interaction: discord.Interaction[EuchreBot],
        show: app_commands.Choice[str] | None = None,
    ) -> None:
        """Start or resume today's deal, or show today's results best first."""
        guild_id = _guild_id(interaction)
        daily = self.daily
        settings = await self.service.settings_of(guild_id)
        await interaction.response.defer(ephemeral=True, thinking=True)
        if show is not None and show.value == "leaderboard":
            day, board = await daily.board(guild_id, settings.daily_hour)
            rows = [(p.display_name, p.points or 0, p.par, days) for p, days in board]
            await interaction.followup.send(leaderboard_text(day, rows), ephemeral=True)
            return
        user = interaction.user
        step = await daily.begin(
            guild_id, user.id, user.display_name, settings.rules, settings.daily_hour
        )
        content, view = daily_answer(step)
        await interaction.followup.send(content, view=view or discord.utils.MISSING, ephemeral=True)

    async def daily_action(
        self, interaction: discord.Interaction[EuchreBot], day: date, index: int, code: str
    ) -> None:
        """A move of the clicker's daily deal: take it and redraw the message."""
        guild_id = _guild_id(interaction)
        daily = self.daily
        settings = await self.service.settings_of(guild_id)
        await interaction.response.defer(ephemeral=True, thinking=False)
        step = await daily.act(
            guild_id,
            interaction.user.id,
            settings.rules,
            settings.daily_hour,
            (day, index),
            code,
        )
        content, view = daily_answer(step)
        await interaction.edit_original_response(content=content, view=view)
