"""``/euchre daily``: the server's deal of the day, played privately, as a mixin of the euchre cog.

Every message is ephemeral. A move's button (:func:`~bot.discord.buttons.daily_button`) carries the
day and the action number it was drawn at; the play is kept in the store after each
move (:class:`bot.daily.service.DailyService`), so a restart resumes it and a second
try, from any process, is refused with the stored result.
"""

from __future__ import annotations

import functools
import logging
from datetime import date
from typing import TYPE_CHECKING, Final

import discord
from discord import app_commands

from bot.daily.service import DailyService
from bot.discord.daily import daily_answer
from bot.discord.refusals import UNREACHABLE_CHANNEL, describe, log_refusal
from bot.discord.replies import answer_first
from bot.render.daily import (
    leaderboard_texts,
    weekly_texts,
)
from bot.tables.scheduler import Timer
from cogs.euchre.league import league_of
from cogs.euchre.mixins import Mixin, server_id

if TYPE_CHECKING:
    from bot.discord.app import EuchreBot
    from bot.discord.tables.presenter import TablePresenter
    from bot.tables import TableService


__all__ = ["WEEKLY_EVERY", "DailyCommands"]

log = logging.getLogger(__name__)

WEEKLY_EVERY: Final = 3600.0
"""Seconds between looks for a finished week to sum up (the post waits at most this long)."""

_SHOW = [
    app_commands.Choice(name="play today's deal", value="play"),
    app_commands.Choice(name="today's leaderboard", value="leaderboard"),
]


def _guild_id(interaction: discord.Interaction[EuchreBot]) -> int:
    return server_id(interaction, "The daily deal belongs to a server: play it in one.")


class DailyCommands(Mixin):
    """``/euchre daily [show]`` and the daily deal's move buttons."""

    bot: EuchreBot
    service: TableService
    presenter: TablePresenter
    _weekly: Timer | None = None
    _warned: frozenset[tuple[int, int]] = frozenset()
    """The servers' weekly channels already said to be out of reach (WARNING once each)."""

    def start_weekly(self) -> None:
        """Look for a finished week to post now, then every :data:`WEEKLY_EVERY` seconds."""
        self._weekly = self.bot.scheduler.call_later(0, self._weekly_tick, name="daily weekly")

    def stop_weekly(self) -> None:
        """Stop looking."""
        if self._weekly is not None:
            self._weekly.cancel()
            self._weekly = None

    async def _weekly_tick(self) -> None:
        try:
            await self.post_weeks()
        except Exception:
            log.exception("The daily deal's weekly summaries failed; the next look tries again")
        if self._weekly is not None:
            self._weekly = self.bot.scheduler.call_later(
                WEEKLY_EVERY, self._weekly_tick, name="daily weekly"
            )

    async def post_weeks(self) -> int:
        """Post each server's last finished week that was played and not yet posted.

        Only a server this process sees is looked at, and only a text channel of it is
        posted in (a channel id saved from elsewhere is never used). A server's week is
        claimed in the store first, so only one process posts it. A post the bot lacks the
        permissions for, or Discord refuses as out of reach (``UNREACHABLE_CHANNEL``), keeps
        the claim: that week is skipped. Any other failure gives the claim back, for the
        next look.
        """
        if self.bot.league is None:
            return 0
        daily = self.bot.league.daily
        posted = 0
        for guild_id, channel_id, hour in await daily.repo.weekly_channels():
            guild = self.bot.get_guild(guild_id)
            if guild is None or guild.unavailable:  # another process's server, or not here now
                continue
            first, last = daily.last_week(hour)
            leaders = await daily.weekly_leaders(guild_id, first, last)
            if not leaders:
                continue
            if not isinstance(guild.get_channel(channel_id), discord.TextChannel):
                self._unreachable(guild_id, channel_id, "it is not a text channel of the server")
                continue
            if not await daily.repo.claim_week(guild_id, first):
                continue
            texts = weekly_texts(first, last, leaders)
            if await self._post_week(daily, (guild_id, channel_id), first, texts):
                posted += 1
        return posted

    async def _post_week(
        self, daily: DailyService, where: tuple[int, int], first: date, texts: list[str]
    ) -> bool:
        """Whether the week's texts were posted in ``where`` (server, channel).

        If none was, the claim is given back, unless Discord refused the channel as out
        of reach.
        """
        guild_id, channel_id = where
        channel = self.bot.get_partial_messageable(channel_id, guild_id=guild_id)
        for part, text in enumerate(texts):
            try:  # in the channel's turn, as every message of the bot
                await self.presenter.publisher.call(
                    channel_id,
                    "post",
                    functools.partial(
                        channel.send, text, allowed_mentions=discord.AllowedMentions.none()
                    ),
                )
            except discord.HTTPException as exc:
                if exc.code in UNREACHABLE_CHANNEL:
                    self._unreachable(guild_id, channel_id, describe(exc))
                    return False
                log_refusal(log, exc, f"the daily deal's week in channel {channel_id}")
            except PermissionError as exc:  # the bot's permissions there, as it sees them
                self._unreachable(guild_id, channel_id, str(exc))
                return False
            except TimeoutError as exc:
                log.warning("Could not post the daily deal's week in %s: %s", channel_id, exc)
            else:
                continue
            if not part:  # nothing of it was posted: the next look tries again
                await daily.repo.release_week(guild_id, first)
            return False
        return True

    def _unreachable(self, guild_id: int, channel_id: int, why: str) -> None:
        """Say once (a WARNING) that a server's week can't be posted in its channel."""
        first = (guild_id, channel_id) not in self._warned
        self._warned = self._warned | {(guild_id, channel_id)}
        log.log(
            logging.WARNING if first else logging.DEBUG,
            "Server %s: the daily deal's week is not posted in channel %s (%s); "
            "an admin can choose another with /euchre settings set setting:daily_channel",
            guild_id,
            channel_id,
            why,
        )

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
        await answer_first(interaction)
        settings = await self.service.server_settings.get(guild_id)
        if show is not None and show.value == "leaderboard":
            day, board = await daily.board(guild_id, settings.daily_hour)
            rows = [(p.display_name, p.points or 0, p.par, days) for p, days in board]
            for text in leaderboard_texts(day, rows):
                await interaction.followup.send(text, ephemeral=True)
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
        await answer_first(interaction)
        settings = await self.service.server_settings.get(guild_id)
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
