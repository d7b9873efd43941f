"""A review of one seat's decisions in a finished deal, by the expert's search.

The game record is replayed; at each decision of the seat in the deal (a bid,
a call, going alone, a discard, a card; one legal action is no decision) the
seat's view at that moment is judged (``judging``): the expert chooses as it would
at a table, and where the seat did otherwise both actions are valued on other
sampled deals, so the points lost are an unbiased estimate with its standard
error, which may come out below zero where the action done was as good.

Figures are expected points a deal (as the hint's: weighed by the score,
``stakes``). A decision is graded only where the loss is clear of the noise:
``grade`` reads the loss less ``NOISE_Z`` standard errors, so a flag says the
decision lost at least that much with 95% confidence. Each decision's searches
are seeded from the game's seed, the seat and the action's index, so a review
always says the same. ``ReviewedDecision.hindsight`` keeps what the deal showed
afterwards (every hand at that moment, the plays that followed) for the reasons
people read (``bot.render.reasons``); it is never searched.

A seat's accuracy over decisions is ``accuracy``; grades and accuracy are defined
here only.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from bot.rules import Action, Game, SeatView, parse_record, seat_view
from bot.rules.errors import RulesError
from bot.rules.record import LoadedRecord, starting_game

from .advice import Advice
from .judging import (
    REVIEW_BUDGET,
    Advisor,
    Budget,
    Estimate,
    Verdict,
    estimate,
    expert_advisor,
)

__all__ = [
    "ACCURACY_SCALE",
    "GRADES",
    "NOISE_Z",
    "REVIEW_BUDGET",
    "Advisor",
    "Budget",
    "DealReview",
    "Estimate",
    "GameSummary",
    "Grade",
    "Hindsight",
    "ReviewError",
    "ReviewedDecision",
    "Verdict",
    "accuracy",
    "decision_score",
    "decisions",
    "estimate",
    "expert_advisor",
    "grade",
    "review_deal",
    "review_game",
    "review_seed",
    "summarize",
]

Grade = Literal["inaccuracy", "mistake", "blunder"]

GRADES: Final[tuple[tuple[float, Grade], ...]] = (
    (0.7, "blunder"),
    (0.3, "mistake"),
    (0.1, "inaccuracy"),
)
"""Expected points a deal lost (beyond the noise) from which a decision earns each grade.

A deal is worth one or two points to a side, and the expert's whole edge over a
club player is about 0.2 points a deal (docs/players.md): 0.1 is half of that;
0.3 is the margin by which the expert's search must beat its count to change a
bid; 0.7 is most of a made hand's point, such as a euchre walked into or a march
thrown away.
"""

NOISE_Z: Final = 1.645
"""Standard errors taken off a loss before it is graded: one-sided 95% confidence."""

ACCURACY_SCALE: Final = 1.0
"""Expected points lost at which a decision counts nothing towards accuracy."""


class ReviewError(ValueError):
    """A deal that cannot be reviewed (not played, not finished, a seat not at the table)."""


def grade(lost: float, error: float = 0.0) -> Grade | None:
    """The grade of a decision that lost ``lost`` ± ``error`` (a standard error) expected points.

    The loss counts less ``NOISE_Z`` standard errors: None where it is not clearly
    above the lowest grade's floor.
    """
    sure = lost - NOISE_Z * error
    for floor, name in GRADES:
        if sure >= floor:
            return name
    return None


@dataclass(frozen=True, slots=True)
class Hindsight:
    """What the finished deal showed about a decision's moment; never searched, only told."""

    hands: tuple[tuple[int, ...], ...]
    """Every seat's hand at the moment of the decision."""
    later: tuple[tuple[int, Action], ...]
    """The deal's actions after the decision, each with the seat that took it."""


@dataclass(frozen=True, slots=True)
class ReviewedDecision:
    """One decision: what was done, what the expert prefers and the points it lost."""

    index: int
    """The action's index in the record."""
    view: SeatView
    """The seat's view when it decided."""
    done: Action
    advice: Advice
    """The choosing search of the view (its choice, and the figures it chose by)."""
    estimate: Estimate = field(default_factory=Estimate)
    """The action done valued against the choice, on deals of their own."""
    hindsight: Hindsight | None = None

    @property
    def best(self) -> Action:
        """The expert's choice."""
        return self.advice.action

    @property
    def valued(self) -> bool:
        """Whether the decision has a figure: the expert agrees, or both actions were valued."""
        return self.done == self.best or self.estimate.samples > 0

    @property
    def lost(self) -> float:
        """Expected points lost against the expert's choice (0 where it agrees or cannot say).

        Unbiased, so below zero where the action done did better on the valuing deals.
        """
        if self.done == self.best or not self.valued:
            return 0.0
        return self.estimate.lost

    @property
    def error(self) -> float:
        """The standard error of ``lost`` (0 where the expert agrees)."""
        if self.done == self.best or not self.valued:
            return 0.0
        return self.estimate.error

    @property
    def grade(self) -> Grade | None:
        """``inaccuracy``, ``mistake``, ``blunder``, or None: from the loss beyond its noise."""
        return grade(self.lost, self.error)


@dataclass(frozen=True, slots=True)
class DealReview:
    """A seat's decisions in one deal, the biggest loss first."""

    deal: int
    """The deal's number in the game, from 1."""
    seat: int
    decisions: tuple[ReviewedDecision, ...]

    @property
    def points_lost(self) -> float:
        """Expected points lost over the deal's decisions (unbiased, so it may be below zero)."""
        return sum(d.lost for d in self.decisions)

    @property
    def error(self) -> float:
        """The standard error of ``points_lost`` (the decisions' searches are independent)."""
        return math.sqrt(sum(d.error**2 for d in self.decisions))

    @property
    def flagged(self) -> tuple[ReviewedDecision, ...]:
        """The graded decisions, the biggest loss first."""
        return tuple(d for d in self.decisions if d.grade is not None)

    @property
    def accuracy(self) -> float | None:
        """The seat's accuracy in this deal (``accuracy``); None without a valued decision."""
        return accuracy(self.decisions)


def accuracy(reviewed: Iterable[ReviewedDecision]) -> float | None:
    """100 less the average share of ``ACCURACY_SCALE`` lost a decision, over valued decisions.

    A decision that loses nothing scores 100, one that loses ``ACCURACY_SCALE``
    points or more scores 0, in proportion between. One blunder weighs as one
    decision, so a game is not decided by its worst moment. A loss below zero (the
    action done did better on the valuing deals) counts as it is, so the search's
    noise averages out over the decisions instead of only ever taking away; the
    average is then kept within 0 to 100. None without a valued decision.
    """
    scores = [decision_score(d) for d in reviewed if d.valued]
    if not scores:
        return None
    return min(100.0, max(0.0, sum(scores) / len(scores)))


def decision_score(decision: ReviewedDecision) -> float:
    """One valued decision's part of :func:`accuracy`, before the average is kept in 0-100.

    100 for no loss, 0 for ``ACCURACY_SCALE`` points or more, above 100 for a gain.
    """
    return 100.0 * (1.0 - min(decision.lost, ACCURACY_SCALE) / ACCURACY_SCALE)


def review_seed(game_seed: int, seat: int, index: int) -> int:
    """The seed of the search of action ``index`` of ``seat`` (the same on every machine)."""
    digest = hashlib.blake2b(f"review:{game_seed}:{seat}:{index}".encode(), digest_size=8)
    return int.from_bytes(digest.digest(), "big") >> 1


def _loaded(record: LoadedRecord | Any) -> LoadedRecord:
    return record if isinstance(record, LoadedRecord) else parse_record(record)


def decisions(
    record: LoadedRecord | Any, seat: int, deal: int
) -> Iterator[tuple[int, SeatView, Action]]:
    """Each decision of ``seat`` in deal ``deal``: the action's index, the view, what was done.

    ``record`` is a game record (JSON text, its object, or loaded). ReviewError when
    the deal was not played to its end or the seat is not at the table; a decision
    with one legal action is left out.
    """
    for index, view, action, _ in _moments(_loaded(record), seat, deal):
        yield index, view, action


def _moments(
    loaded: LoadedRecord, seat: int, deal: int
) -> list[tuple[int, SeatView, Action, Hindsight]]:
    """``decisions``, each with what the finished deal showed of its moment."""
    if not 0 <= seat < loaded.rules.players:
        raise ReviewError(f"seat {seat} is not at a {loaded.rules.players}-seat table")
    if deal < 1:
        raise ReviewError(f"deal {deal}: deals are numbered from 1")
    game = starting_game(loaded)
    found: list[tuple[int, SeatView, Action, tuple[tuple[int, ...], ...]]] = []
    played: list[tuple[int, int, Action]] = []
    for index, (actor, action) in enumerate(loaded.actions):
        if game.deal_number > deal or game.over:
            break
        mover = game.turn if actor is None else actor
        if game.deal_number == deal:
            if mover == seat and game.turn == seat:
                view = seat_view(game, seat)
                if action in view.legal and len(set(view.legal)) > 1:
                    hands = tuple(tuple(h) for h in game.hands)
                    found.append((index, view, action, hands))
            if mover is not None:
                played.append((index, mover, action))
        _apply(game, index, actor, action)
    _check_finished(game, deal)
    return [
        (index, view, action, Hindsight(hands, tuple((s, a) for i, s, a in played if i > index)))
        for index, view, action, hands in found
    ]


def _apply(game: Game, index: int, actor: int | None, action: Action) -> None:
    mover = game.turn if actor is None else actor
    try:
        game.apply(-1 if mover is None else mover, action)
    except RulesError as exc:
        raise ReviewError(f"the record breaks the rules at action {index}: {exc}") from None


def _check_finished(game: Game, deal: int) -> None:
    if len(game.results) < deal:
        raise ReviewError(f"deal {deal} was not played (the game has {len(game.results)})")
    if game.results[deal - 1].result == "in_play":
        raise ReviewError(f"deal {deal} is not finished yet: a deal is reviewed once it ends")


def review_deal(
    record: LoadedRecord | Any,
    seat: int,
    deal: int,
    budget: Budget = REVIEW_BUDGET,
    advisor: Advisor | None = None,
) -> DealReview:
    """The review of ``seat``'s decisions in deal ``deal`` of a game record (see the module).

    ``advisor`` replaces the expert's judgement at ``budget`` (tests, a larger search).
    """
    loaded = _loaded(record)
    judge = advisor or expert_advisor(budget)
    reviewed = []
    for index, view, done, hindsight in _moments(loaded, seat, deal):
        verdict = judge(view, done, review_seed(loaded.seed, seat, index))
        reviewed.append(
            ReviewedDecision(index, view, done, verdict.advice, verdict.estimate, hindsight)
        )
    return DealReview(deal, seat, ordered(reviewed))


def ordered(reviewed: Sequence[ReviewedDecision]) -> tuple[ReviewedDecision, ...]:
    """Decisions by points lost, the biggest first; in the order they were made on a tie."""
    return tuple(sorted(reviewed, key=lambda d: (-d.lost, d.index)))


def review_game(
    record: LoadedRecord | Any,
    seat: int,
    budget: Budget = REVIEW_BUDGET,
    advisor: Advisor | None = None,
) -> tuple[DealReview, ...]:
    """The review of every finished deal of a game record for ``seat``, in deal order."""
    loaded = _loaded(record)
    game = starting_game(loaded)
    for index, (actor, action) in enumerate(loaded.actions):
        _apply(game, index, actor, action)
    finished = sum(1 for r in game.results if r.result != "in_play")
    return tuple(review_deal(loaded, seat, n, budget, advisor) for n in range(1, finished + 1))


@dataclass(frozen=True, slots=True)
class GameSummary:
    """A seat's figures over a game's reviewed deals: what is stored as its accuracy."""

    accuracy: float
    decisions: int
    """Decisions the search valued."""
    flagged: int
    points_lost: float
    """Expected points lost over the decisions; at least 0 (their noise may sum below)."""


def summarize(reviews: Iterable[DealReview]) -> GameSummary | None:
    """The seat's accuracy over every decision of the deals (None: no valued decision)."""
    made = [d for review in reviews for d in review.decisions if d.valued]
    score = accuracy(made)
    if score is None:
        return None
    flagged = sum(1 for d in made if d.grade is not None)
    return GameSummary(score, len(made), flagged, max(0.0, sum(d.lost for d in made)))
