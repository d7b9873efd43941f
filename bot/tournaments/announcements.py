"""What an event has to announce in its channel, and to whom, as its state stands.

Four announcements reach people (each a new message mentioning only them):

- ``partner:<n>``: the partner named in a pairs sign-up (entrant ``n``), until they confirm;
- ``checkin``: check-in is open, for everyone signed up and not checked in yet;
- ``reminder:<start>``: the start is ``REMINDER_BEFORE`` away, for everyone signed up;
- ``round:<r>``: round ``r`` has ended, with the next round's time, for everyone still
  playing.

Each is due from the state (and the clock) alone, and its key names it once for the
event's whole life: whoever posts it notes the key as made, so it goes out once,
however often the state is looked at, and after a restart too. Pure: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final, Literal

from bot.tournaments.late import occupants
from bot.tournaments.model import TournamentEvent
from bot.tournaments.seating import planned_rounds

__all__ = ["REMINDER_BEFORE", "Announcement", "AnnouncementKind", "due_announcements"]

REMINDER_BEFORE: Final = timedelta(minutes=10)
"""How long before the start the reminder goes out."""

AnnouncementKind = Literal["partner", "checkin", "reminder", "round"]


@dataclass(frozen=True, slots=True)
class Announcement:
    """One announcement: its key (once per event), what it is and whom it mentions."""

    key: str
    kind: AnnouncementKind
    users: tuple[int, ...]
    named_by: int | None = None
    """``partner``: the member who named the partner."""
    round: int | None = None
    """``round``: the round that ended."""
    next_at: datetime | None = None
    """``round``: when the next round starts by itself (None: on the director's button)."""


def due_announcements(event: TournamentEvent, now: datetime) -> list[Announcement]:
    """Every announcement the event's state calls for now (made or not: the caller knows)."""
    found: list[Announcement] = []
    if event.phase in ("signup", "checkin"):
        found += _partners(event)
    if event.phase == "checkin":
        found += _check_in(event)
    if event.phase in ("signup", "checkin"):
        found += _reminder(event, now)
    if event.phase == "between_rounds":
        found += _round_end(event)
    return found


def _people(event: TournamentEvent) -> list[int]:
    """Everyone signed up, in the event then on its waiting list."""
    return [e.user_id for e in [*event.entrants, *event.waiting] if e.user_id is not None]


def _partners(event: TournamentEvent) -> list[Announcement]:
    return [
        Announcement(f"partner:{e.number}", "partner", (e.user_id,), named_by=e.partner_id)
        for e in [*event.entrants, *event.waiting]
        if not e.confirmed and e.user_id is not None and e.partner_id is not None
    ]


def _check_in(event: TournamentEvent) -> list[Announcement]:
    late = tuple(
        e.user_id
        for e in [*event.entrants, *event.waiting]
        if e.user_id is not None and not e.checked_in
    )
    return [Announcement("checkin", "checkin", late)] if late else []


def _reminder(event: TournamentEvent, now: datetime) -> list[Announcement]:
    start = event.settings.start_time
    people = tuple(_people(event))
    if start is None or not people or not start - REMINDER_BEFORE <= now < start:
        return []
    return [Announcement(f"reminder:{start.isoformat()}", "reminder", people)]


def _round_end(event: TournamentEvent) -> list[Announcement]:
    """The end of the newest round, when another follows (the last one's is the champion)."""
    ended = event.rounds[-1] if event.rounds else None
    ended_at = None if ended is None else ended.ended_at
    if ended is None or ended_at is None:
        return []
    following = ended.number + 1
    if following > planned_rounds(event):
        return []
    if event.settings.format == "progressive":
        held = list(occupants(event, following).values())
    else:
        held = [e for e in event.entrants if e.slot is not None]
    users = tuple(
        e.user_id
        for e in sorted(held, key=lambda e: e.number)
        if e.user_id is not None
        and (e.replaced_in_round is None or e.replaced_in_round > following)
    )
    if not users:
        return []
    breather = event.settings.break_minutes
    next_at = None if breather is None else ended_at + timedelta(minutes=breather)
    return [
        Announcement(f"round:{ended.number}", "round", users, round=ended.number, next_at=next_at)
    ]
