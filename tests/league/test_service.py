"""The league service on a real database: taking games in, ratings, seasons, reports."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from bot.league import (
    OPEN_SEASON_NAME,
    LeagueError,
    LeagueService,
    NoSuchGameError,
    NoSuchSeasonError,
    RatingModel,
    SeasonError,
)
from bot.rules import Game, HouseRules, replay
from bot.store import (
    Database,
    GameArchiveRepo,
    InvalidRecordError,
    LeagueSettingsRepo,
    RatingRepo,
    SeasonRepo,
    TableRepo,
)

from .util import (
    GUILD,
    OTHER_GUILD,
    RULES,
    USERS,
    archive,
    db,
    finished_record,
    seats,
    use_rules,
)

__all__ = ["db"]


async def test_a_server_without_games_has_no_season_and_empty_standings(db: Database) -> None:
    league = LeagueService(db)
    assert await league.current_season(GUILD) is None
    standings = await league.standings(GUILD)
    assert standings.season is None and standings.rows == ()
    report = await league.report(GUILD, USERS["Ada"], "Ada")
    assert report.stats.games == 0 and report.ratings == () and report.standing is None
    assert (await league.history(GUILD, USERS["Ada"])).entries == ()


async def test_the_first_game_opens_an_open_ended_season_and_is_rated(db: Database) -> None:
    league = LeagueService(db)
    game = await archive(db, 1, ["Ada", "Bob", "Cy", "Di"])
    assert await league.take_in(GUILD) == 1
    assert await league.take_in(GUILD) == 0
    season = await league.current_season(GUILD)
    assert season is not None and season.open_ended and season.running
    assert season.name == OPEN_SEASON_NAME
    assert season.rating_model == RatingModel().to_spec()
    stored = await GameArchiveRepo(db).get(game.id)
    assert stored.season_id == season.id and stored.ranked

    model = PlackettLuce()
    teams = [[model.rating(), model.rating()], [model.rating(), model.rating()]]
    ranks = [1.0, 2.0] if game.winner == 0 else [2.0, 1.0]
    expected = model.rate(teams, ranks=ranks)
    ratings = {r.user_id: r for r in await RatingRepo(db).season(season.id)}
    for seat, name in enumerate(["Ada", "Bob", "Cy", "Di"]):
        got = ratings[USERS[name]]
        want = expected[seat % 2][seat // 2]
        assert (got.mu, got.sigma) == (want.mu, want.sigma)
        assert (got.games, got.wins) == (1, int(game.winner == seat % 2))


async def test_casual_and_computer_games_do_not_move_ratings(db: Database) -> None:
    league = LeagueService(db)
    await archive(db, 1, ["Ada", "Bob", "Cy", "Di"])
    await league.take_in(GUILD)
    season = await league.current_season(GUILD)
    assert season is not None
    before = await RatingRepo(db).season(season.id)

    with_computer = await archive(db, 2, ["Ada", None, "Cy", "Di"])
    other_rules = await archive(db, 3, ["Ada", "Bob", "Cy", "Di"], rules=HouseRules())
    assert await league.take_in(GUILD) == 2
    assert await RatingRepo(db).season(season.id) == before
    archive_repo = GameArchiveRepo(db)
    for game in (with_computer, other_rules):
        stored = await archive_repo.get(game.id)
        assert stored.season_id == season.id and not stored.ranked

    await LeagueSettingsRepo(db).update(GUILD, all_casual=True)
    await archive(db, 4, ["Ada", "Bob", "Cy", "Di"])
    await league.take_in(GUILD)
    assert await RatingRepo(db).season(season.id) == before

    # Casual games still count in a player's stats and history.
    report = await league.report(GUILD, USERS["Ada"], "Ada")
    assert (report.stats.games, report.stats.ranked_games) == (4, 1)
    assert len((await league.history(GUILD, USERS["Ada"])).entries) == 4


async def test_a_server_may_rank_games_under_other_rules(db: Database) -> None:
    league = LeagueService(db)
    await league.update_settings(GUILD, rank_custom_rules=True)
    game = await archive(db, 3, ["Ada", "Bob", "Cy", "Di"], rules=HouseRules())
    await league.take_in(GUILD)
    assert (await GameArchiveRepo(db).get(game.id)).ranked


async def test_ratings_are_per_server(db: Database) -> None:
    league = LeagueService(db)
    await use_rules(db, OTHER_GUILD)
    await archive(db, 1, ["Ada", "Bob", "Cy", "Di"])
    await archive(db, 1, ["Bob", "Ada", "Di", "Cy"], guild_id=OTHER_GUILD)
    here = await league.standings(GUILD)
    there = await league.standings(OTHER_GUILD)
    assert here.season is not None and there.season is not None
    assert here.season.id != there.season.id
    ada_here = next(s for s in here.rows if s.user_id == USERS["Ada"])
    ada_there = next(s for s in there.rows if s.user_id == USERS["Ada"])
    assert ada_here.games == ada_there.games == 1
    assert ada_here.mu != ada_there.mu  # one won where the other lost


async def test_rerating_a_season_from_its_archive_gives_the_stored_ratings(db: Database) -> None:
    league = LeagueService(db)
    await league.update_settings(GUILD, rank_custom_rules=True)  # both families are ranked
    six = HouseRules.preset_rules("six_player").with_changes(target_score=5)
    people = ["Ada", "Bob", "Cy", "Di", "Eve", "Fay"]
    for seed in range(40):
        if seed % 4 == 3:
            await archive(db, seed, people[seed % 6 :] + people[: seed % 6], rules=six)
        else:
            table = [people[(seed * k + seed // 3) % 6] for k in (1, 2, 3, 5)]
            if len(set(table)) < 4:
                table = [people[(seed + k) % 6] for k in range(4)]
            await archive(db, seed, table if seed % 7 else [*table[:3], None])
        if seed % 10 == 9:
            await league.take_in(GUILD)  # taken in a few at a time, like in real life
    await league.take_in(GUILD)
    season = await league.current_season(GUILD)
    assert season is not None
    four_hand_ranked = [seed for seed in range(40) if seed % 4 != 3 and seed % 7]
    seats_rated = {"euchre4": 4 * len(four_hand_ranked), "euchre6": 6 * 10}
    for family, seats_played in seats_rated.items():
        stored = {r.user_id: r for r in await RatingRepo(db).season(season.id, family)}
        rerated = await league.rerate(season.id, family)
        assert set(rerated) == set(stored) and stored
        for user, state in rerated.items():
            row = stored[user]
            assert (state.rating.mu, state.rating.sigma) == (row.mu, row.sigma)  # to the last bit
            assert (state.games, state.wins) == (row.games, row.wins)
        assert sum(s.games for s in rerated.values()) == seats_played  # no game in two ladders
    assert await league.rerate(season.id, "bid_euchre") == {}


async def test_six_player_games_are_rated_three_against_three(db: Database) -> None:
    six = HouseRules.preset_rules("six_player").with_changes(target_score=5)
    await use_rules(db, GUILD, six)
    league = LeagueService(db)
    game = await archive(db, 5, ["Ada", "Bob", "Cy", "Di", "Eve", "Fay"], rules=six)
    assert (await league.standings(GUILD)).rows == ()  # four-hand euchre's ladder: none
    standings = await league.standings(GUILD, family="euchre6")
    assert standings.family == "euchre6"
    assert len(standings.rows) == 6
    winners = {s.user_id for s in standings.rows if s.wins == 1}
    team = game.winner
    assert winners == {p.user_id for p in game.players if p.team == team}
    assert len({s.mu for s in standings.rows}) == 2  # partners rated alike from a fresh start


async def test_eight_seat_bid_euchre_games_are_rated_four_against_four(db: Database) -> None:
    eight = HouseRules.preset_rules("bid_euchre_8").with_changes(deals_per_game=2)
    await use_rules(db, GUILD, eight)
    league = LeagueService(db)
    game = await archive(db, 5, ["Ada", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"], rules=eight)
    assert (await league.standings(GUILD)).rows == ()
    standings = await league.standings(GUILD, family="bid_euchre")
    assert len(standings.rows) == 8
    assert game.winner is not None
    winners = {s.user_id for s in standings.rows if s.wins == 1}
    assert winners == {p.user_id for p in game.players if p.team == game.winner}
    assert len({s.mu for s in standings.rows}) == 2  # partners rated alike from a fresh start


async def test_min_games_places_players_in_the_standings(db: Database) -> None:
    league = LeagueService(db)
    await league.update_settings(GUILD, min_games=2)
    await archive(db, 1, ["Ada", "Bob", "Cy", "Di"])
    await archive(db, 2, ["Ada", "Bob", "Cy", "Eve"])
    standings = await league.standings(GUILD)
    placed = {s.name for s in standings.placed}
    assert placed == {"Ada", "Bob", "Cy"}
    assert sorted(s.place for s in standings.placed) == [1, 2, 3]
    page = standings.page(0)
    assert (page.placed, page.unplaced, page.pages) == (3, 2, 1)
    with pytest.raises(LeagueError, match="min_games"):
        await league.update_settings(GUILD, min_games=-3)


async def test_ending_a_season_freezes_its_standings_and_the_next_starts_fresh(
    db: Database,
) -> None:
    league = LeagueService(db)
    await league.update_settings(GUILD, min_games=1)
    await archive(db, 1, ["Ada", "Bob", "Cy", "Di"])
    change = await league.start_season(GUILD, "  Spring   2025 ")
    assert change.started.name == "Spring 2025" and change.started.running
    assert change.ended is not None and change.ended.name == OPEN_SEASON_NAME
    open_play = await league.standings(GUILD, change.ended)
    assert len(open_play.placed) == 4

    await archive(db, 2, ["Ada", "Bob", "Cy", "Eve"])
    live = await league.standings(GUILD)
    assert live.season == (await league.find_season(GUILD, "spring 2025"))
    assert {s.name: s.games for s in live.rows} == {"Ada": 1, "Bob": 1, "Cy": 1, "Eve": 1}

    with pytest.raises(SeasonError, match="still running"):
        await league.start_season(GUILD, "Summer")
    ended = await league.end_season(GUILD)
    assert not ended.running and ended.min_games == 1
    frozen = await league.standings(GUILD, ended)
    await league.update_settings(GUILD, min_games=5)
    await archive(db, 3, ["Ada", "Bob", "Cy", "Eve"])
    assert await league.standings(GUILD, ended) == frozen  # later games and settings: no change
    current = await league.current_season(GUILD)
    assert current is not None and current.open_ended and current.name == f"{OPEN_SEASON_NAME} 2"

    with pytest.raises(SeasonError, match="already is a season called"):
        await league.start_season(GUILD, "SPRING 2025")
    with pytest.raises(NoSuchSeasonError):
        await league.find_season(GUILD, "Winter")
    names = [s.name for s in await league.seasons(GUILD)]
    assert names == [f"{OPEN_SEASON_NAME} 2", "Spring 2025", OPEN_SEASON_NAME]


async def test_ending_with_no_season_running_is_refused(db: Database) -> None:
    league = LeagueService(db)
    with pytest.raises(SeasonError, match="No season is running"):
        await league.end_season(GUILD)
    await league.start_season(GUILD, "Spring")
    await league.end_season(GUILD)
    with pytest.raises(SeasonError, match="No season is running"):
        await league.end_season(GUILD)
    with pytest.raises(SeasonError, match="at most"):
        await league.start_season(GUILD, "x" * 51)
    with pytest.raises(SeasonError, match="name"):
        await league.start_season(GUILD, "   ")


async def test_games_archived_before_a_season_ends_belong_to_it(db: Database) -> None:
    league = LeagueService(db)
    await league.start_season(GUILD, "Spring")
    game = await archive(db, 1, ["Ada", "Bob", "Cy", "Di"])  # not taken in yet
    ended = await league.end_season(GUILD)
    assert (await GameArchiveRepo(db).get(game.id)).season_id == ended.id
    assert len((await league.standings(GUILD, ended)).rows) == 4


async def test_finished_table_events_take_the_game_in(db: Database) -> None:
    league = LeagueService(db)

    @dataclass
    class Place:
        guild_id: int

    @dataclass
    class Table:
        place: Place

    @dataclass
    class Event:
        kind: str
        snapshot: Table

    await archive(db, 1, ["Ada", "Bob", "Cy", "Di"])
    league.on_table_event(Event("move", Table(Place(GUILD))))
    league.on_table_event(Event("finished", Table(Place(GUILD))))
    assert await league.settle(60.0) == 0
    assert await GameArchiveRepo(db).pending(GUILD) == []


async def test_a_game_is_found_only_on_its_own_server(db: Database) -> None:
    league = LeagueService(db)
    game = await archive(db, 1, ["Ada", "Bob", "Cy", "Di"])
    found, record = await league.game(GUILD, game.id)
    assert found.id == game.id and record == finished_record(1)
    with pytest.raises(NoSuchGameError, match=f"#{game.number}"):
        await league.game(OTHER_GUILD, game.id)
    with pytest.raises(NoSuchGameError):
        await league.game(GUILD, game.id + 100)


async def test_stats_count_what_the_records_say(db: Database) -> None:
    league = LeagueService(db)
    tables = [["Ada", "Bob", "Cy", "Di"], ["Bob", "Ada", "Di", "Cy"], ["Ada", "Eve", "Bob", None]]
    seeds = [10, 11, 12]
    games = [await archive(db, seed, t) for seed, t in zip(seeds, tables, strict=True)]
    report = await league.report(GUILD, USERS["Ada"], "Ada")
    s = report.stats
    expected = dict.fromkeys(
        ("games", "wins", "for", "against", "march", "made", "suffered", "tried", "lone_made"), 0
    )
    for seed, game in zip(seeds, games, strict=True):
        me = next(p for p in game.players if p.user_id == USERS["Ada"])
        result = replay(finished_record(seed)).game
        expected["games"] += 1
        expected["wins"] += result.winner == me.team
        expected["for"] += result.score[me.team]
        expected["against"] += result.score[1 - me.team]
        for deal in result.results:
            if deal.maker is None or deal.result not in ("made", "march", "euchred"):
                continue
            ours = deal.maker % 2 == me.team
            expected["march"] += ours and deal.result == "march"
            expected["made"] += not ours and deal.result == "euchred"
            expected["suffered"] += ours and deal.result == "euchred"
            if me.seat in deal.alone and ours:
                expected["tried"] += 1
                expected["lone_made"] += deal.result != "euchred"
    assert (s.games, s.wins, s.points_for, s.points_against) == (
        expected["games"],
        expected["wins"],
        expected["for"],
        expected["against"],
    )
    assert (s.marches, s.euchres_made, s.euchres_suffered) == (
        expected["march"],
        expected["made"],
        expected["suffered"],
    )
    assert (s.loners_tried, s.loners_made) == (expected["tried"], expected["lone_made"])
    assert {p.name: p.games for p in s.partners} == {"Cy": 2, "Bob": 1}  # computers: nobody's


async def test_the_rating_points_follow_every_rated_game(db: Database) -> None:
    league = LeagueService(db)
    for seed in range(5):
        await archive(db, seed, ["Ada", "Bob", "Cy", "Di"])
    await archive(db, 9, ["Ada", None, "Cy", "Di"])
    report = await league.report(GUILD, USERS["Ada"], "Ada")
    assert len(report.ratings) == 6 and report.ratings[0] == 0.0
    assert report.standing is not None
    assert report.ratings[-1] == report.standing.rating


async def test_a_damaged_season_model_is_a_store_error_not_a_crash(tmp_path: Path) -> None:
    path = tmp_path / "x.sqlite3"
    async with await Database.open(path) as db:
        await use_rules(db)
        await SeasonRepo(db).start(GUILD, "Spring", rating_model={"name": "PlackettLuce"})
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("UPDATE seasons SET rating_model = '[1]'")
    conn.close()
    async with await Database.open(path) as db:
        from bot.store import CorruptDataError

        with pytest.raises(CorruptDataError):
            await LeagueService(db).current_season(GUILD)


def test_rules_of_the_test_servers_are_short_games() -> None:
    assert RULES.target_score == 5


async def test_an_aborted_game_is_kept_but_never_rated(db: Database) -> None:
    tables = TableRepo(db)
    table = await tables.create(
        guild_id=GUILD,
        channel_id=42,
        host_id=USERS["Ada"],
        rules=RULES,
        seed=3,
        seats=seats("Ada", "Bob", "Cy", "Di"),
    )
    await tables.set_status(table.id, "playing")
    game = Game(RULES, seed=3)
    assert game.turn is not None
    await tables.append_action(table.id, 0, game.turn, {"do": "pass"})
    await tables.set_status(table.id, "aborted")
    league = LeagueService(db)
    assert await league.take_in(GUILD) == 0
    assert (await league.standings(GUILD)).rows == ()
    kept = await tables.get(table.id)
    assert kept.status == "aborted" and len(kept.actions) == 1
    with pytest.raises(InvalidRecordError, match="not over"):  # the archive takes finished games
        await GameArchiveRepo(db).archive(
            guild_id=GUILD, record=kept.record(), players=kept.seats, ranked=True
        )
