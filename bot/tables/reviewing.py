"""Which finished deals of a table its people may have reviewed, and the record to review.

After each deal of a casual game, each person at the table may ask the expert to review
their decisions in it; in a ranked game, only once the game has ended (a review during
a ranked game would be a hint). The review itself is ``bot.players.review``'s, on the
table's record: it is slow, so the caller runs it in a worker thread.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import WrongStageError

if TYPE_CHECKING:
    from .table import Table

__all__ = ["review_record", "reviewable_deals"]


def reviewable_deals(table: Table) -> int:
    """How many of the table's deals (the first ones, all finished) may be reviewed now."""
    game = table.game
    if game is None:
        return 0
    if table.status == "finished":
        return sum(1 for r in game.results if r.result != "in_play")
    if table.status != "playing" or not table.casual:
        return 0
    return sum(1 for r in game.results[:-1] if r.result != "in_play")


def review_record(table: Table, user_id: int, seat: int, deal: int) -> dict[str, Any]:
    """The record in which ``user_id`` may review ``seat``'s deal ``deal``; a sentence if not."""
    if table.seat_of(user_id) != seat:
        raise WrongStageError(
            "That Review is of another player's deal: a review goes through your own decisions."
        )
    deals = reviewable_deals(table)
    if not 1 <= deal <= deals:
        raise WrongStageError(
            "That deal can't be reviewed now: in a ranked game a review comes once the game "
            "has ended, in a casual game once the deal has."
        )
    return table.record()
