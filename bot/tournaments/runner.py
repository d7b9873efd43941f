"""Running tournament events: the director's steps and members' requests, and a restart.

:class:`TournamentRunner` drives the events of :mod:`bot.tournaments` with the table
service: members sign up, check in and leave; the director (or a timer) starts the
event, opens and ends rounds, pauses, skips a no-show, moves the start or cancels. Each
change takes the event's lock and is saved (one transaction) before anyone is told
(:class:`~bot.tournaments.running.RunningEvents`), so :meth:`TournamentRunner.resume`
after a restart finds each open event where it was and carries on: tables not yet
opened are opened, results a table reached while the bot was down are taken in, and
timers are armed again. Its parts: :mod:`.round_tables` each round's tables and their
results, :mod:`.timers` the timed steps. Whether the games are rated is the league's to
decide from the event (``rated``): see :mod:`bot.league.ranking`.

The UI listens through :attr:`TournamentRunner.listeners` (:class:`EventChanged`), and
gives each table its place (a thread) through the ``places`` callback. Nothing here
knows Discord.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime

from bot.tables.scheduler import Scheduler
from bot.tables.seats import Player
from bot.tables.service import TableService

from .errors import EventStateError
from .event import Actor, Tournament
from .model import Entrant
from .repository import TournamentRepo
from .round_tables import PlaceMaker, RoundTables
from .running import EventChanged, Listener, RunningEvents, utc_now
from .storage import create_event, open_events
from .timers import EventTimers

__all__ = ["TournamentRunner"]

log = logging.getLogger(__name__)


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
        self.events = RunningEvents(repo, clock)
        self.timers = EventTimers(self.events, scheduler, self)
        self.rounds = RoundTables(self.events, self.timers, tables, places)
        self.listeners: list[Listener] = self.events.listeners
        tables.listeners.append(self.rounds.on_table_event)
        tables.crew.event_table = self.rounds.is_event_table

    @property
    def clock(self) -> Callable[[], datetime]:
        """The runner's clock (tests set one)."""
        return self.events.clock

    @clock.setter
    def clock(self, clock: Callable[[], datetime]) -> None:
        self.events.clock = clock

    # ------------------------------------------------------------------ reading

    def get(self, event_id: int) -> Tournament:
        """An open event of this process; EventStateError when it is not running here."""
        return self.events.get(event_id)

    async def load(self, event_id: int) -> Tournament:
        """An event, running or as the store has it (EventStateError if there is none)."""
        return await self.events.load(event_id)

    def now(self) -> datetime:
        """The runner's clock (tests turn it by hand)."""
        return self.events.clock()

    @property
    def running(self) -> list[Tournament]:
        """Every open event of this process."""
        return self.events.running

    # ------------------------------------------------------------------ creating

    async def create(self, event: Tournament) -> Tournament:
        """Save a new event and arm its timers (ChannelBusyError: the channel holds one)."""
        rules = event.state.settings.rules
        if rules is not None and rules.players != 4:
            raise EventStateError("Tournament tables are for four players: choose other rules.")
        saved = await create_event(self.repo, event)
        event_id = self.events.add(saved)
        self.timers.arm(event_id)
        self.events.tell(event_id, "created", f"event {event_id} created")
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
        async with self.events.lock(event_id):
            entry = await self.events.change(
                event_id,
                lambda e, now: e.join(
                    player.user_id,
                    player.name,
                    now,
                    partner_id=None if partner is None else partner.user_id,
                    partner_name="" if partner is None else partner.name,
                ),
            )
            self.events.tell(event_id, "signup", f"{player.name} joined", [entry])
            return entry

    async def confirm_partner(self, event_id: int, user_id: int) -> Entrant:
        """A named partner confirms; the partner who named them."""
        async with self.events.lock(event_id):
            partner = await self.events.change(
                event_id, lambda e, now: e.confirm_partner(user_id, now)
            )
            self.events.tell(event_id, "signup", f"a pair with {partner.display_name}")
            return partner

    async def check_in(self, event_id: int, user_id: int) -> Entrant:
        """A member checks in."""
        async with self.events.lock(event_id):
            entry = await self.events.change(event_id, lambda e, now: e.check_in(user_id, now))
            self.events.tell(event_id, "signup", f"{entry.display_name} checked in")
            return entry

    async def leave(self, event_id: int, user_id: int) -> list[Entrant]:
        """A member leaves: before the start their entry goes, after it a computer plays on."""
        async with self.events.lock(event_id):
            playing = self.get(event_id).phase in ("playing", "between_rounds")
            waiting = self.get(event_id).state.waiting
            gone = await self.events.change(event_id, lambda e, now: e.leave(user_id, now))
            if playing:
                await self.rounds.leave_table(event_id, user_id)
            self.events.tell(event_id, "replaced" if playing else "signup", "left", gone)
            self.events.tell_moved_up(event_id, waiting)
            return gone

    # ------------------------------------------------------------------ the director

    async def start(
        self, event_id: int, actor: Actor | None, *, fill_with_computers: bool = False
    ) -> Tournament:
        """Start the event: everyone seated, round 1's tables opened."""
        async with self.events.lock(event_id):
            waiting = self.get(event_id).state.waiting
            gone = await self.events.change(
                event_id,
                lambda e, now: e.start(actor, now, fill_with_computers=fill_with_computers),
            )
            self.events.tell(event_id, "started", "started", gone)
            self.events.tell_moved_up(event_id, waiting)
            left_out = [e for e in waiting if e.user_id is not None and e in gone]
            if left_out:
                self.events.tell(event_id, "left_out", "the waiting list got no place", left_out)
            await self.rounds.open_round(event_id)
            return self.events.current(event_id)

    async def next_round(self, event_id: int, actor: Actor | None) -> Tournament:
        """Open the next round (the director's button, or the break's end)."""
        async with self.events.lock(event_id):
            await self.events.change(event_id, lambda e, now: e.next_round(actor, now))
            await self.rounds.open_round(event_id)
            return self.events.current(event_id)

    async def end_round(self, event_id: int, actor: Actor | None) -> Tournament:
        """End the round now (its timer, or the director): unfinished deals don't count."""
        async with self.events.lock(event_id):
            current = self.get(event_id).current_round
            await self.events.change(event_id, lambda e, now: e.end_round(actor, now))
            if current is not None:
                await self.rounds.stop_tables(event_id, current)
            await self.rounds.round_over(event_id)
            return self.events.current(event_id)

    async def pause(self, event_id: int, actor: Actor | None) -> Tournament:
        """Hold the event: no round starts and the round's timer waits."""
        async with self.events.lock(event_id):
            await self.events.change(event_id, lambda e, now: e.pause(actor, now))
            self.timers.disarm(event_id)
            self.events.tell(event_id, "paused", "paused")
            return self.get(event_id)

    async def go_on(self, event_id: int, actor: Actor | None) -> Tournament:
        """Go on after a pause; a timer that fell due meanwhile runs a minute later."""
        async with self.events.lock(event_id):
            await self.events.change(event_id, lambda e, now: e.resume(actor, now))
            self.timers.go_on(event_id)
            self.events.tell(event_id, "resumed", "resumed")
            return self.get(event_id)

    async def skip(self, event_id: int, actor: Actor | None, user_id: int) -> Entrant:
        """Replace a no-show by a computer, at their table now and in later rounds."""
        async with self.events.lock(event_id):
            entry = await self.events.change(event_id, lambda e, now: e.skip(actor, user_id, now))
            await self.rounds.leave_table(event_id, user_id)
            self.events.tell(event_id, "replaced", "skipped", [entry])
            return entry

    async def reschedule(self, event_id: int, actor: Actor | None, start: datetime) -> Tournament:
        """Move the start (before it); check-in and the reminder follow it."""
        async with self.events.lock(event_id):
            await self.events.change(event_id, lambda e, now: e.reschedule(actor, start, now))
            self.timers.arm(event_id)
            self.events.tell(event_id, "moved", f"the start moved to {start.isoformat()}")
            return self.get(event_id)

    async def cancel(self, event_id: int, actor: Actor | None) -> Tournament:
        """Call the event off: every table of the round closes unplayed."""
        async with self.events.lock(event_id):
            current = self.get(event_id).current_round
            await self.events.change(event_id, lambda e, now: e.cancel(actor, now))
            if current is not None and current.ended_at is None:
                await self.rounds.close_tables(event_id, current, "the event was cancelled")
            event = self.rounds.end(event_id)
            self.events.emit(EventChanged(event.state, "cancelled", "cancelled"))
            return event

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
                        self.rounds.claim(round_table.table_id, event.state.id)
        for event in events:
            event_id = event.state.id
            assert event_id is not None
            if self.events.is_open(event_id):
                continue
            self.events.add(event)
            async with self.events.lock(event_id):
                try:
                    if event.phase == "playing":
                        await self.rounds.open_round(event_id)
                    else:
                        self.timers.arm(event_id, late=1.0)
                except Exception:
                    log.exception("event %d: could not be resumed", event_id)
                    continue
            resumed.append(self.events.current(event_id))
        self.rounds.resumed = True
        return resumed

    def close(self) -> None:
        """Stop every timer (the bot stops); the events stay as saved."""
        self.timers.close()
        if self.rounds.on_table_event in self.tables.listeners:
            self.tables.listeners.remove(self.rounds.on_table_event)

    async def settle(self) -> None:
        """Wait for the results being taken in (tests, and a stopping bot)."""
        await self.rounds.settle()
