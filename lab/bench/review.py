"""How long a deal's review takes: one seat's decisions in a deal, at the review's budget.

Deals are played by the basic player in every seat from a seed; for each, one seat
(turn about) has its deal reviewed as the Review button asks it (``review_deal``),
words included. Prints the time of a whole deal's review and of its decisions, on
the process's CPU time (one core, what other work on the machine takes is not
counted).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from bot.players import make_player
from bot.players.review import (
    REVIEW_BUDGET,
    Advisor,
    Budget,
    Verdict,
    expert_advisor,
    review_deal,
)
from bot.render.review import review_text
from bot.rules import Action, HouseRules, SeatView, game_record, new_game, seat_view
from lab.players.arena import percentile


@dataclass(frozen=True, slots=True)
class ReviewTimes:
    """Review times in nanoseconds, sorted: whole deals, and each decision in them."""

    deals: list[int]
    decisions: list[int]
    budget: Budget

    def report(self) -> str:
        """The figures as two lines."""

        def ms(ns: int) -> str:
            return f"{ns / 1e6:.0f} ms"

        d, e = self.deals, self.decisions
        return (
            f"{len(d)} deals reviewed ({_choice(self.budget)}, valued on {self.budget.worlds} "
            f"worlds a card, {self.budget.rollouts} rollouts a bid): "
            f"p50 {ms(percentile(d, 0.5))}, "
            f"p95 {ms(percentile(d, 0.95))}, max {ms(d[-1] if d else 0)}\n"
            f"{len(e)} decisions: p50 {ms(percentile(e, 0.5))}, "
            f"p95 {ms(percentile(e, 0.95))}, max {ms(e[-1] if e else 0)}"
        )


def _choice(budget: Budget) -> str:
    if budget.choose is None:
        return f"the choice of {budget.counted} samples"
    return "the table's choice"


def time_reviews(
    rules: HouseRules, deals: int, seed: int = 1, budget: Budget = REVIEW_BUDGET
) -> ReviewTimes:
    """Time the review of ``deals`` deals, one seat each, of basic-played deals from ``seed``."""
    deal_times: list[int] = []
    decision_times: list[int] = []
    for index in range(deals):
        game = new_game(rules, seed=seed * 1000 + index, dealer=index % rules.players)
        players = [make_player("basic", seed + s) for s in range(rules.players)]
        while game.deal_number == 1 and not game.over:
            seat = game.turn
            assert seat is not None
            game.step(players[seat].choose(seat_view(game, seat)))
        record = game_record(game)
        seat = index % rules.players
        start = time.process_time_ns()
        review = review_deal(record, seat, 1, budget, _timed(budget, decision_times))
        review_text(review)
        deal_times.append(time.process_time_ns() - start)
    return ReviewTimes(sorted(deal_times), sorted(decision_times), budget)


def _timed(budget: Budget, times: list[int]) -> Advisor:
    """The review's search at ``budget``, each decision's time added to ``times``."""
    advise = expert_advisor(budget)

    def timed(view: SeatView, done: Action, seed: int) -> Verdict:
        start = time.process_time_ns()
        verdict = advise(view, done, seed)
        times.append(time.process_time_ns() - start)
        return verdict

    return timed
