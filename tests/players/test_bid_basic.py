"""The basic level at Bid Euchre: legal every time, sensible bids, and better than random."""

from __future__ import annotations

import random

import pytest

from bot.players import make_player
from bot.players.bid_basic import CHOICES, own_tricks
from bot.rules import Action, HouseRules, new_game, parse_card, replay, seat_view
from bot.rules.ranking import NO_TRUMP_HIGH, NO_TRUMP_LOW
from lab.players.arena import run_match

from .util import play_checked

SUITED = [
    "AS KS QS JS 10S 9S",
    "AH KH QH JH 10H 9H",
    "AD KD QD JD 10D 9D",
    "AC KC QC JC 10C 9C",
]


@pytest.mark.parametrize("preset", ["bid_euchre", "bid_euchre_6", "bid_euchre_8"])
def test_every_choice_is_legal_and_games_end(preset: str) -> None:
    rules = HouseRules.preset_rules(preset)
    players = [
        make_player("basic" if s % 2 == 0 else "random", seed=s) for s in range(rules.players)
    ]
    rng = random.Random(preset)
    for g in range(2):
        game = play_checked(new_game(rules, seed=rng.randrange(10**9)), players, deals=200)
        assert game.winner == 0, (g, list(game.score))


def test_a_hand_of_one_whole_suit_shoots_and_names_it() -> None:
    doc = {
        "format": 1,
        "rules": {"preset": "bid_euchre"},
        "dealer": 0,
        "deals": [{"hands": [h.split() for h in SUITED], "kitty": []}],
    }
    game = replay(doc).game
    player = make_player("basic")
    assert player.choose(seat_view(game, 1)) == Action.shoot()
    game.apply(1, Action.shoot())
    assert player.choose(seat_view(game, 1)) == Action.declare("H")


def test_the_estimate_follows_the_six_choices() -> None:
    rules = HouseRules.preset_rules("bid_euchre")
    aces = [parse_card(c) for c in ("AC", "AD", "AH", "AS")]
    nines = [parse_card(c) for c in ("9C", "9D", "9H", "9S")]
    assert own_tricks(aces, NO_TRUMP_HIGH, rules) == 4 * own_tricks(aces[:1], NO_TRUMP_HIGH, rules)
    assert own_tricks(aces, NO_TRUMP_HIGH, rules) > own_tricks(aces, NO_TRUMP_LOW, rules)
    assert own_tricks(nines, NO_TRUMP_LOW, rules) > own_tricks(nines, NO_TRUMP_HIGH, rules)
    assert len(CHOICES) == 6


def test_basic_beats_random_over_a_few_duplicate_pairs() -> None:
    result = run_match("basic", "random", 4, seed=5, rules=HouseRules.preset_rules("bid_euchre"))
    assert result.sides[0].wins == 8 and result.sides[1].wins == 0
