"""A save whose outcome is unknown never jams a table: it is reloaded from the store first.

The store here is a real SQLite file. ``UnsureStore`` makes one call fail as a
database that never answered does (``ConnectionLostError``, ``unsure``), after
really writing (the COMMIT went through) or without writing (it never arrived).
An opening that got no answer never jams its place, and a last move that got none
finishes its game once.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest

from bot.players import make_player
from bot.rules import Action, HouseRules
from bot.store import ConnectionLostError, Database, GameArchiveRepo, TableRepo
from bot.tables import (
    NotYourTurnError,
    SaveFailedError,
    StaleActionError,
    Table,
    TableClosedError,
    TableEvent,
    TableExistsError,
    TableService,
)
from bot.tables.database import DatabaseTableStore
from bot.tables.keeper import TableKeeper
from bot.tables.persistence import NewTable, SavedTable
from bot.tables.scheduler import ManualScheduler
from bot.tables.service import OPEN_UNSURE, SAVE_FAILED, SAVE_UNSURE

from .test_keeper import Notes
from .util import ALICE, BOB, CAROL, HERE, playing

ONE_DEAL = HouseRules(target_score=1)
"""A game over at the first deal's end."""

T = TypeVar("T")


class UnsureStore(DatabaseTableStore):
    """A database store whose next call of a method gets no answer (``unsure``)."""

    def __init__(self, db: Database) -> None:
        super().__init__(db)
        self.unsure: dict[str, bool] = {}
        """Method name: whether its next call writes before the answer is lost."""
        self.unreadable = 0
        """How many of the next reads fail (the server still away)."""

    async def _answer(self, name: str, call: Callable[[], Awaitable[T]]) -> T:
        wrote = self.unsure.pop(name, None)
        if wrote is None:
            return await call()
        if wrote:
            await call()
        raise ConnectionLostError(f"no answer to {name}", reason="timeout", unsure=True)

    def _read(self) -> None:
        if self.unreadable:
            self.unreadable -= 1
            raise ConnectionLostError("connecting again failed", reason="refused")

    async def create_table(self, new: NewTable) -> SavedTable:
        return await self._answer(
            "create_table", lambda: super(UnsureStore, self).create_table(new)
        )

    async def finish_table(self, *args: Any, **kwargs: Any) -> None:
        await self._answer(
            "finish_table", lambda: super(UnsureStore, self).finish_table(*args, **kwargs)
        )

    async def append_action(self, *args: Any, **kwargs: Any) -> None:
        await self._answer(
            "append_action", lambda: super(UnsureStore, self).append_action(*args, **kwargs)
        )

    async def save_seats(self, *args: Any, **kwargs: Any) -> None:
        await self._answer(
            "save_seats", lambda: super(UnsureStore, self).save_seats(*args, **kwargs)
        )

    async def load_table(self, table_id: int) -> SavedTable:
        self._read()
        return await super().load_table(table_id)

    async def open_tables(self, *args: Any, **kwargs: Any) -> list[SavedTable]:
        self._read()
        return await super().open_tables(*args, **kwargs)


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(tmp_path / "euchre.sqlite3")
    yield database
    await database.close()


def build(db: Database) -> tuple[TableService, UnsureStore, list[TableEvent]]:
    store = UnsureStore(db)
    tables = TableService(store, make_player, seeds=lambda: 5, play_on=False)
    events: list[TableEvent] = []
    tables.listeners.append(events.append)
    return tables, store, events


def to_act(table: Table) -> tuple[int, int]:
    """The user and seat whose turn it is."""
    assert table.game is not None and table.game.turn is not None
    seat = table.game.turn
    taken = table.seats[seat]
    assert taken is not None and taken.user_id is not None
    return taken.user_id, seat


def first_move(table: Table) -> tuple[int, int, tuple[int, int], Action]:
    """Whose turn it is (user and seat), the table's stamp, and the first legal move."""
    user, seat = to_act(table)
    assert table.game is not None
    return user, seat, table.stamp, table.game.legal()[0]


async def first_legal_move(tables: TableService, table: Table) -> None:
    """Whoever's turn it is makes the first legal move, on the table's current stamp."""
    user, seat, stamp, move = first_move(table)
    await (await tables.fetch(table.id)).turns.act(user, seat, stamp, move)


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
    user, seat, stamp, move = first_move(table)
    before = table.record()
    store.unsure["append_action"] = True
    with pytest.raises(SaveFailedError) as refused:
        await (await tables.fetch(table.id)).turns.act(user, seat, stamp, move)
    assert str(refused.value) == SAVE_UNSURE
    assert table.out_of_step and table.record() == before
    assert len(await stored_actions(db, table)) == 1  # memory and store disagree now

    events.clear()
    with pytest.raises(StaleActionError):  # the same click again: it was saved after all
        await (await tables.fetch(table.id)).turns.act(user, seat, stamp, move)
    assert [e.kind for e in events] == ["reloaded"]
    assert not table.out_of_step and await in_step(db, table)
    assert table.stamp != stamp
    with pytest.raises(NotYourTurnError):  # a fresh button: the turn has passed on
        await (await tables.fetch(table.id)).turns.act(user, seat, table.stamp, move)

    await first_legal_move(tables, table)
    assert len(await stored_actions(db, table)) == 2 and await in_step(db, table)


async def test_an_unsure_move_that_was_not_saved_can_be_made_again(db: Database) -> None:
    tables, store, events = build(db)
    table = await playing(tables)
    user, seat, stamp, move = first_move(table)
    store.unsure["append_action"] = False
    with pytest.raises(SaveFailedError, match="may or may not"):
        await (await tables.fetch(table.id)).turns.act(user, seat, stamp, move)
    assert table.out_of_step and await stored_actions(db, table) == []

    events.clear()
    await (await tables.fetch(table.id)).turns.act(user, seat, stamp, move)
    assert [e.kind for e in events] == ["reloaded", "move", "turn"]
    assert not table.out_of_step and await in_step(db, table)
    assert len(await stored_actions(db, table)) == 1


async def test_a_reload_that_cannot_read_the_store_refuses_and_the_table_stays_marked(
    db: Database,
) -> None:
    tables, store, _ = build(db)
    table = await playing(tables)
    user, seat, stamp, move = first_move(table)
    store.unsure["append_action"] = False
    with pytest.raises(SaveFailedError):
        await (await tables.fetch(table.id)).turns.act(user, seat, stamp, move)
    store.unreadable = 1
    with pytest.raises(SaveFailedError) as refused:
        await (await tables.fetch(table.id)).turns.act(user, seat, stamp, move)
    assert str(refused.value) == SAVE_FAILED and table.out_of_step
    await (await tables.fetch(table.id)).turns.act(user, seat, stamp, move)
    assert not table.out_of_step and len(await stored_actions(db, table)) == 1


@pytest.mark.parametrize("wrote", [True, False])
async def test_computers_play_on_only_after_the_reload(db: Database, wrote: bool) -> None:
    tables, store, events = build(db)
    table = await playing(tables, people=1)
    while table.computer_to_act() is None:
        await first_legal_move(tables, table)
    saved = len(await stored_actions(db, table))
    store.unsure["append_action"] = wrote
    with pytest.raises(SaveFailedError, match="may or may not"):
        await tables.get_any(table.id).turns.run_computers()
    assert table.out_of_step and len(table.game.log) == saved  # type: ignore[union-attr]

    events.clear()
    progress = await tables.get_any(table.id).turns.run_computers()
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
        await (await tables.fetch(table.id)).turns.act(user, seat, stamp, legal[-1])
    assert [e.kind for e in events] == ["reloaded"]
    assert await in_step(db, table) and table.game.log[0] == (seat, legal[0])  # type: ignore[union-attr]
    await first_legal_move(tables, table)
    assert len(await stored_actions(db, table)) == 2


async def test_an_unsure_seat_save_is_reloaded_before_the_next_change(db: Database) -> None:
    tables, store, _ = build(db)
    table = await tables.open(HERE, ALICE)
    store.unsure["save_seats"] = True
    with pytest.raises(SaveFailedError, match="may or may not"):
        await (await tables.fetch(table.id)).lobby.join(BOB)
    assert table.seat_of(BOB.user_id) is None and table.out_of_step
    await (await tables.fetch(table.id)).lobby.join(CAROL)
    assert (table.seat_of(BOB.user_id), table.seat_of(CAROL.user_id)) == (1, 2)
    stored = await TableRepo(db).get(table.id)
    assert [s.user_id for s in stored.seats] == [ALICE.user_id, BOB.user_id, CAROL.user_id]


async def test_the_keeper_reloads_an_out_of_step_table_at_its_next_tick(db: Database) -> None:
    tables, store, events = build(db)
    clock = ManualScheduler()
    keeper = TableKeeper(tables, clock, Notes(tables), idle_lobby=600, idle_game=3600, tick=5)
    table = await playing(tables)
    keeper.start()
    store.unsure["append_action"] = True
    with pytest.raises(SaveFailedError):
        await first_legal_move(tables, table)
    events.clear()
    await clock.advance(5)
    keeper.stop()
    assert [e.kind for e in events] == ["reloaded"]
    assert not table.out_of_step and await in_step(db, table)
    assert len(table.game.log) == 1  # type: ignore[union-attr]


# --------------------------------------------------------------------------- opening


async def test_an_unsure_opening_that_went_through_is_the_table_opened(db: Database) -> None:
    tables, store, events = build(db)
    store.unsure["create_table"] = True
    table = await tables.open(HERE, ALICE)
    assert tables.at(HERE.id) is table and [e.kind for e in events] == ["opened"]
    assert (await TableRepo(db).find_open(HERE.channel_id)).id == table.id  # type: ignore[union-attr]
    await (await tables.fetch(table.id)).lobby.join(BOB)
    stored = await TableRepo(db).get(table.id)
    assert [s.user_id for s in stored.seats] == [ALICE.user_id, BOB.user_id]
    with pytest.raises(TableExistsError, match=f"table {table.number}"):
        await tables.open(HERE, CAROL)


async def test_an_unsure_opening_that_did_not_go_through_can_be_made_again(db: Database) -> None:
    tables, store, events = build(db)
    store.unsure["create_table"] = False
    with pytest.raises(SaveFailedError) as refused:
        await tables.open(HERE, ALICE)
    assert str(refused.value) == OPEN_UNSURE
    assert tables.at(HERE.id) is None and events == []
    assert await TableRepo(db).find_open(HERE.channel_id) is None
    table = await tables.open(HERE, ALICE)
    assert tables.at(HERE.id) is table
    assert (await TableRepo(db).find_open(HERE.channel_id)).id == table.id  # type: ignore[union-attr]


async def test_a_lobby_memory_missed_is_found_by_the_next_opening_there(db: Database) -> None:
    tables, store, events = build(db)
    store.unsure["create_table"] = True
    store.unreadable = 1  # the lookup after the lost answer fails too
    with pytest.raises(SaveFailedError) as refused:
        await tables.open(HERE, ALICE)
    assert str(refused.value) == OPEN_UNSURE and tables.at(HERE.id) is None
    stored = await TableRepo(db).find_open(HERE.channel_id)
    assert stored is not None  # the store has a lobby memory does not know

    with pytest.raises(
        TableExistsError, match=f"already a table here \\(table {stored.shown_number}\\)"
    ):
        await tables.open(HERE, BOB)  # the store refuses: its lobby is taken in
    table = tables.at(HERE.id)
    assert table is not None and table.id == stored.id and table.host_id == ALICE.user_id
    assert [e.kind for e in events] == ["reloaded"]
    with pytest.raises(TableExistsError):  # from memory now
        await tables.open(HERE, BOB)
    await (await tables.fetch(table.id)).lobby.join(BOB)
    assert table.seat_of(BOB.user_id) == 1
    await (await tables.fetch(table.id)).lobby.abort(ALICE.user_id)
    assert (await tables.open(HERE, BOB)).host_id == BOB.user_id


# --------------------------------------------------------------------------- the last move


def ends_the_game(table: Table, seat: int, action: Any) -> bool:
    """Whether ``action`` would be the game's last (tried, then taken back)."""
    game = table.game
    assert game is not None
    table.apply(seat, action)
    over = table.game is not None and table.game.over
    table.undo_last()
    return over


async def up_to_the_last_move(tables: TableService) -> tuple[Table, int, int, Any]:
    """A one-deal game of four people played up to its last move: the table, who, what."""
    table = await playing(tables, rules=ONE_DEAL)
    while True:
        user, seat = to_act(table)
        action = table.game.legal()[-1]  # type: ignore[union-attr]  # passes would redeal
        if ends_the_game(table, seat, action):
            return table, user, seat, action
        await (await tables.fetch(table.id)).turns.act(user, seat, table.stamp, action)


async def archived(db: Database, table: Table) -> int:
    """How many games the archive holds for ``table``."""
    games = await GameArchiveRepo(db).list_by_guild(HERE.guild_id)
    return sum(game.table_id == table.id for game in games)


@pytest.mark.parametrize("wrote", [True, False])
async def test_an_unsure_last_move_finishes_the_game_once(db: Database, wrote: bool) -> None:
    tables, store, events = build(db)
    shown: list[tuple[str, str]] = []  # each event's kind and the table's status then
    tables.listeners.append(lambda event: shown.append((event.kind, event.snapshot.status)))
    table, user, seat, action = await up_to_the_last_move(tables)
    stamp = table.stamp
    store.unsure["append_action"] = wrote
    with pytest.raises(SaveFailedError, match="may or may not"):
        await (await tables.fetch(table.id)).turns.act(user, seat, stamp, action)
    assert table.status == "playing" and table.out_of_step and await archived(db, table) == 0

    events.clear()
    if wrote:  # the same click again: the game is over in the store, so it ends here too
        with pytest.raises(TableClosedError):
            await (await tables.fetch(table.id)).turns.act(user, seat, stamp, action)
        assert [e.kind for e in events] == ["reloaded", "finished"]
    else:  # it was not saved: the click makes it, and it ends the game as any last move
        progress = await (await tables.fetch(table.id)).turns.act(user, seat, stamp, action)
        assert progress.finished
        assert [e.kind for e in events] == ["reloaded", "move", "deal", "finished"]
    assert ("reloaded", "finished" if wrote else "playing") in shown  # the redraw: as stored
    assert table.status == "finished" and tables.at(HERE.id) is None
    assert tables.get_any(table.id) is table
    assert (await TableRepo(db).get(table.id)).status == "finished"
    assert await archived(db, table) == 1

    events.clear()
    await tables.get_any(table.id).reload()
    with pytest.raises(TableClosedError, match="has finished"):
        await (await tables.fetch(table.id)).turns.act(user, seat, stamp, action)
    assert events == [] and await archived(db, table) == 1
    assert await tables.restore() == [] and await archived(db, table) == 1


async def test_the_keeper_finishes_a_game_whose_unsure_last_move_was_saved(db: Database) -> None:
    tables, store, events = build(db)
    clock = ManualScheduler()
    keeper = TableKeeper(tables, clock, Notes(tables), idle_lobby=600, idle_game=3600, tick=5)
    table, user, seat, action = await up_to_the_last_move(tables)
    keeper.start()
    store.unsure["append_action"] = True
    with pytest.raises(SaveFailedError):
        await (await tables.fetch(table.id)).turns.act(user, seat, table.stamp, action)
    events.clear()
    await clock.advance(5)
    await clock.advance(5)
    keeper.stop()
    assert [e.kind for e in events] == ["reloaded", "finished"]
    assert table.status == "finished" and await archived(db, table) == 1


async def test_a_game_over_in_the_store_is_finished_when_its_place_opens_again(
    db: Database,
) -> None:
    tables, store, events = build(db)
    table, user, seat, action = await up_to_the_last_move(tables)
    store.unsure["finish_table"] = False  # the last move is saved, its archive is not
    await (await tables.fetch(table.id)).turns.act(user, seat, table.stamp, action)
    assert table.status == "finished" and await archived(db, table) == 0
    assert (await TableRepo(db).get(table.id)).status == "playing"

    events.clear()
    with pytest.raises(SaveFailedError) as refused:  # the store's table there is finished
        await tables.open(HERE, BOB)
    assert str(refused.value) == SAVE_FAILED
    assert [e.kind for e in events] == ["finished"] and await archived(db, table) == 1
    assert (await tables.open(HERE, BOB)).host_id == BOB.user_id
    assert await archived(db, table) == 1
