"""The review of a seat's decisions in a deal: grades, order, and every variant replayed."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.players import make_player
from bot.players.advice import Advice
from bot.players.expert import ExpertPlayer
from bot.players.review import (
    ACCURACY_SCALE,
    GRADES,
    NOISE_Z,
    Budget,
    Estimate,
    ReviewError,
    Verdict,
    accuracy,
    decisions,
    estimate,
    expert_advisor,
    grade,
    review_deal,
    review_game,
    summarize,
)
from bot.render.review import review_text
from bot.rules import (
    Action,
    HouseRules,
    SeatView,
    game_record,
    new_game,
    parse_card,
    seat_view,
)
from tests.players.util import played_out, position

SMALL = Budget(choose=None, counted=8, worlds=8, rollouts=16)
"""Enough to tell a lone march from a march, counted (never timed); tests never need more."""
NORTH_AMERICAN = {"preset": "north_american"}


def _five_trumps(first: Action) -> dict[str, Any]:
    """Seat 0 holds the five top hearts, 9♥ turned; it bids ``first``, basic plays the rest."""
    hands = ["JH JD AH KH QH", "9C QC KC AC 9S", "10H AD 10S QS KS", "QD KD JS 9D 10D"]
    game = position(NORTH_AMERICAN, hands, "9H", dealer=3)
    game.apply(0, first)
    return game_record(played_out(game))


def test_ordering_up_with_the_partner_on_a_sure_lone_march_is_a_blunder() -> None:
    review = review_deal(_five_trumps(Action.order_up()), 0, 1, SMALL)
    worst = review.decisions[0]
    assert worst.done == Action.order_up()
    assert worst.best == Action.order_up(alone=True)
    assert worst.grade == "blunder"
    assert 1.5 < worst.lost < 2.5  # a lone march scores 4, a march 2
    assert worst.estimate.samples == SMALL.rollouts
    assert worst.lost - NOISE_Z * worst.error >= 0.7
    assert [d.grade for d in review.flagged] == ["blunder"]
    text = review_text(review)
    assert (
        "**Blunder** · first round of bidding: Order up alone: you held the right and left "
        "bowers and three more trumps: enough to take every trick alone" in text
    ), text
    assert "ordering up loses about 1." in text and "(16 deals sampled)" in text


def test_the_best_play_is_not_flagged_and_the_review_repeats_itself() -> None:
    record = _five_trumps(Action.order_up(alone=True))
    review = review_deal(record, 0, 1, SMALL)
    assert review.decisions[0].done == Action.order_up(alone=True)
    assert review.flagged == ()
    assert review.accuracy is not None and review.accuracy >= 95.0
    again = review_deal(record, 0, 1, SMALL)
    assert [(d.advice.values, d.estimate) for d in again.decisions] == [
        (d.advice.values, d.estimate) for d in review.decisions
    ]
    assert "No decision lost 0.1 points or more" in review_text(review)


def test_a_lone_makers_partner_has_no_decision() -> None:
    review = review_deal(_five_trumps(Action.order_up(alone=True)), 2, 1, SMALL)
    assert review.decisions == ()
    assert review.accuracy is None
    assert "had no decision to make" in review_text(review)


def test_grades_follow_the_thresholds() -> None:
    assert [floor for floor, _ in GRADES] == [0.7, 0.3, 0.1]
    assert grade(0.0) is None
    assert grade(0.0999) is None
    assert grade(0.1) == "inaccuracy"
    assert grade(0.2999) == "inaccuracy"
    assert grade(0.3) == "mistake"
    assert grade(0.7) == "blunder"
    assert grade(3.0) == "blunder"


def test_a_grade_counts_the_loss_beyond_its_noise() -> None:
    assert pytest.approx(1.645) == NOISE_Z
    assert grade(0.8, 0.1) == "mistake"  # at least 0.64 points, with 95% confidence
    assert grade(0.8, 0.05) == "blunder"
    assert grade(0.25, 0.1) is None  # within noise of the inaccuracy's floor
    assert grade(0.3, 0.1) == "inaccuracy"


def test_the_estimate_is_the_mean_of_paired_differences_and_its_standard_error() -> None:
    assert estimate([]) == Estimate(0.0, 0.0, 0)
    single = estimate([(1.0, 0.0)])
    assert single.lost == 1.0 and single.samples == 1 and single.error == float("inf")
    est = estimate([(2.0, 1.0), (0.0, 1.0), (1.0, 1.0), (3.0, 1.0)])
    assert est.lost == pytest.approx(0.5)  # differences 1, -1, 0, 2
    assert est.error == pytest.approx((5.0 / 3.0 / 4.0) ** 0.5)
    assert estimate([(0.0, 1.0), (0.0, 1.0)]).lost == -1.0, "unbiased: never clipped at zero"


def test_the_action_done_and_the_choice_are_valued_on_the_same_deals() -> None:
    # Common random numbers: two cards that are worth the same in every deal (touching
    # spades) differ by exactly zero on each valuing deal, so the loss is 0 with no error.
    hands = ["AC KC QC 9D 10D", "9S 10S AH KH QD", "JS QS 9C 10C JC", "KS AS KD AD JH"]
    game = position(NORTH_AMERICAN, hands, "9H")
    game.apply(1, Action.order_up())
    game.apply(0, Action.discard(parse_card("9D")))
    view = seat_view(game, 1)
    assert view.phase == "play" and view.turn == 1
    nine, ten, ace = (Action.play(parse_card(c)) for c in ("9S", "10S", "AH"))
    rows = ExpertPlayer(seed=1, budget=None).sample_values(view, [nine, ten, ace], 6)
    assert len(rows) == 6 and all(a == b for a, b, _ in rows)
    assert estimate([(a, b) for a, b, _ in rows]) == Estimate(0.0, 0.0, 6)
    assert len({c for _, _, c in rows}) > 1, "the deals differ from one another"


def test_an_action_the_expert_would_take_loses_nothing_and_is_not_valued() -> None:
    record = _five_trumps(Action.order_up(alone=True))
    judge = expert_advisor(SMALL)
    (_, view, done), *_ = decisions(record, 0, 1)
    verdict = judge(view, done, 5)
    assert verdict.advice.action == done
    assert verdict.estimate == Estimate()


def _fixed_values(values: dict[str, float]) -> Any:
    """An advisor whose figures are given by the action's JSON text, the best its choice."""

    def advise(view: SeatView, done: Action, seed: int) -> Verdict:
        figures = {a: values.get(str(a.to_json()), 0.0) for a in set(view.legal)}
        best = max(figures, key=lambda a: (figures[a], str(a.to_json())))
        lost = figures[best] - figures[done]
        return Verdict(Advice(best, figures, 1), Estimate(lost, 0.0, 1 if best != done else 0))

    return advise


def test_decisions_come_biggest_loss_first_then_in_play_order() -> None:
    record = _five_trumps(Action.order_up())
    made = [(i, d) for i, _, d in decisions(record, 0, 1)]
    assert [d.do for _, d in made] == ["order_up", "play", "play", "play", "play"]
    # the bid loses 2, the second card 0.5, the others nothing (their card is the best)
    values = {str(Action.order_up(alone=True).to_json()): 2.0}
    second = made[2][1]
    values[str(second.to_json())] = -0.5
    review = review_deal(record, 0, 1, advisor=_fixed_values(values))
    assert [round(d.lost, 3) for d in review.decisions][:2] == [2.0, 0.5]
    assert review.decisions[0].index == made[0][0]
    assert review.decisions[1].index == made[2][0]
    rest = [d.index for d in review.decisions[2:]]
    assert rest == sorted(rest)
    assert [d.grade for d in review.flagged] == ["blunder", "mistake"]


def test_accuracy_averages_each_decision_capped_at_the_scale() -> None:
    record = _five_trumps(Action.order_up())
    values = {str(Action.order_up(alone=True).to_json()): 2.0}
    review = review_deal(record, 0, 1, advisor=_fixed_values(values))
    count = len(review.decisions)
    assert ACCURACY_SCALE == 1.0
    assert review.accuracy == pytest.approx(100.0 * (count - 1) / count)
    assert accuracy(()) is None
    summary = summarize([review, review_deal(record, 2, 1, advisor=_fixed_values(values))])
    assert summary is not None
    assert summary.decisions == count + 3
    assert summary.flagged == 1
    assert summary.points_lost == pytest.approx(2.0)
    assert summary.accuracy == pytest.approx(100.0 * (count + 2) / (count + 3))
    assert summarize([]) is None


def test_a_deal_not_finished_or_not_played_is_refused() -> None:
    game = new_game(HouseRules.preset_rules("north_american"), seed=3)
    game.step(game.legal()[0])
    with pytest.raises(ReviewError, match="not finished"):
        review_deal(game_record(game), 0, 1, SMALL)
    with pytest.raises(ReviewError, match="deal 2 was not played"):
        review_deal(game_record(game), 0, 2, SMALL)
    with pytest.raises(ReviewError, match="seat 4 is not at a 4-seat table"):
        review_deal(game_record(game), 4, 1, SMALL)


FAMILIES = [
    {"preset": "north_american"},
    {"preset": "six_player"},
    {"preset": "north_american", "farmers_hand": "three_of_a_rank", "ace_no_face": True},
    {"preset": "toronto", "stick_the_dealer": True, "alone_declaration": "after_trump"},
    {"preset": "bid_euchre"},
    {"preset": "bid_euchre_6"},
]


@pytest.mark.parametrize("spec", FAMILIES, ids=lambda s: "-".join(map(str, s.values())))
def test_every_variant_family_replays_through_the_review(spec: dict[str, Any]) -> None:
    rules = HouseRules.from_spec(spec)
    game = new_game(rules, seed=11)
    players = [make_player("basic", s) for s in range(rules.players)]
    rng = random.Random(5)
    while len(game.results) < 2 or game.results[1].result == "in_play":
        if game.over:
            break
        seat = game.turn
        assert seat is not None
        view = seat_view(game, seat)
        # now and then a random legal move, so the review meets other choices than basic's
        move = rng.choice(view.legal) if rng.random() < 0.2 else players[seat].choose(view)
        game.step(move)
    record = game_record(game)
    tiny = Budget(choose=None, counted=3, worlds=3, rollouts=3)
    reviews = review_game(record, 1, tiny)
    assert [r.deal for r in reviews] == list(range(1, len(reviews) + 1))
    assert reviews
    for review in reviews:
        losses = [d.lost for d in review.decisions]
        assert losses == sorted(losses, reverse=True)
        assert all(d.lost - NOISE_Z * d.error >= 0.1 for d in review.flagged)
        assert all(d.lost == 0.0 for d in review.decisions if d.done == d.best)
        assert all(len(set(d.view.legal)) > 1 for d in review.decisions)
        assert review_text(review)
