"""When an event starts: minutes from now, or a clock time in UTC (``HH:MM``), and moving it.

A clock time is the next time the clock shows it: today if it is still ahead, else
tomorrow. Times are UTC, since Discord tells the bot no one's time zone; the event's
message shows the start in each member's own time (Discord's timestamps).
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Final

from bot.tournaments.model import EventSettings

from .errors import TournamentError

__all__ = ["StartTimeError", "event_start", "moved_start"]

_CLOCK: Final = re.compile(r"(?P<hour>[01]?\d|2[0-3]):(?P<minute>[0-5]\d)")


class StartTimeError(TournamentError):
    """A start time that cannot be read, or two ways of giving it at once."""


def event_start(
    now: datetime, *, minutes: int | None = None, clock: str | None = None
) -> datetime | None:
    """The start of an event created at ``now`` (timezone-aware, UTC); None: no set time.

    ``minutes``: that many minutes from now; ``clock``: ``HH:MM``, 24-hour, UTC.
    """
    if minutes is not None and clock is not None:
        raise StartTimeError("Give the start either in minutes or as a time, not both.")
    if minutes is not None:
        return now + timedelta(minutes=minutes)
    if clock is None:
        return None
    found = _CLOCK.fullmatch(clock.strip())
    if found is None:
        raise StartTimeError(
            f"{clock.strip()[:20]!r} is not a time: give it as HH:MM, 24-hour, in UTC (like 19:30)."
        )
    start = now.replace(
        hour=int(found["hour"]), minute=int(found["minute"]), second=0, microsecond=0
    )
    return start if start > now else start + timedelta(days=1)


def moved_start(
    settings: EventSettings, phase: str, start: datetime, now: datetime
) -> EventSettings:
    """``settings`` with the start moved to ``start``.

    During sign-up check-in opens at most as long before the new start as there is
    time until it; once open, it stays open.
    """
    check_in = settings.check_in_minutes
    if phase == "signup":
        check_in = min(check_in, int((start - now).total_seconds() // 60))
    return settings.model_copy(update={"start_time": start, "check_in_minutes": check_in})
