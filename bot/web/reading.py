"""What the web pages show, read from the store without writing a thing.

The league's own service takes newly archived games in before it answers (a write);
the pages read what is there instead: the bot takes each game in as it ends. Every
function here raises :class:`PageNotFound` for a server without public pages, an
unknown player or a game of another server, so that each becomes the same 404.

This module reads a server's page, a game's, an event's and a table's link; a player's
page is :mod:`.players`, and what they all read of their server (public or not, its
name, its seasons, who hides) is :mod:`.servers`.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final

from bot.league import (
    FAMILIES,
    Family,
    RatingModel,
    ReplayBook,
    Standing,
    rank_players,
    replay_book,
)
from bot.rules import RecordError
from bot.server.preferences import HIDDEN_NAME
from bot.store import (
    ArchivedGame,
    Database,
    GameArchiveRepo,
    NotFoundError,
    RatingRepo,
    Season,
    TableRepo,
)

from .answers import PageNotFound
from .events import (
    EventRoundView,
    EventStandings,
    masked_events,
    masked_rounds,
    read_event_rounds,
    read_events,
    read_one_event,
)
from .events import people as event_people
from .live import LiveTable, PublicViews, live_tables, read_open_tables, seated
from .players import PlayerPage, read_player
from .replay_view import Player, players_of
from .servers import (
    ServerName,
    current_season,
    hidden_among,
    masked,
    people_of,
    read_header,
    read_icon,
    read_server_name,
    require_public,
    season_standings,
    server_is_public,
)

log = logging.getLogger(__name__)

__all__ = [
    "RECENT_GAMES",
    "STANDINGS_SHOWN",
    "EventPage",
    "FamilyStandings",
    "GamePage",
    "PageNotFound",
    "PlayerPage",
    "ServerName",
    "ServerPage",
    "read_event",
    "read_game",
    "read_icon",
    "read_player",
    "read_server",
    "read_server_name",
    "read_table_game",
    "server_is_public",
]

STANDINGS_SHOWN: Final = 50
"""Placed players listed per family on the server page."""

RECENT_GAMES: Final = 20
"""The server's latest games listed on its page."""


@dataclass(frozen=True, slots=True)
class FamilyStandings:
    """A family's standings in a season, cut to the leaders."""

    family: Family
    rows: tuple[Standing, ...]
    placed: int
    unplaced: int
    min_games: int


@dataclass(frozen=True, slots=True)
class ServerPage:
    """A server's league: a season's standings per family, its latest games, its seasons."""

    server: ServerName
    season: Season | None
    standings: tuple[FamilyStandings, ...]
    recent: tuple[ArchivedGame, ...]
    seasons: tuple[Season, ...]
    live: tuple[LiveTable, ...] = ()
    """The tables in play now, in public (on the current season's page only)."""
    events: tuple[EventStandings, ...] = ()
    """The latest tournament events and their standings (on the current season's page)."""


@dataclass(frozen=True, slots=True)
class GamePage:
    """A finished game with every step of its replay."""

    server: ServerName
    game: ArchivedGame
    book: ReplayBook

    @property
    def players(self) -> tuple[Player, ...]:
        """Who sat where."""
        return players_of(self.game)

    @property
    def number(self) -> int:
        """The game's number on its server (its id for a game stored without one)."""
        return self.game.shown_number


async def _family_standings(
    db: Database,
    season: Season,
    family: Family,
    min_games: int,
    size: tuple[int, int] | None = None,
) -> FamilyStandings | None:
    """A family's leaders (None: nobody rated); a running season's are ranked in the store.

    ``size``: the family's placed and rated players, if already read.
    """
    if not season.running:
        standings = await season_standings(db, season, family, min_games)
        if not standings.rows:
            return None
        placed = standings.placed
        unplaced = len(standings.rows) - len(placed)
        return FamilyStandings(
            family, placed[:STANDINGS_SHOWN], len(placed), unplaced, standings.min_games
        )
    model = RatingModel.from_spec(season.rating_model)
    ratings = RatingRepo(db)
    if size is None:
        size = await ratings.ladder_size(season.id, family, min_games=min_games)
    placed_count, rated = size
    if not rated:
        return None
    leaders = await ratings.leaders(
        season.id, family, z=model.z, min_games=min_games, limit=STANDINGS_SHOWN
    )
    rows = tuple(rank_players(model, leaders, min_games)[:STANDINGS_SHOWN])
    return FamilyStandings(family, rows, placed_count, rated - placed_count, min_games)


async def read_server(
    db: Database,
    guild_id: int,
    season_id: int | None = None,
    *,
    live: bool = True,
    views: PublicViews | None = None,
) -> ServerPage:
    """The server page: the current season (or ``season_id``) and the latest games.

    ``live``: with the tables in play (the current season's page only), their public
    views replayed by ``views`` (None: replayed now).
    """
    header = await read_header(db, guild_id)
    season, seasons = await current_season(db, guild_id)
    if season_id is not None:
        season = next((s for s in seasons if s.id == season_id), None)
        if season is None:
            raise PageNotFound(f"server {guild_id} has no season {season_id}")
    families: list[FamilyStandings] = []
    if season is not None:
        min_games = header.min_games
        sizes = (
            await RatingRepo(db).ladder_sizes(season.id, min_games=min_games)
            if season.running
            else {}
        )
        for family in FAMILIES:
            if season.running and family not in sizes:
                continue
            shown = await _family_standings(db, season, family, min_games, sizes.get(family))
            if shown is not None:
                families.append(shown)
    recent = await GameArchiveRepo(db).list_by_guild(guild_id, limit=RECENT_GAMES)
    events = await read_events(db, guild_id) if season_id is None else ()
    open_tables = await read_open_tables(db, guild_id, views) if live and season_id is None else []
    rows = [r.user_id for f in families for r in f.rows]
    everyone = [*rows, *people_of(recent), *event_people(events), *seated(open_tables)]
    hidden = await hidden_among(db, everyone)
    if hidden:
        families = [replace(f, rows=_masked_rows(f.rows, hidden)) for f in families]
        recent = [masked(g, hidden) for g in recent]
        events = masked_events(events, hidden)
    tables = live_tables(open_tables, hidden)
    return ServerPage(
        header.name, season, tuple(families), tuple(recent), tuple(seasons), tables, events
    )


def _masked_rows(rows: Sequence[Standing], hidden: frozenset[int]) -> tuple[Standing, ...]:
    return tuple(
        replace(r, user_id=0, name=HIDDEN_NAME) if r.user_id in hidden else r for r in rows
    )


async def read_game(db: Database, guild_id: int, game_id: int) -> GamePage:
    """A finished game of the server with its replay; 404 for another server's or none."""
    header = await read_header(db, guild_id)
    try:
        if not 0 < game_id < 2**63:
            raise NotFoundError(f"there is no game {game_id}")
        game, record = await GameArchiveRepo(db).get_with_record(game_id)
        if game.guild_id != guild_id:
            raise NotFoundError(f"game {game_id} is another server's")
    except NotFoundError as exc:
        raise PageNotFound(str(exc)) from None
    try:
        book = replay_book(record)
    except RecordError as exc:
        raise PageNotFound(f"game {game_id} does not replay: {exc}") from None
    shown = masked(game, await hidden_among(db, people_of([game])))
    return GamePage(header.name, shown, book)


@dataclass(frozen=True, slots=True)
class EventPage:
    """A tournament event: its standings, and its rounds newest first."""

    server: ServerName
    event: EventStandings
    rounds: tuple[EventRoundView, ...]


async def read_event(db: Database, guild_id: int, event_id: int) -> EventPage:
    """A tournament event of the server; 404 for another server's, a cancelled one or none."""
    header = await read_header(db, guild_id)
    found = await read_one_event(db, guild_id, event_id)
    if found is None:
        raise PageNotFound(f"server {guild_id} has no event {event_id}")
    event, rounds = await read_event_rounds(db, found)
    everyone = {u for r in rounds for t in r.tables for u in t.user_ids}
    hidden = await hidden_among(db, everyone | event_people([event]))
    if hidden:
        event = masked_events([event], hidden)[0]
        rounds = masked_rounds(rounds, hidden)
    return EventPage(header.name, event, rounds)


async def read_table_game(db: Database, guild_id: int, table_id: int) -> int | None:
    """The game archived from a table of the server; None while the table is open.

    PageNotFound for another server's table, one closed without a finished game, or none.
    """
    await require_public(db, guild_id)
    if not 0 < table_id < 2**63:
        raise PageNotFound(f"there is no table {table_id}")
    game = await GameArchiveRepo(db).find_by_table(table_id)
    if game is not None:
        if game.guild_id != guild_id:
            raise PageNotFound(f"table {table_id} is another server's")
        return game.id
    try:
        table = await TableRepo(db).get(table_id)
    except NotFoundError:
        raise PageNotFound(f"there is no table {table_id}") from None
    if table.guild_id != guild_id or not table.is_open:
        raise PageNotFound(f"table {table_id} has no game to show")
    return None
