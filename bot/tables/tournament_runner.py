"""Running tournament events: timers, each round's tables, results, and going on after a restart.

:class:`TournamentRunner` drives the events of :mod:`bot.league.tournaments` with the
table service: it opens check-in and starts an event at their times (on the injected
:class:`~bot.tables.scheduler.Scheduler`), opens every table of a round at once (each in
the place the UI gives it), takes every table's finished deals into the event as they
are scored (listening to the service's :class:`DealEnded` and :class:`TableClosed`), ends
a round when every table has played it out or at the round timer, and opens the next
round on the director's action or after the break. The event is saved after every
change (one transaction), before anyone is told, so :meth:`resume` after a restart
finds each open event where it was and carries on: tables not yet opened are opened,
results a table reached while the bot was down are taken in, and timers are armed again.

A progressive table plays the event's deals and no more: its rules are the event's with
``deals_per_game`` set to the deals of a round, so the game ends by itself after them
and is archived like any other. A pairs table plays a game to the rules' target (or the
round's deals when the event says so). Whether the games are rated is the league's to
decide from the event (``rated``): see :mod:`bot.league.ranking`.

The UI listens through :attr:`TournamentRunner.listeners` (:class:`EventChanged`), and
gives each table its place (a thread) through the ``places`` callback. Nothing here
knows Discord.

Longer than 450 lines: one class, so that every change of an event takes the event's
lock and is saved (or refused whole) the same way, as the table service does for tables.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Literal, TypeVar

from bot.league.tournaments import (
    REMINDER_BEFORE,
    Actor,
    Tournament,
    TournamentError,
    create_event,
    load_event,
    open_events,
    save_event,
)
from bot.league.tournaments.errors import EventStateError, ResultError, TooFewPlayersError
from bot.rules import HouseRules
from bot.store import TournamentRepo
from bot.store.tournament_models import Entrant, EventRound, RoundTable, TournamentEvent
from bot.waits import WaitingLock

from .errors import NoTableError, TableClosedError, TableError
from .events import DealEnded, TableClosed, TableEvent
from .persistence import Place
from .scheduler import Scheduler, Timer
from .seats import Player, Seat
from .service import TableService
from .stopping import ROUND_TIMER
from .table import Table

__all__ = [
    "ChangeKind",
    "EventChanged",
    "PlaceMaker",
    "TournamentRunner",
    "event_rules",
    "utc_now",
]

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

PlaceMaker = Callable[[TournamentEvent, EventRound, RoundTable], Awaitable[Place]]
"""Where a round's table opens (the UI makes a thread); each table needs a place of its own."""

DIRECTOR_NAME = "Tournament director"


def utc_now() -> datetime:
    """The wall clock, timezone-aware."""
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class EventChanged:
    """What changed in an event, told after it was saved."""

    event: TournamentEvent
    kind: ChangeKind
    text: str
    tables: tuple[Table, ...] = ()
    """For ``round``: the round's tables, opened and started, in table order."""
    entrants: tuple[Entrant, ...] = field(default=())
    """The entries a change concerned (dropped at the start or check-in, replaced...)."""


Listener = Callable[[EventChanged], None]


def event_rules(event: TournamentEvent, server_rules: HouseRules) -> HouseRules:
    """The rules every table of the event plays: the event's (or server's), its deals fixed.

    Progressive tables, and pairs tables not playing to the target, play exactly the
    round's deals.
    """
    rules = event.settings.rules or server_rules
    settings = event.settings
    if settings.format == "progressive" or not settings.game_to_target:
        return rules.with_changes(deals_per_game=settings.deals_per_round)
    return rules.with_changes(deals_per_game=None)


class TournamentRunner:
    """Every open event of this process, each changed under its own lock and saved."""

    def __init__(
        self,
        repo: TournamentRepo,
        tables: TableService,
        scheduler: Scheduler,
        places: PlaceMaker,
        *,
        clock: Callable[[], datetime] = utc_now,
    ) -> None:
        """Events kept in ``repo``, tables opened with ``tables`` where ``places`` says."""
        self.repo = repo
        self.tables = tables
        self.scheduler = scheduler
        self.places = places
        self.clock = clock
        self.listeners: list[Listener] = []
        self._events: dict[int, Tournament] = {}
        self._ended: dict[int, Tournament] = {}
        self._locks: dict[int, WaitingLock] = {}
        self._timers: dict[int, Timer] = {}
        self._reminders: dict[int, Timer] = {}
        self._table_event: dict[int, int] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._resumed = False
        tables.listeners.append(self.on_table_event)
        tables.lobby.event_table = self.is_event_table

    # ------------------------------------------------------------------ reading

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

    async def is_event_table(self, table_id: int) -> bool:
        """Whether a table plays in an open event (asked of the store until the resume)."""
        if table_id in self._table_event:
            return True
        if self._resumed:
            return False
        found = await self.repo.table_events([table_id])
        return table_id in found and found[table_id].phase in ("playing", "between_rounds")

    def now(self) -> datetime:
        """The runner's clock (tests turn it by hand)."""
        return self.clock()

    @property
    def running(self) -> list[Tournament]:
        """Every open event of this process."""
        return list(self._events.values())

    def _lock(self, event_id: int) -> WaitingLock:
        return self._locks.setdefault(event_id, WaitingLock())

    # ------------------------------------------------------------------ creating

    async def create(self, event: Tournament) -> Tournament:
        """Save a new event and arm its timers (ChannelBusyError: the channel holds one)."""
        rules = event.state.settings.rules
        if rules is not None and rules.players != 4:
            raise EventStateError("Tournament tables are for four players: choose other rules.")
        saved = await create_event(self.repo, event)
        event_id = saved.state.id
        assert event_id is not None
        self._events[event_id] = saved
        self._arm(event_id)
        self._tell(event_id, "created", f"event {event_id} created")
        return saved

    # ------------------------------------------------------------------ members

    async def join(
        self,
        event_id: int,
        player: Player,
        *,
        partner: Player | None = None,
    ) -> Entrant:
        """A member signs up (pairs: naming a partner, who must confirm)."""
        async with self._lock(event_id):
            entry = await self._change(
                event_id,
                lambda e, now: e.join(
                    player.user_id,
                    player.name,
                    now,
                    partner_id=None if partner is None else partner.user_id,
                    partner_name="" if partner is None else partner.name,
                ),
            )
            self._tell(event_id, "signup", f"{player.name} joined", [entry])
            return entry

    async def confirm_partner(self, event_id: int, user_id: int) -> Entrant:
        """A named partner confirms; the partner who named them."""
        async with self._lock(event_id):
            partner = await self._change(event_id, lambda e, now: e.confirm_partner(user_id, now))
            self._tell(event_id, "signup", f"a pair with {partner.display_name}")
            return partner

    async def check_in(self, event_id: int, user_id: int) -> Entrant:
        """A member checks in."""
        async with self._lock(event_id):
            entry = await self._change(event_id, lambda e, now: e.check_in(user_id, now))
            self._tell(event_id, "signup", f"{entry.display_name} checked in")
            return entry

    async def leave(self, event_id: int, user_id: int) -> list[Entrant]:
        """A member leaves: before the start their entry goes, after it a computer plays on."""
        async with self._lock(event_id):
            playing = self.get(event_id).phase in ("playing", "between_rounds")
            waiting = self.get(event_id).state.waiting
            gone = await self._change(event_id, lambda e, now: e.leave(user_id, now))
            if playing:
                await self._leave_table(event_id, user_id)
            self._tell(event_id, "replaced" if playing else "signup", "left", gone)
            self._tell_moved_up(event_id, waiting)
            return gone

    # ------------------------------------------------------------------ the director

    async def start(
        self, event_id: int, actor: Actor | None, *, fill_with_computers: bool = False
    ) -> Tournament:
        """Start the event: everyone seated, round 1's tables opened."""
        async with self._lock(event_id):
            waiting = self.get(event_id).state.waiting
            gone = await self._change(
                event_id,
                lambda e, now: e.start(actor, now, fill_with_computers=fill_with_computers),
            )
            self._tell(event_id, "started", "started", gone)
            self._tell_moved_up(event_id, waiting)
            left_out = [e for e in waiting if e.user_id is not None and e in gone]
            if left_out:
                self._tell(event_id, "left_out", "the waiting list got no place", left_out)
            await self._open_round(event_id)
            return self._now(event_id)

    async def next_round(self, event_id: int, actor: Actor | None) -> Tournament:
        """Open the next round (the director's button, or the break's end)."""
        async with self._lock(event_id):
            await self._change(event_id, lambda e, now: e.next_round(actor, now))
            await self._open_round(event_id)
            return self._now(event_id)

    async def end_round(self, event_id: int, actor: Actor | None) -> Tournament:
        """End the round now (its timer, or the director): unfinished deals don't count."""
        async with self._lock(event_id):
            current = self.get(event_id).current_round
            await self._change(event_id, lambda e, now: e.end_round(actor, now))
            if current is not None:
                await self._stop_tables(event_id, current)
            await self._round_over(event_id)
            return self._now(event_id)

    async def pause(self, event_id: int, actor: Actor | None) -> Tournament:
        """Hold the event: no round starts and the round's timer waits."""
        async with self._lock(event_id):
            await self._change(event_id, lambda e, now: e.pause(actor, now))
            self._disarm(event_id)
            self._tell(event_id, "paused", "paused")
            return self.get(event_id)

    async def go_on(self, event_id: int, actor: Actor | None) -> Tournament:
        """Go on after a pause; a timer that fell due meanwhile runs a minute later."""
        async with self._lock(event_id):
            await self._change(event_id, lambda e, now: e.resume(actor, now))
            self._arm(event_id, late=60.0)
            self._tell(event_id, "resumed", "resumed")
            return self.get(event_id)

    async def skip(self, event_id: int, actor: Actor | None, user_id: int) -> Entrant:
        """Replace a no-show by a computer, at their table now and in later rounds."""
        async with self._lock(event_id):
            entry = await self._change(event_id, lambda e, now: e.skip(actor, user_id, now))
            await self._leave_table(event_id, user_id)
            self._tell(event_id, "replaced", "skipped", [entry])
            return entry

    async def reschedule(self, event_id: int, actor: Actor | None, start: datetime) -> Tournament:
        """Move the start (before it); check-in and the reminder follow it."""
        async with self._lock(event_id):
            await self._change(event_id, lambda e, now: e.reschedule(actor, start, now))
            self._arm(event_id)
            self._tell(event_id, "moved", f"the start moved to {start.isoformat()}")
            return self.get(event_id)

    async def cancel(self, event_id: int, actor: Actor | None) -> Tournament:
        """Call the event off: every table of the round closes unplayed."""
        async with self._lock(event_id):
            current = self.get(event_id).current_round
            await self._change(event_id, lambda e, now: e.cancel(actor, now))
            if current is not None and current.ended_at is None:
                await self._close_tables(event_id, current, "the event was cancelled")
            event = self._forget(event_id)
            self._emit(EventChanged(event.state, "cancelled", "cancelled"))
            return event

    # ------------------------------------------------------------------ rounds

    async def _open_round(self, event_id: int) -> None:
        """Open (and start) every table of the current round not opened yet; then tell."""
        state = self.get(event_id).state
        rnd = state.rounds[-1]
        server = await self.tables.settings_of(state.guild_id)
        rules = event_rules(state, server.rules)
        by_number = {e.number: e for e in state.entrants}
        opened: list[Table] = []
        for round_table in rnd.tables:
            table = await self._open_table(event_id, rnd, round_table, by_number, rules)
            if table is not None:
                opened.append(table)
        self._arm(event_id)
        self._emit(
            EventChanged(self.get(event_id).state, "round", f"round {rnd.number}", tuple(opened))
        )
        # Results reached before every table had opened, or while the bot was down.
        await self._catch_up(event_id)

    async def _open_table(
        self,
        event_id: int,
        rnd: EventRound,
        round_table: RoundTable,
        by_number: dict[int, Entrant],
        rules: HouseRules,
    ) -> Table | None:
        state = self.get(event_id).state
        table_id = round_table.table_id
        if table_id is None:
            seats = [
                self._seat(by_number[number], index, rnd.number)
                for index, number in enumerate(round_table.seats)
            ]
            place = await self.places(state, rnd, round_table)
            host = Player(state.director_id, DIRECTOR_NAME)
            table = await self.tables.open(place, host, rules=rules, seats=seats)
            table.in_event = True
            opened_id = table.id
            self._table_event[opened_id] = event_id
            await self._change(
                event_id,
                lambda e, now: e.set_table_id(rnd.number, round_table.number, opened_id, now),
            )
            table_id = opened_id
        self._table_event[table_id] = event_id
        try:
            table = self.tables.get(table_id)
        except TableError:
            return None  # finished or closed while the bot was down: caught up after
        table.in_event = True
        if table.status == "lobby":
            await self.tables.start(table_id, state.director_id)
        return table

    @staticmethod
    def _seat(entry: Entrant, index: int, round_number: int) -> Seat:
        replaced = entry.replaced_in_round is not None and entry.replaced_in_round <= round_number
        if entry.user_id is None or replaced:
            return Seat(entry.display_name, level=Seat.computer(index).level)
        return Seat.human(Player(entry.user_id, entry.display_name))

    async def _leave_table(self, event_id: int, user_id: int) -> None:
        """A computer takes over the member's seat at their table of the round being played."""
        event = self.get(event_id)
        rnd = event.current_round
        if event.phase != "playing" or rnd is None:
            return
        for round_table in rnd.tables:
            if round_table.table_id is None:
                continue
            try:
                table = self.tables.get(round_table.table_id)
            except TableError:
                continue
            if table.seat_of(user_id) is not None:
                try:
                    await self.tables.leave(table.id, user_id)
                except TableError:
                    log.info("table %d: %d could not leave", table.id, user_id, exc_info=True)

    async def _close_tables(self, event_id: int, rnd: EventRound, why: str) -> None:
        """Abort the round's tables still open (their games unrated, unarchived)."""
        director = self.get(event_id).state.director_id
        for round_table in rnd.tables:
            if round_table.table_id is None:
                continue
            try:
                await self.tables.abort(round_table.table_id, director, may_manage=True)
            except TableError:
                continue
            log.info("table %d closed: %s", round_table.table_id, why)

    async def _stop_tables(self, event_id: int, rnd: EventRound) -> None:
        """Stop the round's tables still playing: their finished deals archived, unrated."""
        director = self.get(event_id).state.director_id
        for round_table in rnd.tables:
            if round_table.table_id is None:
                continue
            try:
                await self.tables.stop(round_table.table_id, director, ROUND_TIMER)
            except TableError:
                continue
            log.info("table %d: %s", round_table.table_id, ROUND_TIMER)

    async def _round_over(self, event_id: int) -> None:
        """After a round ended: arm the break, or tell the end."""
        event = self.get(event_id)
        state = event.state
        if state.phase == "finished":
            self._forget(event_id)
            self._emit(EventChanged(state, "finished", "finished"))
            return
        self._arm(event_id)
        self._tell(event_id, "round_ended", f"round {len(state.rounds)} ended")

    # ------------------------------------------------------------------ the tables' events

    def on_table_event(self, event: TableEvent) -> None:
        """A table service listener: a scored deal or a closed table goes into its event."""
        if not isinstance(event, DealEnded | TableClosed):
            return
        event_id = self._table_event.get(event.table_id)
        if event_id is None:
            return
        task = asyncio.get_running_loop().create_task(self._take_result(event_id, event.table_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _take_result(self, event_id: int, table_id: int) -> None:
        try:
            async with self._lock(event_id):
                if event_id in self._events:
                    await self._report(event_id, table_id)
        except Exception:
            log.exception("event %d: could not take in table %d's result", event_id, table_id)

    async def _report(self, event_id: int, table_id: int) -> None:
        """Take a table's deals so far into the event (its lock held); the round may end."""
        event = self.get(event_id)
        rnd = event.current_round
        if event.phase != "playing" or rnd is None:
            return
        round_table = next((t for t in rnd.tables if t.table_id == table_id), None)
        if round_table is None or (round_table.result is not None and round_table.result.finished):
            return
        deals, status = await self._deals(table_id)
        if status not in ("lobby", "playing", "finished"):
            return  # closed early: the round waits for its timer or the director
        known = [] if round_table.result is None else round_table.result.deals
        finished = status == "finished"
        if not finished and deals == known:
            return
        number = rnd.number
        try:
            ended = await self._change(
                event_id,
                lambda e, now: e.report(number, round_table.number, deals, now, finished=finished),
            )
        except ResultError:
            log.exception("event %d: table %d's result refused", event_id, table_id)
            return
        self._tell(event_id, "result", f"round {number} table {round_table.number}")
        if ended:
            await self._round_over(event_id)

    async def _deals(self, table_id: int) -> tuple[list[tuple[int, int]], str]:
        """A table's finished deals (points of seats 0 and 2, of 1 and 3) and its status."""
        try:
            public = self.tables.get_any(table_id).public()
        except NoTableError:
            try:
                await self.tables.fetch(table_id, closed=True)
            except TableClosedError as closed:
                if closed.public is None:
                    return [], "aborted"
                public = closed.public
            except TableError:
                return [], "unknown"
            else:  # open in the store but not in this process
                return [], "unknown"
        game = public.game
        deals = [] if game is None else [d.points for d in game.deals]
        return [(a, b) for a, b in deals], public.status

    async def _catch_up(self, event_id: int) -> None:
        """Take in what every table of the round reached (after a restart, or a fast table)."""
        rnd = self.get(event_id).current_round
        if rnd is None:
            return
        for round_table in rnd.tables:
            if event_id not in self._events or self.get(event_id).phase != "playing":
                return
            if round_table.table_id is not None:
                await self._report(event_id, round_table.table_id)

    # ------------------------------------------------------------------ timers

    def _arm(self, event_id: int, *, late: float = 0.0) -> None:
        """Set the event's one timer for what its phase waits on (none: nothing to wait for).

        ``late``: a due time already past runs this many seconds from now.
        """
        self._disarm(event_id)
        state = self.get(event_id).state
        settings = state.settings
        now = self.clock()
        self._arm_reminder(event_id, state, now)
        due: datetime | None = None
        action: Callable[[], Awaitable[None]] | None = None
        if state.phase in ("signup", "checkin") and settings.start_time is not None:
            opens = settings.start_time - timedelta(minutes=settings.check_in_minutes)
            checks_in = settings.check_in_minutes > 0 and now < settings.start_time
            if state.phase == "signup" and checks_in:  # at once if its time has come
                due, action = opens, lambda: self._timed_check_in(event_id)
            else:
                due, action = settings.start_time, lambda: self._timed_start(event_id)
        elif state.paused:
            return
        elif state.phase == "playing" and settings.round_timer_minutes is not None:
            due = state.rounds[-1].started_at + timedelta(minutes=settings.round_timer_minutes)
            action = lambda: self._timed(event_id, self.end_round)  # noqa: E731
        elif state.phase == "between_rounds" and settings.break_minutes is not None:
            ended = state.rounds[-1].ended_at or now
            due = ended + timedelta(minutes=settings.break_minutes)
            action = lambda: self._timed(event_id, self.next_round)  # noqa: E731
        if due is None or action is None:
            return
        delay = (due - now).total_seconds()
        if delay <= 0 and late:
            delay = late
        self._timers[event_id] = self.scheduler.call_later(
            max(0.0, delay), action, name=f"event {event_id} {state.phase}"
        )

    def _arm_reminder(self, event_id: int, state: TournamentEvent, now: datetime) -> None:
        """Tell ``reminder`` when the start is :data:`REMINDER_BEFORE` away (at once if it is)."""
        start = state.settings.start_time
        if state.phase not in ("signup", "checkin") or start is None or now >= start:
            return
        delay = max(0.0, (start - REMINDER_BEFORE - now).total_seconds())
        self._reminders[event_id] = self.scheduler.call_later(
            delay, lambda: self._remind(event_id), name=f"event {event_id} reminder"
        )

    async def _remind(self, event_id: int) -> None:
        self._reminders.pop(event_id, None)
        if event_id in self._events:
            self._tell(event_id, "reminder", "the start is near")

    def _disarm(self, event_id: int) -> None:
        for timers in (self._timers, self._reminders):
            timer = timers.pop(event_id, None)
            if timer is not None:
                timer.cancel()

    async def _timed(
        self, event_id: int, action: Callable[[int, Actor | None], Awaitable[object]]
    ) -> None:
        self._timers.pop(event_id, None)
        try:
            await action(event_id, None)
        except TournamentError as refusal:
            log.info("event %d: its timer did nothing: %s", event_id, refusal)

    async def _timed_check_in(self, event_id: int) -> None:
        self._timers.pop(event_id, None)
        async with self._lock(event_id):
            waiting = self.get(event_id).state.waiting
            try:
                gone = await self._change(event_id, lambda e, now: e.open_check_in(None, now))
            except TournamentError as refusal:
                log.info("event %d: check-in did not open: %s", event_id, refusal)
                return
            self._arm(event_id)
            self._tell(event_id, "checkin", "check-in is open", gone)
            self._tell_moved_up(event_id, waiting)

    async def _timed_start(self, event_id: int) -> None:
        self._timers.pop(event_id, None)
        try:
            await self.start(event_id, None)
        except TooFewPlayersError as refusal:
            self._tell(event_id, "start_refused", str(refusal))
        except TournamentError as refusal:
            log.info("event %d: did not start: %s", event_id, refusal)

    # ------------------------------------------------------------------ restarts

    async def resume(self, guild_filter: Callable[[int], bool] | None = None) -> list[Tournament]:
        """Go on with every open event (of the servers ``guild_filter`` accepts) as stored.

        Call it once the table service has restored its tables.
        """
        resumed = []
        events = [
            e
            for e in await open_events(self.repo)
            if guild_filter is None or guild_filter(e.state.guild_id)
        ]
        for event in events:  # their tables are theirs from now: nobody else sits down
            for rnd in event.state.rounds[-1:]:
                for round_table in rnd.tables:
                    if round_table.table_id is not None and event.state.id is not None:
                        self._table_event[round_table.table_id] = event.state.id
        for event in events:
            event_id = event.state.id
            assert event_id is not None
            if event_id in self._events:
                continue
            self._events[event_id] = event
            async with self._lock(event_id):
                try:
                    if event.phase == "playing":
                        await self._open_round(event_id)
                    else:
                        self._arm(event_id, late=1.0)
                except Exception:
                    log.exception("event %d: could not be resumed", event_id)
                    continue
            resumed.append(self._now(event_id))
        self._resumed = True
        return resumed

    def close(self) -> None:
        """Stop every timer (the bot stops); the events stay as saved."""
        for event_id in {*self._timers, *self._reminders}:
            self._disarm(event_id)
        if self.on_table_event in self.tables.listeners:
            self.tables.listeners.remove(self.on_table_event)

    async def settle(self) -> None:
        """Wait for the results being taken in (tests, and a stopping bot)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    # ------------------------------------------------------------------ inside the lock

    async def _change(self, event_id: int, change: Callable[[Tournament, datetime], T]) -> T:
        """Apply ``change`` to a copy of the event and save it; only then is it the event.

        A refusal, or a store that fails, leaves the event as it was.
        """
        draft = Tournament(self.get(event_id).state)
        result = change(draft, self.clock())
        await save_event(self.repo, draft)
        self._events[event_id] = draft
        return result

    def _now(self, event_id: int) -> Tournament:
        """The event as it stands, running or just ended."""
        return self._events.get(event_id) or self._ended[event_id]

    def _forget(self, event_id: int) -> Tournament:
        """The event ended: no timer, no table listened to; kept a while for its answers."""
        event = self.get(event_id)
        self._disarm(event_id)
        self._ended[event_id] = self._events.pop(event_id)
        while len(self._ended) > 64:
            self._ended.pop(next(iter(self._ended)))
        self._table_event = {t: e for t, e in self._table_event.items() if e != event_id}
        return event

    def _tell(
        self, event_id: int, kind: ChangeKind, text: str, entrants: list[Entrant] | None = None
    ) -> None:
        event = self._now(event_id)
        self._emit(EventChanged(event.state, kind, text, entrants=tuple(entrants or ())))

    def _tell_moved_up(self, event_id: int, waiting: list[Entrant]) -> None:
        """Tell who of ``waiting`` (the waiting list before a change) got a place by it."""
        event = self._now(event_id)
        moved = [e for e in waiting if e.user_id is not None and event.entrant(e.user_id)]
        if moved:
            self._tell(event_id, "moved_up", "moved up from the waiting list", moved)

    def _emit(self, change: EventChanged) -> None:
        for listener in self.listeners:
            try:
                listener(change)
            except Exception:
                log.exception("event listener failed on %s", change.kind)
