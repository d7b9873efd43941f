"""A player's page: their rating over the season, accuracy, record, partners and games.

Their statistics are sums of the figures the archive keeps for each seat of a game
(schema 27; a game archived before deal outcomes were kept is replayed), their place
from the store's ranking, their accuracy from the reviews the league keeps of their
games (``AccuracyRepo``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final

from bot.league import (
    FAMILIES,
    Family,
    HistoryEntry,
    PlayerStats,
    RatingModel,
    Standing,
    game_facts,
    history_entry,
    played_stats,
    rank_players,
)
from bot.league.ratings import Rating
from bot.review.repository import AccuracyPoint, AccuracyRepo
from bot.server.preferences import HIDDEN_NAME
from bot.store import Database, GameArchiveRepo, RatingRepo, Season
from bot.store.figures import FiguresRepo, PlayedGame, seat_figures

from .answers import PageNotFound
from .servers import (
    ServerName,
    current_season,
    hidden_among,
    masked,
    people_of,
    read_header,
    season_standings,
)

__all__ = ["ACCURACY_SHOWN", "Accuracy", "Opponent", "PlayerPage", "RatingLine", "read_player"]

RECENT_GAMES: Final = 20
"""A player's latest games listed."""

ACCURACY_SHOWN: Final = 10
"""A player's latest reviewed games listed with their accuracy."""


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
class Accuracy:
    """How well a player played, by the reviews the league keeps of their games."""

    games: int
    """Their reviewed games on the server."""
    mean: float
    """Their mean accuracy over those games, each weighing the same."""
    latest: tuple[AccuracyPoint, ...]
    """Their latest reviewed games, newest first."""


@dataclass(frozen=True, slots=True)
class PlayerPage:
    """A player on one server: ratings this season, record, partners, opponents, games."""

    server: ServerName
    user_id: int
    name: str
    season: Season | None
    lines: tuple[RatingLine, ...]
    stats: PlayerStats
    opponents: tuple[Opponent, ...]
    history: tuple[HistoryEntry, ...]
    accuracy: Accuracy | None = None

    @property
    def main_line(self) -> RatingLine | None:
        """The family the player has played most in this season (None: not rated)."""
        return max(self.lines, key=lambda line: len(line.ratings), default=None)


async def read_player(db: Database, guild_id: int, user_id: int) -> PlayerPage:
    """A player's page: this season's ratings per family, record and games; 404 if unseen."""
    header = await read_header(db, guild_id)
    if not 0 < user_id < 2**63:
        raise PageNotFound(f"there is no user {user_id}")
    archive = GameArchiveRepo(db)
    season, _ = await current_season(db, guild_id)
    latest = await archive.list_by_player(guild_id, user_id, limit=RECENT_GAMES)
    if not latest:
        raise PageNotFound(f"user {user_id} never played on server {guild_id}")
    played = (
        [] if season is None else await FiguresRepo(db).season_games(guild_id, user_id, season.id)
    )
    met = {p.user_id for g in played for p in g.others}
    hidden = await hidden_among(db, people_of(latest) | met)  # the player among them
    if user_id in hidden:
        raise PageNotFound(f"user {user_id} hides from the web pages")
    name = next(p.display_name for p in latest[0].players if p.user_id == user_id)
    played = await _counted(archive, played)
    stats = played_stats(user_id, name, played)
    lines = [] if season is None else await _rating_lines(db, season, user_id, header.min_games)
    opponents = _opponents(played)
    if hidden:
        partners = tuple(
            replace(p, user_id=0, name=HIDDEN_NAME) if p.user_id in hidden else p
            for p in stats.partners
        )
        stats = replace(stats, partners=partners)
        opponents = tuple(
            replace(o, user_id=0, name=HIDDEN_NAME) if o.user_id in hidden else o for o in opponents
        )
        latest = [masked(g, hidden) for g in latest]
    history = tuple(history_entry(user_id, g) for g in latest)
    return PlayerPage(
        header.name,
        user_id,
        name,
        season,
        tuple(lines),
        stats,
        opponents,
        history,
        await _accuracy(db, guild_id, user_id),
    )


async def _accuracy(db: Database, guild_id: int, user_id: int) -> Accuracy | None:
    """The player's accuracy from the league's reviews of their games (None: none reviewed)."""
    repo = AccuracyRepo(db)
    games, mean = await repo.average(guild_id, user_id)
    if not games or mean is None:
        return None
    latest = await repo.history(guild_id, user_id, limit=ACCURACY_SHOWN)
    return Accuracy(games, mean, tuple(reversed(latest)))


async def _counted(archive: GameArchiveRepo, games: list[PlayedGame]) -> list[PlayedGame]:
    """The games with their figures: those archived without them counted from their records."""
    missing = [g.game_id for g in games if g.figures is None]
    if not missing:
        return games
    records = await archive.records(missing)
    out = []
    for game in games:
        if game.figures is None:
            deals = game_facts(records[game.game_id]).deals
            game = replace(game, figures=seat_figures(deals, game.seat, game.team))
        out.append(game)
    return out


async def _rating_lines(
    db: Database, season: Season, user_id: int, min_games: int
) -> list[RatingLine]:
    model = RatingModel.from_spec(season.rating_model)
    lines = []
    by_family = await RatingRepo(db).points_by_family(season.id, user_id, FAMILIES)
    for family in FAMILIES:
        points = by_family.get(family)
        if not points:
            continue
        standing = await _standing(db, season, family, user_id, min_games)
        ratings = (
            model.conservative(model.initial()),
            *(model.conservative(Rating(p.mu, p.sigma)) for p in points),
        )
        lines.append(RatingLine(family, ratings, standing))
    return lines


def _opponents(games: Sequence[PlayedGame]) -> tuple[Opponent, ...]:
    """The people met most, toughest first (lowest win rate, then most games)."""
    met: Counter[int] = Counter()
    won: Counter[int] = Counter()
    names: dict[int, str] = {}
    for game in games:
        for p in game.others:
            if p.team == game.team or p.is_computer or p.user_id is None:
                continue
            met[p.user_id] += 1
            won[p.user_id] += game.winner == game.team
            names[p.user_id] = p.display_name
    found = [Opponent(u, names[u], n, won[u]) for u, n in met.items()]
    found.sort(key=lambda o: (o.wins / o.games, -o.games, o.name.casefold(), o.user_id))
    return tuple(found[:5])


async def _standing(
    db: Database, season: Season, family: Family, user_id: int, min_games: int
) -> Standing | None:
    """A player's line in a family's standings (None: not rated in it)."""
    if not season.running:
        standings = await season_standings(db, season, family, min_games)
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
