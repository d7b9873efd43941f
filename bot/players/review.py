"""A review of one seat's decisions in a finished deal, by the expert's search.

The game record is replayed; at each decision of the seat in the deal (a bid,
a call, going alone, a discard, a card; one legal action is no decision) the
seat's view at that moment is built and the expert advises it with a fixed
number of samples, more than it draws in play, the action taken searched
among the options. What the seat lost is the expert's figure for its own
choice less its figure for the action taken, in expected points a deal (as the
hint's figures: weighed by the score, ``stakes``), never below zero. Each
decision's search is seeded from the game's seed, the seat and the action's
index, so a review is the same every time it is asked.

A loss is graded ``inaccuracy``, ``mistake`` or ``blunder`` by ``GRADES``; a
seat's accuracy over decisions is ``accuracy``. Both are defined here only.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from bot.rules import Action, Game, SeatView, parse_record, seat_view
from bot.rules.errors import RulesError
from bot.rules.record import LoadedRecord, starting_game

from .advice import Advice
from .expert import ExpertPlayer

__all__ = [
    "ACCURACY_SCALE",
    "GRADES",
    "REVIEW_BUDGET",
    "Advisor",
    "Budget",
    "DealReview",
    "GameSummary",
    "Grade",
    "ReviewError",
    "ReviewedDecision",
    "accuracy",
    "decisions",
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
"""Expected points a deal lost from which a decision earns each grade, the worst first.

A deal is worth one or two points to a side, and the expert's whole edge over a
club player is about 0.2 points a deal (docs/players.md): 0.1 is half of that,
and above what the review's own samples tell apart; 0.3 is the margin by which
the expert's search must beat its count to change a bid; 0.7 is most of a made
hand's point, such as a euchre walked into or a march thrown away.
"""

ACCURACY_SCALE: Final = 1.0
"""Expected points lost at which a decision counts nothing towards accuracy."""


@dataclass(frozen=True, slots=True)
class Budget:
    """The review's search: sampled deals for a card, rollouts for a bid (counted, not timed)."""

    worlds: int = 200
    """Sampled deals solved double dummy for a card (Bid Euchre: each decision's deals)."""
    rollouts: int = 600
    """Sampled deals played out for a bid, a discard or going alone."""

    def scaled(self, factor: int) -> Budget:
        """The same search ``factor`` times as large."""
        return Budget(self.worlds * factor, self.rollouts * factor)

    def expert(self, seed: int) -> ExpertPlayer:
        """An expert that draws exactly this many samples a decision, whatever the time."""
        most = max(self.worlds, self.rollouts)
        return ExpertPlayer(
            seed=seed,
            budget=None,
            min_samples=most,
            max_samples=self.worlds,
            max_bid_samples=self.rollouts,
        )


REVIEW_BUDGET: Final = Budget()
"""The review's samples: in play, the 0.1 s budget fits 40 to 120 deals a card, about 150 a bid."""


class ReviewError(ValueError):
    """A deal that cannot be reviewed (not played, not finished, a seat not at the table)."""


def grade(lost: float) -> Grade | None:
    """The grade of a decision that lost ``lost`` expected points (None: not flagged)."""
    for floor, name in GRADES:
        if lost >= floor:
            return name
    return None


@dataclass(frozen=True, slots=True)
class ReviewedDecision:
    """One decision: what was done, what the expert prefers and the points it lost."""

    index: int
    """The action's index in the record."""
    view: SeatView
    """The seat's view when it decided."""
    done: Action
    advice: Advice
    """The expert's search of the view, the action done among its options."""

    @property
    def valued(self) -> bool:
        """Whether the search put a figure on both the action done and its own choice."""
        values = self.advice.values
        return self.done in values and self.advice.action in values

    @property
    def best(self) -> Action:
        """The expert's choice."""
        return self.advice.action

    @property
    def lost(self) -> float:
        """Expected points lost against the expert's choice (0 where it agrees or cannot say)."""
        if self.done == self.best or not self.valued:
            return 0.0
        values = self.advice.values
        return max(0.0, values[self.best] - values[self.done])

    @property
    def grade(self) -> Grade | None:
        """``inaccuracy``, ``mistake``, ``blunder``, or None."""
        return grade(self.lost)


@dataclass(frozen=True, slots=True)
class DealReview:
    """A seat's decisions in one deal, the biggest loss first."""

    deal: int
    """The deal's number in the game, from 1."""
    seat: int
    decisions: tuple[ReviewedDecision, ...]

    @property
    def points_lost(self) -> float:
        """Expected points lost over the deal's decisions."""
        return sum(d.lost for d in self.decisions)

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
    decision, so a game is not decided by its worst moment, and small losses
    (the search's noise among them) move it little. None without a valued decision.
    """
    scores = [
        100.0 * (1.0 - min(d.lost, ACCURACY_SCALE) / ACCURACY_SCALE) for d in reviewed if d.valued
    ]
    return sum(scores) / len(scores) if scores else None


def review_seed(game_seed: int, seat: int, index: int) -> int:
    """The seed of the search of action ``index`` of ``seat`` (the same on every machine)."""
    digest = hashlib.blake2b(f"review:{game_seed}:{seat}:{index}".encode(), digest_size=8)
    return int.from_bytes(digest.digest(), "big") >> 1


Advisor = Callable[[SeatView, Action, int], Advice]
"""Searches a view, the action done among the options, with the given seed."""


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
    loaded = _loaded(record)
    if not 0 <= seat < loaded.rules.players:
        raise ReviewError(f"seat {seat} is not at a {loaded.rules.players}-seat table")
    if deal < 1:
        raise ReviewError(f"deal {deal}: deals are numbered from 1")
    game = starting_game(loaded)
    found: list[tuple[int, SeatView, Action]] = []
    for index, (actor, action) in enumerate(loaded.actions):
        if game.deal_number > deal or game.over:
            break
        mover = game.turn if actor is None else actor
        if game.deal_number == deal and mover == seat and game.turn == seat:
            view = seat_view(game, seat)
            if action in view.legal and len(set(view.legal)) > 1:
                found.append((index, view, action))
        _apply(game, index, actor, action)
    _check_finished(game, deal)
    yield from found


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


def expert_advisor(budget: Budget = REVIEW_BUDGET) -> Advisor:
    """The expert's search at ``budget``, a fresh expert seeded for each decision."""

    def advise(view: SeatView, done: Action, seed: int) -> Advice:
        return budget.expert(seed).advise(view, also=done)

    return advise


def review_deal(
    record: LoadedRecord | Any,
    seat: int,
    deal: int,
    budget: Budget = REVIEW_BUDGET,
    advisor: Advisor | None = None,
) -> DealReview:
    """The review of ``seat``'s decisions in deal ``deal`` of a game record (see the module).

    ``advisor`` replaces the expert's search at ``budget`` (tests, a larger search).
    """
    loaded = _loaded(record)
    advise = advisor or expert_advisor(budget)
    reviewed = []
    for index, view, done in decisions(loaded, seat, deal):
        advice = advise(view, done, review_seed(loaded.seed, seat, index))
        reviewed.append(ReviewedDecision(index, view, done, advice))
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


def summarize(reviews: Iterable[DealReview]) -> GameSummary | None:
    """The seat's accuracy over every decision of the deals (None: no valued decision)."""
    made = [d for review in reviews for d in review.decisions if d.valued]
    score = accuracy(made)
    if score is None:
        return None
    flagged = sum(1 for d in made if d.grade is not None)
    return GameSummary(score, len(made), flagged, sum(d.lost for d in made))
