"""The web pages benchmark's league: one public server's season, seeded into a store.

:func:`seed_store` fills a store (SQLite or PostgreSQL) with ``players`` rated players
and ``games`` archived games. The games are real: ``records`` distinct finished games of
random legal moves, made by the rules core, each archived many times with other ids and
other players, so that every replay page replays a real record; each seat's figures are
kept as the archive keeps them. Ratings and the points of the rating charts follow the
games. A few tables are left open, in play. On PostgreSQL the tables are analyzed after
seeding, as autovacuum does to a store that grew.
"""

from __future__ import annotations

import json
import random
from dataclasses import astuple, dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from bot.league.ratings import RatingModel
from bot.rules import HouseRules, game_record, new_game
from bot.store import (
    Database,
    GuildSettingsRepo,
    PlayerRating,
    RatingPoint,
    RatingRepo,
    SeasonRepo,
    Seat,
    TableRepo,
)
from bot.store.figures import FIGURES, seat_figures
from bot.store.games import deal_outcomes
from tests.kit.games import random_game

__all__ = ["GUILD", "League", "seed_store", "user_id"]

GUILD: Final = 900_000_000_000_000_001
"""The seeded server."""
_USER_BASE: Final = 800_000_000_000_000_000
_CHUNK: Final = 2_000
"""Games written per transaction while seeding."""


def user_id(n: int) -> int:
    """The seeded player ``n``'s Discord id."""
    return _USER_BASE + n


@dataclass(frozen=True, slots=True)
class _Record:
    text: str
    outcomes: str
    winner: int | None
    score: tuple[int, int]
    figures: tuple[tuple[int, ...], ...]
    """Each seat's figures (``seat_figures``), as the archive keeps them."""


def _records(count: int, seed: int) -> list[_Record]:
    rules = HouseRules()
    out = []
    for n in range(count):
        game_seed = seed * 1_000_003 + n
        game = random_game(rules, game_seed, rng_seed=game_seed)
        text = json.dumps(game_record(game), ensure_ascii=False, separators=(",", ":"))
        outcomes = json.dumps(deal_outcomes(game), separators=(",", ":"))
        figures = tuple(
            astuple(seat_figures(game.results, seat, seat % 2)) for seat in range(game.players)
        )
        out.append(_Record(text, outcomes, game.winner, (game.score[0], game.score[1]), figures))
    return out


@dataclass(slots=True)
class _Ladder:
    """The running ratings of the seeded players, walked game by game."""

    model: RatingModel
    mu: dict[int, float] = field(default_factory=dict)
    sigma: dict[int, float] = field(default_factory=dict)
    games: dict[int, int] = field(default_factory=dict)
    wins: dict[int, int] = field(default_factory=dict)
    last: dict[int, int] = field(default_factory=dict)

    def play(self, game_id: int, user: int, won: bool) -> tuple[float, float]:
        start = self.model.initial()
        mu = self.mu.get(user, start.mu) + (0.6 if won else -0.5)
        sigma = max(0.9, self.sigma.get(user, start.sigma) * 0.97)
        self.mu[user], self.sigma[user] = mu, sigma
        self.games[user] = self.games.get(user, 0) + 1
        self.wins[user] = self.wins.get(user, 0) + won
        self.last[user] = game_id
        return mu, sigma


@dataclass(frozen=True, slots=True)
class League:
    """What to seed: ``records`` distinct games archived ``games`` times in all."""

    players: int
    games: int
    records: int
    open_tables: int
    seed: int


async def seed_store(db: Database, options: League) -> tuple[int, list[int]]:
    """Fill ``db`` with the league; the season's id and the seeded games' ids."""
    rng = random.Random(options.seed)
    await GuildSettingsRepo(db).update(GUILD, web_public=True)
    season = await SeasonRepo(db).start(GUILD, "Bench season")
    records = _records(options.records, options.seed)
    ladder = _Ladder(RatingModel.from_spec(season.rating_model))
    points: list[RatingPoint] = []
    start = datetime.now(UTC) - timedelta(minutes=options.games)
    users = range(options.players)
    ids: list[int] = []
    for first in range(1, options.games + 1, _CHUNK):
        games: list[tuple[Any, ...]] = []
        seats: list[tuple[Any, ...]] = []
        figures: list[tuple[Any, ...]] = []
        for game_id in range(first, min(first + _CHUNK, options.games + 1)):
            record = records[game_id % len(records)]
            finished = (start + timedelta(minutes=game_id)).isoformat()
            games.append(
                (
                    game_id,
                    GUILD,
                    game_id,
                    record.text,
                    record.outcomes,
                    True,
                    record.winner,
                    *record.score,
                    finished,
                    finished,
                    season.id,
                )
            )
            for seat, n in enumerate(rng.sample(users, 4)):
                user = user_id(n)
                seats.append((game_id, seat, seat % 2, user, False, None, f"Player {n}"))
                figures.append((game_id, seat, *record.figures[seat]))
                mu, sigma = ladder.play(game_id, user, record.winner == seat % 2)
                points.append(
                    RatingPoint(
                        game_id=game_id, season_id=season.id, user_id=user, mu=mu, sigma=sigma
                    )
                )
            ids.append(game_id)
        async with db.transaction():
            await db.execute_many(
                "INSERT INTO games (id, guild_id, number, record, deal_outcomes, ranked, "
                "winner, score_0, score_1, started_at, finished_at, season_id) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                games,
            )
            await db.execute_many(
                "INSERT INTO game_players (game_id, seat, team, user_id, is_computer, "
                "computer_level, display_name) VALUES (?, ?, ?, ?, ?, ?, ?)",
                seats,
            )
            await db.execute_many(
                f"INSERT INTO seat_figures (game_id, seat, {', '.join(FIGURES)}) "
                f"VALUES (?, ?, {', '.join('?' for _ in FIGURES)})",
                figures,
            )
    ratings = [
        PlayerRating(
            season_id=season.id,
            guild_id=GUILD,
            user_id=user,
            display_name=f"Player {user - _USER_BASE}",
            mu=ladder.mu[user],
            sigma=ladder.sigma[user],
            games=ladder.games[user],
            wins=ladder.wins[user],
            last_game_id=ladder.last[user],
        )
        for user in sorted(ladder.mu)
    ]
    await RatingRepo(db).replace_season(season.id, ratings, points)
    await _open_tables(db, options, rng)
    if db.dialect == "postgresql":
        # what autovacuum does to a store that grew: the planner learns the tables' sizes
        await db.execute("ANALYZE")
    return season.id, ids


async def _open_tables(db: Database, options: League, rng: random.Random) -> None:
    """A few tables in play: half-way through a game, every move stored."""
    tables = TableRepo(db)
    rules = HouseRules()
    for n in range(options.open_tables):
        people = rng.sample(range(options.players), 4)
        seats = [Seat.person(s, user_id(p), f"Player {p}") for s, p in enumerate(people)]
        table = await tables.create(
            guild_id=GUILD,
            channel_id=700_000_000_000_000_000 + n,
            host_id=seats[0].user_id or 0,
            rules=rules,
            seed=n,
            seats=seats,
        )
        await tables.set_status(table.id, "playing")
        game = new_game(rules, seed=n)
        moves = rng.randrange(5, 40)
        while not game.over and len(game.log) < moves:
            seat = game.turn
            assert seat is not None
            game.apply(seat, rng.choice(list(game.legal())))
        for idx, (seat, action) in enumerate(game.log):
            await tables.append_action(table.id, idx, seat, action.to_json(seat))
