"""The engine's fast paths give what their plain forms give.

A card leaves a hand by moving the later cards down (``take_card``), the black
jack is looked for by two comparisons, and ``new_game`` builds its game by
native calls rather than ``Game(...)``: each is checked here against the plain
way of doing the same thing.
"""

from __future__ import annotations

import random

import pytest

from bot.rules import Game, new_game
from bot.rules.cards import JACK, Suit, card
from bot.rules.dealing import first_dealer, shuffled
from bot.rules.errors import RulesError
from bot.rules.house_rules import PRESETS, HouseRules, deck_cards
from bot.rules.play import take_card


@pytest.mark.parametrize("size", [1, 2, 5, 6, 12])
def test_take_card_takes_the_first_copy_and_keeps_the_order(size: int) -> None:
    draw = random.Random(size)
    for _ in range(200):
        hand = [draw.randrange(6) for _ in range(size)]  # copies, as a double pack deals
        played = draw.choice(hand)
        expected = list(hand)
        expected.remove(played)
        take_card(hand, played)
        assert hand == expected


def test_take_card_refuses_a_card_the_hand_does_not_hold() -> None:
    hand = [3, 9, 14]
    with pytest.raises(RulesError, match="does not hold"):
        take_card(hand, 15)
    assert hand == [3, 9, 14]


@pytest.mark.parametrize("preset", ["north_american", "british", "six_player", "almonte"])
def test_the_first_dealer_is_who_is_dealt_the_first_black_jack(preset: str) -> None:
    rules = HouseRules.from_spec({"preset": preset, "first_dealer": "first_black_jack"})
    black_jacks = (card(JACK, Suit.CLUBS), card(JACK, Suit.SPADES))
    for seed in range(100):
        cards = shuffled(deck_cards(rules), seed, "black_jack")
        first = next(i for i, c in enumerate(cards) if c in black_jacks)
        assert first_dealer(rules, seed) == first % rules.players


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_new_game_is_game(preset: str) -> None:
    rules = HouseRules.preset_rules(preset)
    for seed in range(5):
        made, built = new_game(rules, seed=seed), Game(rules, seed=seed)
        assert type(made) is Game
        draw = random.Random(seed)
        for _ in range(60):
            assert repr(made) == repr(built) and made.legal() == built.legal()
            legal = made.legal()
            if not legal:
                break
            action = legal[draw.randrange(len(legal))]
            made.step(action)
            built.step(action)
        assert made.log == built.log and made.results == built.results
    given = new_game(rules, seed=3, dealer=1)
    assert given.first_dealer == 1 == Game(rules, seed=3, dealer=1).first_dealer
