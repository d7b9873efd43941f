"""What each way of deciding the expert's bids loses, scored on collected decisions.

``report`` cuts each decision's rollouts (``bid_regret``) into folds of the size a
decision's budget affords, lets each rule decide from one fold, and scores the
choice against the mean of the other rollouts (the "truth", independent of the
fold): the points lost a decision against the truth's best option. It also
gives what the choice gained over passing on the real deal, the quantity that
wins games (one exact playout a decision, so far noisier). The rules:

- the model alone (the fallback);
- the search as the expert ran it: the best option replaces the fallback when
  its mean is better by 0.3 points (``BID_MARGIN``); by other margins; by a
  margin of z standard errors of the paired difference;
- shrinkage: the posterior mean of the gain of making trump over passing, the
  model's gain as the prior with the variance ``tau2`` of its error against the
  truth, and the fold's mean difference with its variance ``s2 / n``; make trump
  where it is above zero. ``tau2`` and the model's mean error are estimated per
  round from the other half of the games (cross-fitted), so no decision is
  scored by a figure fitted on it.

``python -m lab bid-regret`` collects and reports; docs/players.md has
the figures.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from bot.players.learnt_bidding import solve
from bot.players.margins import BID_MARGIN

from .bid_regret import BLOCK, SIZES, Decision


@dataclass(frozen=True, slots=True)
class Fold:
    """A fold's means and paired variances, and the truth from the decision's other rollouts."""

    n: int
    mean: list[float]
    gram: list[list[float]]
    truth: list[float]

    def var(self, a: int, b: int) -> float:
        """The per-rollout variance of the difference of options ``a`` and ``b`` in the fold."""
        if a == b or self.n < 2:
            return 0.0
        d = self.mean[a] - self.mean[b]
        total = self.gram[a][a] + self.gram[b][b] - 2 * self.gram[a][b] - self.n * d * d
        return max(total / (self.n - 1), 0.0)


def _sums(blocks: Sequence[list[float]], k: int) -> tuple[float, list[float], list[list[float]]]:
    n = 0.0
    sums = [0.0] * k
    gram = [[0.0] * k for _ in range(k)]
    for block in blocks:
        n += block[0]
        for a in range(k):
            sums[a] += block[1 + a]
        at = 1 + k
        for a in range(k):
            for b in range(a, k):
                gram[a][b] += block[at]
                gram[b][a] = gram[a][b]
                at += 1
    return n, sums, gram


def folds(decision: Decision, size: int) -> list[Fold]:
    """The decision's rollouts cut in folds of ``size`` (whole blocks), each with its truth."""
    k = len(decision.options)
    per = max(1, size // BLOCK)
    total_n, total, _ = _sums(decision.blocks, k)
    found = []
    for start in range(0, len(decision.blocks) - per + 1, per):
        n, sums, gram = _sums(decision.blocks[start : start + per], k)
        rest = total_n - n
        if rest <= 0:
            continue
        found.append(
            Fold(
                int(n),
                [s / n for s in sums],
                gram,
                [(t - s) / rest for t, s in zip(total, sums, strict=True)],
            )
        )
    return found


def truth_error(decision: Decision) -> tuple[float, float]:
    """The model's error against all the rollouts, and that mean's variance from their noise.

    The error is on the gain of making trump with the partner over passing.
    """
    k = len(decision.options)
    n, sums, gram = _sums(decision.blocks, k)
    m, p = decision.make, decision.passing
    diff = (sums[m] - sums[p]) / n
    var = (gram[m][m] + gram[p][p] - 2 * gram[m][p] - n * diff * diff) / max(n - 1, 1)
    return diff - decision.gain, max(var, 0.0) / n


@dataclass(frozen=True, slots=True)
class Prior:
    """The model's error against the truth in one round: its mean and variance."""

    bias: float
    tau2: float


def priors(decisions: Sequence[Decision]) -> dict[int, Prior]:
    """Per round, the model's mean error and the variance of its error (less the truth's noise)."""
    found = {}
    for rnd in (1, 2):
        errors = [truth_error(d) for d in decisions if d.round == rnd]
        if len(errors) < 2:
            continue
        mean = sum(e for e, _ in errors) / len(errors)
        spread = sum((e - mean) ** 2 for e, _ in errors) / (len(errors) - 1)
        noise = sum(v for _, v in errors) / len(errors)
        found[rnd] = Prior(mean, max(spread - noise, 1e-4))
    return found


Rule = Callable[[Decision, Fold, Prior], int]
"""A way of deciding: the option chosen from the decision, one fold and the model's prior."""


def _best(fold: Fold) -> int:
    return max(range(len(fold.mean)), key=lambda a: fold.mean[a])


def by_model(d: Decision, fold: Fold, prior: Prior) -> int:
    """The model alone: the expert's fallback."""
    return d.fallback


def by_margin(margin: float) -> Rule:
    """The search's best where its mean beats the fallback's by ``margin`` points."""

    def rule(d: Decision, fold: Fold, prior: Prior) -> int:
        best = _best(fold)
        return best if fold.mean[best] - fold.mean[d.fallback] > margin else d.fallback

    return rule


def by_errors(z: float) -> Rule:
    """The search's best where it beats the fallback by ``z`` standard errors of the difference."""

    def rule(d: Decision, fold: Fold, prior: Prior) -> int:
        best = _best(fold)
        se = math.sqrt(fold.var(best, d.fallback) / fold.n)
        return best if fold.mean[best] - fold.mean[d.fallback] > z * se else d.fallback

    return rule


def shrunk_gain(gain: float, diff: float, s2: float, n: int, prior: Prior) -> float:
    """The posterior mean of the gain of making trump over passing.

    The model's gain (corrected by ``prior.bias``) is weighed by ``1 / prior.tau2``,
    the rollouts' mean difference by ``n / s2``.
    """
    model = 1.0 / prior.tau2
    rollouts = n / s2 if s2 > 0 else 1e9
    return ((gain + prior.bias) * model + diff * rollouts) / (model + rollouts)


def by_shrinkage(unbiased: bool) -> Rule:
    """Make trump (as the expert would) where the shrunk gain is above zero, else pass."""

    def rule(d: Decision, fold: Fold, prior: Prior) -> int:
        used = prior if unbiased else Prior(0.0, prior.tau2)
        diff = fold.mean[d.make] - fold.mean[d.passing]
        gain = shrunk_gain(d.gain, diff, fold.var(d.make, d.passing), fold.n, used)
        return d.made if gain > 0 else d.passing

    return rule


def by_shrinkage_everywhere(d: Decision, fold: Fold, prior: Prior) -> int:
    """The best option by its fold mean, making trump moved to the shrunk gain over passing.

    Making trump with the model's suit (with the partner, and alone where that is
    an option) is valued at the fold's means moved by the same amount, the
    shrunk gain less the fold's mean gain; every other option by its fold mean.
    """
    diff = fold.mean[d.make] - fold.mean[d.passing]
    gain = shrunk_gain(d.gain, diff, fold.var(d.make, d.passing), fold.n, Prior(0.0, prior.tau2))
    values = list(fold.mean)
    for a in {d.make, d.made}:
        values[a] += gain - diff
    return max(range(len(values)), key=lambda a: values[a])


def by_rollouts(d: Decision, fold: Fold, prior: Prior) -> int:
    """Make trump or pass by the fold's mean difference alone."""
    return d.made if fold.mean[d.make] > fold.mean[d.passing] else d.passing


def by_truth(d: Decision, fold: Fold, prior: Prior) -> int:
    """The truth's best (not a rule a player can follow): what the search's limit would gain."""
    return max(range(len(fold.truth)), key=lambda a: fold.truth[a])


RULES: Final[tuple[tuple[str, Rule], ...]] = (
    ("the model alone", by_model),
    (f"search, margin {BID_MARGIN} (now)", by_margin(BID_MARGIN)),
    ("search, margin 0.15", by_margin(0.15)),
    ("search, margin 0.05", by_margin(0.05)),
    ("search, no margin", by_margin(0.0)),
    ("search, margin 0.25 SE", by_errors(0.25)),
    ("search, margin 0.5 SE", by_errors(0.5)),
    ("search, margin 1 SE", by_errors(1.0)),
    ("search, margin 2 SE", by_errors(2.0)),
    ("make or pass by the rollouts alone", by_rollouts),
    ("shrinkage, make or pass", by_shrinkage(False)),
    ("shrinkage, make or pass, mean error", by_shrinkage(True)),
    ("shrinkage, then the best option", by_shrinkage_everywhere),
    ("the truth's best (the search's limit)", by_truth),
)


@dataclass(slots=True)
class Score:
    """One rule's figures at one fold size, a value per decision (averaged over its folds)."""

    regret: list[float]
    real: list[float]
    changed: list[float]
    """The share of folds where the rule's choice differs from the model's."""


def score(
    decisions: Sequence[Decision], size: int, rules: Sequence[tuple[str, Rule]] = RULES
) -> dict[str, Score]:
    """Every rule's figures at folds of ``size`` rollouts.

    The priors are cross-fitted: a decision's from the games of the other parity
    (from all the games where those have too few decisions of its round).
    """
    halves = {parity: priors([d for d in decisions if d.game % 2 != parity]) for parity in (0, 1)}
    whole = priors(decisions)
    scores = {name: Score([], [], []) for name, _ in rules}
    for d in decisions:
        prior = halves[d.game % 2].get(d.round) or whole.get(d.round)
        cut = folds(d, size)
        if prior is None or not cut:
            continue
        for name, rule in rules:
            regret = real = changed = 0.0
            for fold in cut:
                chosen = rule(d, fold, prior)
                regret += max(fold.truth) - fold.truth[chosen]
                real += d.real[chosen] - d.real[d.passing]
                changed += chosen != d.fallback
            s = scores[name]
            s.regret.append(regret / len(cut))
            s.real.append(real / len(cut))
            s.changed.append(changed / len(cut))
    return scores


def _mean_se(xs: Sequence[float]) -> tuple[float, float]:
    n = len(xs)
    if n < 2:
        return (xs[0] if xs else 0.0), 0.0
    mean = sum(xs) / n
    return mean, math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1) / n)


def _diff(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    return _mean_se([x - y for x, y in zip(a, b, strict=True)])


def calibration(decisions: Sequence[Decision]) -> list[tuple[str, list[float], list[float]]]:
    """Least squares of the real deal's gain of making trump over passing on the estimates.

    For the model's gain, the truth's (all the rollouts' mean difference), and
    both together: each fit's coefficients (a constant first) and their standard
    errors. A slope of 1 is an estimate the real deals bear out; with both, what
    each adds to the other.
    """
    rows = []
    for d in decisions:
        k = len(d.options)
        n, sums, _ = _sums(d.blocks, k)
        truth = (sums[d.make] - sums[d.passing]) / n
        rows.append(([1.0, d.gain, truth], d.real[d.make] - d.real[d.passing]))
    fits = []
    for name, cols in (("model", [0, 1]), ("truth", [0, 2]), ("model and truth", [0, 1, 2])):
        if len(rows) <= len(cols):
            continue
        xtx = [[sum(x[i] * x[j] for x, _ in rows) for j in cols] for i in cols]
        xty = [sum(x[i] * y for x, y in rows) for i in cols]
        coef = solve(xtx, xty)
        resid = [y - sum(c * x[i] for c, i in zip(coef, cols, strict=True)) for x, y in rows]
        s2 = sum(r * r for r in resid) / (len(rows) - len(cols))
        inverse = [solve(xtx, [float(i == j) for j in range(len(cols))]) for i in range(len(cols))]
        fits.append(
            (name, coef, [math.sqrt(max(s2 * inverse[i][i], 0.0)) for i in range(len(cols))])
        )
    return fits


def report(decisions: Sequence[Decision], sizes: Sequence[int] = SIZES) -> str:
    """The figures as text: the decisions, the model's error, and each rule's losses."""
    lines = []
    rollouts = [sum(b[0] for b in d.blocks) for d in decisions]
    by_round = {r: sum(1 for d in decisions if d.round == r) for r in (1, 2)}
    lines.append(
        f"{len(decisions)} decisions ({by_round[1]} in the first round, {by_round[2]} in the "
        f"second), {min(rollouts, default=0):.0f}-{max(rollouts, default=0):.0f} rollouts each"
    )
    s2 = sorted(_sums(d.blocks, len(d.options))[0] * truth_error(d)[1] for d in decisions)
    if s2:
        mid = s2[len(s2) // 2]
        lines.append(
            f"per-rollout SD of the paired difference (make with the partner less pass): "
            f"median {math.sqrt(mid):.2f} points"
        )
    for rnd, prior in sorted(priors(decisions).items()):
        lines.append(
            f"round {rnd}: model's mean error against the truth {prior.bias:+.3f}, "
            f"its SD (tau) {math.sqrt(prior.tau2):.3f} points"
        )
    for name, coef, errors in calibration(decisions):
        terms = ", ".join(f"{c:+.3f} ± {e:.3f}" for c, e in zip(coef, errors, strict=True))
        lines.append(f"real deal's gain on the {name} (constant first): {terms}")
    for size in sizes:
        scores = score(decisions, size)
        if not scores or not next(iter(scores.values())).regret:
            continue
        now = scores[RULES[1][0]]
        lines.append("")
        lines.append(
            f"folds of {size} rollouts: points lost a decision against the truth's best; "
            "gain over passing on the real deal; each against the rule now, ± one SE"
        )
        lines.append(
            f"{'rule':<40}{'lost':>8}{'vs now':>18}{'real gain':>11}{'vs now':>18}{'changed':>9}"
        )
        for name, s in scores.items():
            regret, _ = _mean_se(s.regret)
            real, _ = _mean_se(s.real)
            dr, dr_se = _diff(s.regret, now.regret)
            dg, dg_se = _diff(s.real, now.real)
            changed, _ = _mean_se(s.changed)
            lines.append(
                f"{name:<40}{regret:>8.4f}{dr:>+11.4f} ± {dr_se:.4f}{real:>11.4f}"
                f"{dg:>+11.4f} ± {dg_se:.4f}{changed:>8.1%}"
            )
    return "\n".join(lines)
