"""A game's accuracy is that of its deals reviewed so far, each decision weighing the same."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.review.repository import AccuracyRepo, DealAccuracy, GameAccuracy
from bot.store import Database
from tests.league.util import USERS, archive

ADA = USERS["Ada"]
WHEN = datetime(2026, 1, 2, tzinfo=UTC)


def deal(game_id: int, number: int, accuracy: float, decisions: int) -> DealAccuracy:
    """A deal whose decisions all scored ``accuracy``, each losing 0.25 (a gain above 100)."""
    lost = 0.25 if accuracy <= 100 else -0.5
    return DealAccuracy(
        game_id=game_id,
        user_id=ADA,
        seat=0,
        deal=number,
        accuracy=min(accuracy, 100.0),
        decisions=decisions,
        flagged=1,
        points_lost=max(0.0, lost * decisions),
        score_total=accuracy * decisions,
        lost_total=lost * decisions,
        reviewed_at=WHEN,
    )


async def test_deals_reviewed_make_the_games_accuracy_and_a_deal_again_replaces_itself(
    db: Database,
) -> None:
    game = await archive(db, 3, ["Ada", None, None, None])
    repo = AccuracyRepo(db)
    await repo.save_deal(deal(game.id, 1, 90.0, 4))
    both = await repo.save_deal(deal(game.id, 2, 60.0, 2))
    assert (both.accuracy, both.decisions, both.flagged) == (pytest.approx(80.0), 6, 2)
    again = await repo.save_deal(deal(game.id, 2, 30.0, 2))
    assert (again.accuracy, again.decisions) == (pytest.approx(70.0), 6)
    assert await repo.get(game.id, ADA) == again
    gains = await repo.save_deal(deal(game.id, 3, 150.0, 6))  # a gain: above 100 before the average
    assert (gains.accuracy, gains.decisions) == (pytest.approx(100.0), 12)
    assert gains.points_lost == pytest.approx(0.0), "the gains outweigh the losses: kept at 0"


async def test_a_whole_game_reviewed_before_the_deals_were_kept_stays(db: Database) -> None:
    game = await archive(db, 4, ["Ada", None, None, None])
    repo = AccuracyRepo(db)
    whole = GameAccuracy(
        game_id=game.id,
        user_id=ADA,
        seat=0,
        accuracy=75.0,
        decisions=20,
        flagged=3,
        points_lost=1.0,
        reviewed_at=WHEN,
    )
    await repo.save(whole)
    assert await repo.save_deal(deal(game.id, 1, 10.0, 2)) == whole
    assert await repo.get(game.id, ADA) == whole
