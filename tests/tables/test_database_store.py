"""The table service on a real SQLite file: every action stored, games archived, tables restored."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.players import make_player
from bot.rules import HouseRules, replay
from bot.store import Database, GameArchiveRepo, GuildSettingsRepo, TableRepo
from bot.store.server_settings import StoredSettings
from bot.tables import HintsOffError, Player, TableService
from bot.tables.database import DatabaseTableStore

from .util import ALICE, BOB, CAROL, DAVE, HERE, playing, started


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(tmp_path / "euchre.sqlite3")
    yield database
    await database.close()


def service(db: Database) -> TableService:
    return TableService(
        DatabaseTableStore(db), make_player, server_settings=StoredSettings(db), seeds=lambda: 5
    )


async def test_a_game_is_stored_action_by_action_then_archived(db: Database) -> None:
    tables = service(db)
    table = await started(tables)
    await tables.get_any(table.id).lobby.set_message(555)
    rng = random.Random(2)
    restored_once = False
    while table.status == "playing":
        await tables.get_any(table.id).turns.run_computers()
        if table.status != "playing":
            break
        if not restored_once and len(table.game.log) > 20:  # type: ignore[union-attr]
            fresh = service(db)
            (again,) = await fresh.restore()
            assert again.record() == table.record() and again.message_id == 555
            restored_once = True
        seat, view = tables.get_any(table.id).view_for(ALICE.user_id)
        await (await tables.fetch(table.id)).turns.act(
            ALICE.user_id, seat, table.stamp, rng.choice(view.legal)
        )
    stored = await TableRepo(db).get(table.id)
    assert stored.status == "finished"
    assert [a.action for a in stored.actions] == table.record()["actions"]
    (game,) = await GameArchiveRepo(db).list_by_guild(HERE.guild_id)
    assert not game.ranked and game.score == tuple(table.game.score)  # type: ignore[union-attr]
    assert replay(await GameArchiveRepo(db).record(game.id)).game.over


async def test_tables_copy_the_servers_rules_when_they_open(db: Database) -> None:
    tables = service(db)
    toronto = HouseRules.preset_rules("toronto")
    await GuildSettingsRepo(db).set_rules(HERE.guild_id, toronto)
    table = await tables.open(HERE, ALICE)
    await GuildSettingsRepo(db).set_rules(HERE.guild_id, HouseRules.preset_rules("british"))
    assert table.rules == toronto
    (restored,) = await service(db).restore()
    assert restored.rules == toronto


async def test_seats_and_the_lobby_are_restored(db: Database) -> None:
    tables = service(db)
    table = await tables.open(HERE, ALICE)
    await (await tables.fetch(table.id)).lobby.join(BOB, 2)
    await (await tables.fetch(table.id)).lobby.add_computer(ALICE.user_id)
    (restored,) = await service(db).restore()
    assert restored.seats == table.seats and restored.status == "lobby"
    await (await tables.fetch(table.id)).lobby.abort(ALICE.user_id)
    assert await service(db).restore() == []


async def test_who_made_each_action_is_stored_and_restored_after_a_takeover(db: Database) -> None:
    tables = service(db)
    table = await playing(tables, people=1)
    assert table.game is not None and table.game.log
    seat = table.game.log[0][0]
    computer = table.seats[seat]
    await (await tables.fetch(table.id)).lobby.join(BOB, seat)
    assert table.name(seat) == "Bob" and table.actor_of(0) == computer
    stored = await TableRepo(db).get(table.id)
    assert stored.actions[0].actor == computer.to_json()  # type: ignore[union-attr]
    (again,) = await service(db).restore()
    assert again.name(seat) == "Bob" and again.actor_of(0) == computer
    assert again.public() == table.public()


async def test_a_hint_keeps_the_game_casual_even_once_people_fill_every_seat(
    db: Database,
) -> None:
    tables = service(db)
    table = await playing(tables, people=1)
    seat, view = tables.get_any(table.id).view_for(ALICE.user_id)
    assert view.my_turn and table.hints_allowed
    hinted_view, advice = await (await tables.fetch_in_step(table.id)).turns.hint(ALICE.user_id)
    assert advice.action in hinted_view.legal and table.hinted
    assert (await TableRepo(db).get(table.id)).hinted
    others = [Player(200 + n, f"P{n}") for n in range(3)]
    for person in others:
        await (await tables.fetch(table.id)).lobby.join(person)
    assert not any(s is not None and s.is_computer for s in table.seats)
    assert table.casual and table.hints_allowed, "the hint keeps it casual"
    (restored,) = await service(db).restore()
    assert restored.hinted
    rng = random.Random(3)
    people = {ALICE.user_id, *(p.user_id for p in others)}
    while table.status == "playing":
        game = table.game
        assert game is not None and game.turn is not None
        user = next(u for u in people if table.seat_of(u) == game.turn)
        seat, view = tables.get_any(table.id).view_for(user)
        await (await tables.fetch(table.id)).turns.act(
            user, seat, table.stamp, rng.choice(view.legal)
        )
    (archived,) = await GameArchiveRepo(db).list_by_guild(HERE.guild_id)
    assert not archived.ranked


async def test_ranked_games_refuse_hints(db: Database) -> None:
    tables = service(db)
    people = [ALICE, BOB, CAROL, DAVE]
    table = await started(tables, people=4)
    game = table.game
    assert game is not None and game.turn is not None
    turn = people[game.turn]
    assert not table.casual and not table.hints_allowed
    with pytest.raises(HintsOffError, match="this game is ranked"):
        await (await tables.fetch_in_step(table.id)).turns.hint(turn.user_id)
    assert not table.hinted and not (await TableRepo(db).get(table.id)).hinted


async def test_a_new_host_survives_a_restart(db: Database) -> None:
    tables = service(db)
    table = await tables.open(HERE, ALICE)
    await (await tables.fetch(table.id)).lobby.join(BOB)
    await (await tables.fetch(table.id)).lobby.add_computer(ALICE.user_id)
    await (await tables.fetch(table.id)).lobby.leave(ALICE.user_id)
    assert table.host_id == BOB.user_id
    (restored,) = await service(db).restore()
    assert restored.host_id == BOB.user_id
    assert (await TableRepo(db).get(table.id)).host_id == BOB.user_id
