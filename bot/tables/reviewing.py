"""Which finished deals of a table its people may have reviewed, and the record to review.

After each deal of a casual game, each person at the table may ask the expert to review
their decisions in it; in a ranked game, only once the game has ended (a review during
a ranked game would be a hint). The review itself is ``bot.players.review``'s, on the
table's record: it is slow, so the caller runs it in the search pool. Once the table is
gone from memory (the bot restarted, or dropped it), a finished game is reviewed from the
archive (:meth:`bot.review.Reviewer.table_game`); a game nothing kept has no review left,
and :func:`no_review_kept` says why.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.review.deal import ANOTHER_PLAYERS_DEAL

from .errors import WrongStageError, named_table

if TYPE_CHECKING:
    from .table import Table

__all__ = ["no_review_kept", "review_record", "reviewable_deals"]


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
        raise WrongStageError(ANOTHER_PLAYERS_DEAL)
    if table.status == "aborted":
        raise no_review_kept(table.number, archive=True)
    deals = reviewable_deals(table)
    if not 1 <= deal <= deals:
        raise WrongStageError(
            "That deal can't be reviewed now: in a ranked game a review comes once the game "
            "has ended, in a casual game once the deal has."
        )
    return table.record()


def no_review_kept(number: int | None, *, archive: bool) -> WrongStageError:
    """The refusal of a Review at a table (numbered, if known) whose game nothing kept.

    ``archive``: the server keeps finished games (its league), so this table's game
    did not finish; else the bot keeps none, and a review lasts as long as its table.
    """
    if archive:
        return WrongStageError(
            f"{named_table(number)} closed before its game ended, so no game was kept to review: "
            "/euchre review goes through the games you have finished."
        )
    return WrongStageError(
        f"{named_table(number)} is closed and this bot keeps no finished games, so its deals "
        "can't be reviewed any more: review a deal from your hand while its table is open."
    )
