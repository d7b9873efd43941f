"""The prices of the expert's work (``bot.players.effort.COSTS``), measured on this machine.

The expert's budget is counted in work: solver nodes, worlds drawn, actions
replayed on them, rollout actions, samples, and in Bid Euchre cards played out.
``python -m lab calibrate`` plays seeded games of the expert against basic (whole
games: a later deal's reading of the table asks the learnt bidders, which a first
deal's does not) and records, for every searched decision, its counts of each kind
and its CPU time on the thread (so other work on the machine counts less than in
wall time).
Each decision is searched with a budget drawn between a quarter of the expert's
and twice it, so that the counts vary apart from the prices in use.
A least-squares fit of the time on the counts (no price below zero) gives the
nanoseconds each kind costs, euchre's (``COSTS``) and Bid Euchre's
(``BID_COSTS``) apart; the fit's intercept is what a decision costs before its
first sample. It prints the prices to put there. ``--at-budget`` searches every
decision at the expert's own budget instead and prints the decisions' times, the
check that p50 sits at the budget.

Run it on a core as idle as can be had: the prices are what the budget is made of.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field, fields
from typing import Any, Final

from bot.players.effort import BID_COSTS, COSTS, Costs, Work
from bot.players.expert import ExpertPlayer
from bot.players.protocol import SEARCH_BUDGET, make_player
from bot.rules import HouseRules, new_game, seat_view

from .arena import game_seed, percentile
from .parallel import Progress, in_parts

KINDS: Final = tuple(f.name for f in fields(Work))
"""The counted kinds of work, in ``Work``'s order (``Costs.decision`` is the intercept)."""


@dataclass(slots=True)
class Sample:
    """One searched decision: its counts by kind (``KINDS``), its CPU time in ns, its phase."""

    counts: tuple[int, ...]
    ns: int
    phase: str
    bid_euchre: bool = False


@dataclass(slots=True)
class Calibration:
    """The decisions measured."""

    samples: list[Sample] = field(default_factory=list)

    def of(self, bid_euchre: bool) -> list[Sample]:
        """The decisions of Bid Euchre, or of euchre."""
        return [s for s in self.samples if s.bid_euchre == bid_euchre]


def fit(samples: list[Sample]) -> Costs:
    """The least-squares prices (ns) of each kind of work, none below zero, with an intercept."""
    rows = [[float(c) for c in s.counts] + [1.0] for s in samples]
    coef = nonnegative_least_squares(rows, [float(s.ns) for s in samples])
    prices = {k: round(c, -1) for k, c in zip(KINDS, coef, strict=False)}
    return Costs(**prices, decision=round(coef[-1], -3))


def r_squared(costs: Costs, samples: list[Sample]) -> float:
    """How much of the decisions' spread in time ``costs`` explains."""
    times = [float(s.ns) for s in samples]
    mean = sum(times) / len(times)
    total = sum((t - mean) ** 2 for t in times)
    left = sum((t - predict(costs, s)) ** 2 for t, s in zip(times, samples, strict=True))
    return 1.0 - left / total if total else 1.0


def predict(costs: Costs, sample: Sample) -> float:
    """The time ``costs`` gives a decision of these counts."""
    return costs.decision + costs.of(Work(*sample.counts))


def nonnegative_least_squares(
    rows: list[list[float]], target: list[float], sweeps: int = 2000
) -> list[float]:
    """The ``x >= 0`` minimising ``|rows x - target|``: coordinate descent, normal equations.

    Columns are scaled to unit size first, so that counts of very different sizes
    (nodes in the hundred thousands, samples in the hundreds) converge alike.
    """
    width = len(rows[0])
    scale = [max(abs(r[j]) for r in rows) or 1.0 for j in range(width)]
    cols = [[r[j] / scale[j] for r in rows] for j in range(width)]
    gram = [[sum(a * b for a, b in zip(ci, cj, strict=True)) for cj in cols] for ci in cols]
    rhs = [sum(a * t for a, t in zip(c, target, strict=True)) for c in cols]
    x = [0.0] * width
    for _ in range(sweeps):
        for j in range(width):
            if gram[j][j] <= 0.0:
                continue
            rest = rhs[j] - sum(gram[j][k] * x[k] for k in range(width) if k != j)
            x[j] = max(0.0, rest / gram[j][j])
    return [v / s for v, s in zip(x, scale, strict=True)]


def run_calibration(
    games: int,
    seed: int = 1,
    presets: tuple[str, ...] = ("north_american",),
    budget: float = SEARCH_BUDGET,
    at_budget: bool = False,
    jobs: int = 1,
    progress: Progress | None = None,
) -> Calibration:
    """The searched decisions of ``games`` games of each preset, expert against basic.

    Each decision's budget is drawn from a quarter of ``budget`` to twice it, or is
    ``budget`` itself with ``at_budget``.
    """
    result = Calibration()
    for preset in presets:
        fields = HouseRules.preset_rules(preset).model_dump()
        for part in in_parts(
            _part, games, jobs, fields, seed, budget, at_budget, progress=progress
        ):
            result.samples += part
    return result


def _part(
    fields: dict[str, Any], seed: int, budget: float, at_budget: bool, first: int, last: int
) -> list[Sample]:
    rules = HouseRules.build(fields)
    bid_euchre = rules.game == "bid_euchre"
    found: list[Sample] = []
    for index in range(first, last):
        gseed = game_seed(seed, index)
        game = new_game(rules, seed=gseed, dealer=index % rules.players)
        basic = make_player("basic")
        draw = random.Random(gseed)
        while not game.over:
            seat = game.turn
            assert seat is not None
            view = seat_view(game, seat)
            player = basic
            if seat % 2 == 0:
                scale = 1.0 if at_budget else draw.uniform(0.25, 2.0)
                player = ExpertPlayer(gseed * 8 + seat, scale * budget)
            start = time.thread_time_ns()
            action = player.choose(view)
            ns = time.thread_time_ns() - start
            if isinstance(player, ExpertPlayer) and player.effort.done.samples:
                done = player.effort.done
                counts = tuple(getattr(done, kind) for kind in KINDS)
                found.append(Sample(counts, ns, str(view.phase), bid_euchre))
            game.step(action)
    return found


def calibration_report(result: Calibration) -> str:
    """Per game: the decisions' times, the prices in use and the prices fitted."""
    lines = []
    for bid_euchre, name, used in ((False, "COSTS", COSTS), (True, "BID_COSTS", BID_COSTS)):
        samples = result.of(bid_euchre)
        if not samples:
            continue
        times = sorted(s.ns for s in samples)
        fitted = fit(samples)
        lines += [
            f"{'Bid Euchre' if bid_euchre else 'euchre'}: {len(times)} searched decisions, "
            f"CPU time p50 {_ms(percentile(times, 0.5))}, p95 {_ms(percentile(times, 0.95))}, "
            f"max {_ms(times[-1])}",
            f"  in use: {name} R² {r_squared(used, samples):.2f}",
            "  fitted: Costs("
            + ", ".join(f"{k}={getattr(fitted, k):g}" for k in (*KINDS, "decision"))
            + f")  R² {r_squared(fitted, samples):.2f}",
        ]
        by_phase: dict[str, list[int]] = {}
        for s in samples:
            by_phase.setdefault(s.phase, []).append(s.ns)
        for phase, values in sorted(by_phase.items()):
            values.sort()
            lines.append(
                f"  {phase:<8} {len(values):>5} decisions: p50 {_ms(percentile(values, 0.5))}, "
                f"p95 {_ms(percentile(values, 0.95))}"
            )
    return "\n".join(lines)


def _ms(ns: float) -> str:
    return f"{ns / 1e6:.1f} ms"
