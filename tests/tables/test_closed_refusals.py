"""What a button of a closed table is told: finished, closed, or gone, as is true.

A table kept in memory after it closed says how it closed; one memory no longer
knows (closed long ago, or before a restart) is looked up in the store. On a real
SQLite file.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.players import make_player
from bot.store import Database, TableRepo
from bot.tables import NoTableError, TableClosedError, TableService
from bot.tables.database import DatabaseTableStore

from .test_out_of_step import ALICE, BOB, HERE, UnsureStore, build, up_to_the_last_move


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(tmp_path / "euchre.sqlite3")
    yield database
    await database.close()


def sentence(table_id: int, how: str) -> str:
    return f"Table {table_id} {how}: start a new one with /euchre new."


@pytest.mark.parametrize("keep_closed", [256, 0])
async def test_an_aborted_table_says_it_was_closed(db: Database, keep_closed: int) -> None:
    tables = TableService(DatabaseTableStore(db), make_player, keep_closed=keep_closed)
    table = await tables.open(HERE, ALICE)
    await tables.abort(table.id, ALICE.user_id)
    with pytest.raises(TableClosedError) as refused:
        await tables.join(table.id, BOB)
    assert str(refused.value) == sentence(table.id, "was closed")


async def test_a_finished_game_memory_forgot_says_it_finished(db: Database) -> None:
    tables = TableService(UnsureStore(db), make_player, seeds=lambda: 5, keep_closed=0)
    table, user, seat, action = await up_to_the_last_move(tables)
    stamp = table.stamp
    await tables.act(table.id, user, seat, stamp, action)
    with pytest.raises(NoTableError):
        tables.get_any(table.id)
    for refused_by in (
        tables.act(table.id, user, seat, stamp, action),
        tables.hint(table.id, user),
        tables.play_again(table.id, ALICE),
    ):
        with pytest.raises(TableClosedError) as refused:
            await refused_by
        assert str(refused.value) == sentence(table.id, "has finished")


async def test_a_table_neither_memory_nor_the_store_has_no_longer_exists(db: Database) -> None:
    store = UnsureStore(db)
    tables = TableService(store, make_player, keep_closed=0)
    with pytest.raises(NoTableError) as refused:
        await tables.join(404, BOB)
    assert str(refused.value) == sentence(404, "no longer exists")
    table = await tables.open(HERE, ALICE)
    await tables.abort(table.id, ALICE.user_id)
    store.unreadable = 1  # the store can't say how it closed: memory's sentence, quietly
    with pytest.raises(NoTableError, match="no longer exists"):
        await tables.join(table.id, BOB)


async def test_a_hint_on_a_game_the_store_has_finished_says_it_finished(db: Database) -> None:
    tables, _, _ = build(db)
    table, _, seat, action = await up_to_the_last_move(tables)
    index = len(table.game.log)  # type: ignore[union-attr]
    # The last move is in the store and memory does not know (its answer was lost).
    await TableRepo(db).append_action(table.id, index, seat, action.to_json(seat))
    table.out_of_step = True
    user = table.seats[0].user_id  # type: ignore[union-attr]
    with pytest.raises(TableClosedError) as refused:
        await tables.hint(table.id, user)  # type: ignore[arg-type]
    assert str(refused.value) == sentence(table.id, "has finished")
    assert table.status == "finished" and tables.at(HERE.id) is None
