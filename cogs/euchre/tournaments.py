"""The tournament commands of ``/euchre``, as a mixin of the euchre cog, and their buttons.

``/euchre tournament new|join|skip|reschedule|standings|history|export``: each parses the
interaction and asks the bot's :class:`~bot.tournaments.runner.TournamentRunner`
(``bot.tournaments``); the event's message and its tables' threads are the
:class:`~.tournament_view.EventDesk`'s. Events are directed by the members who may
change the server's house rules (Manage Server, or the server's rules-admin role), by
the server's tournament director role and by the event's creator. Every refusal is
one private sentence, and changes nothing.
"""

from __future__ import annotations

import io
import logging
from typing import TYPE_CHECKING, Final

import discord
from discord import app_commands

from bot.discord.fields import PRESET_CHOICES, editor_of
from bot.discord.pace.permissions import EVENT_CHANNEL, lacking
from bot.discord.readiness import Readiness, patiently
from bot.discord.replies import PUBLIC_ANSWER, answer_as, answer_first, send_ephemeral, send_public
from bot.discord.tournaments.champion_roles import check_champion_role
from bot.discord.tournaments.lists import show_history, show_list
from bot.discord.tournaments.reminder import NO_REMINDER, schedule_reminder
from bot.discord.tournaments.view import EventDesk, event_message
from bot.errors import UserFacingError
from bot.render.names import shown
from bot.render.tournament_lists import EventList
from bot.render.tournaments import DIRECTOR_VERBS, EventVerb
from bot.rules import HouseRules
from bot.tables import Player
from bot.tournaments import Actor, Tournament, event_start, export_csv, export_json
from bot.tournaments.champion_roles import ChampionRoles
from bot.tournaments.model import EVENT_NAME_LENGTH, MAX_PLAYERS, EventSettings
from bot.tournaments.runner import TournamentRunner
from cogs.euchre.mixins import MAX_NUMBER, Mixin, server_id

from .tournament_answers import (
    joined,
    on_waiting_list,
    player,
    tell_director,
)
from .tournament_lookup import channel_event, numbered_event

if TYPE_CHECKING:
    from bot.discord.app import EuchreBot


__all__ = ["NO_TOURNAMENTS", "TournamentCommands"]

log = logging.getLogger(__name__)

NO_TOURNAMENTS: Final = "Tournaments aren't available on this bot: they need the bot's database."
NOT_RESUMED: Final = (
    "The tournament events could not be resumed after the bot's restart: "
    "ask the bot's operator to look at its log."
)
STILL_RESUMING: Final = (
    "The tournament events are still being resumed after the bot's restart: try again in a minute."
)
NOT_DIRECTOR: Final = (
    "Creating an event takes the Manage Server permission, the server's rules-admin role "
    "or its tournament director role."
)

_OPENS_TABLES: Final = frozenset({"start", "computers", "next"})
"""The buttons that open a round's tables: their answer is deferred."""

_LISTS: Final[dict[str, EventList]] = {"standings": "st", "people": "in"}
"""The buttons that answer with a whole list of the event, privately."""

_DEFAULTS: Final = EventSettings()
"""An event's settings when its director leaves an option out: the options' defaults."""

_EVENT_OPTION: Final = "The event's number on this server (see /euchre tournament history)"

_FORMATS: Final = [
    app_commands.Choice(name="Progressive (individuals, partners change)", value="progressive"),
    app_commands.Choice(name="Pairs (fixed partnerships)", value="pairs"),
]


def _check_event_channel(interaction: discord.Interaction[EuchreBot]) -> None:
    """Refuse an event whose channel would refuse its message, notices or tables' threads."""
    where = f"<#{interaction.channel_id}>"
    missing = lacking(interaction.app_permissions, EVENT_CHANNEL, where)
    if missing is not None:
        raise UserFacingError(f"I can't run an event here: I need {missing}.")


class TournamentCommands(Mixin):
    """``/euchre tournament ...`` and the event message's buttons."""

    bot: EuchreBot
    desk: EventDesk
    champion_roles: ChampionRoles | None
    events_ready: Readiness
    """Whether the start-up's :meth:`resume_events` has finished: clicks wait for it."""

    tournament = app_commands.Group(name="tournament", description="Tournament nights")

    def runner(self) -> TournamentRunner:
        """The bot's tournament runner; a refusal when the bot has no database."""
        if self.bot.tournaments is None:
            raise UserFacingError(NO_TOURNAMENTS)
        return self.bot.tournaments

    async def running_events(self, interaction: discord.Interaction[EuchreBot]) -> TournamentRunner:
        """The runner once the events open at start-up are resumed (the click waits for it)."""
        runner = self.runner()
        await self.events_ready.wait(interaction)
        return runner

    async def _actor(self, interaction: discord.Interaction[EuchreBot]) -> Actor:
        """Who asks, and whether the server lets them direct events."""
        guild_id = server_id(interaction, "Tournaments live in servers, not in direct messages.")
        server = await self.bot.tables.server_settings.get(guild_id)
        return Actor(interaction.user.id, server.may_direct(editor_of(interaction)))

    async def resume_events(self) -> None:
        """Go on with the events open when the bot stopped (after the tables' restore).

        Only the events of this process's servers (its shards): another process runs
        the rest. The champion roles still held are timed again (or taken back now).
        Until this has finished, the event buttons and tournament commands wait for it
        (:attr:`events_ready`); if the events could not be resumed, they say so.
        """
        failed = True  # unless it gets to the end (a stop cancels it: nobody waits on)
        try:
            failed = not await self._resume_events()
        finally:
            self.events_ready.finish(failed=failed)

    async def _resume_events(self) -> bool:
        """Resume the champion roles, then the events; whether the events were resumed."""
        runner = self.bot.tournaments
        if runner is None:
            return True
        owns = self.bot.tables.ownership.owns
        roles = self.champion_roles
        if roles is not None:
            try:
                await patiently("the champion roles", lambda: roles.resume(owns))
            except Exception:
                log.exception("The champion roles could not be resumed")
        return await self.desk.resume(runner, owns)

    # ------------------------------------------------------------------ commands

    @tournament.command(
        name="new", description="Open an event in this channel (directors)", extras=PUBLIC_ANSWER
    )
    @app_commands.describe(
        name="The event's name",
        format="Progressive (partners change every round) or pairs",
        rounds=f"How many rounds (default {_DEFAULTS.rounds})",
        max_players=f"The most people who play (default {_DEFAULTS.max_players}); "
        "more join a waiting list",
        deals=f"Deals per round (progressive, default {_DEFAULTS.deals_per_round}; "
        "pairs play a game to the target)",
        preset="Play a preset instead of the server's house rules",
        start_in="Start by itself in this many minutes (none: on the Start now button)",
        start_at="Or start by itself at this time: HH:MM, 24-hour, in UTC (the next time "
        "the clock shows it)",
        check_in="Check-in opens this many minutes before the start "
        f"(0: none; default {_DEFAULTS.check_in_minutes})",
        round_timer="A round ends after this many minutes even if tables still play "
        f"(default {_DEFAULTS.round_timer_minutes})",
        rated="The games go to the league's ladder once the event finishes",
        break_minutes="The next round starts by itself after this break (none: on the button)",
        champion_role="A role the champions hold for a while (the bot needs Manage Roles)",
        champion_hours="How many hours the champions keep their role "
        f"(default {_DEFAULTS.champion_role_hours})",
    )
    @app_commands.choices(format=_FORMATS, preset=PRESET_CHOICES)
    async def tournament_new(
        self,
        interaction: discord.Interaction[EuchreBot],
        name: app_commands.Range[str, 1, EVENT_NAME_LENGTH] = "Euchre night",
        format: app_commands.Choice[str] | None = None,
        rounds: app_commands.Range[int, 1, 30] = _DEFAULTS.rounds,
        max_players: app_commands.Range[int, 4, MAX_PLAYERS] = _DEFAULTS.max_players,
        deals: app_commands.Range[int, 1, 40] = _DEFAULTS.deals_per_round,
        preset: app_commands.Choice[str] | None = None,
        start_in: app_commands.Range[int, 1, 10080] | None = None,
        start_at: app_commands.Range[str, 1, 20] | None = None,
        check_in: app_commands.Range[int, 0, 120] = _DEFAULTS.check_in_minutes,
        round_timer: app_commands.Range[int, 5, 600] | None = None,
        rated: bool = _DEFAULTS.rated,
        break_minutes: app_commands.Range[int, 0, 1440] | None = None,
        champion_role: discord.Role | None = None,
        champion_hours: app_commands.Range[int, 1, 8784] | None = None,
    ) -> None:
        """Create an event, post its sign-up message and Discord's scheduled event."""
        runner = self.runner()
        actor = await self._actor(interaction)
        channel = interaction.channel
        if not actor.is_director:
            raise UserFacingError(NOT_DIRECTOR)
        if not isinstance(channel, discord.TextChannel) or interaction.guild is None:
            raise UserFacingError("Open events in a text channel: their tables open in threads.")
        _check_event_channel(interaction)
        check_champion_role(interaction.guild, champion_role, champion_hours)
        pairs = format is not None and format.value == "pairs"
        if pairs and max_players % 2:
            raise UserFacingError(
                "A pairs event takes an even number of players: pairs sit together."
            )
        now = runner.clock()
        start = event_start(now, minutes=start_in, clock=start_at)
        until = 0 if start is None else int((start - now).total_seconds() // 60)
        chosen = {"round_timer_minutes": round_timer, "champion_role_hours": champion_hours}
        settings = EventSettings(
            format="pairs" if pairs else "progressive",
            rounds=rounds,
            max_players=max_players,
            deals_per_round=deals,
            rules=None if preset is None else HouseRules.preset_rules(preset.value),
            start_time=start,
            check_in_minutes=min(check_in, until),
            rated=rated,
            break_minutes=break_minutes,
            champion_role_id=None if champion_role is None else champion_role.id,
            **{name: value for name, value in chosen.items() if value is not None},
        )
        event = Tournament.create(
            guild_id=interaction.guild.id,
            channel_id=channel.id,
            director_id=interaction.user.id,
            name=name,
            now=now,
            settings=settings,
            seed=interaction.id % 2**62,
        )
        created = await runner.create(event)
        state = created.state
        assert state.id is not None
        embed, view = event_message(state)
        assert view is not None  # a new event has its sign-up buttons
        message_id = await send_public(
            interaction, embed=embed, view=view, allowed_mentions=discord.AllowedMentions.none()
        )
        if message_id is not None:
            await self.desk.remember(state.id, message_id)
        if start is not None:
            made = await schedule_reminder(interaction.guild, channel, name, settings)
            if isinstance(made, str):
                await tell_director(interaction, f"{NO_REMINDER}: {made}.")
            else:
                await self.desk.scheduled.created(state, made)

    @tournament.command(name="join", description="Sign up for this channel's event")
    @app_commands.describe(partner="Pairs: your partner (they confirm with the button)")
    async def tournament_join(
        self, interaction: discord.Interaction[EuchreBot], partner: discord.Member | None = None
    ) -> None:
        """Join the channel's event, naming a partner for pairs."""
        event_id = await channel_event(self.runner(), interaction)
        named = None if partner is None else Player(partner.id, partner.display_name)
        if partner is not None and partner.bot:
            raise UserFacingError("Name a member as your partner, not a bot.")
        runner = await self.running_events(interaction)
        entry = await runner.join(event_id, player(interaction), partner=named)
        tail = (
            ""
            if partner is None
            else f" {shown(partner.display_name)} is asked here to confirm with "
            "**Confirm partner**."
        )
        waiting = on_waiting_list(runner, event_id, interaction.user.id)
        await send_ephemeral(interaction, (waiting or joined(runner, event_id, entry)) + tail)

    @tournament.command(name="skip", description="Let a computer play for a no-show (directors)")
    async def tournament_skip(
        self, interaction: discord.Interaction[EuchreBot], member: discord.Member
    ) -> None:
        """Replace a no-show by a computer."""
        event_id = await channel_event(self.runner(), interaction)
        actor = await self._actor(interaction)
        runner = await self.running_events(interaction)
        await runner.skip(event_id, actor, member.id)
        said = f"A computer plays for {shown(member.display_name)} from now."
        await send_ephemeral(interaction, said)

    @tournament.command(name="reschedule", description="Move this channel's event's start")
    @app_commands.describe(
        start_in="Start by itself in this many minutes",
        start_at="Or at this time: HH:MM, 24-hour, in UTC (the next time the clock shows it)",
    )
    async def tournament_reschedule(
        self,
        interaction: discord.Interaction[EuchreBot],
        start_in: app_commands.Range[int, 1, 10080] | None = None,
        start_at: app_commands.Range[str, 1, 20] | None = None,
    ) -> None:
        """Move the start; check-in, the reminder and Discord's scheduled event follow."""
        event_id = await channel_event(self.runner(), interaction)
        actor = await self._actor(interaction)
        runner = await self.running_events(interaction)
        start = event_start(runner.clock(), minutes=start_in, clock=start_at)
        if start is None:
            raise UserFacingError("Give the new start: start_in (minutes) or start_at (HH:MM).")
        await runner.reschedule(event_id, actor, start)
        when = discord.utils.format_dt(start, "F")
        await send_ephemeral(interaction, f"The event now starts {when}.")

    @tournament.command(name="standings", description="The standings of this channel's event")
    @app_commands.describe(event=_EVENT_OPTION)
    async def tournament_standings(
        self,
        interaction: discord.Interaction[EuchreBot],
        event: app_commands.Range[int, 1, MAX_NUMBER] | None = None,
    ) -> None:
        """The whole standings, privately, page by page."""
        await show_list(interaction, await self._chosen_event(interaction, event), "st")

    @tournament.command(name="history", description="This server's events, newest first")
    async def tournament_history(self, interaction: discord.Interaction[EuchreBot]) -> None:
        """The server's events and their winners, ten a page."""
        await show_history(interaction, self.runner().repo, 0)

    async def tournament_history_page(
        self, interaction: discord.Interaction[EuchreBot], page: int
    ) -> None:
        """A page button of the history: redraw the private message at that page."""
        await show_history(interaction, self.runner().repo, page, redraw=True)

    @tournament.command(name="export", description="An event as a JSON file, its standings as CSV")
    @app_commands.describe(event=_EVENT_OPTION)
    async def tournament_export(
        self,
        interaction: discord.Interaction[EuchreBot],
        event: app_commands.Range[int, 1, MAX_NUMBER] | None = None,
    ) -> None:
        """The event's JSON export, as a file only the asker sees."""
        found = await self._chosen_event(interaction, event)
        name = f"tournament-{found.state.shown_number}"
        files = [
            discord.File(io.BytesIO(export_json(found.state).encode()), f"{name}.json"),
            discord.File(io.BytesIO(export_csv(found.state).encode()), f"{name}-standings.csv"),
        ]
        await send_ephemeral(
            interaction,
            "The whole event as JSON, and its standings as CSV (for a spreadsheet).",
            files=files,
        )

    async def _chosen_event(
        self, interaction: discord.Interaction[EuchreBot], number: int | None
    ) -> Tournament:
        """The server's event of that number (as people see it), else the channel's event."""
        runner = self.runner()
        if number is None:
            return await self._event(interaction, await channel_event(runner, interaction))
        return await self._event(interaction, await numbered_event(runner, interaction, number))

    async def _event(
        self, interaction: discord.Interaction[EuchreBot], event_id: int
    ) -> Tournament:
        found = await self.runner().load(event_id)
        if found.state.guild_id != interaction.guild_id:
            raise UserFacingError("There is no such event.")
        return found

    # ------------------------------------------------------------------ buttons

    async def tournament_page(
        self,
        interaction: discord.Interaction[EuchreBot],
        event_id: int,
        which: EventList,
        page: int,
    ) -> None:
        """A page button of an event's list: redraw the private message at that page."""
        await self.running_events(interaction)
        found = await self._event(interaction, event_id)
        await show_list(interaction, found, which, page, redraw=True)

    async def tournament_button(
        self, interaction: discord.Interaction[EuchreBot], event_id: int, verb: EventVerb
    ) -> None:
        """A button of an event's message; director buttons refuse everyone else privately."""
        answer_as(interaction, "private")
        runner = await self.running_events(interaction)
        found = await self._event(interaction, event_id)
        actor = await self._actor(interaction)
        if verb in DIRECTOR_VERBS and not (
            actor.is_director or actor.user_id == found.state.director_id
        ):
            raise UserFacingError("Only the event's directors can use that button.")
        user = interaction.user.id
        if verb in _LISTS:
            await show_list(interaction, found, _LISTS[verb])
            return
        if verb in _OPENS_TABLES:
            _check_event_channel(interaction)
            # Opening every table of a round (a thread each) can outlast Discord's 3 s.
            await answer_first(interaction)
        if verb == "join":
            if found.state.settings.format == "pairs":
                raise UserFacingError(
                    "Pairs sign up together: use /euchre tournament join and name your partner."
                )
            entry = await runner.join(event_id, player(interaction))
            answer = on_waiting_list(runner, event_id, user) or joined(
                runner, event_id, entry, "Good luck!"
            )
        elif verb == "leave":
            await runner.leave(event_id, user)
            answer = "You left the event."
        elif verb == "checkin":
            await runner.check_in(event_id, user)
            answer = "You're checked in."
        elif verb == "confirm":
            partner = await runner.confirm_partner(event_id, user)
            answer = f"You and {shown(partner.display_name)} are a pair."
        elif verb == "start":
            await runner.start(event_id, actor)
            answer = "The event has started: the tables open in threads."
        elif verb == "computers":
            await runner.start(event_id, actor, fill_with_computers=True)
            answer = (
                "The event has started, computers in the empty seats: the tables open in threads."
            )
        elif verb == "next":
            await runner.next_round(event_id, actor)
            answer = "The next round has started."
        elif verb == "pause":
            if found.state.paused:
                await runner.go_on(event_id, actor)
                answer = "The event goes on."
            else:
                await runner.pause(event_id, actor)
                answer = "The event is paused."
        else:
            await runner.cancel(event_id, actor)
            answer = "The event is cancelled: its tables are closed and nothing is rated."
        await send_ephemeral(interaction, answer)
