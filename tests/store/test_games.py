"""The archive of finished games."""

from __future__ import annotations

import pytest

from bot.rules import HouseRules, game_record
from bot.store import (
    AlreadyArchivedError,
    Database,
    GameArchiveRepo,
    InvalidRecordError,
    NotFoundError,
    SeasonRepo,
    Seat,
    TableRepo,
    TableStateError,
)
from tests.kit.games import random_game
from tests.league.util import RULES, finished_record

from .conftest import FOUR_SEATS, GUILD, HOST, playing_table


async def test_a_finished_game_is_archived_with_its_score_from_the_record(db_url: str) -> None:
    game = random_game(RULES, seed=3, rng_seed=3)
    record = game_record(game)
    async with await Database.open(db_url) as db:
        archived = await GameArchiveRepo(db).archive(
            guild_id=GUILD, record=record, players=FOUR_SEATS, ranked=True
        )
    async with await Database.open(db_url) as db:
        archive = GameArchiveRepo(db)
        assert await archive.get(archived.id) == archived
        assert await archive.record(archived.id) == record
    assert archived.winner == game.winner
    assert archived.score == tuple(game.score)
    assert archived.ranked is True
    assert archived.season_id is None
    assert [(p.seat, p.team, p.user_id, p.is_computer) for p in archived.players] == [
        (0, 0, HOST, False),
        (1, 1, None, True),
        (2, 0, HOST + 1, False),
        (3, 1, None, True),
    ]


async def test_games_are_listed_by_guild_newest_first(db: Database) -> None:
    archive = GameArchiveRepo(db)
    ids = []
    for seed in range(5):
        game = await archive.archive(
            guild_id=GUILD, record=finished_record(seed), players=FOUR_SEATS, ranked=seed % 2 == 0
        )
        ids.append(game.id)
    await archive.archive(
        guild_id=GUILD + 1, record=finished_record(3), players=FOUR_SEATS, ranked=True
    )
    newest = await archive.list_by_guild(GUILD, limit=3)
    assert [g.id for g in newest] == ids[:1:-1]
    rest = await archive.list_by_guild(GUILD, limit=3, before_id=newest[-1].id)
    assert [g.id for g in rest] == ids[1::-1]
    assert all(len(g.players) == 4 for g in newest + rest)
    assert await archive.list_by_guild(GUILD + 2) == []


async def test_finishing_a_table_and_archiving_is_all_or_nothing(db: Database) -> None:
    tables = TableRepo(db)
    archive = GameArchiveRepo(db)
    table_id = await playing_table(db, rules=RULES)
    record = finished_record(3)

    with pytest.raises(InvalidRecordError):
        async with db.transaction():
            await tables.set_status(table_id, "finished")
            await archive.archive(
                guild_id=GUILD,
                record=record,
                players=FOUR_SEATS[:3],
                ranked=True,
                table_id=table_id,
            )
    assert (await tables.get(table_id)).status == "playing"

    async with db.transaction():
        await tables.set_status(table_id, "finished")
        game = await archive.archive(
            guild_id=GUILD, record=record, players=FOUR_SEATS, ranked=True, table_id=table_id
        )
    assert game.table_id == table_id
    assert (await tables.get(table_id)).status == "finished"
    with pytest.raises(AlreadyArchivedError, match=f"table {table_id} is already archived"):
        await archive.archive(
            guild_id=GUILD, record=record, players=FOUR_SEATS, ranked=True, table_id=table_id
        )
    with pytest.raises(TableStateError):
        await tables.set_status(table_id, "finished")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: {**r, "actions": r["actions"][:-3]}, "not over"),
        (lambda r: {**r, "actions": [{"seat": 3, "do": "play", "card": "AS"}]}, "rejected"),
        (lambda r: {**r, "rules": {"preset": "nope"}}, "not a game record"),
    ],
)
async def test_only_finished_valid_games_are_archived(
    db: Database, change: object, message: str
) -> None:
    record = change(finished_record(3))  # type: ignore[operator]
    with pytest.raises(InvalidRecordError, match=message):
        await GameArchiveRepo(db).archive(
            guild_id=GUILD, record=record, players=FOUR_SEATS, ranked=True
        )
    assert await GameArchiveRepo(db).list_by_guild(GUILD) == []


async def test_unknown_games_and_tables(db: Database) -> None:
    archive = GameArchiveRepo(db)
    with pytest.raises(NotFoundError):
        await archive.get(42)
    with pytest.raises(NotFoundError):
        await archive.record(42)
    with pytest.raises(NotFoundError, match="no table 42"):
        await archive.archive(
            guild_id=GUILD,
            record=finished_record(3),
            players=FOUR_SEATS,
            ranked=False,
            table_id=42,
        )


async def test_an_eight_seat_bid_euchre_game_is_archived_with_every_player(db_url: str) -> None:
    rules = HouseRules.preset_rules("bid_euchre_8").with_changes(deals_per_game=2)
    game = random_game(rules, seed=5, rng_seed=5)
    players = [Seat.computer(n, f"Bot {n}", "basic") for n in range(8)]
    async with await Database.open(db_url) as db:
        archived = await GameArchiveRepo(db).archive(
            guild_id=GUILD, record=game_record(game), players=players, ranked=False
        )
        assert await GameArchiveRepo(db).get(archived.id) == archived
    assert archived.score == tuple(game.score)
    assert [(p.seat, p.team) for p in archived.players] == [(n, n % 2) for n in range(8)]


async def test_a_players_latest_and_season_games_come_in_one_read(db: Database) -> None:
    archive = GameArchiveRepo(db)
    season = await SeasonRepo(db).start(GUILD, "Spring")
    ids = []
    for seed in range(6):
        game = await archive.archive(
            guild_id=GUILD, record=finished_record(seed), players=FOUR_SEATS, ranked=True
        )
        if seed % 2 == 0:  # every other game taken into the season
            await archive.assign_season(game.id, season.id, ranked=True)
        ids.append(game.id)
    recent, in_season, kept = await archive.player_games(GUILD, HOST, latest=2, season_id=season.id)
    assert recent == await archive.list_by_player(GUILD, HOST, limit=2)
    assert in_season == await archive.list_by_player(GUILD, HOST, season_id=season.id)
    assert [g.id for g in in_season] == [ids[4], ids[2], ids[0]]
    assert kept == await archive.deal_outcomes([g.id for g in in_season])
    assert set(kept) == {ids[0], ids[2], ids[4]}
    none = await archive.player_games(GUILD, HOST, latest=3, season_id=None)
    assert none == (await archive.list_by_player(GUILD, HOST, limit=3), [], {})
    assert await archive.player_games(GUILD, HOST + 7, latest=3, season_id=season.id) == (
        [],
        [],
        {},
    )
    with pytest.raises(ValueError, match="latest"):
        await archive.player_games(GUILD, HOST, latest=0, season_id=None)


async def test_a_game_is_read_with_its_record_at_once(db: Database) -> None:
    archive = GameArchiveRepo(db)
    record = finished_record(4)
    game = await archive.archive(guild_id=GUILD, record=record, players=FOUR_SEATS, ranked=True)
    assert await archive.get_with_record(game.id) == (game, record)
    with pytest.raises(NotFoundError):
        await archive.get_with_record(game.id + 1)
