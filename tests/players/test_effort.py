"""A search's budget is work, not time: the same decision whatever the machine's load."""

from __future__ import annotations

import math
import threading
import time

import pytest

from bot.players.basic import BasicPlayer
from bot.players.effort import COSTS, HARD_LIMIT, Effort, Work
from bot.players.expert import ExpertPlayer
from bot.rules import Game, HouseRules, SeatView, seat_view


def test_a_spent_budget_draws_one_sample_and_no_more() -> None:
    spent = Effort(budget=-math.inf, hard=-math.inf)
    assert spent.more(0, least=6, most=120)
    assert not spent.more(1, least=6, most=120)


def test_the_least_samples_are_drawn_only_within_the_hard_limit() -> None:
    effort = Effort.start(0.001)
    effort.spent = 1.1e6  # past the budget, within the hard limit
    assert effort.more(5, least=6, most=120)
    assert not effort.more(6, least=6, most=120)
    effort.spent = HARD_LIMIT * 1e6
    assert not effort.more(5, least=6, most=120)
    assert not Effort(budget=math.inf, hard=math.inf).more(120, least=6, most=120)


def test_no_budget_counts_samples() -> None:
    counted = Effort.start(None)
    counted.spent = 1e12
    assert [counted.more(n, least=3, most=10) for n in range(5)] == [True] * 3 + [False] * 2


def test_costs_add_up_by_kind_and_an_effort_counts_what_it_spends() -> None:
    assert COSTS.of(Work()) == 0.0
    assert COSTS.of(Work(nodes=2, samples=1)) == 2 * COSTS.nodes + COSTS.samples
    assert COSTS.of(Work(draws=1, asked=3, steps=4, learnt=5)) == pytest.approx(
        COSTS.draws + 3 * COSTS.asked + 4 * COSTS.steps + 5 * COSTS.learnt
    )
    effort = Effort.start(0.1)
    effort.count(Work(nodes=10, samples=1))
    effort.count(Work(nodes=5, draws=2))
    assert effort.done == Work(nodes=15, draws=2, samples=1)
    assert effort.spent == pytest.approx(COSTS.of(Work(nodes=15, draws=2, samples=1)))


def _views() -> list[SeatView]:
    """A first bid and the first card of a deal played by basic."""
    game = Game(HouseRules.preset_rules("north_american"), seed=4)
    bid = seat_view(game, game.turn or 0)
    basic = BasicPlayer()
    while game.phase != "play":
        game.step(basic.choose(seat_view(game, game.turn or 0)))
    return [bid, seat_view(game, game.turn or 0)]


def test_a_budgeted_decision_is_the_same_on_a_busy_machine() -> None:
    # The budget is counted in work: a decision that draws as many samples as fit draws
    # the same ones however slowly it runs, here with a busy thread taking the CPU.
    views = _views()
    quiet = [ExpertPlayer(seed=3, budget=0.02).advise(v) for v in views]
    stop = threading.Event()

    def spin() -> None:
        while not stop.is_set():
            time.sleep(0)
            sum(range(1000))

    busy = threading.Thread(target=spin)
    busy.start()
    try:
        loaded = [ExpertPlayer(seed=3, budget=0.02).advise(v) for v in views]
    finally:
        stop.set()
        busy.join()
    assert loaded == quiet
    assert all(a.samples > 1 for a in quiet)


def test_more_work_draws_more_samples() -> None:
    view = _views()[1]
    small = ExpertPlayer(seed=3, budget=0.005, min_samples=1).advise(view)
    large = ExpertPlayer(seed=3, budget=0.05, min_samples=1).advise(view)
    assert 1 <= small.samples < large.samples
