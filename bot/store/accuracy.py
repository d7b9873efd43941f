"""Each person's accuracy in a finished game, from the review of their decisions (schema 15).

One row a person and archived game; saving it again (a review asked twice) replaces it.
A player's accuracy over time reads their games of one server in the order they ended.
"""

from __future__ import annotations

from datetime import datetime
from typing import Final

from pydantic import BaseModel, ConfigDict, Field

from bot.store._codec import build, row_dict, time_text
from bot.store.database import Database
from bot.store.errors import ConstraintError, NotFoundError
from bot.store.models import Snowflake

__all__ = ["AccuracyPoint", "AccuracyRepo", "GameAccuracy"]


class GameAccuracy(BaseModel):
    """A person's accuracy in one game: the figure and what it was made of."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    game_id: int
    user_id: Snowflake
    seat: int = Field(ge=0, lt=8)
    accuracy: float = Field(ge=0, le=100, allow_inf_nan=False)
    """100 less the average share of a point lost a decision (``bot.players.review``)."""
    decisions: int = Field(ge=1)
    """Decisions the review valued."""
    flagged: int = Field(ge=0)
    """Decisions graded an inaccuracy, a mistake or a blunder."""
    points_lost: float = Field(ge=0, allow_inf_nan=False)
    """Expected points lost over the game's decisions."""
    reviewed_at: datetime


class AccuracyPoint(BaseModel):
    """A person's accuracy in one game, with when the game ended: a point of their history."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    game_id: int
    number: int | None = None
    """The game's number on its server (schema 23)."""
    finished_at: datetime
    accuracy: float
    decisions: int
    flagged: int


_COLUMNS: Final = "game_id, user_id, seat, accuracy, decisions, flagged, points_lost, reviewed_at"


class AccuracyRepo:
    """Save a person's accuracy in a game; read it back and a player's history."""

    def __init__(self, db: Database) -> None:
        """Work on ``db``."""
        self._db = db

    async def save(self, entry: GameAccuracy) -> None:
        """Store ``entry``, replacing the person's earlier figure for the game.

        NotFoundError when the game is not archived; ValueError when more decisions
        are flagged than reviewed.
        """
        if entry.flagged > entry.decisions:
            raise ValueError(
                f"game {entry.game_id}: {entry.flagged} decisions flagged of {entry.decisions}"
            )
        try:
            await self._db.execute(
                f"INSERT INTO game_accuracy ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (game_id, user_id) DO UPDATE SET seat = excluded.seat, "
                "accuracy = excluded.accuracy, decisions = excluded.decisions, "
                "flagged = excluded.flagged, points_lost = excluded.points_lost, "
                "reviewed_at = excluded.reviewed_at",
                (
                    entry.game_id,
                    entry.user_id,
                    entry.seat,
                    entry.accuracy,
                    entry.decisions,
                    entry.flagged,
                    entry.points_lost,
                    time_text(entry.reviewed_at),
                ),
            )
        except ConstraintError:
            raise NotFoundError(f"game {entry.game_id} is not in the archive") from None

    async def get(self, game_id: int, user_id: int) -> GameAccuracy | None:
        """The person's accuracy in the game, if it was reviewed."""
        row = await self._db.fetch_one(
            f"SELECT {_COLUMNS} FROM game_accuracy WHERE game_id = ? AND user_id = ?",
            (game_id, user_id),
        )
        if row is None:
            return None
        return build(GameAccuracy, f"game_accuracy {game_id}/{user_id}", row_dict(row))

    async def history(self, guild_id: int, user_id: int, limit: int = 20) -> list[AccuracyPoint]:
        """The person's latest ``limit`` reviewed games on the server, oldest first."""
        rows = await self._db.fetch_all(
            "SELECT a.game_id, g.number, g.finished_at, a.accuracy, a.decisions, a.flagged "
            "FROM game_accuracy a JOIN games g ON g.id = a.game_id "
            "WHERE g.guild_id = ? AND a.user_id = ? "
            "ORDER BY g.finished_at DESC, a.game_id DESC LIMIT ?",
            (guild_id, user_id, limit),
        )
        points = [build(AccuracyPoint, f"game_accuracy {user_id}", row_dict(row)) for row in rows]
        return points[::-1]

    async def average(self, guild_id: int, user_id: int) -> tuple[int, float | None]:
        """How many of the person's games on the server were reviewed, and their mean accuracy.

        Each game weighs the same, however many decisions it held.
        """
        row = await self._db.fetch_one(
            "SELECT COUNT(*) AS games, AVG(a.accuracy) AS mean "
            "FROM game_accuracy a JOIN games g ON g.id = a.game_id "
            "WHERE g.guild_id = ? AND a.user_id = ?",
            (guild_id, user_id),
        )
        if row is None or not row["games"]:
            return 0, None
        return int(row["games"]), float(row["mean"])
