"""The euchre cog: slash commands and clicks, each parsed, passed to the table service, drawn.

Every interaction is answered first (the response edits the clicked message, or opens
a private one) and the slower work follows: computer moves, then one edit of the
public table message. A private hand opened in the last 14 minutes is refreshed when
the turn passes to its owner, so players rarely need to reopen it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserFacingError
from bot.render import (
    TableVerb,
    hand_buttons,
    hand_embed,
    help_embed,
    table_embed,
    turn_mention,
)
from bot.replies import send_ephemeral
from bot.tables import (
    NoTableError,
    Place,
    Player,
    Progress,
    StaleActionError,
    Table,
    TableService,
    decode_action,
)
from bot.tables.house_rules import TableRules

from .components import finished_view, hand_view, public_view
from .house_rules import PRESET_CHOICES, HouseRulesCommands
from .league import LeagueCommands
from .publishing import publish
from .routes import DYNAMIC_ITEMS

if TYPE_CHECKING:
    from bot.app import EuchreBot

__all__ = ["Euchre"]

log = logging.getLogger(__name__)

HAND_EDITABLE_FOR: Final = 14 * 60.0
"""Seconds a private hand stays editable through its interaction (Discord allows 15 min)."""

_PRUNE_EVERY: Final = 256


@dataclass(slots=True)
class _OpenHand:
    """The interaction whose response shows a player's private hand."""

    interaction: discord.Interaction[EuchreBot]
    opened_at: float


@dataclass(frozen=True, slots=True)
class _Public:
    """The arguments of a public table message."""

    content: str | None
    embed: discord.Embed
    view: discord.ui.View | None
    allowed_mentions: discord.AllowedMentions


@app_commands.guild_only()
class Euchre(
    LeagueCommands,
    HouseRulesCommands,
    commands.GroupCog,
    group_name="euchre",
    group_description="Play euchre",
):
    """``/euchre ...`` and the table components."""

    def __init__(self, bot: EuchreBot) -> None:
        """Serve the tables of ``bot.tables``."""
        self.bot = bot
        self.service: TableService = bot.tables
        self._hands: dict[tuple[int, int], _OpenHand] = {}
        self._remembered = 0

    async def cog_load(self) -> None:
        """Route every euchre component to this cog, whichever message it is on."""
        self.bot.clicks = self
        self.bot.add_dynamic_items(*DYNAMIC_ITEMS)

    async def cog_unload(self) -> None:
        """Stop routing the euchre components here."""
        self.bot.remove_dynamic_items(*DYNAMIC_ITEMS)
        if self.bot.clicks is self:
            self.bot.clicks = None

    # ------------------------------------------------------------------ slash commands

    @app_commands.command(name="new", description="Open a euchre table in this channel")
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
        prefs = await self.service.table_prefs(place.guild_id)
        channel = interaction.channel
        if prefs.tables_in_threads and isinstance(channel, discord.TextChannel):
            await self._new_in_thread(interaction, channel, player, chosen)
            return
        table = await self.service.open(
            place, player, rules=chosen.rules, rules_overridden=chosen.overridden
        )
        public = self._public(table)
        callback = await interaction.response.send_message(
            public.content, embed=public.embed, view=_or_missing(public.view)
        )
        if callback.message_id is not None:
            await self.service.set_message(table, callback.message_id)

    async def _new_in_thread(
        self,
        interaction: discord.Interaction[EuchreBot],
        channel: discord.TextChannel,
        player: Player,
        chosen: TableRules,
    ) -> None:
        callback = await interaction.response.send_message(
            f"🃏 {player.name} opened a euchre table: take a seat in the thread."
        )
        message = callback.resource
        guild_id = channel.guild.id
        try:
            if not isinstance(message, discord.InteractionMessage):
                raise TypeError("no message was created")
            thread = await message.create_thread(
                name=f"Euchre with {player.name}"[:100], auto_archive_duration=1440
            )
        except (discord.HTTPException, TypeError) as exc:
            log.warning("Could not open a thread in channel %s: %s", channel.id, exc)
            try:
                table = await self.service.open(
                    Place(guild_id, channel.id),
                    player,
                    rules=chosen.rules,
                    rules_overridden=chosen.overridden,
                )
            except UserFacingError:
                await interaction.delete_original_response()
                raise
            public = self._public(table)
            sent = await interaction.edit_original_response(
                content=None, embed=public.embed, view=public.view
            )
            await self.service.set_message(table, sent.id)
            return
        table = await self.service.open(
            Place(guild_id, channel.id, thread.id),
            player,
            rules=chosen.rules,
            rules_overridden=chosen.overridden,
        )
        public = self._public(table)
        sent_in_thread = await thread.send(embed=public.embed, view=_or_missing(public.view))
        await self.service.set_message(table, sent_in_thread.id)

    @app_commands.command(name="hand", description="See your cards at this channel's table")
    async def hand(self, interaction: discord.Interaction[EuchreBot]) -> None:
        """Open the private hand (as a new private message)."""
        table = self.service.find(_place(interaction).id, interaction.user.id)
        embed, view = self._hand(table, interaction.user.id)
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)
        self._remember(table, interaction)

    @app_commands.command(name="leave", description="Leave this channel's table")
    async def leave(self, interaction: discord.Interaction[EuchreBot]) -> None:
        """Leave the table; in a game a computer plays the seat from now on."""
        table = self.service.find(_place(interaction).id, interaction.user.id)
        playing = table.status == "playing"
        await self.service.leave(table.id, interaction.user.id)
        note = " A computer plays your seat from now on." if playing else ""
        await send_ephemeral(interaction, f"You left table {table.id}.{note}")
        self._hands.pop((table.id, interaction.user.id), None)
        await self._continue(table, clicker=interaction.user.id)

    @app_commands.command(
        name="abort", description="Close this channel's table (its host, or Manage Server)"
    )
    async def abort(self, interaction: discord.Interaction[EuchreBot]) -> None:
        """Close the table of this channel (or the one the user hosts)."""
        user = interaction.user.id
        table = self.service.at(_place(interaction).id)
        if table is None:
            hosted = [t for t in self.service.tables_of(user) if t.host_id == user]
            if len(hosted) != 1:
                raise NoTableError("There's no table here to close.")
            table = hosted[0]
        may_manage = interaction.permissions.manage_guild
        await self.service.abort(table.id, user, may_manage=may_manage)
        await interaction.response.send_message(
            f"🛑 {_player(interaction).name} closed table {table.id}.",
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await self._edit_public(table, mention=None)
        self._forget(table)

    @app_commands.command(name="help", description="How to play euchre here")
    async def help(self, interaction: discord.Interaction[EuchreBot]) -> None:
        """Explain the commands and buttons, privately."""
        await send_ephemeral(interaction, embed=help_embed())

    # ------------------------------------------------------------------ table buttons

    async def table_button(
        self, interaction: discord.Interaction[EuchreBot], table_id: int, verb: TableVerb
    ) -> None:
        """A button of the public table message (or a hand's Refresh)."""
        if verb == "hand":
            await self._show_hand(interaction, table_id)
        elif verb == "rules":
            await self.show_table_rules(interaction, table_id)
        elif verb == "again":
            await self._play_again(interaction, table_id)
        elif verb == "start":
            await self._start(interaction, table_id)
        elif verb == "join":
            table = await self.service.join(table_id, _player(interaction))
            await self._respond_public(interaction, table)
        elif verb == "cpu":
            table = await self.service.add_computer(table_id, interaction.user.id)
            await self._respond_public(interaction, table)
        elif verb == "leave":
            table = await self.service.leave(table_id, interaction.user.id)
            await self._respond_public(interaction, table)
            await self._continue(table, clicker=interaction.user.id)
        elif verb == "back":
            table = await self.service.take_back(table_id, interaction.user.id)
            await self._respond_public(interaction, table)
            await self._continue(table, clicker=interaction.user.id)
        else:
            raise UserFacingError("That button isn't valid any more.")

    async def seat_chosen(
        self, interaction: discord.Interaction[EuchreBot], table_id: int, seat: int
    ) -> None:
        """Sit in the seat picked in the lobby's select."""
        table = await self.service.join(table_id, _player(interaction), seat)
        await self._respond_public(interaction, table)

    async def _start(self, interaction: discord.Interaction[EuchreBot], table_id: int) -> None:
        progress = await self.service.start(table_id, interaction.user.id)
        table = progress.table
        if table.computer_to_act() is None:
            await self._respond_public(interaction, table, progress, clicker=interaction.user.id)
            return
        await interaction.response.defer()
        progress = await self.service.run_computers(table.id, delay=await self._delay(table))
        public = self._public(table, await self._mention(table, progress, interaction.user.id))
        await interaction.edit_original_response(
            content=public.content,
            embed=public.embed,
            view=public.view,
            allowed_mentions=public.allowed_mentions,
        )
        await self._refresh_hand(table, progress.mention, clicker=interaction.user.id)

    async def _play_again(self, interaction: discord.Interaction[EuchreBot], table_id: int) -> None:
        table = await self.service.play_again(table_id, _player(interaction))
        public = self._public(table)
        callback = await interaction.response.send_message(
            embed=public.embed, view=_or_missing(public.view)
        )
        if callback.message_id is not None:
            await self.service.set_message(table, callback.message_id)
        if interaction.message is not None:
            try:
                await interaction.message.edit(view=finished_view(table_id))
            except discord.HTTPException as exc:
                log.warning("table %d: could not update the old result: %s", table_id, exc)

    # ------------------------------------------------------------------ private hand

    def _hand(self, table: Table, user_id: int) -> tuple[discord.Embed, discord.ui.View]:
        seat, view = table.view_for(user_id)
        public = table.public()
        buttons = hand_buttons(public, view)
        return hand_embed(public, view), hand_view(table.id, seat, table.stamp, buttons)

    async def _show_hand(self, interaction: discord.Interaction[EuchreBot], table_id: int) -> None:
        """Open the hand privately, or redraw it where the click came from a private hand."""
        table = self.service.get_any(table_id)
        embed, view = self._hand(table, interaction.user.id)
        message = interaction.message
        if message is not None and message.flags.ephemeral:
            await interaction.response.edit_message(content=None, embed=embed, view=view)
        else:
            await interaction.response.send_message(embed=embed, view=view, ephemeral=True)
        self._remember(table, interaction)

    async def hand_action(
        self,
        interaction: discord.Interaction[EuchreBot],
        table_id: int,
        seat: int,
        stamp: tuple[int, int],
        code: str,
    ) -> None:
        """A move from a private hand: apply it, answer, let the computers play, publish."""
        try:
            action = decode_action(code)
        except ValueError:
            raise UserFacingError(
                "That button isn't valid: click Your hand on the table for a fresh hand."
            ) from None
        user = interaction.user.id
        try:
            progress = await self.service.act(table_id, user, seat, stamp, action)
        except StaleActionError as exc:
            table = self.service.get_any(table_id)
            embed, view = self._hand(table, user)
            await interaction.response.edit_message(
                content=f"{exc.message} Here is your hand now.", embed=embed, view=view
            )
            self._remember(table, interaction)
            return
        table = progress.table
        embed, view = self._hand(table, user)
        await interaction.response.edit_message(content=None, embed=embed, view=view)
        self._remember(table, interaction)
        await self._continue(table, clicker=user, progress=progress)

    # ------------------------------------------------------------------ after a change

    async def _continue(
        self, table: Table, *, clicker: int, progress: Progress | None = None
    ) -> None:
        """Let the computers play, then edit the public message once and wake the next player."""
        if table.computer_to_act() is not None:
            progress = await self.service.run_computers(table.id, delay=await self._delay(table))
            await self._refresh_hand(table, clicker, clicker=None)
        if progress is None:
            await self._edit_public(table, mention=None)
            return
        await self._edit_public(table, mention=await self._mention(table, progress, clicker))
        await self._refresh_hand(table, progress.mention, clicker=clicker)
        if not table.is_open:
            self._forget(table)

    async def _mention(self, table: Table, progress: Progress, clicker: int) -> int | None:
        return await self.service.turn_ping(progress, clicker)

    async def _delay(self, table: Table) -> float:
        return await self.service.computer_delay(table, self.bot.settings.computer_move_delay)

    def _public(self, table: Table, mention: int | None = None) -> _Public:
        public = table.public()
        if mention is None:
            return _Public(None, table_embed(public), public_view(public), _NO_MENTIONS)
        allowed = discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(mention)]
        )
        return _Public(turn_mention(mention), table_embed(public), public_view(public), allowed)

    async def _respond_public(
        self,
        interaction: discord.Interaction[EuchreBot],
        table: Table,
        progress: Progress | None = None,
        *,
        clicker: int | None = None,
    ) -> None:
        """Answer a click on the public message by redrawing it."""
        mention = None
        if progress is not None and clicker is not None:
            mention = await self._mention(table, progress, clicker)
        public = self._public(table, mention)
        await interaction.response.edit_message(
            content=public.content,
            embed=public.embed,
            view=public.view,
            allowed_mentions=public.allowed_mentions,
        )
        if progress is not None:
            await self._refresh_hand(table, progress.mention, clicker=clicker)

    async def _edit_public(
        self, table: Table, *, mention: int | None, post_if_missing: bool = False
    ) -> None:
        """Edit the public table message, or post it again when old or gone (never raises)."""
        public = self._public(table, mention)
        await publish(
            self.bot,
            self.service,
            table,
            content=public.content,
            embed=public.embed,
            view=public.view,
            allowed_mentions=public.allowed_mentions,
            post_if_missing=post_if_missing,
        )

    # ------------------------------------------------------------------ open hands

    def _remember(self, table: Table, interaction: discord.Interaction[EuchreBot]) -> None:
        now = self.bot.loop.time()
        self._hands[(table.id, interaction.user.id)] = _OpenHand(interaction, now)
        self._remembered += 1
        if self._remembered % _PRUNE_EVERY == 0:
            old = [k for k, v in self._hands.items() if now - v.opened_at > HAND_EDITABLE_FOR]
            for key in old:
                del self._hands[key]

    def _forget(self, table: Table) -> None:
        for key in [k for k in self._hands if k[0] == table.id]:
            del self._hands[key]

    async def _refresh_hand(
        self, table: Table, user_id: int | None, *, clicker: int | None
    ) -> None:
        """Redraw a player's open private hand, if they have one young enough to edit."""
        if user_id is None or user_id == clicker:
            return
        opened = self._hands.get((table.id, user_id))
        if opened is None or self.bot.loop.time() - opened.opened_at > HAND_EDITABLE_FOR:
            return
        embed, view = self._hand(table, user_id)
        try:
            await opened.interaction.edit_original_response(content=None, embed=embed, view=view)
        except discord.HTTPException as exc:
            log.info("table %d: could not refresh the hand of %d: %s", table.id, user_id, exc)
            self._hands.pop((table.id, user_id), None)


_NO_MENTIONS: Final = discord.AllowedMentions.none()


def _or_missing(view: discord.ui.View | None) -> Any:
    return discord.utils.MISSING if view is None else view


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
