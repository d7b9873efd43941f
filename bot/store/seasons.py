"""League seasons of each server, and the standings frozen when a season ends."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from bot.store._codec import build, dump_json, load_json, row_dict, time_text, time_value
from bot.store.database import Row
from bot.store.errors import ConstraintError, CorruptDataError, NotFoundError, SeasonStateError
from bot.store.league_models import DEFAULT_FAMILY, FrozenStanding, Season
from bot.store.repository import Repository

__all__ = ["SeasonRepo"]

_COLUMNS: Final = "id, guild_id, name, started_at, ended_at, open_ended, rating_model, min_games"
_STANDING_COLUMNS: Final = (
    "season_id, family, user_id, place, display_name, rating, mu, sigma, games, wins"
)


class SeasonRepo(Repository):
    """Start, end and find seasons; keep the frozen standings of ended ones."""

    async def start(
        self,
        guild_id: int,
        name: str,
        *,
        rating_model: Mapping[str, Any] | None = None,
        open_ended: bool = False,
    ) -> Season:
        """Start a season now. SeasonStateError when one is running or the name is taken."""
        now = time_text(self._db.now())
        async with self._db.transaction():
            running = await self.running(guild_id)
            if running is not None:
                raise SeasonStateError(f"guild {guild_id}: season {running.id} is still running")
            if await self.find(guild_id, name) is not None:
                raise SeasonStateError(f"guild {guild_id} already has a season called {name!r}")
            try:
                row = await self._db.fetch_one(
                    "INSERT INTO seasons (guild_id, name, started_at, open_ended, rating_model) "
                    "VALUES (?, ?, ?, ?, ?) RETURNING id",
                    (
                        guild_id,
                        name,
                        now,
                        open_ended,
                        None if rating_model is None else dump_json(dict(rating_model)),
                    ),
                )
            except ConstraintError as exc:
                raise SeasonStateError(f"guild {guild_id}: cannot start a season ({exc})") from exc
            assert row is not None
            return await self.get(int(row["id"]))

    async def end(
        self, season_id: int, standings: Sequence[FrozenStanding], *, min_games: int
    ) -> Season:
        """End a running season; freeze ``standings`` (all families), placed with ``min_games``."""
        now = time_text(self._db.now())
        async with self._db.transaction():
            season = await self.get(season_id)
            if not season.running:
                raise SeasonStateError(f"season {season_id} has already ended")
            await self._freeze(season_id, standings)
            await self._db.execute(
                "UPDATE seasons SET ended_at = ?, min_games = ? WHERE id = ?",
                (now, min_games, season_id),
            )
            return await self.get(season_id)

    async def refreeze(self, season_id: int, standings: Sequence[FrozenStanding]) -> None:
        """Put ``standings`` (all families) in place of an ended season's frozen ones."""
        async with self._db.transaction():
            if (await self.get(season_id)).running:
                raise SeasonStateError(f"season {season_id} is still running")
            await self._db.execute("DELETE FROM season_standings WHERE season_id = ?", (season_id,))
            await self._freeze(season_id, standings)

    async def _freeze(self, season_id: int, standings: Sequence[FrozenStanding]) -> None:
        if any(s.season_id != season_id for s in standings):
            raise ValueError(f"standings of another season given for season {season_id}")
        await self._db.execute_many(
            f"INSERT INTO season_standings ({_STANDING_COLUMNS}) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    season_id,
                    s.family,
                    s.user_id,
                    s.place,
                    s.display_name,
                    s.rating,
                    s.mu,
                    s.sigma,
                    s.games,
                    s.wins,
                )
                for s in standings
            ],
        )

    async def get(self, season_id: int) -> Season:
        """One season; NotFoundError if there is none."""
        row = await self._db.fetch_one(f"SELECT {_COLUMNS} FROM seasons WHERE id = ?", (season_id,))
        if row is None:
            raise NotFoundError(f"there is no season {season_id}")
        return _season(row)

    async def running(self, guild_id: int) -> Season | None:
        """The server's running season, if any."""
        row = await self._db.fetch_one(
            f"SELECT {_COLUMNS} FROM seasons WHERE guild_id = ? AND ended_at IS NULL",
            (guild_id,),
        )
        return None if row is None else _season(row)

    async def find(self, guild_id: int, name: str) -> Season | None:
        """The server's season of that name (case does not matter), if any."""
        row = await self._db.fetch_one(
            f"SELECT {_COLUMNS} FROM seasons WHERE guild_id = ? AND lower(name) = lower(?)",
            (guild_id, name),
        )
        return None if row is None else _season(row)

    async def list_by_guild(self, guild_id: int) -> list[Season]:
        """The server's seasons, newest first."""
        rows = await self._db.fetch_all(
            f"SELECT {_COLUMNS} FROM seasons WHERE guild_id = ? ORDER BY id DESC", (guild_id,)
        )
        return [_season(row) for row in rows]

    async def standings(self, season_id: int, family: str = DEFAULT_FAMILY) -> list[FrozenStanding]:
        """An ended season's frozen standings of one family: by place, then the others."""
        rows = await self._db.fetch_all(
            f"SELECT {_STANDING_COLUMNS} FROM season_standings WHERE season_id = ? AND family = ? "
            "ORDER BY place IS NULL, place, rating DESC, user_id",
            (season_id, family),
        )
        return [
            build(FrozenStanding, f"season {season_id} standing", row_dict(row)) for row in rows
        ]


def _season(row: Row) -> Season:
    fields = row_dict(row)
    where = f"season {fields['id']}"
    if fields["rating_model"] is not None:
        model = load_json(fields["rating_model"], f"{where} rating model")
        if not isinstance(model, dict):
            raise CorruptDataError(f"{where}: the rating model is not a JSON object")
        fields["rating_model"] = model
    fields["started_at"] = time_value(fields["started_at"])
    fields["ended_at"] = time_value(fields["ended_at"])
    return build(Season, where, fields)
