"""Tournament events count per server (schema 28), the events already there too.

Each test runs on SQLite and on PostgreSQL (the ``postgresql`` runs are marked by
tests/conftest.py).
"""

from __future__ import annotations

import asyncio

from bot.store import Database
from bot.tournaments import create_event, export_event, load_event, save_event
from bot.tournaments.repository import TournamentRepo
from tests.store.conftest import GUILD, build_at_version, write_rows
from tests.tournaments.test_repository import new_event

ONE, TWO = GUILD + 10, GUILD + 11
"""Two servers the older bots' rows (tests/store/conftest.py) know nothing of."""


async def _create(repo: TournamentRepo, guild_id: int, channel_id: int) -> tuple[int, int]:
    """A new event of the server in the channel: its id and its number."""
    created = await create_event(repo, new_event(channel_id, guild_id))
    assert created.state.id is not None and created.state.number is not None
    return created.state.id, created.state.number


async def test_each_server_counts_its_own_events(db_url: str) -> None:
    async with await Database.open(db_url) as db:
        repo = TournamentRepo(db)
        made = [await _create(repo, g, c) for g, c in ((ONE, 1), (TWO, 2), (ONE, 3), (TWO, 4))]
        assert [number for _, number in made] == [1, 1, 2, 2]
        second = await repo.get(made[1][0])
        assert (second.number, second.shown_number) == (1, 1)
        await save_event(repo, await load_event(repo, made[1][0]))
        assert (await repo.get(made[1][0])).number == 1  # saving keeps the number
        assert [e.number for e in await repo.list_by_guild(TWO)] == [2, 1]
        assert export_event(second)["number"] == 1
        assert export_event(second)["id"] == made[1][0]
    async with await Database.open(db_url) as db:  # and the counter outlives the process
        assert await _create(TournamentRepo(db), TWO, 5) == (made[-1][0] + 1, 3)


async def test_events_created_at_once_get_numbers_of_their_own(db_url: str) -> None:
    async with await Database.open(db_url) as db:
        repo = TournamentRepo(db)
        made = await asyncio.gather(*(_create(repo, ONE, 10 + n) for n in range(5)))
        assert sorted(number for _, number in made) == [1, 2, 3, 4, 5]


async def test_an_event_is_found_by_the_number_its_server_shows(db_url: str) -> None:
    async with await Database.open(db_url) as db:
        repo = TournamentRepo(db)
        made = [await _create(repo, g, 20 + n) for n, g in enumerate((ONE, ONE, ONE, TWO, TWO))]
        found = await repo.numbered(TWO, 1)
        assert found is not None and found.id == made[3][0]
        assert await repo.numbered(TWO, made[3][0]) is None  # its id is not a number of TWO's
        assert await repo.numbered(TWO, 3) is None
        assert await repo.numbered(ONE + 5, 1) is None
        # An event stored without a number is shown, and found, by its id; an event
        # numbered so on the same server comes first.
        await db.execute("UPDATE tournaments SET number = NULL WHERE id = ?", (made[4][0],))
        unnumbered = await repo.get(made[4][0])
        assert unnumbered.number is None and unnumbered.shown_number == made[4][0]
        found = await repo.numbered(TWO, made[4][0])
        assert found is not None and found.id == made[4][0]
        assert await repo.numbered(TWO, 2) is None
        await db.execute("UPDATE tournaments SET number = NULL WHERE id = ?", (made[0][0],))
        await db.execute("UPDATE tournaments SET number = 1 WHERE id = ?", (made[2][0],))
        found = await repo.numbered(ONE, 1)  # event 1 of ONE's beside the unnumbered id 1
        assert found is not None and found.id == made[2][0]


async def test_the_upgrade_numbers_the_events_there_in_the_order_they_were_made(
    db_url: str,
) -> None:
    await build_at_version(db_url, 27)
    made_by = (ONE, TWO, ONE, ONE, TWO)
    await write_rows(
        db_url,
        [("guild_counters", {"guild_id": ONE, "tables": 4, "games": 9})]
        + [("tournaments", _old_event(guild_id, 500 + n)) for n, guild_id in enumerate(made_by)],
    )
    async with await Database.open(db_url) as db:
        rows = await db.fetch_all("SELECT guild_id, number FROM tournaments ORDER BY id")
        assert [(r["guild_id"], r["number"]) for r in rows] == list(
            zip(made_by, (1, 1, 2, 3, 2), strict=True)
        )
        counters = await db.fetch_all(
            "SELECT guild_id, tables, games, events FROM guild_counters "
            "WHERE guild_id IN (?, ?, ?) ORDER BY guild_id",
            (GUILD, ONE, TWO),
        )
        assert [
            tuple(r[k] for k in ("guild_id", "tables", "games", "events")) for r in counters
        ] == [
            (GUILD, 1, 1, 0),  # a server with tables and no event keeps its counts
            (ONE, 4, 9, 3),
            (TWO, 0, 0, 2),
        ]
        repo = TournamentRepo(db)
        assert (await _create(repo, ONE, 600))[1] == 4  # the counters carry on from there
        assert (await _create(repo, TWO, 601))[1] == 3


def _old_event(guild_id: int, channel_id: int) -> dict[str, object]:
    """A finished event's row as a bot before schema 28 wrote it."""
    at = "2025-01-01T00:00:00+00:00"
    return {
        "guild_id": guild_id,
        "channel_id": channel_id,
        "director_id": 7,
        "name": "Night",
        "settings": "{}",
        "seed": 1,
        "phase": "finished",
        "paused": False,
        "created_at": at,
        "updated_at": at,
    }
