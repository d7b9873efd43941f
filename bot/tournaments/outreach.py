"""What tournament events said and showed outside their message: announcements, scheduled events.

An announcement, once posted, is noted here (``tournament_announcements``), so it is
never posted twice; an event's Discord scheduled event is kept with the event, with
the status and start the bot last gave it (schema 25).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.store._codec import build, time_text, time_value
from bot.store.errors import NotFoundError
from bot.store.repository import Repository
from bot.tournaments.model import ScheduledEventLink

__all__ = ["EventOutreachRepo"]


class EventOutreachRepo(Repository):
    """The announcements events made and their Discord scheduled events."""

    async def announced(self, event_ids: Sequence[int]) -> dict[int, set[str]]:
        """The announcements each of these events has made (posted, so never again)."""
        found: dict[int, set[str]] = {event_id: set() for event_id in event_ids}
        if not event_ids:
            return found
        marks = ", ".join("?" for _ in event_ids)
        rows = await self._db.fetch_all(
            "SELECT tournament_id, announcement FROM tournament_announcements "
            f"WHERE tournament_id IN ({marks})",
            tuple(event_ids),
        )
        for row in rows:
            found[int(row["tournament_id"])].add(str(row["announcement"]))
        return found

    async def mark_announced(self, event_id: int, announcement: str, at: datetime) -> None:
        """Note that the event made ``announcement`` (noted already: nothing changes)."""
        await self._db.execute(
            "INSERT INTO tournament_announcements (tournament_id, announcement, sent_at) "
            "VALUES (?, ?, ?) ON CONFLICT (tournament_id, announcement) DO NOTHING",
            (event_id, announcement, time_text(at)),
        )

    # ------------------------------------------------------------------ scheduled events

    async def set_scheduled_event(self, link: ScheduledEventLink) -> None:
        """Note the event's Discord scheduled event as the bot last left it."""
        start = None if link.start is None else time_text(link.start)
        changed = await self._db.execute(
            "UPDATE tournaments SET scheduled_event_id = ?, scheduled_event_status = ?, "
            "scheduled_event_start = ? WHERE id = ?",
            (link.scheduled_id, link.status, start, link.tournament_id),
        )
        if not changed:
            raise NotFoundError(f"there is no tournament {link.tournament_id}")

    async def scheduled_event(self, event_id: int) -> ScheduledEventLink | None:
        """The event's Discord scheduled event, if it has one."""
        links = await self._links("t.id = ?", (event_id,))
        return links[0] if links else None

    async def unsettled_scheduled_events(
        self, guild_ids: Sequence[int] | None = None
    ) -> list[ScheduledEventLink]:
        """The scheduled events that may still change (of these servers, or all), by event."""
        where = (
            "t.scheduled_event_id IS NOT NULL "
            "AND t.scheduled_event_status IN ('scheduled', 'active')"
        )
        if guild_ids is None:
            return await self._links(where, ())
        if not guild_ids:
            return []
        marks = ", ".join("?" for _ in guild_ids)
        return await self._links(f"{where} AND t.guild_id IN ({marks})", tuple(guild_ids))

    async def _links(self, where: str, params: tuple[int, ...]) -> list[ScheduledEventLink]:
        rows = await self._db.fetch_all(
            "SELECT t.id, t.scheduled_event_id, t.scheduled_event_status, t.scheduled_event_start "
            f"FROM tournaments t WHERE t.scheduled_event_id IS NOT NULL AND {where} ORDER BY t.id",
            params,
        )
        return [
            build(
                ScheduledEventLink,
                f"tournament {row['id']} scheduled event",
                {
                    "tournament_id": row["id"],
                    "scheduled_id": row["scheduled_event_id"],
                    "status": row["scheduled_event_status"],
                    "start": time_value(row["scheduled_event_start"]),
                },
            )
            for row in rows
        ]
