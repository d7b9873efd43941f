"""The review of a seat's decisions in a deal: grades, order, and every variant replayed."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.players import make_player
from bot.players.advice import Advice
from bot.players.review import (
    ACCURACY_SCALE,
    GRADES,
    Budget,
    ReviewError,
    accuracy,
    decisions,
    grade,
    review_deal,
    review_game,
    summarize,
)
from bot.render.help import help_panel
from bot.render.review import review_text
from bot.rules import (
    Action,
    Deal,
    Game,
    HouseRules,
    SeatView,
    game_record,
    new_game,
    parse_card,
    seat_view,
)

SMALL = Budget(worlds=8, rollouts=16)
"""Enough to tell a lone march from a march; tests never depend on more."""


def _cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(c) for c in text.split())


def _five_trumps(first: Action) -> dict[str, Any]:
    """Seat 0 holds the five top hearts, 9♥ turned; it bids ``first``, basic plays the rest."""
    deal = Deal(
        hands=(
            _cards("JH JD AH KH QH"),
            _cards("9C QC KC AC 9S"),
            _cards("10H AD 10S QS KS"),
            _cards("QD KD JS 9D 10D"),
        ),
        upcard=parse_card("9H"),
        kitty=_cards("10C JC AS"),
    )
    game = Game(HouseRules.preset_rules("north_american"), dealer=3, deals=[deal])
    game.apply(0, first)
    players = [make_player("basic", s) for s in range(4)]
    while game.deal_number == 1:
        seat = game.turn
        assert seat is not None
        game.step(players[seat].choose(seat_view(game, seat)))
    return game_record(game)


def test_ordering_up_with_the_partner_on_a_sure_lone_march_is_a_blunder() -> None:
    review = review_deal(_five_trumps(Action.order_up()), 0, 1, SMALL)
    worst = review.decisions[0]
    assert worst.done == Action.order_up()
    assert worst.best == Action.order_up(alone=True)
    assert worst.grade == "blunder"
    assert 1.5 < worst.lost < 2.5  # a lone march scores 4, a march 2
    assert [d.grade for d in review.flagged] == ["blunder"]
    text = review_text(review)
    assert "**Blunder** · first round of bidding: Order up alone: in hearts you hold" in text
    assert "ordering up loses about 1." in text


def test_the_best_play_is_not_flagged_and_the_review_repeats_itself() -> None:
    record = _five_trumps(Action.order_up(alone=True))
    review = review_deal(record, 0, 1, SMALL)
    assert review.decisions[0].done == Action.order_up(alone=True)
    assert review.flagged == ()
    assert review.points_lost == 0.0
    assert review.accuracy == 100.0
    again = review_deal(record, 0, 1, SMALL)
    assert [d.advice.values for d in again.decisions] == [d.advice.values for d in review.decisions]
    assert "Every decision came within 0.1 points" in review_text(review)


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


def test_the_help_gives_the_thresholds_that_grade() -> None:
    text = help_panel().description
    assert "0.1 expected points or more is an **inaccuracy**, 0.3 a **mistake**, 0.7 a " in text


def _fixed_values(values: dict[str, float]) -> Any:
    """An advisor whose figures are given by the action's JSON text, the best its choice."""

    def advise(view: SeatView, done: Action, seed: int) -> Advice:
        figures = {a: values.get(str(a.to_json()), 0.0) for a in set(view.legal)}
        return Advice(max(figures, key=lambda a: (figures[a], str(a.to_json()))), figures, 1)

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
    tiny = Budget(worlds=3, rollouts=3)
    reviews = review_game(record, 1, tiny)
    assert [r.deal for r in reviews] == list(range(1, len(reviews) + 1))
    assert reviews
    for review in reviews:
        losses = [d.lost for d in review.decisions]
        assert losses == sorted(losses, reverse=True)
        assert all(d.lost >= 0 for d in review.decisions)
        assert all(len(set(d.view.legal)) > 1 for d in review.decisions)
        assert review_text(review)
