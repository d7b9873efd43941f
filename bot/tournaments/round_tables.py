"""Each round's tables: opened through the table service, their results taken in.

:class:`RoundTables` opens every table of a round at once (each in the place the UI
gives it, through ``places``), seats a computer where a member left or was skipped,
stops or closes a round's tables, and takes every table's finished deals into its event
as they are scored (listening to the service's :class:`DealEnded` and
:class:`TableClosed`), ending the round when every table has played it out. After a
restart it takes in what a table reached while the bot was down.

A progressive table plays the event's deals and no more: its rules are the event's with
``deals_per_game`` set to the deals of a round (:func:`event_rules`), so the game ends
by itself after them and is archived like any other. A pairs table plays a game to the
rules' target (or the round's deals when the event says so).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from bot.rules import HouseRules
from bot.tables.errors import NoTableError, TableClosedError, TableError
from bot.tables.events import DealEnded, TableClosed, TableEvent
from bot.tables.live import LiveTable
from bot.tables.persistence import Place
from bot.tables.seats import Player, Seat
from bot.tables.service import TableService
from bot.tables.snapshots import TableSnapshot
from bot.tables.stopping import ROUND_TIMER

from .errors import ResultError
from .event import Tournament
from .model import Entrant, EventRound, RoundTable, TournamentEvent
from .running import EventChanged, RunningEvents
from .timers import EventTimers

__all__ = ["DIRECTOR_NAME", "PlaceMaker", "RoundTables", "event_rules"]

log = logging.getLogger(__name__)

PlaceMaker = Callable[[TournamentEvent, EventRound, RoundTable], Awaitable[Place]]
"""Where a round's table opens (the UI makes a thread); each table needs a place of its own."""

DIRECTOR_NAME = "Tournament director"


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


class RoundTables:
    """The tables of every open event's rounds, opened with ``tables`` where ``places`` says."""

    def __init__(
        self,
        events: RunningEvents,
        timers: EventTimers,
        tables: TableService,
        places: PlaceMaker,
    ) -> None:
        self.events = events
        self.timers = timers
        self.tables = tables
        self.places = places
        self.resumed = False
        """Whether the runner has resumed the stored events (until then, the store knows)."""
        self._table_event: dict[int, int] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    async def is_event_table(self, table_id: int) -> bool:
        """Whether a table plays in an open event (asked of the store until the resume)."""
        if table_id in self._table_event:
            return True
        if self.resumed:
            return False
        found = await self.events.repo.table_events([table_id])
        return table_id in found and found[table_id].phase in ("playing", "between_rounds")

    def claim(self, table_id: int, event_id: int) -> None:
        """The table is the event's from now: nobody else sits down."""
        self._table_event[table_id] = event_id

    def end(self, event_id: int) -> Tournament:
        """The event ended: no timer, no table listened to; kept a while for its answers."""
        self.timers.disarm(event_id)
        event = self.events.forget(event_id)
        self._table_event = {t: e for t, e in self._table_event.items() if e != event_id}
        return event

    # ------------------------------------------------------------------ opening

    async def open_round(self, event_id: int) -> None:
        """Open (and start) every table of the current round not opened yet; then tell."""
        state = self.events.get(event_id).state
        rnd = state.rounds[-1]
        server = await self.tables.server_settings.get(state.guild_id)
        rules = event_rules(state, server.rules)
        by_number = {e.number: e for e in state.entrants}
        opened: list[LiveTable] = []
        for round_table in rnd.tables:
            table = await self._open_table(event_id, rnd, round_table, by_number, rules)
            if table is not None:
                opened.append(table)
        self.timers.arm(event_id)
        shown: list[TableSnapshot] = [await table.snapshot() for table in opened]
        state = self.events.get(event_id).state
        self.events.emit(EventChanged(state, "round", f"round {rnd.number}", tuple(shown)))
        # Results reached before every table had opened, or while the bot was down.
        await self._catch_up(event_id)

    async def _open_table(
        self,
        event_id: int,
        rnd: EventRound,
        round_table: RoundTable,
        by_number: dict[int, Entrant],
        rules: HouseRules,
    ) -> LiveTable | None:
        state = self.events.get(event_id).state
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
            await self.events.change(
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
            await (await self.tables.fetch(table_id)).lobby.start(state.director_id)
        return table

    @staticmethod
    def _seat(entry: Entrant, index: int, round_number: int) -> Seat:
        replaced = entry.replaced_in_round is not None and entry.replaced_in_round <= round_number
        if entry.user_id is None or replaced:
            return Seat(entry.display_name, level=Seat.computer(index).level)
        return Seat.human(Player(entry.user_id, entry.display_name))

    # ------------------------------------------------------------------ leaving, stopping

    async def leave_table(self, event_id: int, user_id: int) -> None:
        """A computer takes over the member's seat at their table of the round being played."""
        event = self.events.get(event_id)
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
                    await (await self.tables.fetch(table.id)).lobby.leave(user_id)
                except TableError:
                    log.info("table %d: %d could not leave", table.id, user_id, exc_info=True)

    async def close_tables(self, event_id: int, rnd: EventRound, why: str) -> None:
        """Abort the round's tables still open (their games unrated, unarchived)."""
        await self._close_each(
            event_id,
            rnd,
            lambda table, by: table.lobby.abort(by, may_manage=True),
            f" closed: {why}",
        )

    async def stop_tables(self, event_id: int, rnd: EventRound) -> None:
        """Stop the round's tables still playing: their finished deals archived, unrated."""
        await self._close_each(
            event_id, rnd, lambda table, by: table.lobby.stop(by, ROUND_TIMER), f": {ROUND_TIMER}"
        )

    async def _close_each(
        self,
        event_id: int,
        rnd: EventRound,
        close: Callable[[LiveTable, int], Awaitable[None]],
        logged: str,
    ) -> None:
        """``close`` each of the round's tables, by the event's director.

        A table closed already is passed over; ``logged`` ends the log line of each one closed.
        """
        director = self.events.get(event_id).state.director_id
        for round_table in rnd.tables:
            if round_table.table_id is None:
                continue
            try:
                await close(await self.tables.fetch(round_table.table_id), director)
            except TableError:
                continue
            log.info("table %d%s", round_table.table_id, logged)

    async def round_over(self, event_id: int) -> None:
        """After a round ended: arm the break, or tell the end."""
        state = self.events.get(event_id).state
        if state.phase == "finished":
            self.end(event_id)
            self.events.emit(EventChanged(state, "finished", "finished"))
            return
        self.timers.arm(event_id)
        self.events.tell(event_id, "round_ended", f"round {len(state.rounds)} ended")

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

    async def settle(self) -> None:
        """Wait for the results being taken in (tests, and a stopping bot)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def _take_result(self, event_id: int, table_id: int) -> None:
        try:
            async with self.events.lock(event_id):
                if self.events.is_open(event_id):
                    await self._report(event_id, table_id)
        except Exception:
            log.exception("event %d: could not take in table %d's result", event_id, table_id)

    async def _report(self, event_id: int, table_id: int) -> None:
        """Take a table's deals so far into the event (its lock held); the round may end."""
        event = self.events.get(event_id)
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
            ended = await self.events.change(
                event_id,
                lambda e, now: e.report(number, round_table.number, deals, now, finished=finished),
            )
        except ResultError:
            log.exception("event %d: table %d's result refused", event_id, table_id)
            return
        self.events.tell(event_id, "result", f"round {number} table {round_table.number}")
        if ended:
            await self.round_over(event_id)

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
        rnd = self.events.get(event_id).current_round
        if rnd is None:
            return
        for round_table in rnd.tables:
            if not self.events.is_open(event_id) or self.events.get(event_id).phase != "playing":
                return
            if round_table.table_id is not None:
                await self._report(event_id, round_table.table_id)
