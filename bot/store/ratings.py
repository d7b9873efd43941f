"""Players' league ratings: the current one per season and the point after each rated game.

Also the servers whose ladders are due to be rebuilt from the archive (schema 11).
"""

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
_SLOTS: Final = ", ".join("?" for _ in _COLUMNS.split(","))
_INSERT_POINT: Final = (
    "INSERT INTO league_rating_points (game_id, user_id, season_id, family, mu, sigma) "
    "VALUES (?, ?, ?, ?, ?, ?)"
)


def _rating_row(r: PlayerRating) -> tuple[object, ...]:
    return (
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
                f"INSERT INTO league_ratings ({_COLUMNS}) VALUES ({_SLOTS}) "
                "ON CONFLICT (season_id, family, user_id) DO UPDATE SET "
                "display_name = excluded.display_name, mu = excluded.mu, "
                "sigma = excluded.sigma, games = excluded.games, wins = excluded.wins, "
                "last_game_id = excluded.last_game_id",
                [_rating_row(r) for r in ratings],
            )
            await self._db.execute_many(
                _INSERT_POINT,
                [(game_id, r.user_id, season_id, family, r.mu, r.sigma) for r in ratings],
            )

    async def replace_season(
        self, season_id: int, ratings: Sequence[PlayerRating], points: Sequence[RatingPoint]
    ) -> None:
        """Write a season's ratings and points (every family) over the stored ones, at once."""
        seasons = {r.season_id for r in ratings} | {p.season_id for p in points}
        if seasons - {season_id}:
            raise InvalidRecordError(f"season {season_id}: ratings of another season given")
        async with self._db.transaction():
            await self._db.execute(
                "DELETE FROM league_rating_points WHERE season_id = ?", (season_id,)
            )
            await self._db.execute("DELETE FROM league_ratings WHERE season_id = ?", (season_id,))
            await self._db.execute_many(
                f"INSERT INTO league_ratings ({_COLUMNS}) VALUES ({_SLOTS})",
                [_rating_row(r) for r in ratings],
            )
            await self._db.execute_many(
                _INSERT_POINT,
                [(p.game_id, p.user_id, season_id, p.family, p.mu, p.sigma) for p in points],
            )

    async def rated_games(self, season_id: int) -> set[int]:
        """The games a season's ratings were made from (every family): those with points."""
        rows = await self._db.fetch_all(
            "SELECT DISTINCT game_id FROM league_rating_points WHERE season_id = ?", (season_id,)
        )
        return {int(r["game_id"]) for r in rows}

    async def rebuilds_due(self) -> list[int]:
        """The servers whose ladders are due to be rebuilt from the archive, by id."""
        rows = await self._db.fetch_all("SELECT guild_id FROM league_rebuilds ORDER BY guild_id")
        return [int(r["guild_id"]) for r in rows]

    async def claim_rebuild(self, guild_id: int) -> bool:
        """Take the server off the ladders due a rebuild; whether it was on.

        Call it inside the transaction that rebuilds them, so that both happen or neither.
        """
        async with self._db.transaction():
            rows = await self._db.fetch_all(
                "DELETE FROM league_rebuilds WHERE guild_id = ? RETURNING guild_id", (guild_id,)
            )
        return bool(rows)

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
