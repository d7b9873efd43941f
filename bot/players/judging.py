"""How the review judges one decision: the expert chooses, then both actions are valued apart.

1. **The choice.** The expert searches the seat's view as it would at a table (its
   own budget of work, ``Budget.choose``) and picks its action.
2. **The value.** Where the seat did something else, both actions are valued on
   another, independent set of sampled deals (worlds consistent with what the seat
   knew; ``ExpertPlayer.sample_values``): the same deals, and the same rollouts, for
   both (common random numbers). The loss is the mean of the paired differences and
   its standard error theirs (``estimate``).

Choosing on one set of deals and valuing on another is what keeps the loss
unbiased: the noise that picked the expert's action does not also flatter it. A
player as good as the expert's own search loses about nothing on average, however
small the samples.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from bot.rules import Action, SeatView

from .advice import Advice
from .expert import ExpertPlayer
from .protocol import SEARCH_BUDGET

__all__ = [
    "REVIEW_BUDGET",
    "Advisor",
    "Budget",
    "Estimate",
    "Verdict",
    "estimate",
    "expert_advisor",
]


@dataclass(frozen=True, slots=True)
class Budget:
    """The review's searches: the expert's own to choose, counted samples to value."""

    choose: float | None = SEARCH_BUDGET
    """The choosing search's work, in seconds of an idle core (``effort``): the expert's at a
    table. None draws ``counted`` samples instead (tests)."""
    counted: int = 8
    """Samples the choosing search draws when ``choose`` is None."""
    worlds: int = 200
    """Sampled deals a card is valued on, solved double dummy (Bid Euchre: every decision's)."""
    rollouts: int = 600
    """Sampled deals a bid, a discard or going alone is valued on, played out by basic."""
    factor: int = 1
    """How many times the expert's own search (its caps of samples too) this one is."""

    def scaled(self, factor: int) -> Budget:
        """The same searches ``factor`` times as large."""
        return Budget(
            None if self.choose is None else self.choose * factor,
            self.counted * factor,
            self.worlds * factor,
            self.rollouts * factor,
            self.factor * factor,
        )

    def chooser(self, seed: int) -> ExpertPlayer:
        """The expert that chooses: at a table's budget of work (or ``counted`` samples)."""
        if self.choose is None:
            n = self.counted
            return ExpertPlayer(
                seed=seed, budget=None, min_samples=n, max_samples=n, max_bid_samples=n
            )
        table = ExpertPlayer(seed=seed)
        return ExpertPlayer(
            seed=seed,
            budget=self.choose,
            max_samples=table.max_samples * self.factor,
            max_bid_samples=table.max_bid_samples * self.factor,
        )

    def samples(self, view: SeatView) -> int:
        """How many sampled deals value the actions of ``view``."""
        if view.phase == "play" or view.rules.game == "bid_euchre":
            return self.worlds
        return self.rollouts


REVIEW_BUDGET: Final = Budget()
"""The review's searches: the table's choice, valued on 200 worlds a card, 600 rollouts a bid."""


@dataclass(frozen=True, slots=True)
class Estimate:
    """What the action done lost against the expert's choice, valued on deals of their own."""

    lost: float = 0.0
    """Expected points a deal: the mean of the paired differences (below zero: done was better)."""
    error: float = 0.0
    """The standard error of ``lost``."""
    samples: int = 0
    """Sampled deals behind it (0: nothing valued)."""


def estimate(rows: Sequence[Sequence[float]]) -> Estimate:
    """The paired estimate from rows of (the choice's value, the done action's value)."""
    diffs = [row[0] - row[1] for row in rows]
    n = len(diffs)
    if n == 0:
        return Estimate()
    mean = sum(diffs) / n
    if n < 2:
        return Estimate(mean, math.inf, n)
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return Estimate(mean, math.sqrt(var / n), n)


@dataclass(frozen=True, slots=True)
class Verdict:
    """One decision judged: the choosing search's advice and the valued loss of the action done."""

    advice: Advice
    estimate: Estimate


def _apart(seed: int) -> int:
    """A seed for the valuing deals, independent of the choosing search's ``seed``."""
    digest = hashlib.blake2b(f"value:{seed}".encode(), digest_size=8)
    return int.from_bytes(digest.digest(), "big") >> 1


Advisor = Callable[[SeatView, Action, int], Verdict]
"""Judges a view's decision, the action done, with the given seed."""


def expert_advisor(budget: Budget = REVIEW_BUDGET) -> Advisor:
    """The expert's judgement at ``budget``: it chooses, then both actions are valued apart."""

    def judge(view: SeatView, done: Action, seed: int) -> Verdict:
        advice = budget.chooser(seed).advise(view)
        if advice.action == done:
            return Verdict(advice, Estimate())
        valuer = ExpertPlayer(seed=_apart(seed), budget=None)
        rows = valuer.sample_values(view, [advice.action, done], budget.samples(view))
        return Verdict(advice, estimate(rows))

    return judge
