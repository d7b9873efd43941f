"""The upgrade to rating families: a store an older bot left is rebuilt by family, once.

A bot at schema 9 rated every game on one ladder. Here such a store is written the
way that bot left it (its ratings computed here with the rating core, one ladder for
everything), then opened by this bot: its first look at the server's league moves
each game to its family's ladder. Both back ends.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import discord
import pytest

import bot.__main__ as cli
from bot.league import (
    FAMILIES,
    LeagueService,
    PlayerState,
    RatingModel,
    play,
    rate_season,
    rebuild_ladders,
    team_game,
)
from bot.rules import HouseRules, replay
from bot.store import (
    ArchivedGame,
    Database,
    GameArchiveRepo,
    PlayerRating,
    RatingRepo,
    SeasonRepo,
    connect,
    latest_version,
    migrate,
)

from .util import GUILD, RULES, finished_record

SIX = HouseRules.preset_rules("six_player").with_changes(target_score=5)
BID = HouseRules.preset_rules("bid_euchre").with_changes(deals_per_game=2)
MODEL = RatingModel()

PEOPLE = ("Ada", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo")
IDS = {name: 7_000_000_000_000_000 + n for n, name in enumerate(PEOPLE)}
FOUR_HAND = PEOPLE[:4]


class OldBot:
    """What a bot at schema 9 left: seasons, archived games, one ladder for everything."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.games: dict[int, list[ArchivedGame]] = {}
        self.ratings: dict[int, list[dict[str, Any]]] = {}
        self.points: dict[int, list[dict[str, Any]]] = {}

    async def season(self, name: str, games: Sequence[tuple[HouseRules, Sequence[str]]]) -> int:
        season = await SeasonRepo(self.db).start(GUILD, name, rating_model=MODEL.to_spec())
        archive = GameArchiveRepo(self.db)
        played = []
        for seed, (rules, names) in enumerate(games, start=10 * season.id):
            game = await self.archive(finished_record(seed, rules), names)
            await archive.assign_season(game.id, season.id, ranked=True)
            played.append(game)
        self.games[season.id] = played
        self.rate_as_one_ladder(season.id, played)
        await self.insert("league_ratings", self.ratings[season.id])
        await self.insert("league_rating_points", self.points[season.id])
        return season.id

    async def archive(self, record: dict[str, Any], names: Sequence[str]) -> ArchivedGame:
        """Archive a game as that bot did: its record and players, nothing kept beside them."""
        game = replay(record).game
        row = await self.db.fetch_one(
            "INSERT INTO games (guild_id, record, ranked, winner, score_0, score_1, finished_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (
                GUILD,
                json.dumps(record),
                True,
                game.winner,
                *game.score,
                "2025-03-01T00:00:00+00:00",
            ),
        )
        assert row is not None
        seats = [
            {"game_id": row["id"], "seat": n, "team": n % 2, "user_id": IDS[name]}
            | {"is_computer": False, "display_name": name}
            for n, name in enumerate(names)
        ]
        await self.insert("game_players", seats)
        # read as that bot read it: this bot's repository reads columns it did not have yet
        return ArchivedGame.model_validate(
            {
                "id": row["id"],
                "guild_id": GUILD,
                "ranked": True,
                "winner": game.winner,
                "score": tuple(game.score),
                "finished_at": "2025-03-01T00:00:00+00:00",
                "players": [{k: v for k, v in s.items() if k != "game_id"} for s in seats],
            }
        )

    def rate_as_one_ladder(self, season_id: int, games: list[ArchivedGame]) -> None:
        states: dict[int, PlayerState] = {}
        current: dict[int, dict[str, Any]] = {}
        points = []
        for game in games:
            after = play(MODEL, states, team_game(game))
            states.update(after)
            for user, state in after.items():
                rating = {"mu": state.rating.mu, "sigma": state.rating.sigma}
                current[user] = {
                    "season_id": season_id,
                    "guild_id": GUILD,
                    "user_id": user,
                    "display_name": PEOPLE[user - IDS["Ada"]],
                    **rating,
                    "games": state.games,
                    "wins": state.wins,
                    "last_game_id": game.id,
                }
                points.append(
                    {"game_id": game.id, "user_id": user, "season_id": season_id, **rating}
                )
        self.ratings[season_id] = list(current.values())
        self.points[season_id] = points

    async def end(self, season_id: int, min_games: int) -> None:
        """End a season as that bot did: one frozen standing, every game's players in it."""
        rows = sorted(self.ratings[season_id], key=lambda r: -(r["mu"] - MODEL.z * r["sigma"]))
        frozen = [
            {
                "season_id": season_id,
                "user_id": r["user_id"],
                "place": place,
                "display_name": r["display_name"],
                "rating": r["mu"] - MODEL.z * r["sigma"],
                "mu": r["mu"],
                "sigma": r["sigma"],
                "games": r["games"],
                "wins": r["wins"],
            }
            for place, r in enumerate(rows, start=1)
        ]
        await self.insert("season_standings", frozen)
        await self.db.execute(
            "UPDATE seasons SET ended_at = started_at, min_games = ? WHERE id = ?",
            (min_games, season_id),
        )

    async def insert(self, table: str, rows: list[dict[str, Any]]) -> None:
        for row in rows:
            names = ", ".join(row)
            slots = ", ".join("?" for _ in row)
            await self.db.execute(
                f"INSERT INTO {table} ({names}) VALUES ({slots})", tuple(row.values())
            )


async def old_store(url: str) -> OldBot:
    """Spring (ended): four-hand games among Ada, Bob, Cy and Di, a six-hand and a Bid
    Euchre game among others. Summer (running): Ada, Bob, Cy and Di also play six-hand.
    """
    assert await migrate(url, target=9) == (0, 9)
    db = await connect(url)
    old = OldBot(db)
    try:
        async with db.transaction():
            spring = await old.season(
                "Spring",
                [
                    (RULES, FOUR_HAND),
                    (SIX, PEOPLE[4:]),
                    (RULES, FOUR_HAND),
                    (BID, PEOPLE[4:8]),
                ],
            )
            await old.end(spring, min_games=1)
            await old.season("Summer", [(RULES, FOUR_HAND), (SIX, PEOPLE[:6]), (RULES, FOUR_HAND)])
    finally:
        await db.close()
    return old


def as_stored(rows: list[dict[str, Any]], family: str) -> list[PlayerRating]:
    return sorted((PlayerRating(family=family, **r) for r in rows), key=lambda r: r.user_id)


def ladder(
    season_id: int, family: str, games: list[ArchivedGame], names: Sequence[str]
) -> list[PlayerRating]:
    """A family's ladder rated here from its own games only."""
    states = rate_season(MODEL, [team_game(g) for g in games])
    last = {p.user_id: g.id for g in games for p in g.players}
    return [
        PlayerRating(
            season_id=season_id,
            family=family,
            guild_id=GUILD,
            user_id=IDS[name],
            display_name=name,
            mu=states[IDS[name]].rating.mu,
            sigma=states[IDS[name]].rating.sigma,
            games=states[IDS[name]].games,
            wins=states[IDS[name]].wins,
            last_game_id=last[IDS[name]],
        )
        for name in sorted(names, key=lambda n: IDS[n])
    ]


async def ladders(db: Database, season_id: int) -> dict[str, list[PlayerRating]]:
    return {f: await RatingRepo(db).season(season_id, f) for f in FAMILIES}


async def test_an_upgraded_store_moves_each_game_to_its_familys_ladder(db_url: str) -> None:
    old = await old_store(db_url)
    spring, summer = sorted(old.games)
    async with await Database.open(db_url) as db:
        # Upgraded, not yet rebuilt: everything is on the four-hand ladder.
        assert len((await ladders(db, spring))["euchre4"]) == len(PEOPLE)

        league = LeagueService(db)
        six_hand = await league.standings(GUILD, await SeasonRepo(db).get(spring), "euchre6")
        assert {s.name for s in six_hand.rows} == set(PEOPLE[4:])

        after = await ladders(db, spring)
        four_hand = [
            r for r in as_stored(old.ratings[spring], "euchre4") if r.display_name in FOUR_HAND
        ]
        assert after["euchre4"] == four_hand  # unchanged to the last bit
        _, g2, _, g4 = old.games[spring]
        assert after["euchre6"] == ladder(spring, "euchre6", [g2], PEOPLE[4:])
        assert after["bid_euchre"] == ladder(spring, "bid_euchre", [g4], PEOPLE[4:8])
        points = await RatingRepo(db).points(spring, IDS["Eve"], "euchre6")
        assert [(p.game_id, p.family) for p in points] == [(g2.id, "euchre6")]

        # Spring had ended: its standings are frozen again, one per family.
        for family, names in zip(FAMILIES, (FOUR_HAND, PEOPLE[4:], PEOPLE[4:8]), strict=True):
            frozen = await league.standings(GUILD, await SeasonRepo(db).get(spring), family)
            assert {(s.name, s.mu, s.games) for s in frozen.rows} == {
                (r.display_name, r.mu, r.games) for r in after[family]
            }
            assert [s.place for s in frozen.rows] == list(range(1, len(names) + 1))
            ratings = [s.rating for s in frozen.rows]
            assert ratings == sorted(ratings, reverse=True)

        # Summer: the four who also played six-hand are rated on each ladder apart.
        s1, s2, s3 = old.games[summer]
        now = await ladders(db, summer)
        assert now["euchre4"] == ladder(summer, "euchre4", [s1, s3], FOUR_HAND)
        assert now["euchre6"] == ladder(summer, "euchre6", [s2], PEOPLE[:6])
        assert now["euchre4"] != as_stored(old.ratings[summer], "euchre4")[:4]
        assert now["bid_euchre"] == []
        for season_id in (spring, summer):
            for family in FAMILIES:  # the stored ladders are what re-rating gives
                states = await league.rerate(season_id, family)
                stored = await RatingRepo(db).season(season_id, family)
                assert {r.user_id: (r.mu, r.sigma, r.games, r.wins) for r in stored} == {
                    u: (s.rating.mu, s.rating.sigma, s.games, s.wins) for u, s in states.items()
                }

    async with await Database.open(db_url) as db:  # done once: never again
        assert await rebuild_ladders(db, GUILD) is False
        assert await ladders(db, summer) == now


async def test_a_rebuild_that_fails_midway_changes_nothing_and_runs_again(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = await old_store(db_url)
    spring = min(old.games)

    async def dies(*_: object) -> None:
        raise RuntimeError("the process dies here")

    async with await Database.open(db_url) as db:
        before = [await ladders(db, season_id) for season_id in sorted(old.games)]
        with monkeypatch.context() as patch:
            # Spring's ratings are rewritten before its standings are frozen again.
            patch.setattr(SeasonRepo, "refreeze", dies)
            with pytest.raises(RuntimeError, match="dies here"):
                await rebuild_ladders(db, GUILD)
            assert [await ladders(db, season_id) for season_id in sorted(old.games)] == before
            assert len(before[0]["euchre4"]) == len(PEOPLE)

            league = LeagueService(db)  # start-up goes on, the league answers as it was
            assert await league.rebuild_due() == 0
            standings = await league.standings(GUILD, family="euchre6")
            assert standings.rows == ()

    async with await Database.open(db_url) as db:  # the next start does it
        league = LeagueService(db)
        assert await league.rebuild_due() == 1
        assert {r.display_name for r in (await ladders(db, spring))["euchre6"]} == set(PEOPLE[4:])
        assert await league.rebuild_due() == 0


async def test_migrate_on_the_command_line_rebuilds_the_ladders_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "league.sqlite3"
    url = f"sqlite:///{path}"
    old = await old_store(url)
    spring = min(old.games)
    for name in list(os.environ):
        if name.upper().startswith("EUCHRE_") or name.upper() == "DISCORD_TOKEN":
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EUCHRE_DATABASE_URL", url)
    monkeypatch.setattr(discord.utils, "setup_logging", lambda **kw: None)

    assert await asyncio.to_thread(cli.main, ["migrate"]) == 0
    out = capsys.readouterr().out
    assert f"migrated from schema 9 to {latest_version()}" in out
    assert "rebuilt the league ladders of 1 server(s) by family" in out
    async with await Database.open(url) as db:
        assert await RatingRepo(db).rebuilds_due() == []
        _, g2, _, g4 = old.games[spring]
        after = await ladders(db, spring)
        assert after["euchre6"] == ladder(spring, "euchre6", [g2], PEOPLE[4:])
        assert after["bid_euchre"] == ladder(spring, "bid_euchre", [g4], PEOPLE[4:8])

    assert await asyncio.to_thread(cli.main, ["migrate"]) == 0
    assert "nothing to do" in capsys.readouterr().out
