"""Keeping events in the store: create one per channel, save after each change, reload.

The event's whole state is saved in one transaction after every change, so a bot
killed at any point finds each event as it was after its last change.
"""

from __future__ import annotations

from bot.league.tournaments.errors import ChannelBusyError
from bot.league.tournaments.event import Tournament
from bot.store import OpenEventExistsError, TournamentRepo

__all__ = ["create_event", "load_event", "open_events", "save_event"]


async def create_event(repo: TournamentRepo, event: Tournament) -> Tournament:
    """Save a new event; ChannelBusyError when its channel already holds one."""
    try:
        saved = await repo.create(event.state)
    except OpenEventExistsError:
        raise ChannelBusyError(
            "This channel already has an event that has not ended: "
            "finish or cancel it, or use another channel."
        ) from None
    return Tournament(saved)


async def save_event(repo: TournamentRepo, event: Tournament) -> None:
    """Save the event as it stands now."""
    await repo.save(event.state)


async def load_event(repo: TournamentRepo, event_id: int) -> Tournament:
    """An event as it was last saved."""
    return Tournament(await repo.get(event_id))


async def open_events(repo: TournamentRepo, guild_id: int | None = None) -> list[Tournament]:
    """Every event that has not ended, to go on with after a restart."""
    return [Tournament(state) for state in await repo.open_events(guild_id)]
