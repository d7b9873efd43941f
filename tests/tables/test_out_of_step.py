"""A save whose outcome is unknown never jams a table: it is reloaded from the store first.

The store here is a real SQLite file. ``UnsureStore`` makes one call fail as a
database that never answered does (``ConnectionLostError``, ``unsure``), after
really writing (the COMMIT went through) or without writing (it never arrived).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.players import make_player
from bot.store import ConnectionLostError, Database, TableRepo
from bot.tables import (
    NotYourTurnError,
    Place,
    Player,
    SaveFailedError,
    StaleActionError,
    Table,
    TableEvent,
    TableService,
)
from bot.tables.database import DatabaseTableStore
from bot.tables.keeper import TableKeeper
from bot.tables.scheduler import ManualScheduler
from bot.tables.service import SAVE_FAILED, SAVE_UNSURE

from .test_keeper import Notes

ALICE, BOB, CAROL, DAVE = (
    Player(i, n) for i, n in enumerate(["Alice", "Bob", "Carol", "Dave"], start=101)
)
HERE = Place(1, 10)


class UnsureStore(DatabaseTableStore):
    """A database store whose next call of a method gets no answer (``unsure``)."""

    def __init__(self, db: Database) -> None:
        super().__init__(db)
        self.unsure: dict[str, bool] = {}
        """Method name: whether its next call writes before the answer is lost."""
        self.unreadable = 0
        """How many of the next ``load_table`` calls fail (the server still away)."""

    async def _answer(self, name: str, call: Callable[[], Awaitable[None]]) -> None:
        wrote = self.unsure.pop(name, None)
        if wrote is None or wrote:
            await call()
        if wrote is not None:
            raise ConnectionLostError(f"no answer to {name}", reason="timeout", unsure=True)

    async def append_action(self, *args: Any, **kwargs: Any) -> None:
        await self._answer(
            "append_action", lambda: super(UnsureStore, self).append_action(*args, **kwargs)
        )

    async def save_seats(self, *args: Any, **kwargs: Any) -> None:
        await self._answer(
            "save_seats", lambda: super(UnsureStore, self).save_seats(*args, **kwargs)
        )

    async def load_table(self, table_id: int) -> Any:
        if self.unreadable:
            self.unreadable -= 1
            raise ConnectionLostError("connecting again failed", reason="refused")
        return await super().load_table(table_id)


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(tmp_path / "euchre.sqlite3")
    yield database
    await database.close()


def build(db: Database) -> tuple[TableService, UnsureStore, list[TableEvent]]:
    store = UnsureStore(db)
    tables = TableService(store, make_player, seeds=lambda: 5)
    events: list[TableEvent] = []
    tables.listeners.append(events.append)
    return tables, store, events


async def playing(tables: TableService, people: int = 4) -> Table:
    table = await tables.open(HERE, ALICE)
    for person in (BOB, CAROL, DAVE)[: people - 1]:
        await tables.join(table.id, person)
    for _ in range(4 - people):
        await tables.add_computer(table.id, ALICE.user_id)
    await tables.start(table.id, ALICE.user_id)
    await tables.run_computers(table.id)
    return table


def to_act(table: Table) -> tuple[int, int]:
    """The user and seat whose turn it is."""
    assert table.game is not None and table.game.turn is not None
    seat = table.game.turn
    taken = table.seats[seat]
    assert taken is not None and taken.user_id is not None
    return taken.user_id, seat


async def stored_actions(db: Database, table: Table) -> list[dict[str, Any]]:
    return [dict(a.action) for a in (await TableRepo(db).get(table.id)).actions]


async def in_step(db: Database, table: Table) -> bool:
    """Whether the table in memory is the table as stored."""
    return table.record()["actions"] == await stored_actions(db, table)


async def test_an_unsure_move_that_was_saved_is_shown_and_the_table_plays_on(
    db: Database,
) -> None:
    tables, store, events = build(db)
    table = await playing(tables)
    user, seat = to_act(table)
    stamp, before = table.stamp, table.record()
    move = table.game.legal()[0]  # type: ignore[union-attr]
    store.unsure["append_action"] = True
    with pytest.raises(SaveFailedError) as refused:
        await tables.act(table.id, user, seat, stamp, move)
    assert str(refused.value) == SAVE_UNSURE
    assert table.out_of_step and table.record() == before
    assert len(await stored_actions(db, table)) == 1  # memory and store disagree now

    events.clear()
    with pytest.raises(StaleActionError):  # the same click again: it was saved after all
        await tables.act(table.id, user, seat, stamp, move)
    assert [e.kind for e in events] == ["reloaded"]
    assert not table.out_of_step and await in_step(db, table)
    assert table.stamp != stamp
    with pytest.raises(NotYourTurnError):  # a fresh button: the turn has passed on
        await tables.act(table.id, user, seat, table.stamp, move)

    nxt, nxt_seat = to_act(table)
    await tables.act(table.id, nxt, nxt_seat, table.stamp, table.game.legal()[0])  # type: ignore[union-attr]
    assert len(await stored_actions(db, table)) == 2 and await in_step(db, table)


async def test_an_unsure_move_that_was_not_saved_can_be_made_again(db: Database) -> None:
    tables, store, events = build(db)
    table = await playing(tables)
    user, seat = to_act(table)
    stamp = table.stamp
    move = table.game.legal()[0]  # type: ignore[union-attr]
    store.unsure["append_action"] = False
    with pytest.raises(SaveFailedError, match="may or may not"):
        await tables.act(table.id, user, seat, stamp, move)
    assert table.out_of_step and await stored_actions(db, table) == []

    events.clear()
    await tables.act(table.id, user, seat, stamp, move)
    assert [e.kind for e in events] == ["reloaded", "move"]
    assert not table.out_of_step and await in_step(db, table)
    assert len(await stored_actions(db, table)) == 1


async def test_a_reload_that_cannot_read_the_store_refuses_and_the_table_stays_marked(
    db: Database,
) -> None:
    tables, store, _ = build(db)
    table = await playing(tables)
    user, seat = to_act(table)
    stamp = table.stamp
    move = table.game.legal()[0]  # type: ignore[union-attr]
    store.unsure["append_action"] = False
    with pytest.raises(SaveFailedError):
        await tables.act(table.id, user, seat, stamp, move)
    store.unreadable = 1
    with pytest.raises(SaveFailedError) as refused:
        await tables.act(table.id, user, seat, stamp, move)
    assert str(refused.value) == SAVE_FAILED and table.out_of_step
    await tables.act(table.id, user, seat, stamp, move)
    assert not table.out_of_step and len(await stored_actions(db, table)) == 1


@pytest.mark.parametrize("wrote", [True, False])
async def test_computers_play_on_only_after_the_reload(db: Database, wrote: bool) -> None:
    tables, store, events = build(db)
    table = await playing(tables, people=1)
    while table.computer_to_act() is None:
        user, seat = to_act(table)
        await tables.act(table.id, user, seat, table.stamp, table.game.legal()[0])  # type: ignore[union-attr]
    saved = len(await stored_actions(db, table))
    store.unsure["append_action"] = wrote
    with pytest.raises(SaveFailedError, match="may or may not"):
        await tables.run_computers(table.id)
    assert table.out_of_step and len(table.game.log) == saved  # type: ignore[union-attr]

    events.clear()
    progress = await tables.run_computers(table.id)
    assert events[0].kind == "reloaded"
    assert not table.out_of_step and await in_step(db, table)
    assert table.computer_to_act() is None and len(table.game.log) > saved  # type: ignore[union-attr]
    assert len(await stored_actions(db, table)) == saved + len(progress.moves) + wrote
    assert progress.moves or wrote  # a move that was not saved is made again


async def test_a_move_refused_as_a_duplicate_reloads_the_table(db: Database) -> None:
    tables, _, events = build(db)
    table = await playing(tables)
    user, seat = to_act(table)
    stamp = table.stamp
    legal = table.game.legal()  # type: ignore[union-attr]
    # The store has this turn's move and the table does not know (a late COMMIT).
    await TableRepo(db).append_action(table.id, 0, seat, legal[0].to_json(seat))
    assert not table.out_of_step

    events.clear()
    with pytest.raises(StaleActionError):
        await tables.act(table.id, user, seat, stamp, legal[-1])
    assert [e.kind for e in events] == ["reloaded"]
    assert await in_step(db, table) and table.game.log[0] == (seat, legal[0])  # type: ignore[union-attr]
    nxt, nxt_seat = to_act(table)
    await tables.act(table.id, nxt, nxt_seat, table.stamp, table.game.legal()[0])  # type: ignore[union-attr]
    assert len(await stored_actions(db, table)) == 2


async def test_an_unsure_seat_save_is_reloaded_before_the_next_change(db: Database) -> None:
    tables, store, _ = build(db)
    table = await tables.open(HERE, ALICE)
    store.unsure["save_seats"] = True
    with pytest.raises(SaveFailedError, match="may or may not"):
        await tables.join(table.id, BOB)
    assert table.seat_of(BOB.user_id) is None and table.out_of_step
    await tables.join(table.id, CAROL)
    assert (table.seat_of(BOB.user_id), table.seat_of(CAROL.user_id)) == (1, 2)
    stored = await TableRepo(db).get(table.id)
    assert [s.user_id for s in stored.seats] == [ALICE.user_id, BOB.user_id, CAROL.user_id]


async def test_the_keeper_reloads_an_out_of_step_table_at_its_next_tick(db: Database) -> None:
    tables, store, events = build(db)
    clock = ManualScheduler()
    keeper = TableKeeper(tables, clock, Notes(tables), idle_lobby=600, idle_game=3600, tick=5)
    table = await playing(tables)
    keeper.start()
    user, seat = to_act(table)
    store.unsure["append_action"] = True
    with pytest.raises(SaveFailedError):
        await tables.act(table.id, user, seat, table.stamp, table.game.legal()[0])  # type: ignore[union-attr]
    events.clear()
    await clock.advance(5)
    keeper.stop()
    assert [e.kind for e in events] == ["reloaded"]
    assert not table.out_of_step and await in_step(db, table)
    assert len(table.game.log) == 1  # type: ignore[union-attr]
