"""How much a searching decision may do: a fixed amount of work, not a time.

A decision's budget is counted in the work its search does, never read off a
clock: solver nodes, actions replayed on sampled worlds, actions of rollouts
played by the basic policy, samples drawn. Each kind of step is priced in the
nanoseconds it takes on one idle core of the project's machine (``COSTS``,
measured by ``python -m lab calibrate``), so a budget of 0.1 s means "what fits
in 0.1 s on an idle core". On a busy machine a decision takes longer but plays
exactly the same: the expert's strength, its hints and its reviews don't
depend on the load, and a decision is the same wherever it runs.

    effort = Effort.start(0.1)          # None: count samples only (the least)
    while effort.more(samples, least=6, most=120):
        ...                              # draw and value one sample
        effort.count(Work(nodes=n, samples=1))
        samples += 1
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Final

__all__ = ["BID_COSTS", "COSTS", "HARD_LIMIT", "Costs", "Effort", "Work"]

HARD_LIMIT: Final = 1.25
"""How many budgets of work the search may spend to draw its minimum of samples."""


@dataclass(slots=True)
class Work:
    """What a search did, counted by kind."""

    nodes: int = 0
    """Positions the double-dummy solver visited."""
    draws: int = 0
    """Worlds drawn to read the table (cards dealt around what the seat knows)."""
    replayed: int = 0
    """Actions replayed on the drawn worlds."""
    asked: int = 0
    """Of those, other seats' actions the basic model was asked about."""
    learnt: int = 0
    """Bids a learnt bidder was asked about, on a drawn world or in a rollout."""
    steps: int = 0
    """Actions of rollouts: the basic policy asked from a seat's view, the action applied."""
    samples: int = 0
    """Samples kept: valuing each outcome, the bookkeeping."""
    cards: int = 0
    """Bid Euchre: cards of deals played out on plain lists (``bid_rollout``)."""

    def add(self, other: Work) -> None:
        """Count ``other`` in too."""
        for f in _KINDS:
            setattr(self, f, getattr(self, f) + getattr(other, f))


_KINDS: Final = tuple(f.name for f in fields(Work))


@dataclass(frozen=True, slots=True)
class Costs:
    """Nanoseconds of one idle core's CPU that one of each kind of ``Work`` takes."""

    nodes: float
    draws: float
    replayed: float
    asked: float
    learnt: float
    steps: float
    samples: float
    cards: float
    decision: float = 0.0
    """What every searched decision costs before its first sample."""

    def of(self, work: Work) -> float:
        """The nanoseconds ``work`` stands for."""
        return float(sum(getattr(self, f) * getattr(work, f) for f in _KINDS))


COSTS: Final = Costs(
    nodes=1.1e3,
    draws=15e3,
    replayed=0,
    asked=12.9e3,
    learnt=63e3,
    steps=9.0e3,
    samples=39e3,
    cards=0,
)
"""The prices of the compiled euchre search on one core of the project's 2-core machine.

Fitted by ``python -m lab calibrate`` (least squares of each decision's CPU time on
its counts, over the decisions of seeded expert-against-basic games); docs/players.md
says how and how well. The pure-Python sources do the same work in about two to three times the
time, and play the same.
"""

BID_COSTS: Final = Costs(
    nodes=0,
    draws=88e3,
    replayed=3.1e3,
    asked=0,
    learnt=0,
    steps=0,
    samples=0,
    cards=2.5e3,
)
"""The same for Bid Euchre, whose deals are drawn and played out on plain lists
(``bid_worlds``, ``bid_rollout``): a deal drawn costs more, a card played out less."""


class Effort:
    """One decision's work so far, against its budget and the hard limit (in nanoseconds)."""

    __slots__ = ("budget", "costs", "done", "hard", "spent")

    def __init__(self, budget: float, hard: float, costs: Costs = COSTS) -> None:
        self.budget = budget
        self.hard = hard
        self.costs = costs
        self.spent = costs.decision
        self.done = Work()
        """The work counted so far, by kind (``python -m lab calibrate`` reads it)."""

    @classmethod
    def start(cls, seconds: float | None, costs: Costs = COSTS) -> Effort:
        """A decision's effort of ``seconds`` of an idle core's work; None counts samples only."""
        if seconds is None:
            return cls(-math.inf, math.inf, costs)
        budget = seconds * 1e9
        return cls(budget, budget * HARD_LIMIT, costs)

    def count(self, work: Work) -> None:
        """Count ``work`` as done."""
        self.done.add(work)
        self.spent += self.costs.of(work)

    def more(self, samples: int, least: int, most: int) -> bool:
        """Whether to draw another sample: always a first; the least only within the hard limit."""
        if samples >= most:
            return False
        if samples == 0:
            return True
        spent = self.spent
        return spent < self.budget or (samples < least and spent < self.hard)
