"""A server's tournament events for its web page: each event and its standings.

Events come from ``TournamentRepo``; their standings are the league's own
(``bot.league.tournaments.standings``), as the event's message shows them. A person
who hides from the pages shows as "a player", without a link.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Final

from bot.league.tournaments.standings import Standing, standings
from bot.server.preferences import HIDDEN_NAME
from bot.store import Database, TournamentEvent, TournamentRepo

__all__ = [
    "EVENTS_SHOWN",
    "EventLine",
    "EventStandings",
    "masked_events",
    "people",
    "read_events",
]

EVENTS_SHOWN: Final = 5
"""The server's latest events listed on its page."""

LINES_SHOWN: Final = 50
"""Standing lines listed per event."""

_PHASES: Final = {
    "signup": "signing up",
    "checkin": "checking in",
    "playing": "playing",
    "between_rounds": "between rounds",
    "finished": "finished",
}


@dataclass(frozen=True, slots=True)
class EventLine:
    """One line of an event's standings: a person, or a pair, and what placed them."""

    place: int
    names: tuple[str, ...]
    user_ids: tuple[int | None, ...]
    points: int
    against: int
    deals_won: int
    wins: float
    games: int
    replaced: bool


@dataclass(frozen=True, slots=True)
class EventStandings:
    """An event as its server's page shows it."""

    id: int
    name: str
    format: str
    """``progressive`` or ``pairs``."""
    phase: str
    """In words: "playing", "finished"..."""
    rounds_played: int
    rounds: int
    created_at: datetime
    lines: tuple[EventLine, ...]


def _line(event: TournamentEvent, standing: Standing) -> EventLine:
    users = {e.number: e.user_id for e in event.entrants}
    return EventLine(
        place=standing.place,
        names=standing.names,
        user_ids=tuple(users.get(n) for n in standing.entrants),
        points=standing.points,
        against=standing.against,
        deals_won=standing.deals_won,
        wins=standing.wins,
        games=standing.games,
        replaced=standing.replaced,
    )


def _shown(event: TournamentEvent) -> EventStandings:
    assert event.id is not None
    return EventStandings(
        id=event.id,
        name=event.name,
        format=event.settings.format,
        phase=_PHASES.get(event.phase, event.phase),
        rounds_played=len(event.rounds),
        rounds=max(event.settings.rounds, len(event.rounds)),
        created_at=event.created_at,
        lines=tuple(_line(event, s) for s in standings(event)[:LINES_SHOWN]),
    )


async def read_events(db: Database, guild_id: int) -> tuple[EventStandings, ...]:
    """The server's latest events (cancelled ones left out), newest first, with standings."""
    events = await TournamentRepo(db).list_by_guild(guild_id, limit=EVENTS_SHOWN + 5)
    kept = [e for e in events if e.phase != "cancelled"][:EVENTS_SHOWN]
    return tuple(_shown(e) for e in kept)


def people(events: Iterable[EventStandings]) -> set[int | None]:
    """Everyone named in the events' standings."""
    return {u for e in events for line in e.lines for u in line.user_ids}


def masked_events(
    events: Iterable[EventStandings], hidden: frozenset[int]
) -> tuple[EventStandings, ...]:
    """The events with each hidden person as "a player", without their id."""
    out = []
    for event in events:
        lines = []
        for line in event.lines:
            if not any(u in hidden for u in line.user_ids):
                lines.append(line)
                continue
            names = tuple(
                HIDDEN_NAME if u in hidden else n
                for n, u in zip(line.names, line.user_ids, strict=False)
            )
            ids = tuple(None if u in hidden else u for u in line.user_ids)
            lines.append(replace(line, names=names, user_ids=ids))
        out.append(replace(event, lines=tuple(lines)))
    return tuple(out)
