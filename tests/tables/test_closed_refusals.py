"""What a button of a closed table is told: finished, closed, or gone, as is true.

A table kept in memory after it closed says how it closed; one memory no longer
knows (closed long ago, or before a restart) is looked up in the store. The refusal
carries what everyone may see of the closed table (its result), from memory or the
store's record replayed, for a private hand to show. A hand's table is fetched as
the store has it (reloaded first where out of step). On a real SQLite file.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.players import make_player
from bot.store import Database, TableRepo
from bot.tables import NoTableError, TableClosedError, TableService
from bot.tables.database import DatabaseTableStore

from .test_out_of_step import UnsureStore, build, in_step, to_act, up_to_the_last_move
from .util import ALICE, BOB, HERE, playing


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(tmp_path / "euchre.sqlite3")
    yield database
    await database.close()


def sentence(number: int, how: str) -> str:
    return f"Table {number} {how}: start a new one with /euchre new."


@pytest.mark.parametrize("keep_closed", [256, 0])
async def test_an_aborted_table_says_it_was_closed(db: Database, keep_closed: int) -> None:
    tables = TableService(DatabaseTableStore(db), make_player, keep_closed=keep_closed)
    table = await tables.open(HERE, ALICE)
    await (await tables.fetch(table.id)).lobby.abort(ALICE.user_id)
    with pytest.raises(TableClosedError) as refused:
        await (await tables.fetch(table.id)).lobby.join(BOB)
    assert str(refused.value) == sentence(table.number, "was closed")


async def test_a_finished_game_memory_forgot_says_it_finished(db: Database) -> None:
    tables = TableService(UnsureStore(db), make_player, seeds=lambda: 5, keep_closed=0)
    table, user, seat, action = await up_to_the_last_move(tables)
    stamp = table.stamp
    await (await tables.fetch(table.id)).turns.act(user, seat, stamp, action)
    with pytest.raises(NoTableError):
        tables.get_any(table.id)
    for refused_by in (  # a move, a hint, "Play again"
        tables.fetch(table.id),
        tables.fetch_in_step(table.id),
        tables.play_again(table.id, ALICE),
    ):
        with pytest.raises(TableClosedError) as refused:
            await refused_by
        assert str(refused.value) == sentence(table.number, "has finished")


async def test_a_table_neither_memory_nor_the_store_has_no_longer_exists(db: Database) -> None:
    store = UnsureStore(db)
    tables = TableService(store, make_player, keep_closed=0)
    with pytest.raises(NoTableError) as refused:
        await (await tables.fetch(404)).lobby.join(BOB)
    assert str(refused.value) == "This table no longer exists: start a new one with /euchre new."
    table = await tables.open(HERE, ALICE)
    await (await tables.fetch(table.id)).lobby.abort(ALICE.user_id)
    store.unreadable = 1  # the store can't say how it closed: memory's sentence, quietly
    with pytest.raises(NoTableError, match="no longer exists"):
        await (await tables.fetch(table.id)).lobby.join(BOB)


async def test_a_hint_on_a_game_the_store_has_finished_says_it_finished(db: Database) -> None:
    tables, _, _ = build(db)
    table, _, seat, action = await up_to_the_last_move(tables)
    index = len(table.game.log)  # type: ignore[union-attr]
    # The last move is in the store and memory does not know (its answer was lost).
    await TableRepo(db).append_action(table.id, index, seat, action.to_json(seat))
    table.out_of_step = True
    user = table.seats[0].user_id  # type: ignore[union-attr]
    with pytest.raises(TableClosedError) as refused:
        await (await tables.fetch_in_step(table.id)).turns.hint(user)  # type: ignore[arg-type]
    assert str(refused.value) == sentence(table.number, "has finished")
    assert table.status == "finished" and tables.at(HERE.id) is None


@pytest.mark.parametrize("keep_closed", [256, 0])
async def test_a_finished_game_s_refusal_carries_its_result(db: Database, keep_closed: int) -> None:
    tables = TableService(UnsureStore(db), make_player, seeds=lambda: 5, keep_closed=keep_closed)
    table, user, seat, action = await up_to_the_last_move(tables)
    stamp = table.stamp
    await (await tables.fetch(table.id)).turns.act(user, seat, stamp, action)
    assert table.game is not None and table.status == "finished"
    for refused_by in (
        tables.fetch(table.id),  # a move
        tables.fetch_in_step(table.id),
    ):
        with pytest.raises(TableClosedError) as refused:
            await refused_by
        public = refused.value.public  # from memory, or the store's record replayed
        assert public is not None and public.status == "finished"
        assert public.game is not None and public.game.view.over
        assert tuple(public.game.view.score) == tuple(table.game.score)
        assert public.seats == tuple(table.seats)


async def test_a_record_that_does_not_replay_is_refused_without_a_result(db: Database) -> None:
    tables = TableService(UnsureStore(db), make_player, seeds=lambda: 5, keep_closed=0)
    table, user, seat, action = await up_to_the_last_move(tables)
    await (await tables.fetch(table.id)).turns.act(user, seat, table.stamp, action)
    await db.execute("DELETE FROM table_actions WHERE table_id = ? AND idx = 0", (table.id,))
    with pytest.raises(TableClosedError) as refused:
        await tables.fetch_in_step(table.id)
    assert str(refused.value) == sentence(table.number, "has finished")
    assert refused.value.public is None


async def test_a_hand_is_fetched_as_the_store_has_it(db: Database) -> None:
    tables, _, _ = build(db)
    table = await playing(tables)
    user, seat = to_act(table)
    action = table.game.legal()[0]  # type: ignore[union-attr]
    # The move is in the store and memory does not know (its answer was lost).
    await TableRepo(db).append_action(table.id, 0, seat, action.to_json(seat))
    table.out_of_step = True
    assert await tables.fetch_in_step(table.id) is table
    assert not table.out_of_step and await in_step(db, table)
    assert table.game is not None and len(table.game.log) == 1 and to_act(table)[0] != user
