"""The director's hand on a running event: pause and resume, skip, move the start, cancel."""

from __future__ import annotations

from datetime import datetime

from bot.tournaments.core import Actor, EventCore
from bot.tournaments.errors import EventStateError, SignUpError
from bot.tournaments.model import Entrant
from bot.tournaments.start_time import moved_start

__all__ = ["Directing"]


class Directing(EventCore):
    """What the event's directors (and, for a leaver, the bot) may do to a running event."""

    def pause(self, actor: Actor | None, now: datetime) -> None:
        """Hold the event: no round starts and the round timer stops until resumed."""
        self._direct(actor, "pause the event")
        if self._state.phase not in ("playing", "between_rounds"):
            raise EventStateError("Only an event in play can be paused.")
        if self._state.paused:
            raise EventStateError("The event is already paused.")
        with self._change(now) as draft:
            draft.paused = True

    def resume(self, actor: Actor | None, now: datetime) -> None:
        """Go on after a pause."""
        self._direct(actor, "resume the event")
        if not self._state.paused:
            raise EventStateError("The event is not paused.")
        with self._change(now) as draft:
            draft.paused = False

    def skip(self, actor: Actor | None, user_id: int, now: datetime) -> Entrant:
        """Replace a no-show by a computer from the current round on."""
        self._direct(actor, "skip a player")
        return self._replace(actor, user_id, now, "skip a player")

    def _replace(self, actor: Actor | None, user_id: int, now: datetime, what: str) -> Entrant:
        if self._state.phase not in ("playing", "between_rounds"):
            raise EventStateError(f"You can only {what} while the event is being played.")
        entry = self.entrant(user_id)
        if entry is None or entry.slot is None:
            raise SignUpError("That member is not playing in this event.")
        if entry.replaced_in_round is not None:
            raise SignUpError(f"{entry.display_name} has already been replaced by a computer.")
        rounds = len(self._state.rounds)
        with self._change(now) as draft:
            mine = next(e for e in draft.entrants if e.user_id == user_id)
            mine.replaced_in_round = rounds if draft.phase == "playing" else rounds + 1
        return mine.model_copy()

    def reschedule(self, actor: Actor | None, start: datetime, now: datetime) -> None:
        """Move the start to ``start`` (before the start only); check-in opens as long before."""
        self._direct(actor, "move the start")
        if self._state.phase not in ("signup", "checkin"):
            raise EventStateError("The event has already started: its start can't move.")
        if start <= now:
            raise EventStateError("Choose a start in the future.")
        with self._change(now) as draft:
            draft.settings = moved_start(draft.settings, draft.phase, start, now)

    def cancel(self, actor: Actor | None, now: datetime) -> None:
        """Call the event off: every table closes and nothing is rated."""
        self._direct(actor, "cancel the event")
        self._open("cancel it")
        with self._change(now) as draft:
            draft.phase = "cancelled"
