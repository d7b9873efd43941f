"""The core of an event: its state, what it reads, and how every change is made.

:class:`EventCore` holds the event's state; each change works on a copy and takes it
only when it succeeded (``_change``), so a refused request (a :class:`TournamentError`,
one sentence for the person who asked) leaves the event as it was. :class:`Actor` is
who asks. :mod:`.event` and :mod:`.directing` build the event's life on it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime

from bot.tournaments.errors import EventStateError, NotDirectorError
from bot.tournaments.model import OPEN_EVENT_PHASES, Entrant, EventRound, TournamentEvent
from bot.tournaments.seating import planned_rounds
from bot.tournaments.standings import Standing, champions, standings
from bot.tournaments.waiting import waiting_place

__all__ = ["Actor", "EventCore"]


@dataclass(frozen=True)
class Actor:
    """Who asks: a member, and whether the server lets them direct events (admin or role)."""

    user_id: int
    is_director: bool = False


class EventCore:
    """One event's state and what it reads; ``state`` is what the store keeps."""

    def __init__(self, state: TournamentEvent) -> None:
        """Go on with an event as it was saved."""
        self._state = state

    @property
    def state(self) -> TournamentEvent:
        """A copy of the event as it stands."""
        return self._state.model_copy(deep=True)

    @property
    def phase(self) -> str:
        """Where the event is in its life."""
        return self._state.phase

    @property
    def current_round(self) -> EventRound | None:
        """The newest round (the one being played, or the last played), if any."""
        return self._state.rounds[-1] if self._state.rounds else None

    @property
    def total_rounds(self) -> int:
        """The rounds the event plays (pairs: a whole round robin when it fits)."""
        return planned_rounds(self._state)

    def entrant(self, user_id: int) -> Entrant | None:
        """The entry of a member, if they are in."""
        return next((e for e in self._state.entrants if e.user_id == user_id), None)

    def waiting_place(self, user_id: int) -> int | None:
        """Where a member stands on the waiting list (1: next in), or None."""
        return waiting_place(self._state, user_id)

    def _signed_up(self, user_id: int) -> Entrant | None:
        """The entry of a member, in the event or on its waiting list."""
        found = self.entrant(user_id)
        return found or next((e for e in self._state.waiting if e.user_id == user_id), None)

    def standings(self) -> list[Standing]:
        """The standings as they are now."""
        return standings(self._state)

    def champions(self) -> list[Standing]:
        """The winner(s) once the event has finished; empty before."""
        return champions(self._state) if self._state.phase == "finished" else []

    @contextlib.contextmanager
    def _change(self, now: datetime) -> Iterator[TournamentEvent]:
        draft = self._state.model_copy(deep=True)
        yield draft
        draft.updated_at = now
        self._state = draft

    def _direct(self, actor: Actor | None, what: str) -> None:
        if actor is not None and not actor.is_director and actor.user_id != self._state.director_id:
            raise NotDirectorError(f"Only the event's directors can {what}.")

    def _open(self, what: str) -> None:
        if self._state.phase not in OPEN_EVENT_PHASES:
            ended = "has finished" if self._state.phase == "finished" else "was cancelled"
            raise EventStateError(f"The event {ended}; you can't {what} now.")
