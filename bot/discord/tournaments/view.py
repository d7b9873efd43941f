"""Tournament events in their channel: the live event message, each table's thread, notices.

:class:`EventDesk` is the Discord side of :class:`~bot.tournaments.runner.TournamentRunner`:
it gives each table of a round its place (a public thread of the event's channel, where
the table's people are pinged), and listens to every :class:`EventChanged` to redraw
the event's one live message (who is in, then the standings) through the bot's
publisher, so it shares the channel's pace with the tables and the newest state wins.
The message's id is kept in the store, so a restarted bot edits the same message.
A round's opening, a refused start and the end (with the champions) are notices, and
so is each champion's role given, or the one sentence saying why it could not be.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Final

import discord

from bot.discord.buttons import tournament_button
from bot.discord.embeds import embed_of
from bot.discord.pace.pacing import Kind
from bot.discord.pace.permissions import THREAD_TABLE, lacking
from bot.discord.readiness import patiently
from bot.discord.tables.presenter import TablePresenter
from bot.render.fitting import THREAD_NAME, shorten
from bot.render.names import shown
from bot.render.tournaments import (
    champion_text,
    event_buttons,
    event_panel,
    round_text,
    table_ping_text,
    waiting_texts,
)
from bot.tables import Place
from bot.tournaments import Tournament
from bot.tournaments.champion_roles import RoleNotice
from bot.tournaments.errors import EventStateError
from bot.tournaments.model import EventRound, RoundTable, TournamentEvent
from bot.tournaments.runner import TournamentRunner
from bot.tournaments.running import EventChanged

from .announcer import Announcer
from .reminder import ScheduledEvents

if TYPE_CHECKING:
    from bot.discord.app import EuchreBot

__all__ = ["EventDesk", "event_view"]

log = logging.getLogger(__name__)

_NO_MENTIONS: Final = discord.AllowedMentions.none()
_PHASE_CHANGES: Final = frozenset(
    {"checkin", "started", "round", "finished", "cancelled", "moved", "resumed"}
)
"""The changes a scheduled event may follow (its start, its status)."""


def event_view(event: TournamentEvent) -> discord.ui.View | None:
    """The event message's buttons as they are now (none once the event ended)."""
    buttons = event_buttons(event)
    if not buttons or event.id is None:
        return None
    view = discord.ui.View(timeout=None)
    for verb, label, style in buttons:
        view.add_item(
            tournament_button(
                event.id, verb, label=label, style=getattr(discord.ButtonStyle, style)
            )
        )
    return view


def event_message(event: TournamentEvent) -> tuple[discord.Embed, discord.ui.View | None]:
    """The event's live message."""
    tournament = Tournament(event)
    panel = event_panel(event, tournament.standings(), tournament.total_rounds)
    return embed_of(panel), event_view(event)


class EventDesk:
    """Every event's message and its tables' threads, for the bot's tournament runner."""

    def __init__(self, bot: EuchreBot, presenter: TablePresenter) -> None:
        """Publish through ``presenter``'s publisher; show tables with ``presenter``."""
        self.bot = bot
        self.presenter = presenter
        self.publisher = presenter.publisher
        self.messages: dict[int, int] = {}
        """The live message of each event (posted by /euchre tournament new, or anew)."""
        self._latest: dict[int, TournamentEvent] = {}
        self.announcer = Announcer(bot, self.publisher)
        """The event's announcements, each posted once."""
        self.scheduled = ScheduledEvents(bot)
        """Each event's Discord scheduled event, following it."""

    async def remember(self, event_id: int, message_id: int) -> None:
        """Keep ``message_id`` as the event's live message, here and in the store.

        A restarted bot then edits it again; a store failure is only logged.
        """
        self.messages[event_id] = message_id
        runner = self.bot.tournaments
        if runner is None:
            return
        try:
            await runner.repo.set_message_id(event_id, message_id)
        except Exception:
            log.exception("event %d: its message %d was not stored", event_id, message_id)

    async def recall(self) -> None:
        """The stored live messages of the open events and the announcements they made.

        At start-up, before they resume.
        """
        runner = self.bot.tournaments
        if runner is not None:
            messages = await runner.repo.open_message_ids()
            self.messages.update(messages)
            opened = [e.state.id for e in runner.running if e.state.id is not None]
            await self.announcer.recall(sorted({*messages, *opened}))

    async def resume(self, runner: TournamentRunner, owns: Callable[[int], bool]) -> bool:
        """Go on with this process's open events at start-up; whether they were resumed.

        Their messages are read first (a resumed event's message is redrawn at once),
        then the runner resumes them and each is shown; last, every scheduled event is
        brought in step, those of events that ended while the bot was down too.
        """
        try:
            await patiently("the events' messages", self.recall)
        except Exception:
            log.exception("The tournament events' messages could not be read: posted anew")
        try:
            resumed = await patiently("the tournament events", lambda: runner.resume(owns))
        except Exception:
            log.exception("Tournament events could not be resumed")
            return False
        for event in resumed:
            if event.state.id is not None:
                self.on_change(EventChanged(event.state, "resumed", "resumed"))
        if resumed:
            log.info("Resumed %d open tournament event(s)", len(resumed))
        try:
            await self.scheduled.resume(owns)
        except Exception:
            log.exception("The events' scheduled events could not be brought in step")
        return True

    # ------------------------------------------------------------------ a table's place

    async def place(self, event: TournamentEvent, rnd: EventRound, table: RoundTable) -> Place:
        """A public thread of the event's channel for one table, its people pinged there."""
        channel = self.bot.get_channel(event.channel_id)
        if channel is None:
            channel = await self.bot.fetch_channel(event.channel_id)
        if not isinstance(channel, discord.TextChannel):
            raise TypeError(f"event {event.id}: channel {event.channel_id} takes no threads")
        me = channel.guild.me
        held = None if me is None else channel.permissions_for(me)
        missing = lacking(held, THREAD_TABLE, f"<#{channel.id}>")
        if missing is not None:  # Discord would refuse the thread, or its table's messages
            raise EventStateError(f"I can't open the round's tables: I need {missing}.")
        thread = await channel.create_thread(
            name=shorten(f"{event.name}: round {rnd.number}, table {table.number}", THREAD_NAME),
            type=discord.ChannelType.public_thread,
            auto_archive_duration=1440,
        )
        by_number = {e.number: e for e in event.entrants}
        users = [
            entry.user_id
            for number in table.seats
            if (entry := by_number[number]).user_id is not None
            and (entry.replaced_in_round is None or entry.replaced_in_round > rnd.number)
        ]
        if users:
            text = table_ping_text(event, rnd, table.number, users)
            mentions = discord.AllowedMentions(users=[discord.Object(u) for u in users])
            self.publisher.submit(
                thread.id,
                "post",
                ("tn ping", event.id, rnd.number, table.number),
                lambda: thread.send(text, allowed_mentions=mentions),
            )
        return Place(event.guild_id, event.channel_id, thread.id)

    # ------------------------------------------------------------------ what changed

    def on_change(self, change: EventChanged) -> None:
        """A runner listener: redraw the event's message; say what a round or the end is."""
        event = change.event
        if event.id is None:
            return
        self._latest[event.id] = event
        if change.kind != "created":
            self.redraw(event.id)
        self.announcer.on_change(event)
        if change.kind in _PHASE_CHANGES:
            self.scheduled.follow(event)
        if change.kind == "round":
            rnd = event.rounds[-1]
            self.notice(event, ("round", rnd.number), round_text(event, rnd, _total(event)))
            for table in change.tables:
                self.presenter.show(table, post_if_missing=True)
        elif change.kind in ("moved_up", "left_out"):
            users = [e.user_id for e in change.entrants if e.user_id is not None]
            got_in = change.kind == "moved_up"
            for index, text in enumerate(waiting_texts(event, users, got_in=got_in)):
                key = ("tn waiting", event.id, change.kind, index, *users)
                self._post(event.guild_id, event.channel_id, key, text, ping=users)
        elif change.kind == "start_refused":
            said = f"⚠️ **{shown(event.name)}** could not start: {change.text}"
            self.notice(event, ("refused",), said)
        elif change.kind == "finished":
            champions = Tournament(event).champions()
            self.notice(event, ("end",), champion_text(event, champions))
        elif change.kind == "cancelled":
            said = f"🛑 **{shown(event.name)}** was cancelled: nothing is rated."
            self.notice(event, ("end",), said)

    def on_role(self, notice: RoleNotice) -> None:
        """A champion-roles listener: say who holds the role, or why it could not be done."""
        role = notice.role
        if notice.kind == "given":
            until = discord.utils.format_dt(role.expires_at, "f")
            text = f"🏅 <@{role.user_id}> holds <@&{role.role_id}> until {until}."
        elif notice.kind == "refused":
            text = f"⚠️ {notice.text}"
        else:
            log.info("event %d: champion role taken back from %d", role.tournament_id, role.user_id)
            return
        key = ("tn role", role.tournament_id, role.user_id, notice.kind)
        self._post(role.guild_id, role.channel_id, key, text)

    def notice(self, event: TournamentEvent, key: tuple[object, ...], text: str) -> None:
        """Post ``text`` in the event's channel in its turn."""
        self._post(event.guild_id, event.channel_id, ("tn notice", event.id, *key), text)

    def _post(
        self,
        guild_id: int,
        channel_id: int,
        key: tuple[object, ...],
        text: str,
        *,
        ping: list[int] | None = None,
    ) -> None:
        """Post ``text`` in its turn, mentioning only the members of ``ping``.

        A new message, so those members are notified.
        """
        channel = self.bot.get_partial_messageable(channel_id, guild_id=guild_id)
        mentions = (
            _NO_MENTIONS
            if ping is None
            else discord.AllowedMentions(users=[discord.Object(u) for u in ping])
        )
        self.publisher.submit(
            channel_id, "post", key, lambda: channel.send(text, allowed_mentions=mentions)
        )

    def redraw(self, event_id: int) -> None:
        """Show the event's newest state in its message when the channel's turn comes.

        A state waiting when a newer one comes is dropped; a message that is gone (or
        was never known) is posted anew, and kept.
        """
        latest = self._latest.get(event_id)
        if latest is None:
            return
        channel = self.bot.get_partial_messageable(latest.channel_id, guild_id=latest.guild_id)
        known = self.messages.get(event_id)

        async def request() -> None:
            embed, view = event_message(self._latest[event_id])
            message_id = self.messages.get(event_id)
            if message_id is not None:
                try:
                    await channel.get_partial_message(message_id).edit(
                        embed=embed, view=view, allowed_mentions=_NO_MENTIONS
                    )
                    return
                except discord.NotFound:
                    log.info("event %d: its message %d is gone, posted anew", event_id, message_id)
            if view is None:
                sent = await channel.send(embed=embed, allowed_mentions=_NO_MENTIONS)
            else:
                sent = await channel.send(embed=embed, view=view, allowed_mentions=_NO_MENTIONS)
            await self.remember(event_id, sent.id)

        kind: Kind = "edit" if known is not None else "post"
        self.publisher.submit(latest.channel_id, kind, ("tn event", event_id), request, embeds=True)


def _total(event: TournamentEvent) -> int:
    return Tournament(event).total_rounds
