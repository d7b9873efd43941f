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
        effort.count(nodes=n, samples=1)
        samples += 1
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

__all__ = ["BID_COSTS", "COSTS", "HARD_LIMIT", "Costs", "Effort"]

HARD_LIMIT: Final = 1.25
"""How many budgets of work the search may spend to draw its minimum of samples."""


@dataclass(frozen=True, slots=True)
class Costs:
    """Nanoseconds of one idle core's CPU that each counted step of a search takes."""

    node: float
    """A position the double-dummy solver visits."""
    draw: float
    """A world drawn to read the table (cards dealt around what the seat knows)."""
    replayed: float
    """An action replayed on a drawn world."""
    asked: float
    """An action of another seat replayed that the basic model was asked about."""
    learnt: float
    """A bid a learnt bidder was asked about, on a drawn world or in a rollout."""
    step: float
    """An action of a rollout: the basic policy asked from a seat's view and the action applied."""
    sample: float
    """What a kept sample costs besides: valuing its outcome, the bookkeeping."""
    card: float
    """Bid Euchre: a card of a deal played out on plain lists (``bid_rollout``)."""
    decision: float
    """What every searched decision costs before its first sample (reading the table, say)."""

    def work(
        self,
        *,
        nodes: int = 0,
        draws: int = 0,
        replayed: int = 0,
        asked: int = 0,
        learnt: int = 0,
        steps: int = 0,
        samples: int = 0,
        cards: int = 0,
    ) -> float:
        """The nanoseconds of work these counts stand for."""
        return (
            self.node * nodes
            + self.draw * draws
            + self.replayed * replayed
            + self.asked * asked
            + self.learnt * learnt
            + self.step * steps
            + self.sample * samples
            + self.card * cards
        )


COSTS: Final = Costs(
    node=1.1e3,
    draw=15e3,
    replayed=0,
    asked=12.9e3,
    learnt=63e3,
    step=9.0e3,
    sample=39e3,
    card=0,
    decision=0,
)
"""The prices of the compiled euchre search on one core of the project's 2-core machine.

Fitted by ``python -m lab calibrate`` (least squares of each decision's CPU time on
its counts, over the decisions of seeded expert-against-basic games); docs/players.md
says how and how well. The pure-Python sources do the same work in about two to three times the
time, and play the same.
"""

BID_COSTS: Final = Costs(
    node=0,
    draw=88e3,
    replayed=3.1e3,
    asked=0,
    learnt=0,
    step=0,
    sample=0,
    card=2.5e3,
    decision=0,
)
"""The same for Bid Euchre, whose deals are drawn and played out on plain lists
(``bid_worlds``, ``bid_rollout``): a deal drawn costs more, a card played out less."""


class Effort:
    """One decision's work so far, against its budget and the hard limit (in nanoseconds).

    The counts by kind are kept beside the total, for ``python -m lab calibrate``.
    """

    __slots__ = (
        "asked",
        "budget",
        "cards",
        "costs",
        "draws",
        "hard",
        "learnt",
        "nodes",
        "replayed",
        "samples",
        "spent",
        "steps",
    )

    def __init__(self, budget: float, hard: float, costs: Costs = COSTS) -> None:
        self.budget = budget
        self.hard = hard
        self.costs = costs
        self.spent = costs.decision
        self.nodes = self.draws = self.replayed = self.asked = self.learnt = 0
        self.steps = self.samples = self.cards = 0

    @classmethod
    def start(cls, seconds: float | None, costs: Costs = COSTS) -> Effort:
        """A decision's effort of ``seconds`` of an idle core's work; None counts samples only."""
        if seconds is None:
            return cls(-math.inf, math.inf, costs)
        budget = seconds * 1e9
        return cls(budget, budget * HARD_LIMIT, costs)

    def count(
        self,
        *,
        nodes: int = 0,
        draws: int = 0,
        replayed: int = 0,
        asked: int = 0,
        learnt: int = 0,
        steps: int = 0,
        samples: int = 0,
        cards: int = 0,
    ) -> None:
        """Count work done: so many steps of each kind (``Costs``)."""
        self.nodes += nodes
        self.draws += draws
        self.replayed += replayed
        self.asked += asked
        self.learnt += learnt
        self.steps += steps
        self.samples += samples
        self.cards += cards
        self.spent += self.costs.work(
            nodes=nodes,
            draws=draws,
            replayed=replayed,
            asked=asked,
            learnt=learnt,
            steps=steps,
            samples=samples,
            cards=cards,
        )

    def more(self, samples: int, least: int, most: int) -> bool:
        """Whether to draw another sample: always a first; the least only within the hard limit."""
        if samples >= most:
            return False
        if samples == 0:
            return True
        spent = self.spent
        return spent < self.budget or (samples < least and spent < self.hard)
