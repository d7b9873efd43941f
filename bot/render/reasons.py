"""Why a reviewed decision lost, in terms of the cards."""

from __future__ import annotations

from bot.players.review import ReviewedDecision

__all__ = ["reason"]


def reason(decision: ReviewedDecision) -> str | None:
    """What the action done did wrong, in the cards' terms; None where no pattern fits."""
    return None
