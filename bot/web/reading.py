"""What the web pages show, read from the store without writing a thing.

The league's own service takes newly archived games in before it answers (a write);
the pages read what is there instead: the bot takes each game in as it ends. Every
function here raises :class:`PageNotFound` for a server without public pages, an
unknown player or a game of another server, so that each becomes the same 404.

A person who hides from the pages (their ``hide_from_web`` preference) is read as
:data:`~bot.server.preferences.HIDDEN_NAME` wherever they appear, with no link (their
user id becomes 0, which no page has), and their own page is a 404.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Final

from bot.league import (
    FAMILIES,
    Family,
    GameFacts,
    HistoryEntry,
    PlayerStats,
    RatingModel,
    ReplayBook,
    Standing,
    Standings,
    game_facts,
    history_entry,
    kept_facts,
    player_stats,
    rank_players,
    replay_book,
)
from bot.league.ratings import Rating
from bot.rules import RecordError
from bot.server.preferences import HIDDEN_NAME
from bot.store import (
    ArchivedGame,
    Database,
    GameArchiveRepo,
    GuildSettingsRepo,
    LeagueSettingsRepo,
    NotFoundError,
    PreferenceRepo,
    RatingRepo,
    Season,
    SeasonRepo,
    TableRepo,
)

from .events import EventStandings, masked_events, read_events
from .events import people as event_people
from .live import LiveTable, read_live_tables

log = logging.getLogger(__name__)

__all__ = [
    "RECENT_GAMES",
    "STANDINGS_SHOWN",
    "FamilyStandings",
    "GamePage",
    "Opponent",
    "PageNotFound",
    "PlayerPage",
    "RatingLine",
    "ServerPage",
    "read_game",
    "read_player",
    "read_server",
    "read_table_game",
    "server_is_public",
]

STANDINGS_SHOWN: Final = 50
"""Placed players listed per family on the server page."""

RECENT_GAMES: Final = 20


class PageNotFound(Exception):  # noqa: N818 (a page's answer, not a fault)
    """No such page: a server without public pages, or an unknown player or game."""


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

    guild_id: int
    season: Season | None
    standings: tuple[FamilyStandings, ...]
    recent: tuple[ArchivedGame, ...]
    seasons: tuple[Season, ...]
    live: tuple[LiveTable, ...] = ()
    """The tables in play now, in public (on the current season's page only)."""
    events: tuple[EventStandings, ...] = ()
    """The latest tournament events and their standings (on the current season's page)."""


@dataclass(frozen=True, slots=True)
class RatingLine:
    """A player's rating after each rated game of one family in a season (first: the start)."""

    family: Family
    ratings: tuple[float, ...]
    standing: Standing | None


@dataclass(frozen=True, slots=True)
class Opponent:
    """Someone a player met across the table, and how those games went for the player."""

    user_id: int
    name: str
    games: int
    wins: int


@dataclass(frozen=True, slots=True)
class PlayerPage:
    """A player on one server: ratings this season, record, partners, opponents, games."""

    guild_id: int
    user_id: int
    name: str
    season: Season | None
    lines: tuple[RatingLine, ...]
    stats: PlayerStats
    opponents: tuple[Opponent, ...]
    history: tuple[HistoryEntry, ...]


@dataclass(frozen=True, slots=True)
class GamePage:
    """A finished game with every step of its replay."""

    game: ArchivedGame
    book: ReplayBook


async def _hidden(db: Database, user_ids: Iterable[int | None]) -> frozenset[int]:
    """Which of these people hide from the pages."""
    return await PreferenceRepo(db).hidden_among(u for u in user_ids if u is not None)


def _people(games: Iterable[ArchivedGame]) -> set[int | None]:
    return {p.user_id for g in games for p in g.players}


def _masked(game: ArchivedGame, hidden: frozenset[int]) -> ArchivedGame:
    """The game with each hidden person as "a player", without their id."""
    if not any(p.user_id in hidden for p in game.players):
        return game
    players = [
        p.model_copy(update={"display_name": HIDDEN_NAME, "user_id": None})
        if p.user_id in hidden
        else p
        for p in game.players
    ]
    return game.model_copy(update={"players": players})


async def server_is_public(db: Database, guild_id: int) -> bool:
    """Whether the server's admins turned its web pages on."""
    return (await GuildSettingsRepo(db).get(guild_id)).web_public


async def _require_public(db: Database, guild_id: int) -> None:
    if not 0 < guild_id < 2**63 or not await server_is_public(db, guild_id):
        raise PageNotFound(f"server {guild_id} has no public pages")


async def _current_season(db: Database, guild_id: int) -> tuple[Season | None, list[Season]]:
    seasons = await SeasonRepo(db).list_by_guild(guild_id)
    running = next((s for s in seasons if s.running), None)
    return running or (seasons[0] if seasons else None), seasons


async def _standings(db: Database, season: Season, family: Family, min_games: int) -> Standings:
    if not season.running:
        return Standings.frozen(season, await SeasonRepo(db).standings(season.id, family), family)
    model = RatingModel.from_spec(season.rating_model)
    ratings = await RatingRepo(db).season(season.id, family)
    return Standings(season, tuple(rank_players(model, ratings, min_games)), min_games, family)


async def _family_standings(
    db: Database, season: Season, family: Family, min_games: int
) -> FamilyStandings | None:
    """A family's leaders (None: nobody rated); a running season's are ranked in the store."""
    if not season.running:
        standings = await _standings(db, season, family, min_games)
        if not standings.rows:
            return None
        placed = standings.placed
        unplaced = len(standings.rows) - len(placed)
        return FamilyStandings(
            family, placed[:STANDINGS_SHOWN], len(placed), unplaced, standings.min_games
        )
    model = RatingModel.from_spec(season.rating_model)
    ratings = RatingRepo(db)
    placed_count, rated = await ratings.ladder_size(season.id, family, min_games=min_games)
    if not rated:
        return None
    leaders = await ratings.leaders(
        season.id, family, z=model.z, min_games=min_games, limit=STANDINGS_SHOWN
    )
    rows = tuple(rank_players(model, leaders, min_games)[:STANDINGS_SHOWN])
    return FamilyStandings(family, rows, placed_count, rated - placed_count, min_games)


async def _standing(
    db: Database, season: Season, family: Family, user_id: int, min_games: int
) -> Standing | None:
    """A player's line in a family's standings (None: not rated in it)."""
    if not season.running:
        standings = await _standings(db, season, family, min_games)
        return next((s for s in standings.rows if s.user_id == user_id), None)
    model = RatingModel.from_spec(season.rating_model)
    ratings = RatingRepo(db)
    mine = (await ratings.players(season.id, [user_id], family)).get(user_id)
    if mine is None:
        return None
    line = rank_players(model, [mine], min_games)[0]
    if line.place is None:
        return line
    ahead, level = await ratings.rivals(season.id, family, user_id, z=model.z, min_games=min_games)
    among = [s.user_id for s in rank_players(model, level, min_games)]
    return replace(line, place=ahead + 1 + among.index(user_id))


async def read_server(db: Database, guild_id: int, season_id: int | None = None) -> ServerPage:
    """The server page: the current season (or ``season_id``) and the latest games."""
    await _require_public(db, guild_id)
    season, seasons = await _current_season(db, guild_id)
    if season_id is not None:
        season = next((s for s in seasons if s.id == season_id), None)
        if season is None:
            raise PageNotFound(f"server {guild_id} has no season {season_id}")
    families: list[FamilyStandings] = []
    if season is not None:
        min_games = (await LeagueSettingsRepo(db).get(guild_id)).min_games
        for family in FAMILIES:
            shown = await _family_standings(db, season, family, min_games)
            if shown is not None:
                families.append(shown)
    recent = await GameArchiveRepo(db).list_by_guild(guild_id, limit=RECENT_GAMES)
    events = await read_events(db, guild_id) if season_id is None else ()
    rows = [r.user_id for f in families for r in f.rows]
    hidden = await _hidden(db, [*rows, *_people(recent), *event_people(events)])
    if hidden:
        families = [replace(f, rows=_masked_rows(f.rows, hidden)) for f in families]
        recent = [_masked(g, hidden) for g in recent]
        events = masked_events(events, hidden)
    live = await read_live_tables(db, guild_id) if season_id is None else ()
    return ServerPage(
        guild_id, season, tuple(families), tuple(recent), tuple(seasons), live, events
    )


def _masked_rows(rows: Sequence[Standing], hidden: frozenset[int]) -> tuple[Standing, ...]:
    return tuple(
        replace(r, user_id=0, name=HIDDEN_NAME) if r.user_id in hidden else r for r in rows
    )


async def read_player(db: Database, guild_id: int, user_id: int) -> PlayerPage:
    """A player's page: this season's ratings per family, record and games; 404 if unseen."""
    await _require_public(db, guild_id)
    if not 0 < user_id < 2**63:
        raise PageNotFound(f"there is no user {user_id}")
    archive = GameArchiveRepo(db)
    latest = await archive.list_by_player(guild_id, user_id, limit=RECENT_GAMES)
    if not latest:
        raise PageNotFound(f"user {user_id} never played on server {guild_id}")
    if await _hidden(db, [user_id]):
        raise PageNotFound(f"user {user_id} hides from the web pages")
    name = next(p.display_name for p in latest[0].players if p.user_id == user_id)
    season, _ = await _current_season(db, guild_id)
    games = (
        []
        if season is None
        else await archive.list_by_player(guild_id, user_id, season_id=season.id)
    )
    games.reverse()
    stats = player_stats(user_id, name, await _facts(archive, games))
    lines = [] if season is None else await _rating_lines(db, guild_id, season, user_id)
    opponents = _opponents(user_id, games)
    hidden = await _hidden(db, _people([*latest, *games]))
    if hidden:
        partners = tuple(
            replace(p, user_id=0, name=HIDDEN_NAME) if p.user_id in hidden else p
            for p in stats.partners
        )
        stats = replace(stats, partners=partners)
        opponents = tuple(
            replace(o, user_id=0, name=HIDDEN_NAME) if o.user_id in hidden else o for o in opponents
        )
        latest = [_masked(g, hidden) for g in latest]
    history = tuple(history_entry(user_id, g) for g in latest)
    return PlayerPage(guild_id, user_id, name, season, tuple(lines), stats, opponents, history)


async def _facts(
    archive: GameArchiveRepo, games: Sequence[ArchivedGame]
) -> list[tuple[ArchivedGame, GameFacts]]:
    """Each game's facts: from the deal outcomes the archive keeps, else from its record."""
    kept = await archive.deal_outcomes([g.id for g in games])
    facts: dict[int, GameFacts] = {}
    for game in games:
        if game.id in kept:
            try:
                facts[game.id] = kept_facts(game, kept[game.id])
            except RecordError as exc:
                log.warning("game %d: its kept deal outcomes are unusable: %s", game.id, exc)
    records = await archive.records([g.id for g in games if g.id not in facts])
    return [(g, facts.get(g.id) or game_facts(records[g.id])) for g in games]


async def _rating_lines(
    db: Database, guild_id: int, season: Season, user_id: int
) -> list[RatingLine]:
    model = RatingModel.from_spec(season.rating_model)
    min_games = (await LeagueSettingsRepo(db).get(guild_id)).min_games
    lines = []
    for family in FAMILIES:
        points = await RatingRepo(db).points(season.id, user_id, family)
        if not points:
            continue
        standing = await _standing(db, season, family, user_id, min_games)
        ratings = (
            model.conservative(model.initial()),
            *(model.conservative(Rating(p.mu, p.sigma)) for p in points),
        )
        lines.append(RatingLine(family, ratings, standing))
    return lines


def _opponents(user_id: int, games: Sequence[ArchivedGame]) -> tuple[Opponent, ...]:
    """The people met most, toughest first (lowest win rate, then most games)."""
    met: Counter[int] = Counter()
    won: Counter[int] = Counter()
    names: dict[int, str] = {}
    for game in games:
        me = next(p for p in game.players if p.user_id == user_id)
        for p in game.players:
            if p.team == me.team or p.is_computer or p.user_id is None:
                continue
            met[p.user_id] += 1
            won[p.user_id] += game.winner == me.team
            names[p.user_id] = p.display_name
    found = [Opponent(u, names[u], n, won[u]) for u, n in met.items()]
    found.sort(key=lambda o: (o.wins / o.games, -o.games, o.name.casefold(), o.user_id))
    return tuple(found[:5])


async def read_game(db: Database, guild_id: int, game_id: int) -> GamePage:
    """A finished game of the server with its replay; 404 for another server's or none."""
    await _require_public(db, guild_id)
    archive = GameArchiveRepo(db)
    try:
        if not 0 < game_id < 2**63:
            raise NotFoundError(f"there is no game {game_id}")
        game = await archive.get(game_id)
        if game.guild_id != guild_id:
            raise NotFoundError(f"game {game_id} is another server's")
        record = await archive.record(game_id)
    except NotFoundError as exc:
        raise PageNotFound(str(exc)) from None
    try:
        book = replay_book(record)
    except RecordError as exc:
        raise PageNotFound(f"game {game_id} does not replay: {exc}") from None
    return GamePage(_masked(game, await _hidden(db, _people([game]))), book)


async def read_table_game(db: Database, guild_id: int, table_id: int) -> int | None:
    """The game archived from a table of the server; None while the table is open.

    PageNotFound for another server's table, one closed without a finished game, or none.
    """
    await _require_public(db, guild_id)
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
