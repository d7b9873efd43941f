"""The keeper without Discord: turn limits, absent players, idle tables, on a manual clock."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.players import make_player
from bot.rules import replay
from bot.server.settings import ServerSettings
from bot.server.sources import FixedSettings
from bot.store import Database
from bot.tables import (
    MemoryTableStore,
    NotYourTurnError,
    Place,
    Player,
    SeatTakenError,
    Table,
    TableService,
    TableSnapshot,
    WrongStageError,
)
from bot.tables.database import DatabaseTableStore
from bot.tables.keeper import TableKeeper
from bot.tables.scheduler import LoopScheduler, ManualScheduler

from .util import ALICE, BOB, CAROL, DAVE, ERIN, HERE, playing, started

LIMIT = 60.0


@dataclass
class Notes:
    """A KeeperNotifier that writes down what it was asked and plays computers on."""

    service: TableService
    said: list[tuple[Any, ...]] = field(default_factory=list)
    next_id: int = 1000

    async def remind(self, table: TableSnapshot, user_id: int, seconds_left: float) -> int | None:
        assert isinstance(table, TableSnapshot), "the notifier reads a snapshot, never the table"
        self.next_id += 1
        self.said.append(("remind", table.id, user_id, round(seconds_left)))
        return self.next_id

    async def turn_taken(self, place: Place, reminder_id: int) -> None:
        self.said.append(("taken", place.id, reminder_id))

    async def timed_out(
        self, table: TableSnapshot, seat: int, user_id: int, away: bool, reminder_id: int | None
    ) -> None:
        assert isinstance(table, TableSnapshot) and table.seat_of(user_id) == seat
        self.said.append(("timed_out", table.id, user_id, away, reminder_id))

    async def closed_idle(self, table: TableSnapshot, minutes: float) -> None:
        assert isinstance(table, TableSnapshot) and not table.is_open
        self.said.append(("closed", table.id, round(minutes)))

    def kinds(self) -> list[str]:
        return [s[0] for s in self.said]


def build(
    store: Any = None, *, limit: float | None = LIMIT, strikes: int = 2, takeover: bool = True
) -> tuple[TableService, ManualScheduler, TableKeeper, Notes]:
    server = ServerSettings(
        turn_time_limit_seconds=limit,
        timeouts_before_computer=strikes,
        allow_seat_takeover=takeover,
    )
    tables = TableService(
        store or MemoryTableStore(),
        make_player,
        server_settings=FixedSettings(server),
        seeds=lambda: 8,
    )
    clock = ManualScheduler()
    notes = Notes(tables)
    keeper = TableKeeper(tables, clock, notes, idle_lobby=600, idle_game=3600, tick=5)
    keeper.start()
    return tables, clock, keeper, notes


def turn_user(table: Table) -> int:
    assert table.game is not None and table.game.turn is not None
    seat = table.seats[table.game.turn]
    assert seat is not None and seat.user_id is not None
    return seat.user_id


async def act(tables: TableService, table: Table) -> None:
    """The person whose turn it is makes the first legal move."""
    assert table.game is not None
    user = turn_user(table)
    seat = table.seat_of(user)
    assert seat is not None
    await (await tables.fetch(table.id)).turns.act(user, seat, table.stamp, table.game.legal()[0])


async def test_a_reminder_comes_at_half_time_then_a_computer_plays_the_turn() -> None:
    tables, clock, _, notes = build()
    table = await playing(tables)
    user, log_size = turn_user(table), len(table.game.log)  # type: ignore[union-attr]
    await clock.advance(LIMIT / 2 - 6)
    assert notes.said == []
    await clock.advance(6)
    assert notes.said == [("remind", table.id, user, 30)]
    await clock.advance(LIMIT / 2 - 1)
    assert notes.kinds() == ["remind"]
    await clock.advance(5)
    assert notes.said[-1] == ("timed_out", table.id, user, False, 1001)
    assert len(table.game.log) == log_size + 1  # type: ignore[union-attr]
    seat = table.seats[table.game.log[-1][0]]  # type: ignore[union-attr]
    assert seat is not None and seat.user_id == user and not seat.away
    assert table.strikes == {table.seat_of(user): 1}


async def test_acting_in_time_cancels_the_timeout_and_drops_the_reminder() -> None:
    tables, clock, _, notes = build()
    table = await playing(tables)
    await clock.advance(LIMIT / 2 + 1)
    assert notes.kinds() == ["remind"]
    await act(tables, table)
    await clock.advance(0)
    assert notes.said[-1] == ("taken", table.place.id, 1001)
    await clock.advance(LIMIT / 2 - 2)
    assert "timed_out" not in notes.kinds()


async def test_timeouts_in_a_row_leave_the_seat_to_a_computer_until_taken_back() -> None:
    tables, clock, _, notes = build(strikes=2)
    table = await playing(tables, people=1)
    for _ in range(2):
        await clock.advance(LIMIT + 5)
    away = [s for s in notes.said if s[0] == "timed_out"]
    assert [s[3] for s in away] == [False, True]
    seat = table.seats[0]
    assert seat is not None and seat.away and seat.user_id == ALICE.user_id
    assert table.present == []
    assert table.computer_to_act() is None, "nobody present: the game waits"
    stamp = table.stamp
    with pytest.raises(NotYourTurnError, match="Take my seat back"):
        table.check_human_action(ALICE.user_id, 0, stamp)
    await clock.advance(LIMIT * 3)
    assert table.stamp == stamp, "no computer plays a table nobody sits at"

    await (await tables.fetch(table.id)).absence.take_back(ALICE.user_id)
    assert table.seats[0] is not None and not table.seats[0].away and not table.strikes
    with pytest.raises(WrongStageError, match="already playing"):
        await (await tables.fetch(table.id)).absence.take_back(ALICE.user_id)


async def test_acting_resets_the_count_of_timeouts() -> None:
    tables, clock, _, _ = build(strikes=2)
    table = await playing(tables, people=1)
    await clock.advance(LIMIT + 5)
    await tables.get_any(table.id).turns.run_computers()
    assert table.strikes == {0: 1}
    await act(tables, table)
    assert table.strikes == {}


async def test_a_click_racing_the_timeout_makes_one_move() -> None:
    tables, clock, _, notes = build()
    table = await playing(tables)
    await clock.advance(LIMIT - 3)
    before = len(table.game.log)  # type: ignore[union-attr]
    user = turn_user(table)
    seat = table.seat_of(user)
    stamp, action = table.stamp, table.game.legal()[0]  # type: ignore[union-attr]
    results = await asyncio.gather(
        clock.advance(5),
        (await tables.fetch(table.id)).turns.act(user, seat, stamp, action),
        return_exceptions=True,
    )
    assert len(table.game.log) == before + 1  # type: ignore[union-attr]
    acted = not isinstance(results[1], Exception)
    timed_out = "timed_out" in notes.kinds()
    assert acted != timed_out, (results, notes.said)


async def test_no_limit_no_timers() -> None:
    tables, clock, _, notes = build(limit=None)
    table = await playing(tables)
    await clock.advance(3000)
    assert notes.said == [] and table.status == "playing"


async def test_idle_lobbies_and_games_are_closed_and_forgotten() -> None:
    store = MemoryTableStore()
    tables, clock, keeper, notes = build(store, limit=None)
    lobby = await tables.open(HERE, ALICE)
    other = Place(1, 11)
    busy = await tables.open(other, BOB)
    await (await tables.fetch(busy.id)).lobby.join(CAROL)
    await clock.advance(590)
    await (await tables.fetch(busy.id)).lobby.join(DAVE)  # a touch keeps it open
    await clock.advance(20)
    assert ("closed", lobby.id, 10) in notes.said
    assert lobby.status == "aborted" and store.tables[lobby.id].status == "aborted"
    assert busy.is_open and keeper.watched == 1
    await (await tables.fetch(busy.id)).lobby.join(ERIN)
    await (await tables.fetch(busy.id)).lobby.start(BOB.user_id)
    await clock.advance(3600 + 5)
    assert busy.status == "aborted" and keeper.watched == 0
    assert tables.open_tables == []


async def test_computers_left_pending_are_played_on_the_next_tick() -> None:
    store = MemoryTableStore()
    tables, _, _, _ = build(store)
    table = await started(tables)
    if table.computer_to_act() is None:
        await act(tables, table)  # now a computer is to play: the process "dies" here
    tables.halt()
    assert table.computer_to_act() is not None
    fresh, clock, keeper, notes = build(store)
    restored = await fresh.restore()
    keeper.stop()
    keeper.start()
    await clock.advance(5)
    assert notes.said == [], "the keeper plays them itself"
    assert restored[0].computer_to_act() is None


async def test_a_member_takes_over_a_computers_seat_where_allowed() -> None:
    tables, _, _, _ = build()
    table = await playing(tables, people=2)
    seat = await tables.fetch(table.id)
    await seat.lobby.join(ERIN)
    taken = [s.user_id for s in seat.seats if s is not None and s.user_id is not None]
    assert ERIN.user_id in taken
    with pytest.raises(SeatTakenError, match="already playing"):
        await (await tables.fetch(table.id)).lobby.join(ERIN)
    with pytest.raises(SeatTakenError, match="Seat 1 is Alice's"):
        await (await tables.fetch(table.id)).lobby.join(Player(999, "Zed"), seat=0)

    strict, _, _, _ = build(takeover=False)
    closed = await playing(strict, people=2)
    with pytest.raises(SeatTakenError, match="doesn't let members take over"):
        await closed.lobby.join(ERIN)


async def test_away_seats_and_the_settings_survive_a_restart(tmp_path: Path) -> None:
    async with await Database.open(tmp_path / "t.sqlite3") as db:
        tables, clock, _, _ = build(DatabaseTableStore(db), strikes=1)
        table = await playing(tables, people=2)
        while table.status == "playing" and not any(s and s.away for s in table.seats):
            await clock.advance(LIMIT + 5)
        fresh, _, _, _ = build(DatabaseTableStore(db), strikes=1)
        (again,) = await fresh.restore()
        assert again.seats == table.seats and again.record() == table.record()
        assert again.settings == table.settings
        assert replay(again.record()).game.log == table.game.log  # type: ignore[union-attr]


async def test_loop_scheduler_runs_calls_and_cancels_the_rest() -> None:
    ran: list[str] = []
    clock = LoopScheduler()

    async def note(name: str) -> None:
        ran.append(name)

    async def boom() -> None:
        raise RuntimeError("logged, not raised")

    done = asyncio.Event()

    async def last() -> None:
        done.set()

    clock.call_later(0, lambda: note("a"))
    clock.call_later(0, boom)
    cancelled = clock.call_later(0, lambda: note("never"))
    cancelled.cancel()
    clock.call_later(0.01, last)
    pending = clock.call_later(60, lambda: note("never"))
    await asyncio.wait_for(done.wait(), 5)
    clock.close()
    pending.cancel()
    assert ran == ["a"] and clock.now() > 0


async def test_settling_waits_for_the_calls_running_and_counts_the_late_ones() -> None:
    clock = LoopScheduler()
    started, release = asyncio.Event(), asyncio.Event()
    finished: list[str] = []

    async def quick() -> None:
        started.set()
        await asyncio.sleep(0.01)
        finished.append("quick")

    async def stuck() -> None:
        await release.wait()
        finished.append("stuck")

    clock.call_later(0, quick)
    await asyncio.wait_for(started.wait(), 5)
    assert await clock.settle(5) == 0 and finished == ["quick"]
    clock.call_later(0, stuck)
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    assert await clock.settle(0.01) == 1, "a call that runs on is counted, not cut off"
    release.set()
    assert await clock.settle(5) == 0 and finished == ["quick", "stuck"]
    assert await ManualScheduler().settle(1) == 0


async def test_a_halted_service_plays_no_computer_and_its_keeper_does_nothing() -> None:
    tables, clock, _, notes = build()
    table = await playing(tables, people=1)
    await act(tables, table)
    assert table.computer_to_act() is not None
    tables.halt()
    moves = len(table.game.log)  # type: ignore[union-attr]
    progress = await tables.get_any(table.id).turns.run_computers()
    assert progress.moves == ()
    await clock.advance(LIMIT * 3)
    assert notes.said == [], "no reminder, no timeout, no idle close"
    assert clock.pending == [], "the keeper stopped ticking"
    assert len(table.game.log) == moves and table.computer_to_act() is not None  # type: ignore[union-attr]


async def test_a_game_whose_last_move_was_saved_but_not_archived_is_finished_at_restore() -> None:
    store = MemoryTableStore()
    tables, _, _, _ = build(store, limit=None)
    table = await playing(tables, people=1)
    while table.status == "playing":
        await act(tables, table)
        await tables.get_any(table.id).turns.run_computers()
    row = store.tables[table.id]
    row.status, row.record = "playing", None  # the archive never happened
    fresh, _, _, _ = build(store, limit=None)
    assert await fresh.restore() == []
    assert row.status == "finished" and row.record is not None
    assert replay(row.record).game.over
