"""Does the review mean something? Its points lost against the measured duplicate gap.

Duplicate single deals from 0-0 between the expert and basic, as ``deals`` plays
them (``single_deals``): each deal twice, the sides swapped. The measured gap of
a deal is what the expert's side nets over basic's, averaged over the two
tables; the review's figure is the expected points basic's seats lost in the
same deal by the review (``bot.players.review``), averaged the same way. If the
review's figures are right, the two agree on average: replacing basic's seats
by the expert's one decision at a time is what the duplicate deal measures.

Each decision the review flags is searched again by a search ``check`` times as
large, seeded apart, and counted as a disagreement where that search would not
flag it.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

from bot.players.protocol import make_player
from bot.players.review import REVIEW_BUDGET, Budget, ReviewedDecision, review_deal, review_seed
from bot.rules import HouseRules, RulesError, game_record, new_game

from .arena import game_seed, step, wilson
from .parallel import Progress, in_parts


@dataclass(slots=True)
class GapResult:
    """Per duplicate deal: the measured gap and the review's points lost; the flags checked."""

    rules: HouseRules
    seed: int
    budget: Budget
    check: int
    gaps: list[float] = field(default_factory=list)
    lost: list[float] = field(default_factory=list)
    decisions: int = 0
    flagged: int = 0
    disagreed: int = 0
    seconds: float = 0.0
    """Processor time spent reviewing (the play excluded), over every process."""

    def add(self, other: GapResult) -> None:
        """Fold another part of the same run in."""
        self.gaps += other.gaps
        self.lost += other.lost
        self.decisions += other.decisions
        self.flagged += other.flagged
        self.disagreed += other.disagreed
        self.seconds += other.seconds


def mean_interval(values: list[float]) -> tuple[float, float]:
    """The mean and the half width of its 95% interval (normal approximation)."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0
    mean = sum(values) / n
    if n < 2:
        return mean, math.inf
    var = sum((x - mean) ** 2 for x in values) / (n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def run_review_gap(
    deals: int,
    seed: int = 1,
    rules: HouseRules | None = None,
    budget: Budget = REVIEW_BUDGET,
    check: int = 4,
    jobs: int = 1,
    progress: Progress | None = None,
) -> GapResult:
    """``deals`` duplicate single deals of the expert against basic, basic's decisions reviewed.

    ``check`` is how many times larger the search that checks each flag is (0: none).
    """
    rules = rules or HouseRules.preset_rules("north_american")
    if rules.game == "bid_euchre":
        raise RulesError("the review's gap is measured on euchre, not Bid Euchre")
    result = GapResult(rules, seed, budget, check)
    fields = rules.model_dump()
    for part in in_parts(_part, deals, jobs, fields, seed, budget, check, progress=progress):
        result.add(part)
    return result


def _part(
    fields: dict[str, Any], seed: int, budget: Budget, check: int, first: int, last: int
) -> GapResult:
    rules = HouseRules.build(fields)
    result = GapResult(rules, seed, budget, check)
    for index in range(first, last):
        gseed = game_seed(seed, index)
        gap = lost = 0.0
        for expert_team in (0, 1):
            game = new_game(rules, seed=gseed, dealer=index % rules.players)
            specs = ["expert" if s % 2 == expert_team else "basic" for s in range(rules.players)]
            players = [make_player(spec, gseed * 8 + s) for s, spec in enumerate(specs)]
            while game.deal_number == 1 and not game.over:
                step(game, players)
            points = game.results[0].points
            gap += points[expert_team] - points[1 - expert_team]
            record = game_record(game)
            start = time.process_time()
            for seat in range(rules.players):
                if seat % 2 == expert_team:
                    continue
                review = review_deal(record, seat, 1, budget)
                lost += review.points_lost
                result.decisions += len(review.decisions)
                for decision in review.flagged:
                    result.flagged += 1
                    if check and not _confirmed(decision, budget.scaled(check), gseed, seat):
                        result.disagreed += 1
            result.seconds += time.process_time() - start
        result.gaps.append(gap / 2)
        result.lost.append(lost / 2)
    return result


def _confirmed(decision: ReviewedDecision, larger: Budget, gseed: int, seat: int) -> bool:
    """Whether a search of ``larger`` samples, seeded apart, flags the decision too."""
    seed = review_seed(gseed, seat, decision.index) ^ 0x5EED
    advice = larger.expert(seed).advise(decision.view, also=decision.done)
    again = ReviewedDecision(decision.index, decision.view, decision.done, advice)
    return again.grade is not None


def gap_report(result: GapResult) -> str:
    """The figures as lines of text."""
    n = len(result.gaps)
    gap, gap_ci = mean_interval(result.gaps)
    lost, lost_ci = mean_interval(result.lost)
    diff, diff_ci = mean_interval([a - b for a, b in zip(result.lost, result.gaps, strict=True)])
    ratio = f"{lost / gap:.2f}" if gap else "-"
    budget = result.budget
    lines = [
        f"expert vs basic, rules {result.rules.to_spec()}; {n} duplicate deals, seed "
        f"{result.seed}; review of {budget.worlds} worlds a card, {budget.rollouts} "
        "rollouts a bid",
        f"measured gap    {gap:+.3f} ± {gap_ci:.3f} points a deal (expert minus basic, 95%)",
        f"review's loss   {lost:+.3f} ± {lost_ci:.3f} points a deal (basic's seats, 95%); "
        f"{lost:.3f} / {gap:.3f} = {ratio} of the gap",
        f"loss - gap      {diff:+.3f} ± {diff_ci:.3f} (paired by deal, 95%)",
        f"decisions       {result.decisions} reviewed, {result.flagged} flagged "
        f"({100 * result.flagged / max(1, result.decisions):.1f}%), "
        f"{result.seconds / max(1, 2 * n):.2f} s of review a table",
    ]
    if result.check:
        lo, hi = wilson(result.disagreed, result.flagged)
        lines.append(
            f"larger search   {result.check}x the samples disagrees with {result.disagreed} of "
            f"{result.flagged} flags ({100 * result.disagreed / max(1, result.flagged):.1f}%, "
            f"95% CI {100 * lo:.1f}-{100 * hi:.1f}%)"
        )
    return "\n".join(lines)
