"""One deal's review: run in the search pool, and what a review shows of its game.

The review itself (``bot.players.review``) is pure and slow; :func:`review_in_pool`
runs it as a job of the search pool (``bot.search_pool``) and turns what can go wrong
into one sentence for the person who asked: a deal that can't be reviewed, or a
review dropped from the pool's full queue. :class:`~bot.review.service.Reviewer`
finds the games and keeps the reviews.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from bot.errors import UserFacingError
from bot.players.review import REVIEW_BUDGET, Advisor, Budget, DealReview, ReviewError, review_deal
from bot.rules import parse_record
from bot.rules.errors import RulesError
from bot.rules.record import starting_game
from bot.search_pool import DroppedError, Priority, SearchPool
from bot.store import ArchivedGame

__all__ = [
    "ANOTHER_PLAYERS_DEAL",
    "REVIEW_DROPPED",
    "DealShown",
    "KeptTableGame",
    "NotYourDealError",
    "finished_deals",
    "review_in_pool",
]

ANOTHER_PLAYERS_DEAL: Final = (
    "That Review is of another player's deal: a review goes through your own decisions."
)

REVIEW_DROPPED: Final = (
    "The bot had more reviews waiting than it keeps, so yours was dropped: "
    "ask for it again in a few minutes."
)
"""A review dropped from the search pool's full queue, in one sentence."""


class NotYourDealError(UserFacingError):
    """A review asked of a game the person did not play in."""


@dataclass(frozen=True, slots=True)
class DealShown:
    """A reviewed deal and where it sits in its game."""

    game: ArchivedGame
    seat: int
    deals: int
    """The game's finished deals."""
    review: DealReview


@dataclass(frozen=True, slots=True)
class KeptTableGame:
    """The game a finished table archived, as its people's Review buttons review it."""

    game: ArchivedGame
    record: dict[str, Any]
    deals: int
    """The game's finished deals."""


def finished_deals(record: dict[str, Any]) -> int:
    """How many deals of a game record were played to their end."""
    loaded = parse_record(record)
    game = starting_game(loaded)
    for actor, action in loaded.actions:
        mover = game.turn if actor is None else actor
        try:
            game.apply(-1 if mover is None else mover, action)
        except RulesError:
            break
    return sum(1 for r in game.results if r.result != "in_play")


async def review_in_pool(
    pool: SearchPool,
    record: dict[str, Any],
    seat: int,
    deal: int,
    budget: Budget = REVIEW_BUDGET,
    advisor: Advisor | None = None,
    *,
    priority: Priority = Priority.REVIEW,
) -> DealReview:
    """``review_deal`` in the search pool; a sentence if the deal can't be, or was dropped.

    ``advisor`` runs where the pool runs its jobs: a worker process needs a picklable
    one (None: the expert at ``budget``, made there).
    """
    try:
        result: DealReview = await pool.run(
            priority, review_deal, record, seat, deal, budget, advisor
        )
    except ReviewError as exc:
        raise UserFacingError(f"That deal can't be reviewed: {exc}.") from None
    except DroppedError:
        raise UserFacingError(REVIEW_DROPPED) from None
    return result
