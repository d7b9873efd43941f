"""Players' league ratings: the current one per season and the point after each rated game.

Also the servers whose ladders are due to be rebuilt from the archive (schema 11).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from bot.store._codec import build, row_dict
from bot.store.errors import InvalidRecordError
from bot.store.league_models import DEFAULT_FAMILY, PlayerRating, RatingPoint
from bot.store.repository import Repository

__all__ = ["RANKED_Z", "RatingRepo"]

_COLUMNS: Final = (
    "season_id, family, guild_id, user_id, display_name, mu, sigma, games, wins, last_game_id"
)
_SLOTS: Final = ", ".join("?" for _ in _COLUMNS.split(","))
_INSERT_POINT: Final = (
    "INSERT INTO league_rating_points (game_id, user_id, season_id, family, mu, sigma) "
    "VALUES (?, ?, ?, ?, ?, ?)"
)


RANKED_Z: Final = 3.0
"""The ``z`` the ranking index orders by (schema 23): ``mu - 3.0 * sigma``, the usual model's."""


def _rating(z: float, prefix: str = "") -> tuple[str, tuple[float, ...]]:
    """The conservative rating as SQL and its parameters: the indexed form at :data:`RANKED_Z`.

    The index is used only for the very expression it was made on, so the usual ``z`` is
    written out as that literal; any other ``z`` is a parameter (and no index helps).
    """
    if z == RANKED_Z:
        return f"{prefix}mu - 3.0 * {prefix}sigma", ()
    return f"{prefix}mu - ? * {prefix}sigma", (z,)


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


class RatingRepo(Repository):
    """Save the ratings a rated game produced; read a season's ratings and a player's points."""

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

    async def leaders(
        self, season_id: int, family: str, *, z: float, min_games: int, limit: int
    ) -> list[PlayerRating]:
        """The ladder's first ``limit`` players with ``min_games`` or more, best first.

        Ordered by the conservative rating ``mu - z * sigma``, then more games, then more
        wins; every player tied with the last one on all three is included too, so that
        the caller's own tie-break (by name) cuts the list exactly. At the usual ``z``
        (:data:`RANKED_Z`) the ranking index is read in order: ``limit`` rows, not the ladder.
        """
        rating, zs = _rating(z)
        where = "season_id = ? AND family = ? AND games >= ?"
        # "+games": no index on games for this term, so SQLite reads the ranking index in
        # order rather than the sizes index (every placed player, then sorted)
        rows = await self._db.fetch_all(
            f"SELECT {_COLUMNS} FROM league_ratings "
            "WHERE season_id = ? AND family = ? AND +games >= ? "
            f"ORDER BY {rating} DESC, games DESC, wins DESC, user_id LIMIT ?",
            (season_id, family, min_games, *zs, limit),
        )
        if len(rows) == limit:
            last = rows[-1]
            rows += await self._db.fetch_all(
                f"SELECT {_COLUMNS} FROM league_ratings WHERE {where} AND games = ? AND wins = ? "
                f"AND user_id <> ? AND {rating} = (SELECT {rating} "
                "FROM league_ratings WHERE season_id = ? AND family = ? AND user_id = ?)",
                (
                    season_id,
                    family,
                    min_games,
                    last["games"],
                    last["wins"],
                    last["user_id"],
                    *zs,
                    *zs,
                    season_id,
                    family,
                    last["user_id"],
                ),
            )
        seen: set[int] = set()
        out = []
        for r in rows:
            if int(r["user_id"]) not in seen:
                seen.add(int(r["user_id"]))
                out.append(build(PlayerRating, f"season {season_id} rating", row_dict(r)))
        return out

    async def ladder_sizes(self, season_id: int, *, min_games: int) -> dict[str, tuple[int, int]]:
        """Per family of the season: its players with ``min_games`` or more, and in all.

        Families nobody is rated in are left out.
        """
        rows = await self._db.fetch_all(
            "SELECT family, COUNT(*) AS rated, "
            "COALESCE(SUM(CASE WHEN games >= ? THEN 1 ELSE 0 END), 0) AS placed "
            "FROM league_ratings WHERE season_id = ? GROUP BY family",
            (min_games, season_id),
        )
        return {str(r["family"]): (int(r["placed"]), int(r["rated"])) for r in rows}

    async def ladder_size(self, season_id: int, family: str, *, min_games: int) -> tuple[int, int]:
        """Players of the ladder with ``min_games`` or more, and rated players in all."""
        sizes = await self.ladder_sizes(season_id, min_games=min_games)
        return sizes.get(family, (0, 0))

    async def rivals(
        self, season_id: int, family: str, user_id: int, *, z: float, min_games: int
    ) -> tuple[int, list[PlayerRating]]:
        """Where a player stands among those with ``min_games`` or more.

        The number of them ahead on the conservative rating ``mu - z * sigma``, games and
        wins, and those level with the player on all three (the player among them), whom
        the caller orders by name. At the usual ``z`` the ranking index reads only those
        ahead (and level).
        """
        rating, zs = _rating(z)
        mine = _rating(z, "l.")[0]
        me = (
            f"(SELECT {rating} AS r, games AS g, wins AS w FROM league_ratings "
            "WHERE season_id = ? AND family = ? AND user_id = ?)"
        )
        row = await self._db.fetch_one(
            "SELECT COALESCE(SUM(CASE WHEN "
            f"{mine} > me.r OR l.games > me.g OR (l.games = me.g AND l.wins > me.w) "
            "THEN 1 ELSE 0 END), 0) AS n, "
            f"COALESCE(SUM(CASE WHEN {mine} = me.r AND l.games = me.g AND l.wins = me.w "
            f"THEN 1 ELSE 0 END), 0) AS level FROM league_ratings l, {me} me "
            f"WHERE l.season_id = ? AND l.family = ? AND l.games >= ? AND {mine} >= me.r",
            (*zs, *zs, *zs, season_id, family, user_id, season_id, family, min_games, *zs),
        )
        ahead, level_count = (0, 0) if row is None else (int(row["n"]), int(row["level"]))
        if level_count <= 1:
            found = await self.players(season_id, [user_id], family)
            return ahead, [found[user_id]] if user_id in found else []
        rows = await self._db.fetch_all(
            f"SELECT {', '.join('l.' + c.strip() for c in _COLUMNS.split(','))} "
            f"FROM league_ratings l, {me} me "
            "WHERE l.season_id = ? AND l.family = ? AND l.games >= ? "
            f"AND {mine} = me.r AND l.games = me.g AND l.wins = me.w",
            (*zs, season_id, family, user_id, season_id, family, min_games, *zs),
        )
        level = [build(PlayerRating, f"season {season_id} rating", row_dict(r)) for r in rows]
        return ahead, level

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

    async def points_by_family(
        self, season_id: int, user_id: int, families: Sequence[str]
    ) -> dict[str, list[RatingPoint]]:
        """A player's points in these families of a season, each family's oldest first."""
        if not families:
            return {}
        slots = ", ".join("?" for _ in families)
        rows = await self._db.fetch_all(
            "SELECT game_id, season_id, family, user_id, mu, sigma FROM league_rating_points "
            f"WHERE season_id = ? AND family IN ({slots}) AND user_id = ? "
            "ORDER BY family, game_id",
            (season_id, *families, user_id),
        )
        out: dict[str, list[RatingPoint]] = {}
        for r in rows:
            point = build(RatingPoint, f"season {season_id} point", row_dict(r))
            out.setdefault(point.family, []).append(point)
        return out

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
