"""copy-db: every row of an SQLite store into PostgreSQL (and back), counted and replayed."""

from __future__ import annotations

import contextlib
import re
import sqlite3
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from bot.daily.repository import DailyRepo
from bot.league import LeagueService
from bot.review.repository import AccuracyRepo, DealAccuracy
from bot.rules import HouseRules, game_record
from bot.store import (
    Database,
    GameArchiveRepo,
    GuildProfileRepo,
    GuildSettingsRepo,
    LeagueSettingsRepo,
    PreferenceRepo,
    SeasonRepo,
    TableRepo,
    connect,
)
from bot.store.catalog import describe
from bot.store.copy import COPY_ORDER, CopyError, CopyReport, copy_database
from bot.tournaments import Actor, Tournament, create_event, save_event
from bot.tournaments.model import ChampionRole, ScheduledEventLink
from bot.tournaments.repository import TournamentRepo
from tests.kit.games import random_game
from tests.league.util import RULES

from .conftest import CHANNEL, GUILD, HOST, PEOPLE, playing_table, sql


async def fill(url: str) -> dict[str, object]:
    """A store with something in every table; what its repositories read back."""
    async with await Database.open(url) as db:
        await GuildSettingsRepo(db).update(
            GUILD, ping_after=0, computer_move_delay=0.25, daily_channel=CHANNEL
        )
        await GuildSettingsRepo(db).set_rules(GUILD, HouseRules.preset_rules("british"))
        league = LeagueService(db)
        await league.update_settings(GUILD, min_games=1, rank_custom_rules=True)
        tables = TableRepo(db)
        for seed in range(1, 4):
            table_id = await playing_table(db, channel_id=CHANNEL + seed, rules=RULES, seed=seed)
            game = random_game(RULES, seed=seed, rng_seed=seed)
            for idx, (seat, action) in enumerate(game.log):
                await tables.append_action(table_id, idx, seat, action.to_json(seat))
            await tables.set_status(table_id, "finished")
            archived = await GameArchiveRepo(db).archive(
                guild_id=GUILD,
                record=game_record(game),
                players=PEOPLE,
                ranked=True,
                table_id=table_id,
            )
            await AccuracyRepo(db).save_deal(
                DealAccuracy(
                    game_id=archived.id,
                    user_id=HOST,
                    seat=0,
                    deal=1,
                    accuracy=90.0,
                    decisions=9,
                    flagged=1,
                    points_lost=0.5,
                    score_total=810.0,
                    lost_total=0.5,
                    reviewed_at=datetime(2026, 5, 1, tzinfo=UTC),
                )
            )
        await league.take_in(GUILD)
        await league.start_season(GUILD, "Summer")  # ends the first: frozen standings
        open_table = await playing_table(db, channel_id=CHANNEL, seed=9)
        await tables.append_action(open_table, 0, 1, {"do": "pass"})
        # A server an upgrade left due a ladder rebuild (schema 11) that hasn't played since.
        await db.execute("INSERT INTO league_rebuilds (guild_id) VALUES (?)", (GUILD + 1,))
        await tournament_in_play(db, open_table)
        await PreferenceRepo(db).update(HOST, four_colour=True, pings="never")
        daily = DailyRepo(db)
        await daily.keep_par(GUILD, DAY, 2)
        await daily.start(GUILD, DAY, HOST, "Host")
        await daily.record(GUILD, DAY, HOST, ("pass",), 0, points=2, par=2)
        await daily.claim_week(GUILD, date(2026, 4, 27))
        profiles = GuildProfileRepo(db)
        await profiles.save(GUILD, "The Den", "icon-1")
        await profiles.save_icon(GUILD, "icon-1", b"\x89PNG\r\n\x1a\n\x00\xff" * 8)
        return await read_all(db)


DAY = date(2026, 5, 1)


async def tournament_in_play(db: Database, table_id: int) -> None:
    """A progressive event in its first round, one table opened and partly played."""
    now = datetime(2026, 5, 1, tzinfo=UTC)
    event = Tournament.create(
        guild_id=GUILD, channel_id=CHANNEL, director_id=HOST, name="Friday", now=now
    )
    for seat in PEOPLE:
        assert seat.user_id is not None
        event.join(seat.user_id, seat.display_name, now)
    event = await create_event(TournamentRepo(db), event)
    event.start(Actor(HOST), now, fill_with_computers=True)
    event.set_table_id(1, 1, table_id, now)
    event.report(1, 1, [(1, 0)], now, finished=False)
    await save_event(TournamentRepo(db), event)
    # a champion role of an earlier night, still held
    state = event.state
    assert state.id is not None
    role = ChampionRole(
        tournament_id=state.id,
        guild_id=GUILD,
        channel_id=CHANNEL,
        user_id=HOST,
        role_id=GUILD + 7,
        expires_at=datetime(2026, 5, 8, tzinfo=UTC),
        given=True,
    )
    await TournamentRepo(db).save(state, [role])
    # what the event announced, and its Discord scheduled event
    await TournamentRepo(db).outreach.mark_announced(state.id, "reminder:x", now)
    link = ScheduledEventLink(
        tournament_id=state.id, scheduled_id=GUILD + 9, status="active", start=now
    )
    await TournamentRepo(db).outreach.set_scheduled_event(link)


async def read_all(db: Database) -> dict[str, object]:
    archive = GameArchiveRepo(db)
    games = await archive.list_by_guild(GUILD)
    seasons = await SeasonRepo(db).list_by_guild(GUILD)
    return {
        "settings": await GuildSettingsRepo(db).get(GUILD),
        "league": await LeagueSettingsRepo(db).get(GUILD),
        "open": await TableRepo(db).list_open_tables(),
        "games": games,
        "records": await archive.records([g.id for g in games]),
        "seasons": seasons,
        "standings": [await SeasonRepo(db).standings(s.id) for s in seasons],
        "tournaments": await TournamentRepo(db).list_by_guild(GUILD),
        "champion_roles": await TournamentRepo(db).champion_roles([GUILD]),
        "outreach": (
            await TournamentRepo(db).outreach.announced([1]),
            await TournamentRepo(db).outreach.unsettled_scheduled_events(),
        ),
        "preferences": await PreferenceRepo(db).get(HOST),
        "accuracy": await AccuracyRepo(db).history(GUILD, HOST),
        "daily": (await DailyRepo(db).par(GUILD, DAY), await DailyRepo(db).get(GUILD, DAY, HOST)),
        "profile": (
            await GuildProfileRepo(db).get(GUILD),
            await GuildProfileRepo(db).icon(GUILD),
        ),
    }


async def counts(url: str) -> dict[str, int]:
    return {t: (await sql(url, f"SELECT COUNT(*) AS n FROM {t}"))[0]["n"] for t in COPY_ORDER}


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'data' / 'euchre.sqlite3'}"


async def test_copy_covers_every_table_of_the_schema(sqlite_url: str) -> None:
    async with await Database.open(sqlite_url) as db:
        assert set(await describe(db)) == set(COPY_ORDER)


async def test_sqlite_to_postgresql_copies_everything_and_checks_it(
    sqlite_url: str, postgres_url: str
) -> None:
    before = await fill(sqlite_url)
    lines: list[str] = []
    report = await copy_database(sqlite_url, postgres_url, progress=lines.append)

    source_counts = await counts(sqlite_url)
    assert all(source_counts.values()), source_counts  # something in every table
    assert report.rows == source_counts == await counts(postgres_url)
    assert report.games_replayed == 3
    assert lines[-1] == "replayed 3 archived games"
    async with await Database.open(postgres_url) as db:
        assert await read_all(db) == before
        # Ids carry on above the copied ones: a stale button never reaches a new table.
        newest = await playing_table(db, channel_id=CHANNEL + 50)
        assert newest > max(t.id for t in before["open"])  # type: ignore[attr-defined]


async def test_postgresql_to_sqlite_works_too(postgres_url: str, sqlite_url: str) -> None:
    before = await fill(postgres_url)
    await copy_database(postgres_url, sqlite_url)
    async with await Database.open(sqlite_url) as db:
        assert await read_all(db) == before


async def test_a_target_with_data_is_refused_and_left_alone(
    sqlite_url: str, postgres_url: str
) -> None:
    await fill(sqlite_url)
    async with await Database.open(postgres_url) as db:
        await GuildSettingsRepo(db).update(GUILD + 1, allow_computers=False)
    with pytest.raises(CopyError, match="already holds rows \\(1 in guild_settings\\)"):
        await copy_database(sqlite_url, postgres_url)
    assert sum((await counts(postgres_url)).values()) == 1


async def test_a_record_that_no_longer_replays_fails_the_copy_and_leaves_the_target_empty(
    sqlite_url: str, postgres_url: str
) -> None:
    await fill(sqlite_url)
    await sql(sqlite_url, "UPDATE games SET score_0 = score_0 + 1 WHERE id = 2")
    with pytest.raises(CopyError, match="game 2: its record replays to"):
        await copy_database(sqlite_url, postgres_url)
    assert set((await counts(postgres_url)).values()) == {0}


async def test_copying_a_database_onto_itself_is_refused(sqlite_url: str) -> None:
    await fill(sqlite_url)
    with pytest.raises(CopyError, match="the same database"):
        await copy_database(sqlite_url, sqlite_url)


async def test_a_missing_source_is_refused_and_nothing_is_created(tmp_path: Path) -> None:
    source, target = tmp_path / "gone" / "euchre.sqlite3", tmp_path / "new.sqlite3"
    with pytest.raises(
        CopyError, match=f"^FROM_URL: {re.escape(str(source))} does not exist: name the"
    ):
        await copy_database(f"sqlite:///{source}", f"sqlite:///{target}")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("content", [b"", None])
async def test_a_source_without_the_schema_is_refused_and_left_alone(
    tmp_path: Path, content: bytes | None
) -> None:
    source, target = tmp_path / "other.sqlite3", tmp_path / "new.sqlite3"
    if content is None:
        with contextlib.closing(sqlite3.connect(source)) as other:  # another program's file
            other.execute("CREATE TABLE notes (x)")
    else:
        source.write_bytes(content)
    before = source.read_bytes()
    with pytest.raises(CopyError, match="holds no schema \\(no bot has used it\\)"):
        await copy_database(source, target)
    assert source.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [source.name]


async def test_a_file_that_is_not_sqlite_is_refused(tmp_path: Path) -> None:
    source = tmp_path / "notes.txt"
    source.write_text("not a database at all, just some words to fill a page\n" * 20)
    with pytest.raises(CopyError, match=r"notes\.txt is not an SQLite database"):
        await copy_database(source, tmp_path / "new.sqlite3")
    assert not (tmp_path / "new.sqlite3").exists()


async def test_a_postgresql_source_without_the_schema_is_refused(
    postgres_url: str, second_postgres_url: str
) -> None:
    with pytest.raises(CopyError, match="holds no schema"):
        await copy_database(postgres_url, second_postgres_url)
    async with await connect(postgres_url) as src, await connect(second_postgres_url) as dst:
        assert (await describe(src), await describe(dst)) == ({}, {})


def test_the_report_lines_up_its_counts_whatever_the_table_names() -> None:
    report = CopyReport({"games": 1, "tournament_announcements": 12_345}, games_replayed=1)
    assert report.lines() == [
        "  games                            1 row",
        "  tournament_announcements    12,345 rows",
        "  every archived game replayed: 1",
    ]
