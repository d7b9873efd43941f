"""``/euchre review``: the expert's review of your decisions, as a mixin of the euchre cog.

Like :mod:`.league`, discord.py collects these commands from the cog's MRO. The review
is slow (a fixed search budget a decision), so the answer is deferred and the search
runs in the bot's search pool (:class:`bot.review.Reviewer`); its buttons
(:func:`~bot.discord.buttons.review_button`) step to the game's other deals. A private hand's Review
button reviews a finished deal of the table from the table's own record
(:func:`~bot.discord.buttons.review_button`), or from the game it archived once the table is gone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.discord.replies import answer_as, answer_first
from bot.discord.review import review_view
from bot.discord.tables.components import table_review_view
from bot.render.review import deal_review_text, table_review_text
from bot.review.deal import review_in_pool
from bot.review.service import Reviewer
from bot.tables import NoTableError, no_review_kept
from cogs.euchre.league import league_of
from cogs.euchre.mixins import MAX_NUMBER, Mixin, server_id

if TYPE_CHECKING:
    from bot.discord.app import EuchreBot


__all__ = ["ReviewCommands"]


def _guild_id(interaction: discord.Interaction[EuchreBot]) -> int:
    return server_id(
        interaction, "Reviews are of games played in a server, not in direct messages."
    )


class ReviewCommands(Mixin):
    """``/euchre review [game] [deal]`` and its deal buttons."""

    bot: EuchreBot

    @property
    def reviewer(self) -> Reviewer:
        """The league's reviewer (the league needs the bot's database)."""
        return league_of(self.bot).reviewer

    @app_commands.command(name="review", description="The expert's review of your decisions")
    @app_commands.describe(
        game="The game's number (default: your latest finished game)",
        deal="The deal's number in that game (default: its last deal)",
    )
    async def review(
        self,
        interaction: discord.Interaction[EuchreBot],
        game: app_commands.Range[int, 1, MAX_NUMBER] | None = None,
        deal: app_commands.Range[int, 1, 999] | None = None,
    ) -> None:
        """Review one of your deals privately; buttons step through the game's other deals."""
        guild_id = _guild_id(interaction)
        reviewer = self.reviewer
        await answer_first(interaction)  # the review's search takes a while
        shown = await reviewer.deal(guild_id, interaction.user.id, game, deal)
        view = review_view(shown)
        await interaction.followup.send(
            deal_review_text(shown.game.shown_number, shown.deals, shown.review),
            view=view or discord.utils.MISSING,
            ephemeral=True,
        )

    async def review_step(
        self, interaction: discord.Interaction[EuchreBot], game_id: int, deal: int
    ) -> None:
        """A review's deal button: redraw the message with that deal's review.

        Whoever clicks is who is reviewed: a game they did not play in is refused.
        """
        guild_id = _guild_id(interaction)
        reviewer = self.reviewer
        await answer_first(interaction)
        shown = await reviewer.deal(guild_id, interaction.user.id, deal=deal, game_id=game_id)
        view = review_view(shown)
        await interaction.edit_original_response(
            content=deal_review_text(shown.game.shown_number, shown.deals, shown.review),
            view=view,
        )

    async def table_review(
        self,
        interaction: discord.Interaction[EuchreBot],
        table_id: int,
        seat: int,
        deal: int,
        step: bool,
    ) -> None:
        """A hand's Review button (a new private answer), or a step of that review (redrawn).

        Only the person in ``seat`` may, and only for a deal the table lets be reviewed.
        A table gone from memory is reviewed from the game it archived; one that archived
        none is refused in a sentence saying why.
        """
        answer_as(interaction, "update" if step else "private")
        try:
            table = self.bot.tables.get_any(table_id)
        except NoTableError:
            table = None
        league = self.bot.league
        number = await self.bot.tables.number_of(table_id)
        if table is not None:
            record, deals = table.review_of(interaction.user.id, seat, deal)
        elif league is None:
            raise no_review_kept(number, archive=False)
        else:
            kept = await league.reviewer.table_game(
                interaction.guild_id or 0, interaction.user.id, table_id, seat, deal
            )
            if kept is None:
                raise no_review_kept(number, archive=True)
            record, deals = kept.record, kept.deals
        await answer_first(interaction)  # the review's search takes a while
        if league is not None:
            review = await league.reviewer.review(record, seat, deal)
            playing = table is not None and (await table.snapshot()).status == "playing"
            guild_id = interaction.guild_id or 0
            league.reviewer.asked(
                guild_id, table_id, interaction.user.id, seat, review, playing=playing
            )
        else:
            review = await review_in_pool(self.bot.pool, record, seat, deal)
        text = table_review_text(number, deals, review)
        view = table_review_view(table_id, seat, deal, deals)
        if step:
            await interaction.edit_original_response(content=text, view=view)
        else:
            await interaction.followup.send(
                text, view=view or discord.utils.MISSING, ephemeral=True
            )
