"""The daily deal's store (schemas 18, 19): par a server and day, each play, the weekly posts.

A person's row is made when they start the day's deal: a second start finds it, whichever
process answers, so the deal is played once. Their actions are kept as they play, so a
restart resumes the deal; ``points`` is set when it ends.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime

from bot.store.database import Row
from bot.store.repository import Repository

__all__ = ["DailyPlay", "DailyRepo"]


@dataclass(frozen=True, slots=True)
class DailyPlay:
    """A person's play of a day's deal."""

    user_id: int
    display_name: str
    actions: tuple[str, ...]
    """Their action codes so far."""
    points: int | None
    """Their side's points less the other side's, once the deal is over."""
    par: int | None


class DailyRepo(Repository):
    """Par, plays and results of the daily deal."""

    async def par(self, guild_id: int, day: date) -> int | None:
        """The day's par, if computed."""
        row = await self._db.fetch_one(
            "SELECT par FROM daily_par WHERE guild_id = ? AND day = ?", (guild_id, day.isoformat())
        )
        return None if row is None else int(row["par"])

    async def keep_par(self, guild_id: int, day: date, par: int) -> int:
        """Store the day's par unless one is there; the par stored (the first one wins)."""
        await self._db.execute(
            "INSERT INTO daily_par (guild_id, day, par) VALUES (?, ?, ?) "
            "ON CONFLICT (guild_id, day) DO NOTHING",
            (guild_id, day.isoformat(), par),
        )
        stored = await self.par(guild_id, day)
        assert stored is not None
        return stored

    async def start(self, guild_id: int, day: date, user_id: int, name: str) -> DailyPlay:
        """The person's play of the day: made now if new, else the one they started."""
        await self._db.execute(
            "INSERT INTO daily_results (guild_id, day, user_id, display_name, actions, started_at) "
            "VALUES (?, ?, ?, ?, '', ?) ON CONFLICT (guild_id, day, user_id) DO NOTHING",
            (guild_id, day.isoformat(), user_id, name, datetime.now(UTC).isoformat()),
        )
        play = await self.get(guild_id, day, user_id)
        assert play is not None
        return play

    async def get(self, guild_id: int, day: date, user_id: int) -> DailyPlay | None:
        """The person's play of the day, if they started it."""
        row = await self._db.fetch_one(
            "SELECT user_id, display_name, actions, points, par FROM daily_results "
            "WHERE guild_id = ? AND day = ? AND user_id = ?",
            (guild_id, day.isoformat(), user_id),
        )
        return None if row is None else _play(row)

    async def record(
        self,
        guild_id: int,
        day: date,
        user_id: int,
        actions: tuple[str, ...],
        done: int,
        points: int | None = None,
        par: int | None = None,
    ) -> bool:
        """Save the play if ``done`` actions were saved before (no other answer moved it)."""
        before = await self.get(guild_id, day, user_id)
        if before is None or before.points is not None or len(before.actions) != done:
            return False
        await self._db.execute(
            "UPDATE daily_results SET actions = ?, points = ?, par = ? "
            "WHERE guild_id = ? AND day = ? AND user_id = ? AND points IS NULL",
            (" ".join(actions), points, par, guild_id, day.isoformat(), user_id),
        )
        return True

    async def finished(self, guild_id: int, day: date) -> list[DailyPlay]:
        """The day's finished plays, best result first (then the earliest start)."""
        rows = await self._db.fetch_all(
            "SELECT user_id, display_name, actions, points, par FROM daily_results "
            "WHERE guild_id = ? AND day = ? AND points IS NOT NULL "
            "ORDER BY points DESC, started_at",
            (guild_id, day.isoformat()),
        )
        return [_play(row) for row in rows]

    async def days_of(
        self, guild_id: int, user_ids: list[int], until: date
    ) -> dict[int, list[date]]:
        """The days up to ``until`` on which each of ``user_ids`` finished the deal."""
        days: dict[int, list[date]] = {user: [] for user in user_ids}
        if not user_ids:
            return days
        marks = ", ".join("?" for _ in user_ids)
        rows = await self._db.fetch_all(
            "SELECT user_id, day FROM daily_results "
            f"WHERE guild_id = ? AND user_id IN ({marks}) AND day <= ? AND points IS NOT NULL",
            (guild_id, *user_ids, until.isoformat()),
        )
        for row in rows:
            days[int(row["user_id"])].append(date.fromisoformat(str(row["day"])))
        return days

    async def between(self, guild_id: int, first: date, last: date) -> list[DailyPlay]:
        """The finished plays of the days ``first`` to ``last``, in no particular order."""
        rows = await self._db.fetch_all(
            "SELECT user_id, display_name, actions, points, par FROM daily_results "
            "WHERE guild_id = ? AND day >= ? AND day <= ? AND points IS NOT NULL",
            (guild_id, first.isoformat(), last.isoformat()),
        )
        return [_play(row) for row in rows]

    async def weekly_channels(self) -> list[tuple[int, int, int]]:
        """Each server naming a channel for the weekly summary: (server, channel, hour)."""
        rows = await self._db.fetch_all(
            "SELECT guild_id, daily_channel, daily_hour FROM guild_settings "
            "WHERE daily_channel IS NOT NULL ORDER BY guild_id"
        )
        return [
            (int(row["guild_id"]), int(row["daily_channel"]), int(row["daily_hour"]))
            for row in rows
        ]

    async def claim_week(self, guild_id: int, week: date) -> bool:
        """Whether this call is the one to post the week (``week``: its first day)."""
        changed = await self._db.execute(
            "INSERT INTO daily_weekly_posts (guild_id, week, posted_at) VALUES (?, ?, ?) "
            "ON CONFLICT (guild_id, week) DO NOTHING",
            (guild_id, week.isoformat(), datetime.now(UTC).isoformat()),
        )
        return changed == 1

    async def release_week(self, guild_id: int, week: date) -> None:
        """Give the week's post back (it could not be sent): a later try posts it."""
        await self._db.execute(
            "DELETE FROM daily_weekly_posts WHERE guild_id = ? AND week = ?",
            (guild_id, week.isoformat()),
        )


def _play(row: Row) -> DailyPlay:
    get = row.__getitem__
    actions = str(get("actions"))
    return DailyPlay(
        user_id=int(get("user_id")),
        display_name=str(get("display_name")),
        actions=tuple(actions.split()) if actions else (),
        points=None if get("points") is None else int(get("points")),
        par=None if get("par") is None else int(get("par")),
    )
