"""The web bench's rate interval, and a goal judged only where the interval decides it."""

from __future__ import annotations

import math

import pytest

from lab.bench.load import BATCHES, rate_interval
from lab.bench.web import _mark, _rate_words


def test_a_steady_load_has_a_narrow_interval_around_its_rate() -> None:
    done = [i / 100 for i in range(1, 1001)]  # an answer every 10 ms
    low, high = rate_interval(done)
    assert low == pytest.approx(100) and high == pytest.approx(100)


def test_the_order_answers_arrive_in_does_not_matter() -> None:
    done = [i / 100 for i in range(1, 1001)]
    assert rate_interval(list(reversed(done))) == rate_interval(done)


def test_a_stalling_load_has_a_wide_interval_that_holds_its_rate() -> None:
    done, t = [], 0.0
    for i in range(200):
        t += 0.05 if i % 27 == 0 else 0.001  # a stall every 27 answers, across the batches
        done.append(t)
    low, high = rate_interval(done)
    rate = len(done) / done[-1]
    assert low < rate < high
    assert high - low > rate / 2


def test_fewer_answers_than_batches_bound_nothing() -> None:
    assert rate_interval([0.1] * (BATCHES - 1)) == (0.0, math.inf)


@pytest.mark.parametrize(
    ("interval", "mark"),
    [
        ((210.0, 260.0), "ok"),
        ((150.0, 199.0), "MISSED"),
        ((180.0, 230.0), "not decided, the goal is inside the interval"),
        ((0.0, math.inf), "not decided, the goal is inside the interval"),
    ],
)
def test_a_goal_is_met_or_missed_only_by_the_whole_interval(
    interval: tuple[float, float], mark: str
) -> None:
    assert _mark({"per_second": 220.0, "per_second_95": interval}, 200.0) == mark


def test_a_rate_without_an_upper_bound_says_so_in_words() -> None:
    figures = {"per_second": 900.0, "per_second_95": (722.0, math.inf)}
    assert _rate_words(figures) == "900 a second (95% interval at least 722)"
    figures = {"per_second": 900.0, "per_second_95": (722.0, 1010.0)}
    assert _rate_words(figures, "pages ") == "900 pages a second (95% interval 722-1010)"
