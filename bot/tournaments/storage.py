"""Keeping events in the store: create one per channel, save after each change, reload.

The event's whole state is saved in one transaction after every change, so a bot
killed at any point finds each event as it was after its last change. The change that
finishes an event also notes the role each champion is to hold (when the event gives
one), so the roles are given even if the bot stops right after.
"""

from __future__ import annotations

from datetime import timedelta

from bot.store import OpenEventExistsError
from bot.tournaments.errors import ChannelBusyError
from bot.tournaments.event import Tournament
from bot.tournaments.model import ChampionRole, TournamentEvent
from bot.tournaments.repository import TournamentRepo
from bot.tournaments.standings import champions

__all__ = ["champion_roles", "create_event", "load_event", "open_events", "save_event"]


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
    """Save the event as it stands now (finished: with its champions' roles to give)."""
    await repo.save(event.state, champion_roles(event.state))


def champion_roles(event: TournamentEvent) -> list[ChampionRole]:
    """The role each person among a finished event's champions is to hold, and until when.

    None before the end, nor without a champion role; computers get nothing.
    """
    role_id = event.settings.champion_role_id
    if event.phase != "finished" or role_id is None or event.id is None:
        return []
    expires = event.updated_at + timedelta(hours=event.settings.champion_role_hours)
    by_number = {e.number: e for e in event.entrants}
    users = [
        user_id
        for line in champions(event)
        for number in line.entrants
        if (user_id := by_number[number].user_id) is not None
    ]
    return [
        ChampionRole(
            tournament_id=event.id,
            guild_id=event.guild_id,
            channel_id=event.channel_id,
            user_id=user_id,
            role_id=role_id,
            expires_at=expires,
        )
        for user_id in dict.fromkeys(users)
    ]


async def load_event(repo: TournamentRepo, event_id: int) -> Tournament:
    """An event as it was last saved."""
    return Tournament(await repo.get(event_id))


async def open_events(repo: TournamentRepo, guild_id: int | None = None) -> list[Tournament]:
    """Every event that has not ended, to go on with after a restart."""
    return [Tournament(state) for state in await repo.open_events(guild_id)]
