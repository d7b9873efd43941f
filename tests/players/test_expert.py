"""The expert: legal over every variant, blind to hidden cards, and ahead of basic in small matches."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.players import make_player
from bot.players.basic import BasicPlayer
from bot.players.expert import ExpertPlayer
from bot.players.learnt_bidder import BIDDING
from bot.players.margins import BID_MARGIN, MODEL_MARGIN, Margin
from bot.rules import Action, Game, HouseRules, seat_view

from .test_hidden_information import view_pairs
from .util import position, view_to_act
from .variants import RULES, label


def _quick(seed: int) -> ExpertPlayer:
    """An expert with a fixed, small number of samples: fast and independent of the clock."""
    return ExpertPlayer(seed=seed, budget=None, min_samples=2, max_samples=2)


def _play_checking_legality(
    rules: HouseRules, seed: int, *, most: int | None = None
) -> tuple[int, set[str]]:
    """Experts play a game (or its first ``most`` positions); each choice must be legal.

    Returns how many positions were played and the phases seen.
    """
    game = Game(rules, seed=seed)
    experts = [_quick(s) for s in range(rules.players)]
    positions, phases = 0, set()
    while not game.over and (most is None or positions < most):
        seat = game.turn
        assert seat is not None
        view = seat_view(game, seat)
        action = experts[seat].choose(view)
        assert action in view.legal, (view.phase, action, view.legal)
        phases.add(str(view.phase))
        game.apply(seat, action)
        positions += 1
    return positions, phases


@pytest.mark.parametrize("rules", RULES, ids=label)
def test_every_choice_is_legal_through_the_first_deal(rules: HouseRules) -> None:
    # The default run's share of the slow sweep below (about 5 s of its 110 s): the
    # bidding, the dealer's discard and the first tricks of every variant.
    positions, phases = _play_checking_legality(rules, 2000, most=8 * rules.players)
    assert positions == 8 * rules.players
    assert "play" in phases


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULES, ids=label)
def test_every_choice_is_legal(rules: HouseRules) -> None:
    positions = sum(_play_checking_legality(rules, 2000 + g)[0] for g in range(2))
    assert positions > 50


@pytest.mark.parametrize("rules", RULES[:6], ids=label)
def test_decisions_ignore_hidden_cards(rules: HouseRules) -> None:
    compared = 0
    for view, alt_view in view_pairs(rules, range(700, 702), every=3):
        if alt_view is None:
            continue
        assert alt_view == view
        assert _quick(5).choose(alt_view) == _quick(5).choose(view)
        compared += 1
    assert compared >= 3


def test_expert_is_a_level() -> None:
    assert make_player("expert", 1).name == "expert"


def test_goes_alone_where_a_loner_pays_though_basic_would_not() -> None:
    hands = ["9C 10C JC QC KC", "JH JD AH 9H AC", "QS KS 10S 9D JS", "KD 10D QD AD 9S"]
    view = view_to_act(position({"preset": "north_american"}, hands, "10H"))
    assert BasicPlayer().choose(view) == Action.order_up()
    assert BasicPlayer(tuning=BIDDING).choose(view) == Action.order_up(alone=True)
    searched = ExpertPlayer(seed=1, budget=None, min_samples=40)
    assert searched.choose(view) == Action.order_up(alone=True)


def test_going_alone_is_searched_where_a_lone_march_wins_the_game() -> None:
    hands = ["9C 10C JC QC KC", "JH 10H QH 9S AC", "QS KS 10S 9D JS", "KD 10D QD AD 9H"]
    first = view_to_act(position({"preset": "north_american"}, hands, "AH"))
    expert = ExpertPlayer(seed=1, budget=None)
    searched = {}
    for mine in (5, 6, 7, 8):
        view = replace(first, score=(3, mine))
        fallback = expert.bidder(view).choose(view)
        assert not fallback.alone
        searched[mine] = Action.order_up(alone=True) in expert._options(
            view, list(view.legal), fallback
        )
    assert searched == {5: False, 6: True, 7: True, 8: False}


def test_never_goes_alone_where_a_march_already_wins_the_game() -> None:
    hands = ["9C 10C JC QC KC", "JH JD AH 9H AC", "QS KS 10S 9D JS", "KD 10D QD AD 9S"]
    first = view_to_act(position({"preset": "north_american"}, hands, "10H"))
    expert = ExpertPlayer(seed=1, budget=None, min_samples=40)
    for mine, choice in [(7, Action.order_up(alone=True)), (8, Action.order_up())]:
        view = replace(first, score=(3, mine))
        assert expert.bidder(view).choose(view) == Action.order_up(alone=True)
        assert expert.choose(view) == choice
    at_nine = replace(first, score=(3, 9))
    second = [Action.pass_(), Action.call("S"), Action.call("S", alone=True)]
    assert expert._with_partner(at_nine, second, second[2]) == Action.call("S")
    alone_round = [Action.pass_(), Action("alone")]
    assert expert._with_partner(at_nine, alone_round, Action("alone")) == Action.pass_()
    # where the rules make the bid alone, it stands
    assert expert._with_partner(at_nine, [Action("alone")], Action("alone")) == Action("alone")


def test_passes_a_hand_with_nothing_in_it() -> None:
    hands = ["9C 10C JC QC KC", "9H 10D QS 9S AD", "JH KS 10S 9D AS", "KD JD QD AH JS"]
    view = view_to_act(position({"preset": "north_american"}, hands, "10H"))
    assert ExpertPlayer(seed=1, budget=None, min_samples=40).choose(view) == Action.pass_()


def test_a_margin_of_standard_errors_scales_with_the_noise_of_the_rollouts() -> None:
    fixed = Margin(0.3)
    assert fixed.beaten(30.5, 0.0, 100) and not fixed.beaten(29.5, 0.0, 100)
    half = Margin(0.0, 0.5)
    # 100 rollouts, mean difference 0.1; squares = 99 * sd**2 + 100 * 0.1**2
    assert half.beaten(10.0, 99 * 1.0 + 1.0, 100)  # sd 1: half an SE is 0.05
    assert not half.beaten(10.0, 99 * 9.0 + 1.0, 100)  # sd 3: half an SE is 0.15
    assert not half.beaten(1.0, 0.0, 1)  # one rollout has no standard error


def test_the_model_margin_holds_where_the_learnt_model_decides() -> None:
    expert = ExpertPlayer(seed=1, budget=None)
    rules = HouseRules.preset_rules("north_american")
    found = set()
    for seed in range(40):
        game = Game(rules, seed=seed)
        view = seat_view(game, game.turn or 0)
        says = expert.bidder(view).estimate(view) is not None
        assert expert._margin(view) == (MODEL_MARGIN if says else Margin(BID_MARGIN))
        found.add(says)
    assert found == {True, False}
    assert Margin(BID_MARGIN) != MODEL_MARGIN
