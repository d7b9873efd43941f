"""A guild's scheduled events as Discord keeps them, for both fakes of Discord.

Created by the bot, edited (their time, their status), or deleted by hand (a test
calls :meth:`ScheduledEvents.delete_by_hand`). Discord's rules hold: an event's
status goes only from scheduled to active or cancelled, and from active to
completed; a completed or cancelled event changes no more; a start time moved must be
in the future and before the end. A refused edit raises the ``ApiError`` Discord answers
(a 400 or a 404), which each fake sends as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final

from tests.kit.payloads import ApiError

__all__ = ["ACTIVE", "CANCELED", "COMPLETED", "SCHEDULED", "ScheduledEvents"]

JSON = dict[str, Any]

SCHEDULED: Final = 1
ACTIVE: Final = 2
COMPLETED: Final = 3
CANCELED: Final = 4
_MOVES: Final = {SCHEDULED: {ACTIVE, CANCELED}, ACTIVE: {COMPLETED}}
"""The status changes Discord allows."""
UNKNOWN_EVENT: Final = 10070
INVALID_FORM: Final = 50035


def _time(text: object) -> datetime | None:
    return None if not isinstance(text, str) else datetime.fromisoformat(text)


@dataclass
class ScheduledEvents:
    """Every scheduled event of a fake Discord, by id, and what the bot did to them."""

    events: dict[int, JSON] = field(default_factory=dict)
    edits: list[tuple[int, JSON]] = field(default_factory=list)
    """Every edit Discord accepted: (event id, the fields sent)."""
    clock: Any = None
    """A callable giving Discord's now (default: the wall clock)."""

    def now(self) -> datetime:
        """Discord's time."""
        return self.clock() if self.clock is not None else datetime.now(UTC)

    def create(self, event_id: int, guild_id: int, creator: JSON, body: Mapping[str, Any]) -> JSON:
        """The event a ``POST /guilds/{guild_id}/scheduled-events`` creates."""
        event: JSON = {
            "id": str(event_id),
            "guild_id": str(guild_id),
            "channel_id": body.get("channel_id"),
            "creator_id": creator["id"],
            "creator": creator,
            "name": body.get("name", ""),
            "description": body.get("description"),
            "scheduled_start_time": body.get("scheduled_start_time"),
            "scheduled_end_time": body.get("scheduled_end_time"),
            "privacy_level": body.get("privacy_level", 2),
            "status": SCHEDULED,
            "entity_type": body.get("entity_type", 3),
            "entity_id": None,
            "entity_metadata": body.get("entity_metadata"),
            "user_count": 0,
            "image": None,
        }
        self.events[event_id] = event
        return dict(event)

    def get(self, guild_id: int, event_id: int) -> JSON:
        """One event (ApiError 404 when there is none)."""
        event = self.events.get(event_id)
        if event is None or event["guild_id"] != str(guild_id):
            raise ApiError(404, UNKNOWN_EVENT, "Unknown Guild Scheduled Event")
        return event

    def edit(self, guild_id: int, event_id: int, body: Mapping[str, Any]) -> JSON:
        """A ``PATCH`` of the event, as Discord checks it; the event as it is then."""
        event = self.get(guild_id, event_id)
        status = body.get("status")
        if status is not None and status != event["status"]:
            if status not in _MOVES.get(event["status"], set()):
                raise ApiError(400, INVALID_FORM, "Invalid Form Body: status cannot change so")
        elif event["status"] in (COMPLETED, CANCELED):
            raise ApiError(400, INVALID_FORM, "Invalid Form Body: the event has ended")
        start = _time(body.get("scheduled_start_time", event["scheduled_start_time"]))
        end = _time(body.get("scheduled_end_time", event["scheduled_end_time"]))
        if "scheduled_start_time" in body:
            if start is None or start <= self.now():
                raise ApiError(400, INVALID_FORM, "Invalid Form Body: start time in the past")
            if end is not None and end <= start:
                raise ApiError(400, INVALID_FORM, "Invalid Form Body: end before start")
        event.update({k: v for k, v in body.items() if k in event})
        self.edits.append((event_id, dict(body)))
        return dict(event)

    def delete_by_hand(self, event_id: int) -> None:
        """Someone in the server deleted the event."""
        del self.events[event_id]
