"""A server's tournament events: on its page each event's standings, and a page per event.

Events come from ``TournamentRepo``; their standings are the league's own
(``bot.tournaments.standings``), as the event's message shows them. An event's
own page adds its rounds: each table, who sat where, what it scored and the game it
archived (linked to its replay). A person who hides from the pages shows as "a player",
without a link.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, ClassVar, Final, Protocol, TypeVar

from bot.server.preferences import HIDDEN_NAME
from bot.store import ArchivedGame, Database, GameArchiveRepo, NotFoundError
from bot.tournaments.model import TournamentEvent
from bot.tournaments.repository import TournamentRepo
from bot.tournaments.standings import Standing, standings

__all__ = [
    "EVENTS_SHOWN",
    "EventLine",
    "EventRoundView",
    "EventStandings",
    "EventTable",
    "masked_events",
    "masked_rounds",
    "people",
    "read_event_rounds",
    "read_events",
    "read_one_event",
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
    number: int
    """Its number on the server, as Discord shows it (``shown_number``)."""
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


def _shown(event: TournamentEvent, lines: int = LINES_SHOWN) -> EventStandings:
    assert event.id is not None and event.shown_number is not None
    return EventStandings(
        id=event.id,
        number=event.shown_number,
        name=event.name,
        format=event.settings.format,
        phase=_PHASES.get(event.phase, event.phase),
        rounds_played=len(event.rounds),
        rounds=max(event.settings.rounds, len(event.rounds)),
        created_at=event.created_at,
        lines=tuple(_line(event, s) for s in standings(event)[:lines]),
    )


async def read_events(db: Database, guild_id: int) -> tuple[EventStandings, ...]:
    """The server's latest events (cancelled ones left out), newest first, with standings."""
    events = await TournamentRepo(db).list_by_guild(guild_id, limit=EVENTS_SHOWN + 5)
    kept = [e for e in events if e.phase != "cancelled"][:EVENTS_SHOWN]
    return tuple(_shown(e) for e in kept)


def people(events: Iterable[EventStandings]) -> set[int | None]:
    """Everyone named in the events' standings."""
    return {u for e in events for line in e.lines for u in line.user_ids}


def _masked(
    names: tuple[str, ...], user_ids: tuple[int | None, ...], hidden: frozenset[int]
) -> tuple[tuple[str, ...], tuple[int | None, ...]]:
    """Names and ids with each hidden person as "a player", without their id."""
    shown = tuple(HIDDEN_NAME if u in hidden else n for n, u in zip(names, user_ids, strict=True))
    return shown, tuple(None if u in hidden else u for u in user_ids)


class _People(Protocol):
    """A line or a table that names people: a dataclass with ``names`` and ``user_ids``."""

    __dataclass_fields__: ClassVar[dict[str, Any]]

    @property
    def names(self) -> tuple[str, ...]: ...
    @property
    def user_ids(self) -> tuple[int | None, ...]: ...


_P = TypeVar("_P", bound=_People)


def _masked_each(items: Iterable[_P], hidden: frozenset[int]) -> tuple[_P, ...]:
    """Each of ``items`` with its hidden people masked (:func:`_masked`)."""
    out = []
    for item in items:
        names, ids = _masked(item.names, item.user_ids, hidden)
        out.append(replace(item, names=names, user_ids=ids))
    return tuple(out)


def masked_events(
    events: Iterable[EventStandings], hidden: frozenset[int]
) -> tuple[EventStandings, ...]:
    """The events with each hidden person as "a player", without their id."""
    return tuple(replace(e, lines=_masked_each(e.lines, hidden)) for e in events)


@dataclass(frozen=True, slots=True)
class EventTable:
    """A table of a round: who sat where, what each partnership scored, the game it made."""

    number: int
    names: tuple[str, ...]
    """In seat order: seats 1 and 3 partner against seats 2 and 4."""
    user_ids: tuple[int | None, ...]
    points: tuple[int, int] | None
    """The partnerships' points (None: not played yet)."""
    finished: bool
    game_id: int | None
    """The game the table archived (None: none yet, or it stopped before a deal was done)."""
    game_number: int | None
    stopped: str | None = None
    """Why its game was stopped before its end (its finished deals archived), if it was."""


@dataclass(frozen=True, slots=True)
class EventRoundView:
    """A round of an event as its page shows it."""

    number: int
    started_at: datetime
    ended_at: datetime | None
    ended_by_timer: bool
    tables: tuple[EventTable, ...]
    bye: tuple[str, ...]
    """Pairs: the names of the pair sitting the round out."""
    bye_ids: tuple[int | None, ...]


async def read_one_event(db: Database, guild_id: int, event_id: int) -> TournamentEvent | None:
    """The server's event (None: no such event of this server, or a cancelled one)."""
    if not 0 < event_id < 2**63:
        return None
    try:
        event = await TournamentRepo(db).get(event_id)
    except NotFoundError:
        return None
    if event.guild_id != guild_id or event.phase == "cancelled":
        return None
    return event


async def _games_of(db: Database, table_ids: Sequence[int]) -> dict[int, ArchivedGame]:
    archive = GameArchiveRepo(db)
    found = {}
    for table_id in table_ids:
        game = await archive.find_by_table(table_id)
        if game is not None:
            found[table_id] = game
    return found


async def read_event_rounds(
    db: Database, event: TournamentEvent
) -> tuple[EventStandings, tuple[EventRoundView, ...]]:
    """An event's whole standings and its rounds, newest round first."""
    names = {e.number: (e.display_name, e.user_id) for e in event.entrants}
    table_ids = [t.table_id for r in event.rounds for t in r.tables if t.table_id is not None]
    games = await _games_of(db, table_ids)
    rounds = []
    for rnd in event.rounds:
        tables = []
        for table in rnd.tables:
            game = games.get(table.table_id) if table.table_id is not None else None
            who = [names.get(n, ("?", None)) for n in table.seats]
            tables.append(
                EventTable(
                    number=table.number,
                    names=tuple(n for n, _ in who),
                    user_ids=tuple(u for _, u in who),
                    points=None if table.result is None else table.result.points,
                    finished=table.result is not None and table.result.finished,
                    game_id=None if game is None else game.id,
                    game_number=None if game is None else game.shown_number,
                    stopped=None if game is None else game.stopped,
                )
            )
        resting = [e for e in event.entrants if rnd.bye is not None and e.slot == rnd.bye]
        rounds.append(
            EventRoundView(
                rnd.number,
                rnd.started_at,
                rnd.ended_at,
                rnd.ended_by_timer,
                tuple(tables),
                tuple(e.display_name for e in resting),
                tuple(e.user_id for e in resting),
            )
        )
    return _shown(event, lines=len(event.entrants)), tuple(reversed(rounds))


def masked_rounds(
    rounds: Iterable[EventRoundView], hidden: frozenset[int]
) -> tuple[EventRoundView, ...]:
    """The rounds with each hidden person as "a player", without their id."""
    out = []
    for rnd in rounds:
        bye, bye_ids = _masked(rnd.bye, rnd.bye_ids, hidden)
        tables = _masked_each(rnd.tables, hidden)
        out.append(replace(rnd, tables=tables, bye=bye, bye_ids=bye_ids))
    return tuple(out)
