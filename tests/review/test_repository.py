"""Each person's accuracy a game, stored and read back as a history, on both back ends."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from pydantic import ValidationError

from bot.review.repository import AccuracyRepo, GameAccuracy
from bot.rules import HouseRules, game_record
from bot.store import Database, GameArchiveRepo, NotFoundError
from tests.kit.games import random_game
from tests.store.conftest import FOUR_SEATS, GUILD, HOST

RULES = HouseRules().with_changes(target_score=5)
WHEN = datetime(2026, 5, 1, 20, 0, tzinfo=UTC)


async def _archived(db: Database, seed: int, guild_id: int = GUILD) -> int:
    record = game_record(random_game(RULES, seed=seed, rng_seed=seed))
    game = await GameArchiveRepo(db).archive(
        guild_id=guild_id, record=record, players=FOUR_SEATS, ranked=True
    )
    return game.id


def _entry(game_id: int, accuracy: float, user_id: int = HOST) -> GameAccuracy:
    return GameAccuracy(
        game_id=game_id,
        user_id=user_id,
        seat=0,
        accuracy=accuracy,
        decisions=30,
        flagged=3,
        points_lost=1.25,
        reviewed_at=WHEN,
    )


async def test_an_accuracy_is_saved_replaced_and_read_back(db_url: str) -> None:
    async with await Database.open(db_url) as db:
        game_id = await _archived(db, 3)
        repo = AccuracyRepo(db)
        assert await repo.get(game_id, HOST) is None
        await repo.save(_entry(game_id, 81.5))
        await repo.save(_entry(game_id, 84.0))  # a review asked again replaces the figure
    async with await Database.open(db_url) as db:
        assert await AccuracyRepo(db).get(game_id, HOST) == _entry(game_id, 84.0)


async def test_a_players_history_is_their_latest_games_oldest_first(db: Database) -> None:
    repo = AccuracyRepo(db)
    ids = [await _archived(db, seed) for seed in range(4)]
    elsewhere = await _archived(db, 9, guild_id=GUILD + 1)
    for n, game_id in enumerate(ids):
        await repo.save(_entry(game_id, 70.0 + n))
    await repo.save(_entry(ids[0], 10.0, user_id=HOST + 1))
    await repo.save(_entry(elsewhere, 99.0))
    history = await repo.history(GUILD, HOST, limit=3)
    assert [p.game_id for p in history] == ids[1:]
    assert [p.accuracy for p in history] == [71.0, 72.0, 73.0]
    assert await repo.average(GUILD, HOST) == (4, pytest.approx(71.5))
    assert await repo.average(GUILD, HOST + 5) == (0, None)


async def test_a_game_not_archived_is_refused(db: Database) -> None:
    with pytest.raises(NotFoundError, match="game 999 is not in the archive"):
        await AccuracyRepo(db).save(_entry(999, 50.0))


async def test_deleting_a_game_deletes_its_accuracies(db: Database) -> None:
    game_id = await _archived(db, 5)
    await AccuracyRepo(db).save(_entry(game_id, 90.0))
    await db.execute("DELETE FROM games WHERE id = ?", (game_id,))
    assert await AccuracyRepo(db).get(game_id, HOST) is None


def test_an_accuracy_out_of_range_is_refused() -> None:
    with pytest.raises(ValidationError):
        _entry(1, 100.5)
    with pytest.raises(ValidationError):
        _entry(1, -1.0)
