"""A deal's review in words: each flagged decision in one line, the biggest loss first.

The line names the grade and the moment, the expert's choice and why in terms of
the cards (``reasons.reason``: what the action taken did wrong, or the hint's why
of the choice, ``hints.why_text``), and what the action taken lost, with the 95%
margin of the estimate. The help's sentence on grades is built from
``bot.players.review.GRADES``, so the thresholds it gives are the ones that grade.
"""

from __future__ import annotations

from bot.players.review import (
    ACCURACY_SCALE,
    GRADES,
    DealReview,
    Grade,
    ReviewedDecision,
)
from bot.tables import named_table

from .hints import action_phrase, why_text
from .reasons import reason

NOISE_95 = 1.96
"""Standard errors either side of a loss in its 95% margin, as a review shows it."""

__all__ = [
    "deal_review_text",
    "decision_line",
    "grades_line",
    "moment_words",
    "review_lines",
    "review_text",
    "table_review_text",
]

_MOMENTS = {
    "bid1": "first round of bidding",
    "bid2": "second round of bidding",
    "alone": "going alone",
    "discard": "discard",
    "bid": "bidding",
    "declare": "naming trump",
    "give": "a card for the shooter",
}


def moment_words(decision: ReviewedDecision) -> str:
    """When the decision came: "first round of bidding", "trick 3"."""
    view = decision.view
    if view.phase == "play":
        return f"trick {len(view.tricks) + 1}"
    phase = view.phase or "deal"
    return _MOMENTS.get(phase, phase.replace("_", " "))


def _points(value: float) -> str:
    return f"{value:.2f} point{'' if abs(value - 1.0) < 0.005 else 's'}"


def decision_line(decision: ReviewedDecision) -> str:
    """One decision: "**Mistake** · trick 1: Play A♣: <why>; playing 9♣ loses about ..."."""
    view = decision.view
    grade = decision.grade
    head = f"**{grade.capitalize()}**" if grade is not None else "**Fine**"
    best, _ = action_phrase(view, decision.best)
    _, done = action_phrase(view, decision.done)
    if decision.done == decision.best or not decision.valued:
        return f"{head} · {moment_words(decision)}: {done} is as good as the expert's choice."
    if decision.lost <= 0.0:
        return (
            f"{head} · {moment_words(decision)}: {done} did as well as {best.lower()} "
            f"on {decision.estimate.samples} sampled deals."
        )
    why = reason(decision) or why_text(view, decision.advice)
    margin = NOISE_95 * decision.error
    return (
        f"{head} · {moment_words(decision)}: {best}: {why}; "
        f"{done} loses about {_points(decision.lost)} (± {margin:.2f}) against it "
        f"({decision.estimate.samples} deals sampled)."
    )


def review_lines(review: DealReview, seat_name: str = "you") -> list[str]:
    """The deal's summary line, then each flagged decision, the biggest loss first."""
    count = len(review.decisions)
    if not count:
        return [
            f"Deal {review.deal}: {seat_name} had no decision to make "
            "(every move was the only one allowed)."
        ]
    flagged = review.flagged
    accuracy = review.accuracy
    summary = (
        f"Deal {review.deal}: {count} decision{'s' if count != 1 else ''} by {seat_name}, "
        f"{len(flagged)} flagged, {_points(max(0.0, review.points_lost))} lost"
        + (f"; accuracy {accuracy:.0f}." if accuracy is not None else ".")
    )
    if not flagged:
        floor = GRADES[-1][0]
        return [
            summary,
            f"No decision lost {floor:g} points or more against the expert's choice "
            "beyond the search's noise.",
        ]
    return [summary, *(decision_line(d) for d in flagged)]


def review_text(review: DealReview, seat_name: str = "you") -> str:
    """``review_lines`` as one message."""
    return "\n".join(review_lines(review, seat_name))


def grades_line() -> str:
    """The help's sentence on the review's grades and accuracy, from the thresholds that grade."""
    by_floor: dict[Grade, float] = {name: floor for floor, name in GRADES}
    return (
        "**Review**: **/euchre review** [game] [deal] (default: your last finished deal) has "
        "the expert go through your decisions in a deal, seeing only what you saw: it picks "
        "its own move as it would at the table, then weighs yours against it on other "
        "sampled deals; its buttons step to the game's other deals. A decision that loses "
        f"{by_floor['inaccuracy']:g} expected points or more is an **inaccuracy**, "
        f"{by_floor['mistake']:g} a **mistake**, {by_floor['blunder']:g} a **blunder**, "
        "counting only what is clear of the samples' noise; the biggest loss comes first. "
        "Your accuracy in a game averages your decisions: "
        f"100 for one the expert agrees with, 0 for one that loses {ACCURACY_SCALE:g} point "
        "or more."
    )


MESSAGE_LIMIT = 2000
"""Characters a Discord message's content may hold."""


def deal_review_text(number: int, deals: int, review: DealReview) -> str:
    """A deal's review as the answer to ``/euchre review``: which deal of game ``number``."""
    head = f"🔍 **Review of game #{number}**, deal {review.deal} of {deals}"
    return fitted([head, *review_lines(review)])


def table_review_text(number: int | None, deals: int, review: DealReview) -> str:
    """A deal's review from the Review button of table ``number`` (None: unknown), then it."""
    head = f"🔍 **Review at {named_table(number).lower()}**, deal {review.deal} of {deals}"
    return fitted([head, *review_lines(review)])


def fitted(lines: list[str], limit: int = MESSAGE_LIMIT) -> str:
    """``lines`` as one message within ``limit``, whole lines only.

    Lines that do not fit are left out from the end (the smallest losses, as the
    flagged lines come biggest first), and a last line says how many.
    """
    text = "\n".join(lines)
    if len(text) <= limit:
        return text
    for keep in range(len(lines) - 1, 0, -1):
        left = len(lines) - keep
        tail = f"… and {left} more flagged decision{'s' if left != 1 else ''}."
        text = "\n".join([*lines[:keep], tail])
        if len(text) <= limit:
            return text
    return lines[0][:limit]
