"""Does the review mean something? Its points lost against the measured gap, and a control.

Duplicate single deals from 0-0 between the expert and basic, as ``deals`` plays
them (``single_deals``): each deal twice, the sides swapped. The measured gap of a
deal is what the expert's side nets over basic's, averaged over the two tables. On
the first ``review`` deals every seat is reviewed (``bot.players.review``): each
side's points lost in the deal, summed over its seats and averaged over the two
tables. If the review is unbiased, the expert's own loss is about nothing (it is
judged by its own search, valued on other deals), and basic's loss less the
expert's is the gap: replacing one side's decisions by the expert's, one at a
time, is what the duplicate deal measures.

The control: on the first ``control`` deals, the beginner and the random player
also play the same deals against basic and their seats are reviewed; the review
must order them random > beginner > basic > expert, each apart beyond noise.

Each blunder flag of the expert's, basic's and the beginner's seats is judged again
by a search ``check`` times as large (the choosing search and the valuing deals),
seeded apart, and counts as confirmed where that search grades it a blunder too.

``until`` plays on, in blocks of ``BLOCK`` deals, until the gap's 95% half-width is
at most that share of the gap (a sequential stopping rule, so the interval is a
little optimistic); ``keep`` keeps every deal's figures as it ends (``ledger``), so
a run stopped goes on where it was.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Final

from bot.players.protocol import make_player
from bot.players.review import (
    REVIEW_BUDGET,
    Budget,
    DealReview,
    ReviewedDecision,
    expert_advisor,
    grade,
    review_deal,
    review_seed,
)
from bot.rules import HouseRules, RulesError, game_record, new_game

from .arena import game_seed, step, wilson
from .ledger import Ledger
from .parallel import Progress, each_index

LEVELS: Final = ("random", "beginner", "basic", "expert")
"""The levels reviewed, from the weakest: the order the review must find."""
CONTROLS: Final = ("beginner", "random")
"""Levels that play the control deals against basic besides the expert."""
CHECKED: Final = frozenset({"expert", "basic", "beginner"})
"""Levels whose blunders the larger search checks (the random player's are countless)."""
BLOCK: Final = 100
"""Deals played between two looks at the stopping rule."""
LEAST: Final = 200
"""Deals played before the stopping rule may stop a run."""


def mean_interval(values: Sequence[float]) -> tuple[float, float]:
    """The mean and the half width of its 95% interval (normal approximation)."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0
    mean = sum(values) / n
    if n < 2:
        return mean, math.inf
    var = sum((x - mean) ** 2 for x in values) / (n - 1)
    return mean, 1.96 * math.sqrt(var / n)


@dataclass(slots=True)
class Options:
    """What a run measures, besides its size."""

    rules: HouseRules
    seed: int = 1
    budget: Budget = REVIEW_BUDGET
    check: int = 4
    """How many times larger the search that checks each blunder is (0: none)."""
    review: int | None = None
    """Deals reviewed (the first ones); None: every deal."""
    control: int = 0
    """Deals the control levels also play (the first ones)."""

    def key(self) -> dict[str, Any]:
        """What a kept deal's figures depend on (``ledger``)."""
        b = self.budget
        return {
            "run": "review-gap",
            "rules": self.rules.to_spec(),
            "seed": self.seed,
            "budget": [b.choose, b.counted, b.worlds, b.rollouts],
            "check": self.check,
        }

    def wants(self, index: int) -> tuple[bool, bool]:
        """Whether deal ``index`` is reviewed, and whether the control levels play it."""
        return (self.review is None or index < self.review), index < self.control


@dataclass(slots=True)
class GapResult:
    """Per deal, in order: its figures as ``deal_figures`` gives them."""

    options: Options
    deals: list[dict[str, Any]] = field(default_factory=list)

    def gaps(self) -> list[float]:
        """The measured gap of every deal (expert minus basic, points a deal)."""
        return [d["gap"] for d in self.deals]

    def lost(self, level: str) -> list[float]:
        """A level's points lost a deal, over the deals where it was reviewed."""
        return [d["levels"][level]["lost"] for d in self.deals if level in d["levels"]]

    def paired(self, a: str, b: str) -> list[float]:
        """``a``'s loss less ``b``'s, over the deals where both were reviewed."""
        return [
            d["levels"][a]["lost"] - d["levels"][b]["lost"]
            for d in self.deals
            if a in d["levels"] and b in d["levels"]
        ]

    def gap_interval(self) -> tuple[float, float]:
        """The gap's mean and 95% half-width."""
        return mean_interval(self.gaps())


def run_review_gap(
    deals: int,
    seed: int = 1,
    rules: HouseRules | None = None,
    budget: Budget = REVIEW_BUDGET,
    check: int = 4,
    jobs: int = 1,
    progress: Progress | None = None,
    *,
    review: int | None = None,
    control: int = 0,
    until: float | None = None,
    keep: Path | None = None,
) -> GapResult:
    """Up to ``deals`` duplicate single deals of the expert against basic (see the module).

    ``until`` stops at the first block after which the gap's 95% half-width is at most
    that share of the gap; ``keep`` keeps each deal's figures (and a run again takes
    up what is kept).
    """
    rules = rules or HouseRules.preset_rules("north_american")
    if rules.game == "bid_euchre":
        raise RulesError("the review's gap is measured on euchre, not Bid Euchre")
    options = Options(rules, seed, budget, check, review, control)
    kept: dict[int, dict[str, Any]] = {}
    ledger = None if keep is None else Ledger(keep, options.key())
    if ledger is not None:
        kept.update(ledger.results)
    fields = json.dumps(rules.model_dump(), sort_keys=True)
    step_size = deals if until is None else BLOCK
    played = 0
    while played < deals:
        played = min(deals, played + step_size)
        todo = [i for i in range(played) if not _complete(kept.get(i), options, i)]

        def done(index: int, figures: dict[str, Any], played: int = played) -> None:
            kept[index] = figures
            if ledger is not None:
                ledger.add(index, figures)
            if progress is not None:
                progress(sum(1 for i in kept if i < played), played)

        each_index(_part, todo, jobs, fields, options, done=done)
        if until is not None and played >= LEAST:
            gap, half = mean_interval([kept[i]["gap"] for i in range(played)])
            if gap and half <= until * abs(gap):
                break
    return GapResult(options, [kept[i] for i in range(played)])


def _complete(figures: dict[str, Any] | None, options: Options, index: int) -> bool:
    """Whether kept figures hold what ``options`` wants of deal ``index``."""
    if figures is None:
        return False
    reviewed, control = options.wants(index)
    have = set(figures["levels"])
    return (not reviewed or {"expert", "basic"} <= have) and (not control or set(CONTROLS) <= have)


def _part(fields: str, options: Options, first: int, last: int) -> dict[str, Any]:
    options.rules = _built(fields)
    assert last == first + 1
    return deal_figures(options, first)


@lru_cache(maxsize=4)
def _built(fields: str) -> HouseRules:
    """The rules of a run, built once a process (the rules core caches by the object)."""
    return HouseRules.build(json.loads(fields))


def deal_figures(options: Options, index: int) -> dict[str, Any]:
    """Deal ``index``: its gap and, as ``options`` wants, each level's review.

    ``levels`` maps a level to its points lost in the deal (its seats summed, the two
    tables averaged), the squared standard error of that figure, its decisions and
    what ``_tally`` keeps of them.
    """
    rules = options.rules
    gseed = game_seed(options.seed, index)
    reviewed, control = options.wants(index)
    start = time.process_time()
    matches = [("expert", "basic")] + [(level, "basic") for level in CONTROLS if control]
    levels: dict[str, dict[str, Any]] = {}
    gap = 0.0
    for a, b in matches:
        for a_team in (0, 1):
            game = new_game(rules, seed=gseed, dealer=index % rules.players)
            specs = [a if s % 2 == a_team else b for s in range(rules.players)]
            players = [make_player(spec, gseed * 8 + s) for s, spec in enumerate(specs)]
            while game.deal_number == 1 and not game.over:
                step(game, players)
            if a == "expert":
                points = game.results[0].points
                gap += (points[a_team] - points[1 - a_team]) / 2
            if not reviewed and a == "expert":
                continue
            record = game_record(game)
            sides = [a] if a != "expert" else [a, b]
            for seat in range(rules.players):
                level = specs[seat]
                if level not in sides:
                    continue
                review = review_deal(record, seat, 1, options.budget)
                _tally(levels.setdefault(level, _blank()), review, options, level, gseed)
    for figures in levels.values():
        figures["lost"] /= 2
        figures["var"] /= 4
    return {"gap": gap, "levels": levels, "seconds": time.process_time() - start}


def _blank() -> dict[str, Any]:
    return {"lost": 0.0, "var": 0.0, "decisions": 0, "judged": [], "checked": []}


def _tally(
    figures: dict[str, Any], review: DealReview, options: Options, level: str, gseed: int
) -> None:
    """Add a seat's review: its loss, and each decision the expert chose otherwise.

    ``judged`` keeps [lost, error] of every decision the expert chose otherwise (the
    grades are worked out from them); ``checked`` keeps, for each blunder of a level
    in ``CHECKED``, [lost, error] and the larger search's [lost, error] of it.
    """
    figures["lost"] += review.points_lost
    figures["var"] += review.error**2
    figures["decisions"] += len(review.decisions)
    for decision in review.decisions:
        if decision.done == decision.best:
            continue
        figures["judged"].append([decision.lost, decision.error])
        if decision.grade == "blunder" and options.check and level in CHECKED:
            again = _again(decision, options, gseed, review.seat)
            figures["checked"].append([decision.lost, decision.error, *again])


def _again(
    decision: ReviewedDecision, options: Options, gseed: int, seat: int
) -> tuple[float, float]:
    """A search ``options.check`` times as large of the decision, seeded apart: [lost, error]."""
    seed = review_seed(gseed, seat, decision.index) ^ 0x5EED
    judge = expert_advisor(options.budget.scaled(options.check))
    verdict = judge(decision.view, decision.done, seed)
    if verdict.advice.action == decision.done:
        return 0.0, 0.0
    return verdict.estimate.lost, verdict.estimate.error


def _flags(judged: list[list[float]]) -> dict[str, int]:
    """Decisions by grade."""
    found: dict[str, int] = {}
    for lost, error in judged:
        name = grade(lost, error)
        if name is not None:
            found[name] = found.get(name, 0) + 1
    return found


def gap_report(result: GapResult) -> str:
    """The figures as lines of text."""
    options = result.options
    budget = options.budget
    gaps = result.gaps()
    n = len(gaps)
    gap, gap_ci = mean_interval(gaps)
    choose = "a table's budget" if budget.choose is not None else f"{budget.counted} samples"
    lines = [
        f"expert vs basic, rules {options.rules.to_spec()}; {n} duplicate deals, seed "
        f"{options.seed}; the expert chooses at {choose}, valued on {budget.worlds} worlds a "
        f"card, {budget.rollouts} rollouts a bid",
        f"measured gap     {gap:+.3f} ± {gap_ci:.3f} points a deal (expert minus basic, 95%)"
        + (f"; half-width {gap_ci / abs(gap):.0%} of the gap" if gap else ""),
    ]
    for level in LEVELS:
        values = result.lost(level)
        if not values:
            continue
        mean, ci = mean_interval(values)
        mine = [d["levels"][level] for d in result.deals if level in d["levels"]]
        noise = math.sqrt(sum(f["var"] for f in mine)) / len(values)
        decisions = sum(f["decisions"] for f in mine)
        flags = _flags([j for f in mine for j in f["judged"]])
        flagged = ", ".join(
            f"{flags.get(g, 0)} {_plural(g, flags.get(g, 0))}"
            for g in ("blunder", "mistake", "inaccuracy")
        )
        lines.append(
            f"{level:<9} loss  {mean:+.3f} ± {ci:.3f} a deal (95%; the estimates' own standard "
            f"error {noise:.3f}) over {len(values)} deals, {decisions} decisions; {flagged}"
        )
    lines += _verdicts(result, gap)
    return "\n".join(lines)


def _verdicts(result: GapResult, gap: float) -> list[str]:
    """The control, the order, the loss against the gap, and the blunders checked."""
    lines = []
    expert = result.lost("expert")
    if expert:
        mean, ci = mean_interval(expert)
        ok = mean - ci <= 0.0 <= mean + ci or mean <= 0.03
        lines.append(
            f"control          the expert's own loss {mean:+.3f} ± {ci:.3f}: "
            + ("within noise of 0" if ok else "NOT within noise of 0")
        )
    for worse, better in (("random", "beginner"), ("beginner", "basic"), ("basic", "expert")):
        diffs = result.paired(worse, better)
        if not diffs:
            continue
        mean, ci = mean_interval(diffs)
        verdict = "apart" if mean - ci > 0 else "NOT apart"
        lines.append(
            f"order            {worse} - {better}: {mean:+.3f} ± {ci:.3f} over {len(diffs)} "
            f"deals, {verdict}"
        )
    diffs = result.paired("basic", "expert")
    if diffs and gap:
        mean, ci = mean_interval(diffs)
        reviewed = [d for d in result.deals if "basic" in d["levels"] and "expert" in d["levels"]]
        against = [
            d["levels"]["basic"]["lost"] - d["levels"]["expert"]["lost"] - d["gap"]
            for d in reviewed
        ]
        off, off_ci = mean_interval(against)
        lines.append(
            f"loss vs gap      basic - expert {mean:+.3f} ± {ci:.3f} = {mean / gap:.2f} of the "
            f"gap ({(mean - ci) / gap:.2f}-{(mean + ci) / gap:.2f}); less the gap, paired over "
            f"{len(reviewed)} deals: {off:+.3f} ± {off_ci:.3f}"
        )
    checked = [
        grade(c[2], c[3]) == "blunder"
        for d in result.deals
        for level, figures in d["levels"].items()
        if level in CHECKED
        for c in figures["checked"]
        if grade(c[0], c[1]) == "blunder"
    ]
    if checked and result.options.check:
        yes = sum(checked)
        lo, hi = wilson(yes, len(checked))
        lines.append(
            f"blunders checked a search {result.options.check}x as large grades {yes} of "
            f"{len(checked)} a blunder too ({100 * yes / len(checked):.1f}%, 95% CI "
            f"{100 * lo:.1f}-{100 * hi:.1f}%)"
        )
    seconds = sum(d["seconds"] for d in result.deals)
    lines.append(f"CPU time         {seconds / max(1, len(result.deals)):.1f} s a deal")
    return lines


def _plural(name: str, count: int) -> str:
    if count == 1:
        return name
    return name[:-1] + "ies" if name.endswith("y") else name + "s"
