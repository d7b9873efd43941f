"""The euchre cog: slash commands and clicks, each parsed and passed to the table service.

Every interaction is answered first (the response edits the clicked message, or opens
a private one). What follows a change (the public table message, each computer move
as the service makes it, the next turn's ping) is the :class:`~.presenter.TablePresenter`'s
to show, from the service's events.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.embeds import embed_of
from bot.discord.fields import PRESET_CHOICES
from bot.discord.pace.permissions import THREAD_TABLE, lacking, table_needs
from bot.discord.readiness import Readiness
from bot.discord.refusals import log_refusal
from bot.discord.replies import PUBLIC_ANSWER, Answer, answer_as, send_ephemeral, send_public
from bot.discord.routes import CLAIM_CODE, DYNAMIC_ITEMS
from bot.discord.tables.presenter import TablePresenter, on_private_hand
from bot.discord.tournaments.champion_roles import DiscordRoleHands
from bot.discord.tournaments.view import EventDesk
from bot.errors import UserFacingError
from bot.render import TableVerb, dealt_hands_panel, help_panel
from bot.render.fitting import THREAD_NAME, shorten
from bot.render.names import shown
from bot.rules import Action, ActionError
from bot.server.overrides import TableRules
from bot.tables import (
    ClaimRefusedError,
    NoTableError,
    Place,
    Player,
    StaleActionError,
    TableClosedError,
    TableExistsError,
    TableService,
    TableSnapshot,
)
from bot.tournaments.champion_roles import ChampionRoles
from cogs.euchre.daily import DailyCommands
from cogs.euchre.league import LeagueCommands
from cogs.euchre.learning import ReviewCommands
from cogs.euchre.lesson import LessonCommands
from cogs.euchre.preferences import PreferenceCommands
from cogs.euchre.server_config import HouseRulesCommands
from cogs.euchre.tournaments import NOT_RESUMED, STILL_RESUMING, TournamentCommands

if TYPE_CHECKING:
    from bot.discord.app import EuchreBot

__all__ = ["Euchre"]

log = logging.getLogger(__name__)

_TABLE_ANSWERS: dict[TableVerb, Answer] = {
    "hand": "private",
    "hint": "private",
    "rules": "private",
    "hands": "private",
    "again": "public",
}
"""What a table button's answer is, should it be deferred (the rest redraw the table)."""


@app_commands.guild_only()
class Euchre(
    LeagueCommands,
    TournamentCommands,
    ReviewCommands,
    DailyCommands,
    LessonCommands,
    HouseRulesCommands,
    PreferenceCommands,
    commands.GroupCog,
    group_name="euchre",
    group_description="Play euchre",
):
    """``/euchre ...`` and the table components."""

    def __init__(self, bot: EuchreBot, presenter: TablePresenter) -> None:
        """Serve the tables of ``bot.tables``, shown by ``presenter``."""
        self.bot = bot
        self.service: TableService = bot.tables
        self.presenter = presenter
        self.desk = EventDesk(bot, presenter)
        self.champion_roles: ChampionRoles | None = None
        self.events_ready = Readiness(failed=NOT_RESUMED, late=STILL_RESUMING)

    async def cog_load(self) -> None:
        """Route every euchre component to this cog, whichever message it is on.

        The presenter also listens to the tables, to show one reloaded from the store.
        Tournament events (with a database) open their tables in threads the desk makes,
        and those open when the bot stopped go on once the tables are restored (in the
        background: their buttons and commands wait for it).
        """
        self.bot.clicks = self
        self.bot.add_dynamic_items(*DYNAMIC_ITEMS)
        self.service.listeners.append(self.presenter.on_table_event)
        self.start_weekly()
        runner = self.bot.build_tournaments(self.desk.place)
        if runner is not None:
            runner.listeners.append(self.desk.on_change)
            roles = ChampionRoles(
                runner.repo, self.bot.scheduler, DiscordRoleHands(self.bot), clock=runner.now
            )
            roles.listeners.append(self.desk.on_role)
            runner.listeners.append(roles.on_event_change)
            self.champion_roles = roles
            self.bot.scheduler.call_later(0, self.resume_events, name="tournaments resume")
        else:
            self.events_ready.finish()

    async def cog_unload(self) -> None:
        """Stop routing the euchre components here."""
        self.bot.remove_dynamic_items(*DYNAMIC_ITEMS)
        self.stop_weekly()
        if self.presenter.on_table_event in self.service.listeners:
            self.service.listeners.remove(self.presenter.on_table_event)
        if self.bot.clicks is self:
            self.bot.clicks = None
        if self.bot.tournaments is not None:
            self.bot.tournaments.close()
            self.bot.tournaments = None
        if self.champion_roles is not None:
            self.champion_roles.close()
            self.champion_roles = None

    # ------------------------------------------------------------------ slash commands

    @app_commands.command(
        name="new", description="Open a euchre table in this channel", extras=PUBLIC_ANSWER
    )
    @app_commands.describe(
        preset="Play a preset instead of the house rules (where the server lets hosts)",
        rules="Changes for this table only, e.g. stick_the_dealer=yes, target_score=11",
    )
    @app_commands.choices(preset=PRESET_CHOICES)
    @app_commands.autocomplete(rules=HouseRulesCommands.new_rules_autocomplete)
    async def new(
        self,
        interaction: discord.Interaction[EuchreBot],
        preset: app_commands.Choice[str] | None = None,
        rules: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        """Open a table here, or in a new thread when the server prefers threads.

        The host may change the rules for this table only, where the server allows it.
        """
        player, place = _player(interaction), _place(interaction)
        chosen = await self.host_rules(interaction, preset.value if preset else None, rules)
        server = await self.service.server_settings.get(place.guild_id)
        channel, held, where = interaction.channel, interaction.app_permissions, f"<#{place.id}>"
        threads = server.tables_in_threads and isinstance(channel, discord.TextChannel)
        if threads and lacking(held, THREAD_TABLE, where) is None:
            assert isinstance(channel, discord.TextChannel)
            await self._new_in_thread(interaction, channel, player, chosen)
            return
        missing = lacking(held, table_needs(in_thread=place.thread_id is not None), where)
        if missing is not None:  # without it, Discord would refuse the table's messages
            raise UserFacingError(f"I can't keep a table here: I need {missing}.")
        table = await self._open(interaction, place, player, chosen)
        await self.presenter.post(interaction, table)

    async def _open(
        self,
        interaction: discord.Interaction[EuchreBot],
        place: Place,
        player: Player,
        chosen: TableRules,
    ) -> TableSnapshot:
        """Open a table at ``place``; a refusal for a table already there links to it."""
        try:
            table = await self.service.open(
                place, player, rules=chosen.rules, rules_overridden=chosen.overridden
            )
        except TableExistsError as refusal:
            link = await self._message_link(interaction, refusal.table_id)
            if link is None:
                raise
            raise TableExistsError(f"{refusal} It's here: {link}") from refusal
        return await table.snapshot()

    async def _message_link(
        self, interaction: discord.Interaction[EuchreBot], table_id: int | None
    ) -> str | None:
        """A link to the public message of the open table ``table_id`` in this channel."""
        table = self.service.at(_place(interaction).id)
        channel = interaction.channel
        if table is None or table.id != table_id:
            return None
        message_id = (await table.snapshot()).message_id
        if message_id is None or not isinstance(channel, discord.TextChannel | discord.Thread):
            return None
        return channel.get_partial_message(message_id).jump_url

    async def _new_in_thread(
        self,
        interaction: discord.Interaction[EuchreBot],
        channel: discord.TextChannel,
        player: Player,
        chosen: TableRules,
    ) -> None:
        opened = f"🃏 {shown(player.name)} opened a euchre table: take a seat in the thread."
        message_id = await send_public(interaction, opened)
        guild_id = channel.guild.id
        try:
            if message_id is None:
                raise TypeError("no message was created")
            thread = await channel.create_thread(
                name=shorten(f"Euchre with {player.name}", THREAD_NAME),
                message=discord.Object(message_id),
                auto_archive_duration=1440,
            )
        except (discord.HTTPException, TypeError) as exc:
            log.warning("Could not open a thread in channel %s: %s", channel.id, exc)
            try:
                answer = await self._open(interaction, Place(guild_id, channel.id), player, chosen)
            except UserFacingError:
                await interaction.delete_original_response()
                raise
            await self.presenter.replace_answer(interaction, answer)
            return
        table = await self.service.open(
            Place(guild_id, channel.id, thread.id),
            player,
            rules=chosen.rules,
            rules_overridden=chosen.overridden,
        )
        await self.presenter.post_in(thread, await table.snapshot())

    @app_commands.command(name="hand", description="See your cards at this channel's table")
    async def hand(self, interaction: discord.Interaction[EuchreBot]) -> None:
        """Open the private hand (as a new private message), as the store has it."""
        table = self.service.find(_place(interaction).id, interaction.user.id)
        await self._hand_button(interaction, table.id, "hand")

    @app_commands.command(name="leave", description="Leave this channel's table")
    async def leave(self, interaction: discord.Interaction[EuchreBot]) -> None:
        """Leave the table; in a game a computer plays the seat from now on."""
        table = self.service.find(_place(interaction).id, interaction.user.id)
        playing = (await table.snapshot()).status == "playing"
        await table.lobby.leave(interaction.user.id)
        note = " A computer plays your seat from now on." if playing else ""
        await send_ephemeral(interaction, f"You left table {table.number}.{note}")
        self.presenter.forget_hand(table.id, interaction.user.id)
        self.presenter.show(await table.snapshot(), urgent=True)

    @app_commands.command(
        name="abort",
        description="Close this channel's table (its host, or a server admin)",
        extras=PUBLIC_ANSWER,
    )
    async def abort(self, interaction: discord.Interaction[EuchreBot]) -> None:
        """Close the table of this channel (or the one the user hosts)."""
        user = interaction.user.id
        table = self.service.at(_place(interaction).id)
        if table is None:
            hosted = self.service.hosted_by(user)
            if len(hosted) != 1:
                raise NoTableError("There's no table here to close.")
            table = hosted[0]
        may_manage = interaction.permissions.manage_guild
        await table.lobby.abort(user, may_manage=may_manage)
        await send_public(
            interaction,
            f"🛑 {shown(_player(interaction).name)} closed table {table.number}.",
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @app_commands.command(name="help", description="How to play euchre here")
    async def help(self, interaction: discord.Interaction[EuchreBot]) -> None:
        """Explain the commands and buttons, privately, with this server's scores."""
        guild = interaction.guild_id
        rules = None if guild is None else (await self.service.server_settings.get(guild)).rules
        await send_ephemeral(interaction, embed=embed_of(help_panel(rules)))

    # ------------------------------------------------------------------ table buttons

    async def table_button(
        self, interaction: discord.Interaction[EuchreBot], table_id: int, verb: TableVerb
    ) -> None:
        """A button of the public table message (or a hand's Refresh)."""
        answer_as(interaction, _TABLE_ANSWERS.get(verb, "update"))
        if verb == "hand" and on_private_hand(interaction):
            answer_as(interaction, "update")  # a hand's Refresh redraws it
        if verb in ("hand", "hint"):
            await self._hand_button(interaction, table_id, verb)
        elif verb == "rules":
            await self.show_table_rules(interaction, table_id)
        elif verb == "hands":
            await self._dealt_hands(interaction, table_id)
        elif verb == "again":
            await self._play_again(interaction, table_id)
        elif verb in ("start", "join", "cpu", "leave", "back"):
            await self._seat_button(interaction, table_id, verb)
        elif verb == "activity":
            await self._open_activity(interaction)
        else:
            raise UserFacingError("That button isn't valid any more.")

    async def seat_chosen(
        self, interaction: discord.Interaction[EuchreBot], table_id: int, seat: int
    ) -> None:
        """Sit in the seat picked in the lobby's select."""
        table = await self.service.fetch(table_id)
        await table.lobby.join(_player(interaction), seat)
        await self.presenter.answer(interaction, await table.snapshot())

    async def level_chosen(
        self, interaction: discord.Interaction[EuchreBot], table_id: int, level: str
    ) -> None:
        """The host chose how well the table's computers play, in the lobby's select."""
        table = await self.service.fetch(table_id)
        await table.lobby.set_computer_level(interaction.user.id, level)
        await self.presenter.answer(interaction, await table.snapshot())

    async def _open_activity(self, interaction: discord.Interaction[EuchreBot]) -> None:
        """Discord opens the Activity for the clicker, in this channel: its table, drawn live."""
        if not self.bot.settings.serves_activity:
            raise UserFacingError("This bot doesn't serve the table as an Activity any more.")
        try:
            await interaction.response.launch_activity()
        except discord.HTTPException as exc:
            log_refusal(log, exc, "launching the Activity")
            raise UserFacingError(
                "Discord couldn't open the table as an Activity here: use the buttons."
            ) from exc

    async def _seat_button(
        self, interaction: discord.Interaction[EuchreBot], table_id: int, verb: TableVerb
    ) -> None:
        """A seat or the start: the table looked up takes the request; the answer shows it."""
        table, user = await self.service.fetch(table_id), interaction.user.id
        if verb == "start":
            await table.lobby.start(user)
        elif verb == "join":
            await table.lobby.join(_player(interaction))
        elif verb == "cpu":
            await table.lobby.add_computer(user)
        elif verb == "leave":
            await table.lobby.leave(user)
        else:
            await table.absence.take_back(user)
        await self.presenter.answer(interaction, await table.snapshot())

    async def _play_again(self, interaction: discord.Interaction[EuchreBot], table_id: int) -> None:
        table = await self.service.play_again(table_id, _player(interaction))
        await self.presenter.played_again(interaction, table_id, await table.snapshot())

    async def _dealt_hands(
        self, interaction: discord.Interaction[EuchreBot], table_id: int
    ) -> None:
        """Every hand of the deal that has just ended, privately, for whoever asks."""
        public, dealt = self.service.get_any(table_id).watched()
        four_colour = (await self.service.crew.preferences_of(interaction.user.id)).four_colour
        embed = embed_of(dealt_hands_panel(public, dealt, four_colour))
        await send_ephemeral(interaction, embed=embed)

    # ------------------------------------------------------------------ private hand

    async def _hand_button(
        self, interaction: discord.Interaction[EuchreBot], table_id: int, verb: TableVerb
    ) -> None:
        """Your hand (opened privately, or redrawn on a private hand) or Hint, as stored.

        A table that closed or is gone is answered with the hand's end instead.
        """
        self.presenter.here(table_id, interaction.user.id)
        try:
            table = await self.service.fetch_in_step(table_id)
        except (TableClosedError, NoTableError) as refusal:
            await self.presenter.hand_gone(interaction, refusal)
            return
        if verb == "hint":
            await self.presenter.send_hint(interaction, table.id)
        elif on_private_hand(interaction):
            await self.presenter.redraw_hand(interaction, await table.snapshot())
        else:
            await self.presenter.send_hand(interaction, await table.snapshot())

    async def hand_action(
        self,
        interaction: discord.Interaction[EuchreBot],
        table_id: int,
        seat: int,
        stamp: tuple[int, int],
        code: str,
    ) -> None:
        """A move from a private hand: apply it and answer with the hand redrawn.

        Its person is here, whether or not the move is taken: their ping goes at once.
        What follows (the table shown, the computers' turns, the next ping) comes of the
        service's events.
        """
        self.presenter.here(table_id, interaction.user.id)
        user = interaction.user.id
        try:
            action = None if code == CLAIM_CODE else _action(code)
            table = await self.service.fetch(table_id)
            if action is None:
                await table.turns.claim(user, seat, stamp)
            else:
                await table.turns.act(user, seat, stamp, action)
        except (TableClosedError, NoTableError) as refusal:
            await self.presenter.hand_gone(interaction, refusal)
            return
        except (StaleActionError, ClaimRefusedError) as exc:
            table = self.service.get_any(table_id)
            await self.presenter.redraw_hand(
                interaction,
                await table.snapshot(),
                f"{exc.message} Here is your hand now.",
            )
            return
        await self.presenter.redraw_hand(interaction, await table.snapshot())


def _action(code: str) -> Action:
    """The action of a hand button's id; a sentence when it names none."""
    try:
        return Action.from_code(code)
    except ActionError:
        raise UserFacingError(
            "That button isn't valid: click Your hand on the table for a fresh hand."
        ) from None


def _player(interaction: discord.Interaction[EuchreBot]) -> Player:
    user = interaction.user
    return Player(user.id, user.display_name)


def _place(interaction: discord.Interaction[EuchreBot]) -> Place:
    guild_id = interaction.guild_id
    channel = interaction.channel
    if guild_id is None or channel is None:
        raise UserFacingError("Euchre tables live in server channels, not in direct messages.")
    if isinstance(channel, discord.Thread) and channel.parent_id is not None:
        return Place(guild_id, channel.parent_id, channel.id)
    return Place(guild_id, channel.id)
