"""The league's repositories: seasons, league settings, ratings and the archive's league queries."""

from __future__ import annotations

import pytest

from bot.store import (
    AlreadyArchivedError,
    ConstraintError,
    Database,
    FrozenStanding,
    GameArchiveRepo,
    InvalidRecordError,
    LeagueSettings,
    LeagueSettingsRepo,
    NotFoundError,
    PlayerRating,
    RatingRepo,
    SeasonRepo,
    SeasonStateError,
    SettingsError,
)
from tests.league.util import finished_record

from .conftest import FOUR_SEATS, GUILD, HOST, PEOPLE, sql

# --------------------------------------------------------------------------- settings


async def test_league_settings_default_then_change_and_survive_a_restart(db_url: str) -> None:
    async with await Database.open(db_url) as db:
        repo = LeagueSettingsRepo(db)
        assert await repo.get(GUILD) == LeagueSettings(guild_id=GUILD)
        changed = await repo.update(GUILD, min_games=2)
        assert (changed.min_games, changed.all_casual, changed.rank_custom_rules) == (
            2,
            False,
            False,
        )
        await repo.update(GUILD, all_casual=True)
    async with await Database.open(db_url) as db:
        settings = await LeagueSettingsRepo(db).get(GUILD)
        assert (settings.min_games, settings.all_casual) == (2, True)
        assert settings.updated_at is not None
        assert await LeagueSettingsRepo(db).get(GUILD + 1) == LeagueSettings(guild_id=GUILD + 1)


async def test_bad_league_settings_are_refused_and_change_nothing(db: Database) -> None:
    repo = LeagueSettingsRepo(db)
    await repo.update(GUILD, min_games=3)
    with pytest.raises(SettingsError, match="min_games"):
        await repo.update(GUILD, min_games=-1)
    with pytest.raises(SettingsError, match="not a league setting"):
        await repo.update(GUILD, rules="toronto")
    assert (await repo.get(GUILD)).min_games == 3


# --------------------------------------------------------------------------- seasons


async def test_one_season_runs_at_a_time_and_names_are_unique_per_server(db: Database) -> None:
    seasons = SeasonRepo(db)
    assert await seasons.running(GUILD) is None
    spring = await seasons.start(GUILD, "Spring", rating_model={"name": "PlackettLuce"})
    assert spring.running and not spring.open_ended
    assert spring.rating_model == {"name": "PlackettLuce"}
    assert await seasons.running(GUILD) == spring
    with pytest.raises(SeasonStateError, match="still running"):
        await seasons.start(GUILD, "Summer")
    other = await seasons.start(GUILD + 1, "spring", open_ended=True)
    assert other.open_ended
    ended = await seasons.end(spring.id, [], min_games=4)
    assert not ended.running and ended.min_games == 4
    with pytest.raises(SeasonStateError, match="already ended"):
        await seasons.end(spring.id, [], min_games=4)
    with pytest.raises(SeasonStateError, match="already has a season called 'SPRING'"):
        await seasons.start(GUILD, "SPRING")
    assert await seasons.find(GUILD, "sPrInG") == ended
    summer = await seasons.start(GUILD, "Summer")
    assert [s.id for s in await seasons.list_by_guild(GUILD)] == [summer.id, spring.id]
    with pytest.raises(NotFoundError):
        await seasons.get(999)


async def test_ending_a_season_freezes_its_standings(db_url: str) -> None:
    async with await Database.open(db_url) as db:
        seasons = SeasonRepo(db)
        season = await seasons.start(GUILD, "Spring")
        rows = [
            FrozenStanding(
                season_id=season.id,
                user_id=HOST + n,
                place=n + 1 if n < 2 else None,
                display_name=f"P{n}",
                rating=10.0 - n,
                mu=25.0 + n,
                sigma=5.0,
                games=4 - n,
                wins=1,
            )
            for n in range(3)
        ]
        bid = [r.model_copy(update={"family": "bid_euchre", "mu": 30.0}) for r in rows[:2]]
        await seasons.end(season.id, [*reversed(rows), *bid], min_games=3)
    async with await Database.open(db_url) as db:
        assert await SeasonRepo(db).standings(season.id) == rows
        # The same player and place in another family's standings: a standing of its own.
        assert await SeasonRepo(db).standings(season.id, "bid_euchre") == bid
        assert await SeasonRepo(db).standings(season.id, "euchre6") == []


async def test_frozen_standings_of_another_season_are_refused(db: Database) -> None:
    seasons = SeasonRepo(db)
    season = await seasons.start(GUILD, "Spring")
    stray = FrozenStanding(
        season_id=season.id + 1,
        user_id=HOST,
        display_name="P",
        rating=1.0,
        mu=1.0,
        sigma=1.0,
        games=1,
        wins=0,
    )
    with pytest.raises(ValueError, match="another season"):
        await seasons.end(season.id, [stray], min_games=0)
    assert (await seasons.get(season.id)).running


# --------------------------------------------------------------------------- ratings


def rating(
    season_id: int, user: int, game_id: int, mu: float, games: int, family: str = "euchre4"
) -> PlayerRating:
    return PlayerRating(
        season_id=season_id,
        family=family,
        guild_id=GUILD,
        user_id=user,
        display_name=f"U{user}",
        mu=mu,
        sigma=8.0 - games,
        games=games,
        wins=games - 1,
        last_game_id=game_id,
    )


async def test_ratings_keep_the_current_value_and_a_point_per_game(db_url: str) -> None:
    async with await Database.open(db_url) as db:
        archive = GameArchiveRepo(db)
        season = await SeasonRepo(db).start(GUILD, "Spring")
        first = await archive.archive(
            guild_id=GUILD, record=finished_record(1), players=PEOPLE, ranked=True
        )
        second = await archive.archive(
            guild_id=GUILD, record=finished_record(2), players=PEOPLE, ranked=True
        )
        repo = RatingRepo(db)
        await repo.save_game(first.id, [rating(season.id, HOST, first.id, 26.5, 1)])
        mu = 0.1 + 0.2  # a float that does not print short: stored to the last bit
        await repo.save_game(
            second.id,
            [
                rating(season.id, HOST, second.id, mu, 2),
                rating(season.id, HOST + 1, second.id, 3, 1),
            ],
        )
    async with await Database.open(db_url) as db:
        repo = RatingRepo(db)
        current = await repo.season(season.id)
        assert [(r.user_id, r.mu, r.games, r.last_game_id) for r in current] == [
            (HOST, mu, 2, second.id),
            (HOST + 1, 3.0, 1, second.id),
        ]
        assert (await repo.players(season.id, [HOST + 1, 42]))[HOST + 1].mu == 3.0
        points = await repo.points(season.id, HOST)
        assert [(p.game_id, p.mu) for p in points] == [(first.id, 26.5), (second.id, mu)]
        assert await repo.points(season.id, HOST + 2) == []


async def test_each_family_keeps_its_own_ratings_in_a_season(db_url: str) -> None:
    async with await Database.open(db_url) as db:
        archive = GameArchiveRepo(db)
        season = await SeasonRepo(db).start(GUILD, "Spring")
        four, bid = [
            await archive.archive(
                guild_id=GUILD, record=finished_record(n), players=PEOPLE, ranked=True
            )
            for n in (1, 2)
        ]
        repo = RatingRepo(db)
        await repo.save_game(four.id, [rating(season.id, HOST, four.id, 26.5, 1)])
        await repo.save_game(bid.id, [rating(season.id, HOST, bid.id, 23.5, 1, "bid_euchre")])
        with pytest.raises(InvalidRecordError, match="family"):
            await repo.save_game(
                bid.id,
                [
                    rating(season.id, HOST + 1, bid.id, 1.0, 1),
                    rating(season.id, HOST + 2, bid.id, 1.0, 1, "bid_euchre"),
                ],
            )
    async with await Database.open(db_url) as db:
        repo = RatingRepo(db)
        assert [(r.family, r.mu) for r in await repo.season(season.id)] == [("euchre4", 26.5)]
        bids = await repo.season(season.id, "bid_euchre")
        assert [(r.family, r.mu, r.last_game_id) for r in bids] == [("bid_euchre", 23.5, bid.id)]
        assert (await repo.players(season.id, [HOST], "bid_euchre"))[HOST].mu == 23.5
        assert await repo.players(season.id, [HOST], "euchre6") == {}
        points = await repo.points(season.id, HOST, "bid_euchre")
        assert [(p.game_id, p.mu) for p in points] == [(bid.id, 23.5)]
        assert [p.game_id for p in await repo.points(season.id, HOST)] == [four.id]


async def test_ratings_of_another_game_are_refused(db: Database) -> None:
    season = await SeasonRepo(db).start(GUILD, "Spring")
    game = await GameArchiveRepo(db).archive(
        guild_id=GUILD, record=finished_record(3), players=PEOPLE, ranked=True
    )
    with pytest.raises(InvalidRecordError):
        await RatingRepo(db).save_game(game.id, [rating(season.id, HOST, game.id + 1, 1.0, 1)])


# --------------------------------------------------------------------------- the archive


async def test_games_wait_for_the_league_then_join_one_season(db: Database) -> None:
    archive = GameArchiveRepo(db)
    ids = [
        (
            await archive.archive(
                guild_id=GUILD, record=finished_record(seed), players=PEOPLE, ranked=True
            )
        ).id
        for seed in range(3)
    ]
    await archive.archive(
        guild_id=GUILD + 1, record=finished_record(3), players=PEOPLE, ranked=True
    )
    assert [g.id for g in await archive.pending(GUILD)] == ids
    season = await SeasonRepo(db).start(GUILD, "Spring")
    await archive.assign_season(ids[0], season.id, ranked=False)
    await archive.assign_season(ids[1], season.id, ranked=True)
    with pytest.raises(AlreadyArchivedError):
        await archive.assign_season(ids[0], season.id, ranked=True)
    assert [g.id for g in await archive.pending(GUILD)] == [ids[2]]
    in_season = await archive.list_by_season(season.id)
    assert [(g.id, g.ranked, g.season_id) for g in in_season] == [
        (ids[0], False, season.id),
        (ids[1], True, season.id),
    ]
    assert [g.id for g in await archive.list_by_season(season.id, ranked_only=True)] == [ids[1]]


async def test_a_players_games_newest_first_and_records_in_bulk(db: Database) -> None:
    archive = GameArchiveRepo(db)
    mine = []
    for seed in range(4):
        seats = PEOPLE if seed % 2 == 0 else FOUR_SEATS
        game = await archive.archive(
            guild_id=GUILD, record=finished_record(seed), players=seats, ranked=True
        )
        mine.append(game.id)
    # HOST + 3 sat only at the games with PEOPLE; HOST at every game.
    assert [g.id for g in await archive.list_by_player(GUILD, HOST)] == mine[::-1]
    assert [g.id for g in await archive.list_by_player(GUILD, HOST + 3)] == mine[2::-2]
    assert [g.id for g in await archive.list_by_player(GUILD, HOST, limit=1)] == mine[-1:]
    assert await archive.list_by_player(GUILD + 1, HOST) == []
    season = await SeasonRepo(db).start(GUILD, "S")
    await archive.assign_season(mine[1], season.id, ranked=True)
    assert [g.id for g in await archive.list_by_player(GUILD, HOST, season_id=season.id)] == [
        mine[1]
    ]
    records = await archive.records([*mine, 999])
    assert sorted(records) == mine
    assert records[mine[2]] == finished_record(2)


async def test_more_games_than_one_query_holds_are_read_in_chunks(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    archive = GameArchiveRepo(db)
    record = finished_record(3)
    for _ in range(3):
        await archive.archive(guild_id=GUILD, record=record, players=PEOPLE, ranked=True)
    monkeypatch.setattr("bot.store.games._CHUNK", 2)
    pending = await archive.pending(GUILD)
    assert [len(g.players) for g in pending] == [4, 4, 4]
    assert len(await archive.records([g.id for g in pending])) == 3


async def test_the_schema_refuses_impossible_league_rows(db_url: str) -> None:
    async with await Database.open(db_url) as db:
        await SeasonRepo(db).start(GUILD, "Spring")
    with pytest.raises(ConstraintError):
        await sql(
            db_url,
            "INSERT INTO seasons (guild_id, name, started_at) VALUES (?, 'Other', 'x')",
            (GUILD,),
        )
    with pytest.raises(ConstraintError):
        await sql(db_url, "INSERT INTO league_settings VALUES (?, -1, FALSE, FALSE, 'x')", (GUILD,))
