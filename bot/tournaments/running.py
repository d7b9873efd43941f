"""The open events of one process: each changed under its own lock, saved, then told.

:class:`RunningEvents` is what the runner and its helpers share: every open event of
this process (and those just ended, kept a while for their answers), one lock per
event, and :meth:`RunningEvents.change`, the one way an event changes: on a copy, saved
whole before it becomes the event, so a refusal or a store that fails leaves it as it
was. The UI hears each change, once saved, as an :class:`EventChanged` through
:attr:`RunningEvents.listeners`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Literal, TypeVar

from bot.tables.snapshots import TableSnapshot
from bot.waits import WaitingLock

from .errors import EventStateError
from .event import Tournament
from .model import Entrant, TournamentEvent
from .repository import TournamentRepo
from .storage import load_event, save_event

__all__ = ["ChangeKind", "EventChanged", "Listener", "RunningEvents", "tell_each", "utc_now"]

log = logging.getLogger(__name__)

T = TypeVar("T")

ChangeKind = Literal[
    "created",
    "signup",
    "checkin",
    "started",
    "start_refused",
    "round",
    "result",
    "round_ended",
    "paused",
    "resumed",
    "replaced",
    "moved_up",
    "left_out",
    "finished",
    "cancelled",
    "moved",
    "reminder",
]

ENDED_KEPT = 64
"""How many ended events stay in memory for their answers."""


def utc_now() -> datetime:
    """The wall clock, timezone-aware."""
    return datetime.now(UTC)


def tell_each(
    listeners: Iterable[Callable[[T], object]], told: T, logger: logging.Logger, failed: str
) -> None:
    """Tell every listener ``told``; one that raises is logged (``failed``) and the rest hear."""
    for listener in listeners:
        try:
            listener(told)
        except Exception:
            logger.exception(failed)


@dataclass(frozen=True, slots=True)
class EventChanged:
    """What changed in an event, told after it was saved.

    It holds nothing live: ``event`` is a copy of the event that only this change
    holds, and ``tables`` are snapshots, so a listener may keep it and read it later.
    """

    event: TournamentEvent
    kind: ChangeKind
    text: str
    tables: tuple[TableSnapshot, ...] = ()
    """For ``round``: the round's tables as they stood once opened and started, in table
    order."""
    entrants: tuple[Entrant, ...] = field(default=())
    """The entries a change concerned (dropped at the start or check-in, replaced...)."""


Listener = Callable[[EventChanged], None]


class RunningEvents:
    """Every open event of this process, kept in ``repo``, on ``clock``'s time."""

    def __init__(self, repo: TournamentRepo, clock: Callable[[], datetime]) -> None:
        self.repo = repo
        self.clock = clock
        self.listeners: list[Listener] = []
        self._events: dict[int, Tournament] = {}
        self._ended: dict[int, Tournament] = {}
        self._locks: dict[int, WaitingLock] = {}

    def get(self, event_id: int) -> Tournament:
        """An open event of this process; EventStateError when it is not running here."""
        event = self._events.get(event_id)
        if event is None and event_id in self._ended:
            ended = "has finished" if self._ended[event_id].phase == "finished" else "was cancelled"
            raise EventStateError(f"The event {ended}.")
        if event is None:
            raise EventStateError("That event is not running any more.")
        return event

    async def load(self, event_id: int) -> Tournament:
        """An event, running or as the store has it (EventStateError if there is none)."""
        event = self._events.get(event_id) or self._ended.get(event_id)
        if event is not None:
            return event
        try:
            return await load_event(self.repo, event_id)
        except LookupError:
            raise EventStateError("There is no such event.") from None

    def current(self, event_id: int) -> Tournament:
        """The event as it stands, running or just ended."""
        return self._events.get(event_id) or self._ended[event_id]

    def is_open(self, event_id: int) -> bool:
        """Whether the event runs in this process."""
        return event_id in self._events

    @property
    def running(self) -> list[Tournament]:
        """Every open event of this process."""
        return list(self._events.values())

    def add(self, event: Tournament) -> int:
        """Run a saved event in this process; its id."""
        event_id = event.state.id
        assert event_id is not None
        self._events[event_id] = event
        return event_id

    def lock(self, event_id: int) -> WaitingLock:
        """The event's lock: every change of it is made holding it."""
        return self._locks.setdefault(event_id, WaitingLock())

    async def change(self, event_id: int, change: Callable[[Tournament, datetime], T]) -> T:
        """Apply ``change`` to a copy of the event and save it; only then is it the event.

        A refusal, or a store that fails, leaves the event as it was.
        """
        draft = Tournament(self.get(event_id).state)
        result = change(draft, self.clock())
        await save_event(self.repo, draft)
        self._events[event_id] = draft
        return result

    def forget(self, event_id: int) -> Tournament:
        """The event ended: kept a while for its answers, no longer running."""
        event = self.get(event_id)
        self._ended[event_id] = self._events.pop(event_id)
        while len(self._ended) > ENDED_KEPT:
            self._ended.pop(next(iter(self._ended)))
        return event

    def tell(
        self, event_id: int, kind: ChangeKind, text: str, entrants: list[Entrant] | None = None
    ) -> None:
        """Tell the listeners what changed in the event as it now stands."""
        event = self.current(event_id)
        self.emit(EventChanged(event.state, kind, text, entrants=tuple(entrants or ())))

    def tell_moved_up(self, event_id: int, waiting: list[Entrant]) -> None:
        """Tell who of ``waiting`` (the waiting list before a change) got a place by it."""
        event = self.current(event_id)
        moved = [e for e in waiting if e.user_id is not None and event.entrant(e.user_id)]
        if moved:
            self.tell(event_id, "moved_up", "moved up from the waiting list", moved)

    def emit(self, change: EventChanged) -> None:
        """Tell every listener; one that fails is logged and the others still hear."""
        tell_each(self.listeners, change, log, f"event listener failed on {change.kind}")
