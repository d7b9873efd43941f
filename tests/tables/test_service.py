"""The table service without Discord: places, locks, saving, computers, events, restore."""

from __future__ import annotations

import asyncio
import logging
import random
import threading
from typing import Any

import pytest

from bot.players import make_player
from bot.rules import Action, SeatView, replay
from bot.server.settings import ServerSettings
from bot.server.sources import FixedSettings
from bot.tables import (
    ComputerPlayer,
    MemoryTableStore,
    NoTableError,
    Place,
    SaveFailedError,
    Table,
    TableClosedError,
    TableEvent,
    TableExistsError,
    TableService,
    TurnPassed,
    WrongStageError,
)

from .util import ALICE, BOB, CAROL, DAVE, HERE, started

THERE = Place(1, 11)


class Spy:
    """A computer player recording every view it was given."""

    def __init__(self) -> None:
        self.views: list[SeatView] = []

    def __call__(self, level: str, seed: int) -> ComputerPlayer:
        spy = self

        class Chooser:
            def choose(self, view: SeatView) -> Action:
                spy.views.append(view)
                return random.Random(seed).choice(view.legal)

        return Chooser()


class FlakyStore(MemoryTableStore):
    """A store whose next ``fail`` calls of one method raise."""

    def __init__(self) -> None:
        super().__init__()
        self.failing: dict[str, int] = {}

    def _maybe_fail(self, name: str) -> None:
        if self.failing.get(name, 0) > 0:
            self.failing[name] -= 1
            raise OSError(f"disk full in {name}")

    async def append_action(self, *args: Any, **kwargs: Any) -> None:
        self._maybe_fail("append_action")
        await super().append_action(*args, **kwargs)

    async def save_seats(self, *args: Any, **kwargs: Any) -> None:
        self._maybe_fail("save_seats")
        await super().save_seats(*args, **kwargs)


def service(store: MemoryTableStore | None = None, players: Any = make_player) -> TableService:
    return TableService(store or MemoryTableStore(), players, seeds=lambda: 8)


async def test_one_open_table_per_place_and_many_places_per_member() -> None:
    tables = service()
    here = await tables.open(HERE, ALICE)
    with pytest.raises(TableExistsError, match=f"table {here.number}"):
        await tables.open(HERE, BOB)
    there = await tables.open(THERE, BOB)
    await (await tables.fetch(there.id)).lobby.join(ALICE)
    assert {t.id for t in tables.tables_of(ALICE.user_id)} == {here.id, there.id}
    assert tables.at(HERE.id) is here and tables.get(there.id) is there
    assert tables.find(HERE.id, BOB.user_id) is here
    with pytest.raises(NoTableError, match="several"):
        tables.find(99, ALICE.user_id)
    assert tables.find(99, BOB.user_id) is there


async def test_two_opens_at_once_make_one_table() -> None:
    tables = service()
    results = await asyncio.gather(
        tables.open(HERE, ALICE), tables.open(HERE, BOB), return_exceptions=True
    )
    assert sum(isinstance(r, TableExistsError) for r in results) == 1


async def play_out(tables: TableService, table: Table, rng: random.Random) -> None:
    """Plays ``table`` to its end: the computers, and Alice's moves drawn by ``rng``."""
    while table.status == "playing":
        await tables.get_any(table.id).turns.run_computers()
        if table.status == "playing":
            seat, view = tables.get_any(table.id).view_for(ALICE.user_id)
            await (await tables.fetch(table.id)).turns.act(
                ALICE.user_id, seat, table.stamp, rng.choice(view.legal)
            )


async def test_computers_decide_from_their_own_seat_view_only() -> None:
    spy = Spy()
    tables = service(players=spy)
    table = await started(tables)
    rng = random.Random(3)
    while table.status == "playing":
        progress = await tables.get_any(table.id).turns.run_computers()
        assert all(m.by_computer for m in progress.moves)
        if table.status != "playing":
            break
        seat, view = tables.get_any(table.id).view_for(ALICE.user_id)
        await (await tables.fetch(table.id)).turns.act(
            ALICE.user_id, seat, table.stamp, rng.choice(view.legal)
        )
    assert spy.views
    for view in spy.views:
        assert view.seat != 0 and view.my_turn and view.legal
        for actor, action in view.history:
            if action.do == "discard" and actor != view.seat:
                assert action.card is None, "another seat's discard is hidden"


async def test_every_action_is_saved_and_the_record_replays() -> None:
    store = MemoryTableStore()
    tables = service(store)
    table = await started(tables, people=1)
    await play_out(tables, table, random.Random(4))
    row = store.tables[table.id]
    assert row.status == "finished" and row.record is not None
    assert row.actions == row.record["actions"]
    assert replay(row.record).game.winner == table.game.winner  # type: ignore[union-attr]
    with pytest.raises(TableClosedError, match="finished"):
        tables.get(table.id)


async def test_a_failed_save_takes_the_action_back() -> None:
    store = FlakyStore()
    tables = service(store)
    table = await started(tables, people=4)
    game = table.game
    before = (table.record(), table.stamp)
    store.failing["append_action"] = 1
    seat = game.turn
    user = table.seats[seat].user_id
    with pytest.raises(SaveFailedError, match="try again"):
        await (await tables.fetch(table.id)).turns.act(user, seat, table.stamp, game.legal()[0])
    assert (table.record(), table.stamp) == before
    await (await tables.fetch(table.id)).turns.act(user, seat, table.stamp, game.legal()[0])
    assert len(store.tables[table.id].actions) == 1


async def test_a_failed_seat_save_leaves_the_seats() -> None:
    store = FlakyStore()
    tables = service(store)
    table = await tables.open(HERE, ALICE)
    store.failing["save_seats"] = 1
    with pytest.raises(SaveFailedError):
        await (await tables.fetch(table.id)).lobby.join(BOB)
    assert table.seat_of(BOB.user_id) is None


async def test_racing_clicks_apply_one_action() -> None:
    tables = service()
    table = await started(tables, people=4)
    game = table.game
    seat = game.turn
    user = table.seats[seat].user_id
    stamp = table.stamp
    results = await asyncio.gather(
        *(table.turns.act(user, seat, stamp, game.legal()[0]) for _ in range(3)),
        return_exceptions=True,
    )
    assert len(game.log) == 1
    assert sum(not isinstance(r, Exception) for r in results) == 1


async def test_events_are_logged_one_line_each(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="bot.tables")
    seen: list[TableEvent] = []
    tables = service()
    tables.listeners.append(seen.append)
    table = await started(tables, people=1)
    await (await tables.fetch(table.id)).lobby.abort(BOB.user_id, may_manage=True)
    kinds = [e.kind for e in seen]
    assert kinds[:2] == ["opened", "seated"] and "started" in kinds and kinds[-1] == "aborted"
    lines = [r.getMessage() for r in caplog.records if r.levelno == logging.INFO]
    assert any(f"table {table.id}" in line and "aborted" in line for line in lines)
    assert all("\n" not in line for line in lines)


async def test_play_again_copies_seats_and_rules() -> None:
    tables = service()
    table = await started(tables, people=1)
    with pytest.raises(WrongStageError):
        await tables.play_again(table.id, ALICE)
    await play_out(tables, table, random.Random(1))
    again = await tables.play_again(table.id, ALICE)
    assert again.seats == table.seats and again.rules == table.rules and again.place == HERE


async def test_restore_brings_back_open_tables() -> None:
    store = MemoryTableStore()
    tables = service(store)
    table = await started(tables, people=4)
    game = table.game
    for _ in range(9):
        seat = game.turn
        await (await tables.fetch(table.id)).turns.act(
            table.seats[seat].user_id, seat, table.stamp, game.legal()[0]
        )
    await tables.get_any(table.id).lobby.set_message(77)
    lobby = await tables.open(THERE, BOB)
    fresh = service(store)
    restored = {t.id: t for t in await fresh.restore()}
    assert set(restored) == {table.id, lobby.id}
    again = restored[table.id]
    assert again.record() == table.record() and again.message_id == 77
    assert fresh.at(THERE.id) is restored[lobby.id]


async def test_expert_computers_think_in_a_worker_thread() -> None:
    deciders: list[tuple[str, bool]] = []

    def players(level: str, seed: int) -> ComputerPlayer:
        class Recorder:
            def choose(self, view: SeatView) -> Action:
                on_loop = threading.current_thread() is threading.main_thread()
                deciders.append((level, on_loop))
                return view.legal[0]

        return Recorder()

    for level in ("expert", "basic"):
        server = FixedSettings(ServerSettings(computer_default_level=level))
        tables = TableService(MemoryTableStore(), players, seeds=lambda: 8, server_settings=server)
        table = await started(tables)
        for _ in range(3):
            await tables.get_any(table.id).turns.run_computers()
            seat, view = tables.get_any(table.id).view_for(ALICE.user_id)
            await (await tables.fetch(table.id)).turns.act(
                ALICE.user_id, seat, table.stamp, view.legal[0]
            )
    assert ("expert", False) in deciders and ("basic", True) in deciders
    assert ("expert", True) not in deciders and ("basic", False) not in deciders


def turns_told(tables: TableService) -> list[TurnPassed]:
    """The TurnPassed events ``tables`` will tell, as they come."""
    turns: list[TurnPassed] = []

    def heard(event: TableEvent) -> None:
        if isinstance(event, TurnPassed):
            turns.append(event)

    tables.listeners.append(heard)
    return turns


async def test_turn_ping_names_the_next_person_unless_they_clicked_or_pings_are_off() -> None:
    for ping_after in (0.0, 8.0, None):
        server = FixedSettings(ServerSettings(ping_after=ping_after))
        tables = TableService(
            MemoryTableStore(), make_player, seeds=lambda: 8, server_settings=server
        )
        turns = turns_told(tables)
        table = await tables.open(HERE, ALICE)
        for person in (BOB, CAROL, DAVE):
            await (await tables.fetch(table.id)).lobby.join(person)
        progress = await (await tables.fetch(table.id)).lobby.start(ALICE.user_id)
        assert progress.mention is not None
        (turn,) = turns
        assert turn.user_id == progress.mention and turn.requested_by == ALICE.user_id
        assert turn.ping_in == (None if turn.user_id == ALICE.user_id else ping_after)
        seat, view = tables.get_any(table.id).view_for(turn.user_id)
        await (await tables.fetch(table.id)).turns.act(
            turn.user_id, seat, table.stamp, view.legal[0]
        )
        mover, turn = turn.user_id, turns[-1]
        assert turn.requested_by == mover and turn.user_id != mover
        assert turn.ping_in == ping_after


async def test_computer_delay_is_the_servers_else_the_services() -> None:
    quick = TableService(
        MemoryTableStore(),
        make_player,
        server_settings=FixedSettings(ServerSettings(computer_move_delay=0.25)),
        computer_move_delay=3.0,
    )
    plain = TableService(MemoryTableStore(), make_player, computer_move_delay=3.0)
    assert (await quick.open(HERE, ALICE)).computer_move_delay == 0.25
    assert (await plain.open(HERE, ALICE)).computer_move_delay == 3.0


async def test_each_computer_move_waits_its_delay_through_the_services_pace() -> None:
    tables = TableService(MemoryTableStore(), make_player, seeds=lambda: 8, computer_move_delay=0.5)
    waited: list[tuple[int, float, int]] = []

    async def pace(table: Table, delay: float) -> None:  # as the bot's: the delay, then room
        assert table.game is not None
        waited.append((table.id, delay, len(table.game.log)))

    tables.crew.computer_pace = pace
    table = await tables.open(HERE, ALICE)
    for _ in range(3):
        await table.lobby.add_computer(ALICE.user_id)
    await table.lobby.start(ALICE.user_id)
    await table.turns.run_computers()
    assert table.game is not None and table.game.log, "the computers moved"
    alice = table.seat_of(ALICE.user_id)
    assert all(seat != alice for seat, _ in table.game.log), "until it is Alice's turn"
    assert all(t == table.id and delay == 0.5 for t, delay, _ in waited)
    assert [at for _, _, at in waited] == list(range(len(table.game.log))), "a wait a move"


async def test_an_eight_seat_bid_euchre_table_plays_to_the_end_and_replays() -> None:
    from bot.rules import HouseRules

    store = MemoryTableStore()
    tables = service(store)
    table = await tables.open(HERE, ALICE, rules=HouseRules.preset_rules("bid_euchre_8"))
    assert len(table.seats) == 8
    for _ in range(7):
        await (await tables.fetch(table.id)).lobby.add_computer(ALICE.user_id)
    await (await tables.fetch(table.id)).lobby.start(ALICE.user_id)
    assert table.game is not None and table.game.rules.game == "bid_euchre"
    await play_out(tables, table, random.Random(5))
    row = store.tables[table.id]
    assert row.status == "finished" and row.record is not None
    assert row.record["rules"] == {"preset": "bid_euchre_8"}
    assert replay(row.record).game.winner == table.game.winner  # type: ignore[union-attr]


async def test_a_bid_euchre_table_is_restored_and_refuses_a_low_bid() -> None:
    from bot.rules import HouseRules
    from bot.tables import IllegalMoveError

    store = MemoryTableStore()
    tables = service(store)
    table = await tables.open(HERE, ALICE, rules=HouseRules.preset_rules("bid_euchre"))
    for person in (BOB, CAROL, DAVE):
        await (await tables.fetch(table.id)).lobby.join(person)
    await (await tables.fetch(table.id)).lobby.start(ALICE.user_id)
    game = table.game
    first = game.turn
    assert table.whose_turn() == f"{table.name(first)} is to bid"
    await (await tables.fetch(table.id)).turns.act(
        table.seats[first].user_id, first, table.stamp, Action.bid(4)
    )
    second = game.turn
    before = table.record()
    with pytest.raises(IllegalMoveError, match="4") as refused:
        await (await tables.fetch(table.id)).turns.act(
            table.seats[second].user_id, second, table.stamp, Action.bid(4)
        )
    assert refused.value.code == "bid_too_low" and table.record() == before
    restored = {t.id: t for t in await service(store).restore()}
    assert restored[table.id].record() == table.record()
    assert restored[table.id].game.contract == game.contract  # type: ignore[union-attr]
