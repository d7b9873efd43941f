"""Discord's own reminder of a timed tournament: its scheduled event, from creation to end.

``/euchre tournament new`` with a start time creates a Discord scheduled event in the
server (its place is the event's channel), so members get Discord's reminder. Creating
it takes the Create Events permission, which the invite link asks for; a server that
added the bot with an older link, or took the permission away, still gets its event,
and :func:`schedule_reminder` says in a few words why the reminder was not created. It
looks at the bot's permissions first, so it never asks what Discord would refuse.

Its id is stored with the event, and :class:`ScheduledEvents` makes it follow the event
(:meth:`ScheduledEvents.follow` on every change): active at the start, completed at the
end, cancelled with the event (completed, if it was already active: Discord cancels only
an event that has not started), its time moved with the start. The status and start the
bot last gave it are stored too, so a restarted bot carries on from there
(:meth:`ScheduledEvents.resume`), also for an event that ended while it was down. One
deleted by hand is noted as gone and left alone; the event goes on without it.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Final

import discord

from bot.discord.refusals import MISSING_PERMISSIONS, log_refusal
from bot.tournaments.model import (
    EventSettings,
    ScheduledEventLink,
    ScheduledStatus,
    TournamentEvent,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from bot.discord.app import EuchreBot

__all__ = ["NO_REMINDER", "ScheduledEvents", "schedule_reminder", "wanted_status"]

log = logging.getLogger(__name__)

NO_REMINDER: Final = "Discord's own reminder of this event (a scheduled event) was not created"
"""The start of the director's private sentence; the reason follows a colon."""

"""Discord's error code for a request the bot's permissions don't allow."""

MISSING_CREATE_EVENTS: Final = (
    "the bot lacks the Create Events permission in this server: grant it, or remind people yourself"
)

_ROUND_MINUTES: Final = EventSettings().round_timer_minutes or 0
"""A round's length when the event has no round timer: the setting's default."""

_LEAST_NOTICE: Final = timedelta(minutes=1)
"""A start nearer than this is not moved: Discord takes no start in the past, and the
event is about to start anyway (its status follows then)."""

_STATUS: Final[dict[ScheduledStatus, int]] = {
    "scheduled": 1,
    "active": 2,
    "completed": 3,
    "cancelled": 4,
}
"""Discord's numbers for the statuses the bot gives."""


def _end(settings: EventSettings, start: datetime) -> datetime:
    minutes = settings.rounds * (settings.round_timer_minutes or _ROUND_MINUTES)
    return start + timedelta(minutes=minutes)


async def schedule_reminder(
    guild: discord.Guild, channel: discord.TextChannel, name: str, settings: EventSettings
) -> discord.ScheduledEvent | str:
    """Create the event's scheduled event; it, or why it was not created.

    The failure is logged too, for the operator.
    """
    assert settings.start_time is not None
    me = guild.me
    held = None if me is None else me.guild_permissions
    if held is not None and not (held.create_events or held.manage_events):
        # asked, Discord would refuse it (403, 50013) and count it against the bot
        log.warning("Did not create the scheduled event in guild %d: no Create Events", guild.id)
        return MISSING_CREATE_EVENTS
    try:
        return await guild.create_scheduled_event(
            name=name,
            start_time=settings.start_time,
            end_time=_end(settings, settings.start_time),
            entity_type=discord.EntityType.external,
            privacy_level=discord.PrivacyLevel.guild_only,
            location=channel.mention,
            description=f"Euchre tournament in {channel.mention}: join there.",
        )
    except discord.HTTPException as exc:
        log_refusal(log, exc, f"the scheduled event in guild {guild.id}")
        return _why(exc)


def _why(exc: discord.HTTPException) -> str:
    """Why Discord refused the scheduled event, and what the director can do."""
    if exc.status == 403 and exc.code == MISSING_PERMISSIONS:
        return MISSING_CREATE_EVENTS
    said = exc.text.splitlines()[0] if exc.text else ""
    detail = f"HTTP {exc.status}: {said}" if said else f"HTTP {exc.status}"
    return f"Discord refused it ({detail}): remind people yourself"


def wanted_status(event: TournamentEvent, now: ScheduledStatus) -> ScheduledStatus:
    """What the scheduled event should be as the event stands (``now``: what it is)."""
    if event.phase in ("signup", "checkin"):
        return "scheduled"
    if event.phase in ("playing", "between_rounds"):
        return "active"
    if event.phase == "cancelled" and now == "scheduled":
        return "cancelled"
    return "completed"


def _steps(now: ScheduledStatus, wanted: ScheduledStatus) -> list[ScheduledStatus]:
    """The status changes Discord allows that lead from ``now`` to ``wanted``."""
    if now == wanted or now in ("completed", "cancelled", "gone"):
        return []
    if now == "scheduled" and wanted == "completed":
        return ["active", "completed"]
    if now == "active" and wanted in ("scheduled", "cancelled"):
        return ["completed"] if wanted == "cancelled" else []
    return [wanted]


class ScheduledEvents:
    """Makes each event's Discord scheduled event follow it, one change at a time."""

    def __init__(self, bot: EuchreBot) -> None:
        """Edit through ``bot``'s HTTP client; keep the links in its tournament store."""
        self.bot = bot
        self._locks: dict[int, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    async def created(self, event: TournamentEvent, scheduled: discord.ScheduledEvent) -> None:
        """Note the scheduled event just created for ``event`` (a store failure is logged)."""
        runner = self.bot.tournaments
        if runner is None or event.id is None:
            return
        link = ScheduledEventLink(
            tournament_id=event.id,
            scheduled_id=scheduled.id,
            status="scheduled",
            start=event.settings.start_time,
        )
        try:
            await runner.repo.outreach.set_scheduled_event(link)
        except Exception:
            log.exception("event %d: its scheduled event %d was not stored", event.id, scheduled.id)

    def follow(self, event: TournamentEvent) -> None:
        """A change of ``event``: bring its scheduled event in step, in a task of its own."""
        if event.id is None:
            return
        task = asyncio.get_running_loop().create_task(self._follow_logged(event))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def resume(self, owns: Callable[[int], bool]) -> int:
        """Bring in step every scheduled event that may still change (this process's servers).

        At start-up: also those of events that ended while the bot was down. How many.
        """
        runner = self.bot.tournaments
        if runner is None:
            return 0
        done = 0
        for link in await runner.repo.outreach.unsettled_scheduled_events():
            event = (await runner.load(link.tournament_id)).state
            if owns(event.guild_id):
                await self._follow_logged(event)
                done += 1
        return done

    async def settle(self) -> None:
        """Wait for the changes under way (tests, and a stopping bot)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def _follow_logged(self, event: TournamentEvent) -> None:
        try:
            await self._follow(event)
        except Exception:
            log.exception("event %s: its scheduled event could not follow it", event.id)

    async def _follow(self, event: TournamentEvent) -> None:
        runner = self.bot.tournaments
        assert event.id is not None
        if runner is None:
            return
        async with self._locks.setdefault(event.id, asyncio.Lock()):
            link = await runner.repo.outreach.scheduled_event(event.id)
            if link is None or link.settled:
                return
            # The newest state: a change told meanwhile may have moved the event on.
            event = (await runner.load(event.id)).state
            start = event.settings.start_time
            wanted = wanted_status(event, link.status)
            soon = runner.now() + _LEAST_NOTICE
            if wanted == "scheduled" and start is not None and start != link.start and start > soon:
                fields: dict[str, object] = {
                    "scheduled_start_time": start.isoformat(),
                    "scheduled_end_time": _end(event.settings, start).isoformat(),
                }
                link = await self._edit(event, link, fields, link.status, start)
            for step in _steps(link.status, wanted):
                link = await self._edit(event, link, {"status": _STATUS[step]}, step, link.start)
            if link.settled:
                self._locks.pop(link.tournament_id, None)

    async def _edit(
        self,
        event: TournamentEvent,
        link: ScheduledEventLink,
        fields: dict[str, object],
        status: ScheduledStatus,
        start: datetime | None,
    ) -> ScheduledEventLink:
        """One edit of the scheduled event, stored once Discord took it.

        Deleted by hand: noted as gone. Without Create Events (or Manage Events) it is not
        asked; refused otherwise: logged. Either way the link is kept as it was (the event's
        next change of phase tries again).
        """
        runner = self.bot.tournaments
        assert runner is not None
        guild = self.bot.get_guild(event.guild_id)
        held = None if guild is None or guild.me is None else guild.me.guild_permissions
        if held is not None and not (held.create_events or held.manage_events):
            # asked, Discord would refuse it (403) and count it against the bot
            log.warning("event %s: its scheduled event left as it is: no Create Events", event.id)
            return link
        try:
            edit: Any = self.bot.http.edit_scheduled_event  # its fields are typed loosely
            await edit(event.guild_id, link.scheduled_id, **fields)
        except discord.NotFound:
            log.info("event %s: its scheduled event was deleted by hand", event.id)
            status, start = "gone", link.start
        except discord.HTTPException as exc:
            log_refusal(log, exc, f"event {event.id}: its scheduled event {link.scheduled_id}")
            return link
        moved = link.model_copy(update={"status": status, "start": start})
        await runner.repo.outreach.set_scheduled_event(moved)
        return moved
