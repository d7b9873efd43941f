"""Tables that keep going on their own: restarts, turn limits, absent players, idle tables.

The :class:`Keeping` cog runs the service's :class:`~bot.tables.keeper.TableKeeper`
and says in the channel what it did (through the presenter's publisher, so these notices
share the channel's budget with the tables): a reminder that pings the player whose time runs
out (a new message, so the ping notifies), the computer's move in their place, the
closing of an idle table. At start-up it shows every restored table again (its message
edited, or posted anew when it's gone or over an hour old) and plays the computer
turns the last process left pending. A table whose thread or channel is deleted closes.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final, Literal, cast

import discord
from discord.ext import commands

from bot.discord.refusals import log_refusal
from bot.discord.routes import routed
from bot.discord.tables.presenter import TablePresenter
from bot.discord.tables.publishing import Shown
from bot.render.names import shown
from bot.tables import Place, TableSnapshot
from bot.tables.keeper import TableKeeper

if TYPE_CHECKING:
    from bot.discord.app import EuchreBot

__all__ = ["Keeping"]

log = logging.getLogger(__name__)

RESUME_FLUSH: Final = 60.0
"""Seconds start-up waits for the restored tables' messages (each channel has its pace)."""

UNKNOWN_BUTTON: Final = (
    "That button doesn't work any more. Use the buttons on the latest table message, "
    "or /euchre hand for your cards."
)

_NO_MENTIONS: Final = discord.AllowedMentions.none()

Where = Literal["thread", "channel"]
"""What of a table's place was deleted."""


def _claimed(interaction: discord.Interaction[EuchreBot]) -> bool:
    """Whether a DynamicItem will take this click: its id is on the message and fits a template.

    discord.py drops, without a word, a click whose custom_id fits no template or is not
    on the clicked message; those are the ones this cog answers.
    """
    data = cast("Mapping[str, Any]", interaction.data or {})
    custom_id, kind = data.get("custom_id"), data.get("component_type")
    message = interaction.message
    if not isinstance(custom_id, str) or message is None:
        return False
    on_message = any(
        getattr(child, "custom_id", None) == custom_id and child.type.value == kind
        for row in message.components
        for child in getattr(row, "children", [row])
    )
    return on_message and routed(custom_id)


async def _answer_unknown(interaction: discord.Interaction[EuchreBot]) -> None:
    """Tell the clicker the button is out of use, unless something answered already."""
    if interaction.response.is_done() or interaction.is_expired():
        return
    try:
        await interaction.response.send_message(UNKNOWN_BUTTON, ephemeral=True)
    except (discord.HTTPException, discord.InteractionResponded) as exc:
        log.info("Could not answer an unclaimed click: %s", exc)


def _duration(minutes: float) -> str:
    if minutes >= 120:
        return f"{minutes / 60:.0f} hours"
    if minutes >= 60:
        return "an hour"
    return f"{max(1, round(minutes))} minutes"


class Keeping(commands.Cog):
    """Start-up resume, turn limits and idle tables for the euchre cog's tables."""

    def __init__(self, bot: EuchreBot, presenter: TablePresenter) -> None:
        """Keep the tables of ``bot.tables``, drawn by ``presenter``."""
        self.bot = bot
        self.presenter = presenter
        settings = bot.settings
        self.keeper = TableKeeper(
            bot.tables,
            bot.scheduler,
            self,
            idle_lobby=settings.idle_lobby_minutes * 60,
            idle_game=settings.idle_game_minutes * 60,
        )
        self._resumed = False
        presenter.publisher.on_gone = self._found_gone

    async def cog_load(self) -> None:
        """Start watching every open table (restored ones included)."""
        self.keeper.start()

    async def cog_unload(self) -> None:
        """Stop every timer, and stop hearing of deleted channels."""
        self.keeper.stop()
        self.presenter.publisher.on_gone = None

    # ------------------------------------------------------------------ start-up

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Once per process: show the restored tables again and play pending computer turns."""
        if self._resumed:
            return
        self._resumed = True
        await self.resume_all()

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[EuchreBot]) -> None:
        """Make sure every click is answered, even one no component claims.

        Every component this bot draws is one of the euchre DynamicItems, so a custom_id
        that fits none of their grammars (forged, malformed, of another prefix), or a
        button discord.py can't match to the message, reaches no handler: the user gets
        :data:`UNKNOWN_BUTTON` at once, well within Discord's 3 seconds.
        """
        if interaction.type is discord.InteractionType.component and not _claimed(interaction):
            await _answer_unknown(interaction)

    async def resume_all(self) -> None:
        """Refresh or repost every open table's message; play computer turns left pending.

        Logged in two lines: the tables resumed, as soon as they are (their messages
        queued at their channels' pace, their computers' turns started, each table's
        on the scheduler, so a slow table delays none of the others and a stop waits
        for them), then whether those messages were all sent within
        :data:`RESUME_FLUSH` seconds.
        """
        opened = [table.id for table in self.bot.tables.open_tables]
        if not opened:
            return
        failed = 0
        for table_id in opened:
            try:
                await self._resume(table_id)
            except Exception:
                log.exception("table %d: could not be resumed", table_id)
                failed += 1
        resumed = len(opened) - failed
        if failed:
            log.info("Resumed %d open table(s); %d could not be (logged above)", resumed, failed)
        else:
            log.info("Resumed %d open table(s)", resumed)
        if await self.bot.pacers.flush(RESUME_FLUSH):
            log.info("The restored tables' messages are all sent")
        else:
            log.info(
                "Some restored tables' messages still wait for their channel's turn after %g s",
                RESUME_FLUSH,
            )

    async def _resume(self, table_id: int) -> None:
        table = self.bot.tables.get_any(table_id)
        if table.turns.running():
            return  # opened and played in this process before it was ready: it runs
        self.presenter.show(await table.snapshot(), post_if_missing=True)
        if table.turns.computer_waits():

            async def play() -> None:
                try:
                    await table.turns.resume()
                except Exception:
                    log.exception("table %d: its computers' turns could not be played", table.id)

            self.bot.scheduler.call_later(0, play, name=f"table {table.id} computers")

    # ------------------------------------------------------------------ a place deleted

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A moderator deleted a table's thread: the table closes, as an abort closes it."""
        table = self.bot.tables.at(payload.thread_id)
        if table is not None and table.place.thread_id == payload.thread_id:
            await self.place_gone(await table.snapshot(), "thread")

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A channel was deleted, with its threads: their tables close."""
        tables = self.bot.tables
        for table_id in [t.id for t in tables.open_tables if t.place.channel_id == channel.id]:
            await self.place_gone(await tables.get_any(table_id).snapshot(), "channel")

    async def place_gone(self, table: Shown, where: Where) -> None:
        """The table's thread or channel was deleted: close the table as an abort does.

        Its open hands show the end and its ping goes; clicks on its buttons are answered
        as at any closed table. A thread's table says so in the thread's channel (a
        deleted channel leaves nowhere to say it).
        """
        live = self.bot.tables.open_one(table.id)
        if live is None or not await live.absence.close_gone(where):
            return
        log.info("table %d: closed, its %s %d was deleted", table.id, where, table.place.id)
        publisher = self.presenter.publisher
        publisher.pacers.of(table.place.id).cancel(("table", table.id))
        if where == "thread":
            place = table.place
            channel = self.bot.get_partial_messageable(place.channel_id, guild_id=place.guild_id)
            text = f"🛑 Table {table.number} was closed: its thread was deleted."
            publisher.submit(
                place.channel_id,
                "post",
                ("closed", table.id),
                lambda: channel.send(text, allowed_mentions=_NO_MENTIONS),
            )

    async def _found_gone(self, table: Shown) -> None:
        """The publisher found the table's channel gone: close it, apart from the pacer's job."""
        where: Where = "thread" if table.place.thread_id is not None else "channel"

        async def close() -> None:
            try:
                await self.place_gone(table, where)
            except Exception:
                log.exception("table %d: could not be closed after its %s went", table.id, where)

        self.bot.scheduler.call_later(0, close, name=f"table {table.id} gone")

    # ------------------------------------------------------------------ KeeperNotifier

    def _channel(self, place: Place) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(place.id, guild_id=place.guild_id)

    async def remind(self, table: TableSnapshot, user_id: int, seconds_left: float) -> int | None:
        """Ping the player in a new message, so the ping notifies."""
        text = (
            f"⏰ <@{user_id}>, it's your turn at table {table.number}: "
            f"a computer plays it for you in about {max(1, round(seconds_left))} seconds."
        )
        mentions = discord.AllowedMentions(users=[discord.Object(user_id)])
        channel = self._channel(table.place)
        try:
            sent = await self.presenter.publisher.call(
                table.place.id,
                "post",
                lambda: channel.send(text, allowed_mentions=mentions),
            )
        except discord.HTTPException as exc:
            log_refusal(log, exc, f"table {table.id}: reminding user {user_id}")
            return None
        except TimeoutError:
            log.info("table %d: the reminder of user %d waited too long", table.id, user_id)
            return None
        return sent.id

    async def turn_taken(self, place: Place, reminder_id: int) -> None:
        """Delete a reminder whose turn is over."""
        message = self._channel(place).get_partial_message(reminder_id)
        self.presenter.publisher.submit(place.id, "delete", ("notice", reminder_id), message.delete)

    async def timed_out(
        self, table: TableSnapshot, seat: int, user_id: int, away: bool, reminder_id: int | None
    ) -> None:
        """Say what the computer did in the player's place (the keeper carries on the game)."""
        name = shown(table.public.name(seat))
        text = f"⏰ {name} ran out of time, so a computer played their turn."
        if away:
            text = (
                f"⏰ {name} ran out of time again: a computer plays their seat until they "
                "click **Take my seat back** on the table."
            )
        channel, publisher = self._channel(table.place), self.presenter.publisher
        if reminder_id is not None:
            reminder = channel.get_partial_message(reminder_id)
            publisher.submit(
                table.place.id,
                "edit",
                ("notice", reminder_id),
                lambda: reminder.edit(content=text, allowed_mentions=_NO_MENTIONS),
            )
        else:
            publisher.submit(
                table.place.id,
                "post",
                ("timed out", table.id, table.stamp),
                lambda: channel.send(text, allowed_mentions=_NO_MENTIONS),
            )

    async def closed_idle(self, table: TableSnapshot, minutes: float) -> None:
        """Say the table was closed, and take its buttons away."""
        text = (
            f"🛑 Table {table.number} was closed: nobody played for {_duration(minutes)}. "
            "Start a new one with /euchre new."
        )
        channel = self._channel(table.place)
        self.presenter.publisher.submit(
            table.place.id,
            "post",
            ("closed", table.id),
            lambda: channel.send(text, allowed_mentions=_NO_MENTIONS),
        )
