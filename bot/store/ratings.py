"""Players' league ratings: the current one per season and the point after each rated game."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from bot.store._codec import build, row_dict
from bot.store.database import Database
from bot.store.errors import InvalidRecordError
from bot.store.league_models import DEFAULT_FAMILY, PlayerRating, RatingPoint

__all__ = ["RatingRepo"]

_COLUMNS: Final = (
    "season_id, family, guild_id, user_id, display_name, mu, sigma, games, wins, last_game_id"
)


class RatingRepo:
    """Save the ratings a rated game produced; read a season's ratings and a player's points."""

    def __init__(self, db: Database) -> None:
        """Work on ``db``."""
        self._db = db

    async def save_game(self, game_id: int, ratings: Sequence[PlayerRating]) -> None:
        """Store each player's rating after game ``game_id``: current rating and its point.

        All ratings must be of one season and family and name ``game_id`` as their last game.
        """
        if not ratings:
            return
        season_id, family = ratings[0].season_id, ratings[0].family
        if any(
            (r.season_id, r.family, r.last_game_id) != (season_id, family, game_id) for r in ratings
        ):
            raise InvalidRecordError(
                f"game {game_id}: ratings of another season, family or game given"
            )
        async with self._db.transaction():
            await self._db.execute_many(
                f"INSERT INTO league_ratings ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (season_id, family, user_id) DO UPDATE SET "
                "display_name = excluded.display_name, mu = excluded.mu, "
                "sigma = excluded.sigma, games = excluded.games, wins = excluded.wins, "
                "last_game_id = excluded.last_game_id",
                [
                    (
                        r.season_id,
                        r.family,
                        r.guild_id,
                        r.user_id,
                        r.display_name,
                        r.mu,
                        r.sigma,
                        r.games,
                        r.wins,
                        r.last_game_id,
                    )
                    for r in ratings
                ],
            )
            await self._db.execute_many(
                "INSERT INTO league_rating_points (game_id, user_id, season_id, family, mu, sigma) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [(game_id, r.user_id, season_id, family, r.mu, r.sigma) for r in ratings],
            )

    async def season(self, season_id: int, family: str = DEFAULT_FAMILY) -> list[PlayerRating]:
        """Every rated player of a season's ladder of ``family``, by user id."""
        rows = await self._db.fetch_all(
            f"SELECT {_COLUMNS} FROM league_ratings WHERE season_id = ? AND family = ? "
            "ORDER BY user_id",
            (season_id, family),
        )
        return [build(PlayerRating, f"season {season_id} rating", row_dict(r)) for r in rows]

    async def players(
        self, season_id: int, user_ids: Iterable[int], family: str = DEFAULT_FAMILY
    ) -> dict[int, PlayerRating]:
        """Those players' current ratings in a season's ladder (absent: not rated yet)."""
        ids = sorted(set(user_ids))
        if not ids:
            return {}
        slots = ", ".join("?" for _ in ids)
        rows = await self._db.fetch_all(
            f"SELECT {_COLUMNS} FROM league_ratings "
            f"WHERE season_id = ? AND family = ? AND user_id IN ({slots})",
            (season_id, family, *ids),
        )
        found = [build(PlayerRating, f"season {season_id} rating", row_dict(r)) for r in rows]
        return {r.user_id: r for r in found}

    async def points(
        self, season_id: int, user_id: int, family: str = DEFAULT_FAMILY
    ) -> list[RatingPoint]:
        """A player's rating after each of their rated games of a season's ladder, oldest first."""
        rows = await self._db.fetch_all(
            "SELECT game_id, season_id, family, user_id, mu, sigma FROM league_rating_points "
            "WHERE season_id = ? AND family = ? AND user_id = ? ORDER BY game_id",
            (season_id, family, user_id),
        )
        return [build(RatingPoint, f"season {season_id} point", row_dict(r)) for r in rows]
