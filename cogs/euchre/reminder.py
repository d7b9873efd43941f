"""Discord's own reminder of a timed tournament: its scheduled event, and why it can't be.

``/euchre tournament new`` with a start time creates a Discord scheduled event in the
server (its place is the event's channel), so members get Discord's reminder. Creating
it takes the Create Events permission, which the invite link asks for; a server that
added the bot with an older link, or took the permission away, still gets its event,
and :func:`schedule_reminder` says in a few words why the reminder was not created. It
looks at the bot's permissions first, so it never asks what Discord would refuse.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Final

import discord

from bot.refusals import log_refusal
from bot.store.tournament_models import EventSettings

__all__ = ["NO_REMINDER", "schedule_reminder"]

log = logging.getLogger(__name__)

NO_REMINDER: Final = "Discord's own reminder of this event (a scheduled event) was not created"
"""The start of the director's private sentence; the reason follows a colon."""

MISSING_PERMISSIONS: Final = 50013
"""Discord's error code for a request the bot's permissions don't allow."""

MISSING_CREATE_EVENTS: Final = (
    "the bot lacks the Create Events permission in this server: "
    "grant it, or remind people yourself"
)

_ROUND_MINUTES: Final = EventSettings().round_timer_minutes or 0
"""A round's length when the event has no round timer: the setting's default."""


async def schedule_reminder(
    guild: discord.Guild, channel: discord.TextChannel, name: str, settings: EventSettings
) -> str | None:
    """Create the event's scheduled event; why it was not created (None: it was).

    The failure is logged too, for the operator.
    """
    assert settings.start_time is not None
    me = guild.me
    held = None if me is None else me.guild_permissions
    if held is not None and not (held.create_events or held.manage_events):
        # asked, Discord would refuse it (403, 50013) and count it against the bot
        log.warning("Did not create the scheduled event in guild %d: no Create Events", guild.id)
        return MISSING_CREATE_EVENTS
    minutes = settings.rounds * (settings.round_timer_minutes or _ROUND_MINUTES)
    try:
        await guild.create_scheduled_event(
            name=name,
            start_time=settings.start_time,
            end_time=settings.start_time + timedelta(minutes=minutes),
            entity_type=discord.EntityType.external,
            privacy_level=discord.PrivacyLevel.guild_only,
            location=channel.mention,
            description=f"Euchre tournament in {channel.mention}: join there.",
        )
    except discord.HTTPException as exc:
        log_refusal(log, exc, f"the scheduled event in guild {guild.id}")
        return _why(exc)
    return None


def _why(exc: discord.HTTPException) -> str:
    """Why Discord refused the scheduled event, and what the director can do."""
    if exc.status == 403 and exc.code == MISSING_PERMISSIONS:
        return MISSING_CREATE_EVENTS
    said = exc.text.splitlines()[0] if exc.text else ""
    detail = f"HTTP {exc.status}: {said}" if said else f"HTTP {exc.status}"
    return f"Discord refused it ({detail}): remind people yourself"
