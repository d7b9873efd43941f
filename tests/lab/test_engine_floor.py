"""The floor engine plays north_american euchre exactly as the rules core does.

Its figures (``python -m lab.engine_floor``) only mean something if it does
the same work: the same seeded deals, the same legal actions at every step,
the same scores. Run on its sources here; the command compiles it.
"""

from __future__ import annotations

import random

import pytest

from bot.rules import Action, HouseRules, new_game
from bot.rules.cards import card_label
from bot.rules.dealing import Dealer
from lab.engine_floor.core import (
    CALL_KIND,
    DISCARD_KIND,
    ORDER_KIND,
    PASS_KIND,
    Act,
    DealOnlyGame,
    FloorGame,
    new_floor_game,
)

RULES = HouseRules.preset_rules("north_american")


def code(act: Act) -> str:
    """The rules core's code for a floor action."""
    alone = ".alone" if act.alone else ""
    if act.kind == PASS_KIND:
        return "pass"
    if act.kind == ORDER_KIND:
        return f"order_up{alone}"
    if act.kind == CALL_KIND:
        return f"call.{'CDHS'[act.suit]}{alone}"
    verb = "discard" if act.kind == DISCARD_KIND else "play"
    return f"{verb}.{card_label(act.card)}"


def cards(game: FloorGame, seat: int) -> list[int]:
    return [c for c in range(32) if game.hand(seat) >> c & 1]


@pytest.mark.parametrize("seed", range(40))
def test_a_random_game_goes_as_the_rules_core_plays_it(seed: int) -> None:
    real = new_game(RULES, seed=seed)
    floor = new_floor_game(seed, real.first_dealer)
    rng = random.Random(seed)
    while not real.over:
        hands = [list(h) for h in real.hands]
        if real.phase == "discard" and real.upcard not in hands[real.dealer]:
            hands[real.dealer].append(real.upcard)
        assert [sorted(h) for h in hands] == [cards(floor, s) for s in range(4)]
        assert floor.turn == real.turn
        legal = floor.legal()
        assert sorted(code(a) for a in legal) == sorted(str(a) for a in real.legal())
        chosen = legal[rng.randrange(len(legal))]
        floor.step(chosen)
        real.step(Action.from_code(code(chosen)))
        assert floor.deal_number == real.deal_number
    assert floor.over
    assert list(real.score) == [floor.score0, floor.score1]
    assert floor.legal() == ()
    assert len(floor.log) == len(real.log)


def test_its_deals_are_the_rules_cores() -> None:
    dealer = Dealer(RULES)
    for seed in range(20):
        game = DealOnlyGame(seed)
        for number in range(game.deals):
            assert game.deal_number == number + 1
            assert game.hand == 1 << dealer.deal(seed, number).hands[0][0]
            for _ in range(20):
                game.step(game.legal()[0])
        assert game.legal() == []


def test_the_deals_only_game_ends_after_its_deals() -> None:
    counts = []
    for seed in range(100):
        game = DealOnlyGame(seed)
        while game.legal():
            game.step(game.legal()[-1])
        assert len(game.log) == 20 * game.deal_number
        counts.append(game.deal_number)
    assert sum(counts) / len(counts) == pytest.approx(9.4)


def test_the_count_plays_the_games_it_is_asked_for() -> None:
    from lab.engine_floor import core
    from lab.engine_floor.__main__ import count_games

    assert count_games(core, "deals", 0) == 0
    assert count_games(core, "deals", 10) == 94  # 7 games of 10 deals and 3 of 8
    assert 10 <= count_games(core, "floor", 5) <= 5 * 40
