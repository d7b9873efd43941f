"""The calibration of the expert's work: decisions counted and timed, prices fitted."""

from __future__ import annotations

import random

import pytest

from bot.players.effort import COSTS, Costs
from lab.players.calibrate import (
    KINDS,
    Calibration,
    Sample,
    calibration_report,
    fit,
    nonnegative_least_squares,
    predict,
    r_squared,
    run_calibration,
)


def test_the_fit_finds_known_prices_and_none_below_zero() -> None:
    rng = random.Random(3)
    truth = [2.0, 0.0, 5.0]
    rows = [[rng.uniform(0, 10) for _ in truth] for _ in range(60)]
    target = [sum(a * b for a, b in zip(r, truth, strict=True)) for r in rows]
    found = nonnegative_least_squares(rows, target)
    assert found == pytest.approx(truth, abs=1e-6)
    # a price that would fit below zero is held at zero
    skewed = nonnegative_least_squares(
        rows, [t - 3.0 * r[1] for t, r in zip(target, rows, strict=True)]
    )
    assert skewed[1] == 0.0 and all(c >= 0 for c in skewed)


def test_prices_fitted_to_decisions_predict_their_times() -> None:
    prices = Costs(
        nodes=1e3, draws=0, replayed=0, asked=10e3, learnt=0, steps=0, samples=40e3, cards=0
    )
    rng = random.Random(5)
    samples = []
    for _ in range(40):
        counts = [0] * len(KINDS)
        counts[KINDS.index("nodes")] = rng.randint(0, 50_000)
        counts[KINDS.index("asked")] = rng.randint(0, 8_000)
        counts[KINDS.index("samples")] = rng.randint(6, 120)
        sample = Sample(tuple(counts), 0, "play")
        samples.append(Sample(sample.counts, int(predict(prices, sample)), "play"))
    found = fit(samples)
    assert found.nodes == pytest.approx(1e3, rel=0.01)
    assert found.asked == pytest.approx(10e3, rel=0.01)
    assert r_squared(found, samples) == pytest.approx(1.0)


def test_a_small_run_counts_and_times_every_searched_decision() -> None:
    found = run_calibration(1, seed=2, budget=0.002)
    assert found.samples and all(s.ns > 0 for s in found.samples)
    assert all(any(s.counts) for s in found.samples)
    text = calibration_report(found)
    assert text.startswith("euchre: ") and "in use: COSTS R²" in text and "fitted: Costs(" in text
    assert isinstance(Calibration().samples, list) and COSTS.nodes > 0
