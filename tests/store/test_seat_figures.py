"""Each seat's figures of an archived game: written with the game, counted for the games
archived before schema 27 by the migration, and read back as a player's season games.

Both run on SQLite and PostgreSQL: the migration's backfill is each dialect's own SQL
(JSON functions differ), and it must count exactly what :func:`seat_figures` counts.
"""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

from bot.rules import Game, HouseRules, game_record
from bot.store import Database, GameArchiveRepo, SeasonRepo, Seat, migrate
from bot.store.figures import FIGURES, FiguresRepo, SeatFigures, seat_figures
from bot.store.games import deal_outcomes
from tests.kit.games import random_game

from .conftest import GUILD, build_at_version, sql, write_rows

Rows = list[tuple[str, dict[str, Any]]]

ME = 4_000_000_000_000_004
SEATS = (
    Seat.person(0, ME, "Me"),
    Seat.person(1, ME + 1, "Left"),
    Seat.person(2, ME + 2, "Partner"),
    Seat.computer(3, "Right"),
)


def finished(seed: int) -> Game:
    return random_game(HouseRules(), seed, rng_seed=seed)


def archived_rows(game_id: int, outcomes: list[dict[str, Any]] | None, **game: Any) -> Rows:
    """A game and its seats as a bot of schema 26 left them (``outcomes``: its deals')."""
    row = {
        "id": game_id,
        "guild_id": GUILD,
        "record": "{}",
        "deal_outcomes": None if outcomes is None else json.dumps(outcomes),
        "ranked": True,
        "winner": 0,
        "score_0": 10,
        "score_1": 4,
        "finished_at": "2025-03-01T00:00:00+00:00",
    }
    seats = [
        {
            "game_id": game_id,
            "seat": s.seat,
            "team": s.team,
            "user_id": s.user_id,
            "is_computer": s.is_computer,
            "display_name": s.display_name,
        }
        for s in SEATS
    ]
    return [("games", row | game), *(("game_players", seat) for seat in seats)]


async def test_an_archived_game_keeps_each_seats_figures(db: Database) -> None:
    archive = GameArchiveRepo(db)
    games = [finished(seed) for seed in range(6)]
    for game in games:
        await archive.archive(guild_id=GUILD, record=game_record(game), players=SEATS, ranked=True)
    rows = await db.fetch_all("SELECT * FROM seat_figures ORDER BY game_id, seat")
    assert len(rows) == 4 * len(games)
    for n, game in enumerate(games):
        for seat in range(4):
            row = rows[4 * n + seat]
            kept = SeatFigures(*(row[name] for name in FIGURES))
            assert kept == seat_figures(game.results, seat, seat % 2)
    played_out = sum(
        f for r in rows for f in (r["marches"], r["euchres_made"], r["euchres_suffered"])
    )
    assert played_out > 0  # random games make and euchre trump: the counts are not all 0


async def test_a_players_season_games_are_read_from_their_seat(db: Database) -> None:
    archive = GameArchiveRepo(db)
    game = finished(11)
    stored = await archive.archive(
        guild_id=GUILD, record=game_record(game), players=SEATS, ranked=True
    )
    season = await SeasonRepo(db).start(GUILD, "One")
    await archive.assign_season(stored.id, season.id, ranked=True)
    (played,) = await FiguresRepo(db).season_games(GUILD, ME + 2, season.id)
    assert (played.game_id, played.seat, played.team) == (stored.id, 2, 0)
    assert (played.winner, played.score) == (game.winner, tuple(game.score))
    assert played.figures == seat_figures(game.results, 2, 0)
    assert [(m.seat, m.user_id, m.is_computer) for m in played.others] == [
        (0, ME, False),
        (1, ME + 1, False),
        (3, None, True),
    ]
    assert await FiguresRepo(db).season_games(GUILD, ME + 9, season.id) == []


def deal(maker: int | None, result: str, alone: tuple[int, ...] = ()) -> dict[str, Any]:
    return {
        "maker": maker,
        "alone": list(alone),
        "result": result,
        "tricks": [3, 2],
        "points": [1, 0],
    }


# Every kind of deal a game's outcomes hold: made, marched, euchred, alone on either
# side, defended alone, and those that count for nothing (all passed, in play).
OUTCOMES = [
    deal(0, "made"),
    deal(1, "march"),
    deal(2, "march", (2,)),
    deal(3, "euchred"),
    deal(0, "euchred", (0,)),
    deal(1, "made", (1,)),
    deal(3, "euchred", (3, 0)),
    deal(2, "made", (2, 1)),
    deal(None, "passed"),
    deal(1, "in_play"),
]


async def test_the_migration_counts_the_games_archived_before_it(db_url: str) -> None:
    await build_at_version(db_url, 26)
    kept = {101: OUTCOMES, 102: OUTCOMES[:3], 103: [deal(None, "passed")], 104: None}
    games = [row for game_id, outcomes in kept.items() for row in archived_rows(game_id, outcomes)]
    await write_rows(db_url, games)
    assert await migrate(db_url, target=27) == (26, 27)

    rows = await sql(db_url, "SELECT * FROM seat_figures ORDER BY game_id, seat")
    found = {(r["game_id"], r["seat"]): SeatFigures(*(r[n] for n in FIGURES)) for r in rows}
    expected = {
        (game_id, seat): seat_figures([SimpleNamespace(**d) for d in outcomes], seat, seat % 2)
        for game_id, outcomes in kept.items()
        if outcomes is not None
        for seat in range(4)
    }
    assert found == expected  # a game without outcomes (104) gets no rows: it is replayed
    me = found[(101, 0)]
    assert me == SeatFigures(
        marches=1,
        euchres_made=2,
        euchres_suffered=1,
        loners_tried=1,
        loners_made=0,
        defended_alone=1,
        lone_defence_euchres=1,
    )
    assert found[(103, 0)] == SeatFigures()


async def test_the_backfill_agrees_with_the_archive_on_real_games(db_url: str) -> None:
    # the migration's SQL, run over what archiving wrote, counts what archiving counted
    await build_at_version(db_url, 26)
    games = {200 + n: finished(100 + n) for n in range(8)}
    rows = [
        row
        for game_id, game in games.items()
        for row in archived_rows(
            game_id,
            deal_outcomes(game),
            winner=game.winner,
            score_0=game.score[0],
            score_1=game.score[1],
        )
    ]
    await write_rows(db_url, rows)
    await migrate(db_url)
    kept = await sql(db_url, "SELECT * FROM seat_figures ORDER BY game_id, seat")
    assert len(kept) == 4 * len(games)
    for r in kept:
        counted = SeatFigures(*(r[n] for n in FIGURES))
        assert counted == seat_figures(games[r["game_id"]].results, r["seat"], r["seat"] % 2)
