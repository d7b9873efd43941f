"""Tables and finished games count per server (schema 23), the rows already there too."""

from __future__ import annotations

import asyncio

from bot.rules import HouseRules
from bot.store import Database, GameArchiveRepo, Seat, TableRepo
from tests.league.util import finished_record
from tests.store.conftest import build_at_version, sql

ONE, TWO = 1_000_000_000_000_101, 1_000_000_000_000_102


def _people(base: int) -> list[Seat]:
    return [Seat.person(n, base + n, f"P{n}") for n in range(4)]


async def _table(db: Database, guild_id: int, channel: int) -> int:
    table = await TableRepo(db).create(
        guild_id=guild_id, channel_id=channel, host_id=7, rules=HouseRules(), seed=channel
    )
    assert table.number is not None
    return table.number


async def test_each_server_counts_its_own_tables_and_games(db: Database) -> None:
    assert [await _table(db, g, c) for g, c in ((ONE, 1), (TWO, 2), (ONE, 3), (ONE, 4))] == [
        1,
        1,
        2,
        3,
    ]
    archive = GameArchiveRepo(db)
    numbers = []
    for n, guild_id in enumerate((TWO, TWO, ONE, TWO)):
        game = await archive.archive(
            guild_id=guild_id, record=finished_record(n + 1), players=_people(9_000), ranked=False
        )
        numbers.append(game.number)
        assert (await archive.get(game.id)).number == game.number
    assert numbers == [1, 2, 1, 3]
    assert [g.number for g in await archive.list_by_guild(TWO)] == [3, 2, 1]


async def test_games_archived_at_once_get_numbers_of_their_own(db: Database) -> None:
    archive = GameArchiveRepo(db)
    games = await asyncio.gather(
        *(
            archive.archive(
                guild_id=ONE, record=finished_record(n + 1), players=_people(9_000), ranked=False
            )
            for n in range(6)
        )
    )
    assert sorted(g.number for g in games) == [1, 2, 3, 4, 5, 6]


async def test_the_upgrade_numbers_what_was_there_in_the_order_it_was_made(db_url: str) -> None:
    await build_at_version(db_url, 22)
    for n, guild_id in enumerate((ONE, TWO, ONE, ONE, TWO)):
        await sql(
            db_url,
            "INSERT INTO tables (guild_id, channel_id, host_id, status, rules, seed, created_at, "
            "updated_at, finished_at) VALUES (?, ?, 7, 'finished', '{}', 1, '2025-01-01', "
            "'2025-01-01', '2025-01-02')",
            (guild_id, 500 + n),
        )
        await sql(
            db_url,
            "INSERT INTO games (guild_id, record, ranked, winner, score_0, score_1, finished_at) "
            "VALUES (?, '{}', FALSE, 0, 10, 4, '2025-01-03T00:00:00+00:00')",
            (guild_id,),
        )
    async with await Database.open(db_url) as db:
        rows = await db.fetch_all(
            "SELECT guild_id, number FROM games WHERE guild_id IN (?, ?) ORDER BY id", (ONE, TWO)
        )
        assert [(r["guild_id"], r["number"]) for r in rows] == [
            (ONE, 1),
            (TWO, 1),
            (ONE, 2),
            (ONE, 3),
            (TWO, 2),
        ]
        tables = await db.fetch_all(
            "SELECT number FROM tables WHERE guild_id = ? ORDER BY id", (TWO,)
        )
        assert [r["number"] for r in tables] == [1, 2]
        # the counters carry on from there
        assert await _table(db, TWO, 900) == 3
        game = await GameArchiveRepo(db).archive(
            guild_id=ONE, record=finished_record(3), players=_people(9_000), ranked=False
        )
        assert game.number == 4


async def test_a_game_is_found_by_the_number_its_server_shows(db: Database) -> None:
    archive = GameArchiveRepo(db)
    games = [
        await archive.archive(
            guild_id=guild_id, record=finished_record(n + 1), players=_people(9_000), ranked=False
        )
        for n, guild_id in enumerate((ONE, ONE, ONE, TWO, TWO))
    ]
    assert [g.shown_number for g in games] == [1, 2, 3, 1, 2]
    found = await archive.numbered(TWO, 1)
    assert found is not None and found.id == games[3].id
    assert await archive.numbered(TWO, games[3].id) is None  # its id is not a number of TWO's
    assert await archive.numbered(TWO, 3) is None
    # A game stored without a number is shown, and found, by its id; a game numbered so on
    # the same server comes first.
    await db.execute("UPDATE games SET number = NULL WHERE id = ?", (games[4].id,))
    unnumbered = await archive.get(games[4].id)
    assert unnumbered.number is None and unnumbered.shown_number == games[4].id
    found = await archive.numbered(TWO, games[4].id)
    assert found is not None and found.id == games[4].id
    assert await archive.numbered(TWO, 2) is None
    await db.execute("UPDATE games SET number = NULL WHERE id = ?", (games[1].id,))
    found = await archive.numbered(ONE, games[1].id)  # id 2 of ONE's, unnumbered, and no game 2
    assert found is not None and found.id == games[1].id
    await db.execute("UPDATE games SET number = NULL WHERE id = ?", (games[0].id,))
    await db.execute("UPDATE games SET number = 1 WHERE id = ?", (games[2].id,))
    found = await archive.numbered(ONE, 1)  # game 1 of ONE's beside the unnumbered id 1
    assert found is not None and found.id == games[2].id
