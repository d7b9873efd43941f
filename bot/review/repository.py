"""Each person's accuracy in a finished game, from the review of their decisions (schema 15).

One row a person and archived game; saving it again (a review asked twice) replaces it.
Since schema 26 each reviewed deal is kept too (:meth:`AccuracyRepo.save_deal`), with
the sums its figure was made of, and the game's row is made of its deals reviewed so
far as one review of them all would be: a review asked of one deal counts, and the
same deal reviewed again replaces itself.
A player's accuracy over time reads their games of one server in the order they ended.
"""

from __future__ import annotations

from datetime import datetime
from typing import Final

from pydantic import BaseModel, ConfigDict, Field

from bot.store._codec import build, row_dict, time_text
from bot.store.errors import ConstraintError, NotFoundError
from bot.store.models import Snowflake, shown_number
from bot.store.repository import Repository

__all__ = ["AccuracyPoint", "AccuracyRepo", "DealAccuracy", "GameAccuracy"]


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


class DealAccuracy(GameAccuracy):
    """A person's accuracy in one deal of a game, with the sums it was made of."""

    deal: int = Field(ge=1)
    score_total: float = Field(allow_inf_nan=False)
    """The decisions' scores summed, before their average is kept within 0 to 100."""
    lost_total: float = Field(allow_inf_nan=False)
    """The decisions' points lost summed, gains (below zero) included."""


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

    @property
    def shown_number(self) -> int:
        """The game's number as people see it."""
        return shown_number(self.number, self.game_id)


_COLUMNS: Final = "game_id, user_id, seat, accuracy, decisions, flagged, points_lost, reviewed_at"


class AccuracyRepo(Repository):
    """Save a person's accuracy in a game; read it back and a player's history."""

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
                _values(entry),
            )
        except ConstraintError:
            raise NotFoundError(f"game {entry.game_id} is not in the archive") from None

    async def save_deal(self, entry: DealAccuracy) -> GameAccuracy:
        """Store one reviewed deal, then the game's accuracy over its deals reviewed; that.

        A game row from before schema 26 (a whole game reviewed, no deal kept) stays.
        NotFoundError when the game is not archived.
        """
        async with self._db.transaction():
            before = await self.get(entry.game_id, entry.user_id)
            kept = await self._db.fetch_one(
                "SELECT COUNT(*) AS n FROM deal_accuracy WHERE game_id = ? AND user_id = ?",
                (entry.game_id, entry.user_id),
            )
            try:
                await self._db.execute(
                    f"INSERT INTO deal_accuracy ({_COLUMNS}, deal, score_total, lost_total) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT (game_id, user_id, deal) DO UPDATE SET seat = excluded.seat, "
                    "accuracy = excluded.accuracy, decisions = excluded.decisions, "
                    "flagged = excluded.flagged, points_lost = excluded.points_lost, "
                    "score_total = excluded.score_total, lost_total = excluded.lost_total, "
                    "reviewed_at = excluded.reviewed_at",
                    (*_values(entry), entry.deal, entry.score_total, entry.lost_total),
                )
            except ConstraintError:
                raise NotFoundError(f"game {entry.game_id} is not in the archive") from None
            if before is not None and kept is not None and int(kept["n"]) == 0:
                return before
            row = await self._db.fetch_one(
                "SELECT SUM(score_total) AS scores, SUM(decisions) AS decisions, "
                "SUM(flagged) AS flagged, SUM(lost_total) AS lost "
                "FROM deal_accuracy WHERE game_id = ? AND user_id = ?",
                (entry.game_id, entry.user_id),
            )
            assert row is not None
            decisions = int(row["decisions"])
            game = GameAccuracy(
                game_id=entry.game_id,
                user_id=entry.user_id,
                seat=entry.seat,
                accuracy=min(100.0, max(0.0, float(row["scores"]) / decisions)),
                decisions=decisions,
                flagged=int(row["flagged"]),
                points_lost=max(0.0, float(row["lost"])),
                reviewed_at=entry.reviewed_at,
            )
            await self.save(game)
            return game

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


def _values(entry: GameAccuracy) -> tuple[object, ...]:
    """The row of ``entry`` in the order of ``_COLUMNS``."""
    return (
        entry.game_id,
        entry.user_id,
        entry.seat,
        entry.accuracy,
        entry.decisions,
        entry.flagged,
        entry.points_lost,
        time_text(entry.reviewed_at),
    )
