"""Game's public surface: read-only, None for what does not exist yet, readable repr."""

from __future__ import annotations

import random

import pytest

from bot.rules import Action, Game, HouseRules, Trick, new_game, parse_card


def _game() -> Game:
    return Game(HouseRules.preset_rules("north_american"), seed=7)


def test_what_is_not_made_yet_is_none() -> None:
    game = _game()
    assert (game.trump, game.maker, game.makers, game.turned_down) == (None, None, None, None)
    assert game.last_trick is None and game.trick == () and game.tricks == ()
    for _ in range(4):
        game.apply(game.turn or 0, Action.pass_())
    assert game.phase == "bid2" and game.turned_down == parse_card("KS") >> 3
    game.apply(game.turn or 0, Action.call("H"))
    assert (game.trump, game.maker, game.makers) == (2, 2, 0)
    # a plain int, pure or compiled (the call's Suit member is not kept)
    assert type(game.trump) is int and type(game.results[-1].trump) is int


def test_the_public_state_cannot_be_assigned() -> None:
    game = _game()
    for name in ("turn", "phase", "trump", "dealer", "over", "hands"):
        with pytest.raises(AttributeError):
            setattr(game, name, None)


def test_repr_shows_the_table_in_card_text() -> None:
    game = _game()
    game.apply(2, Action.pass_())
    assert repr(game) == (
        "<Game north_american deal 1, dealer 1, bid1, turn 3, upcard KS, trump -, score 0-0, "
        "tricks 0-0, hands [QS 9C AH AD JD | JH QD 9S KD QH | AC KH 10H QC 10S | 9H AS JS 10C KC]>"
    )


def test_tricks_belong_to_the_deal_and_the_last_trick_outlives_it() -> None:
    game = _game()
    game.apply(2, Action.order_up())
    while game.phase != "play" or game.trick or not game.tricks:
        game.step(game.legal()[-1] if game.phase != "play" else game.legal()[0])
    done = game.tricks[-1]
    assert isinstance(done, Trick) and game.last_trick == done
    assert done.winner in done.seats and len(done.cards) == 4
    number = game.deal_number
    while game.deal_number == number:
        before = game.tricks
        game.step(game.legal()[0])
    assert game.tricks == () and game.last_trick is not None
    assert game.last_trick not in before  # the deal's last trick, kept after the new deal began


def test_every_game_follows_its_own_rules_object() -> None:
    """Games share what they read of their rules by the rules object: never another's.

    More rules objects than the engine keeps, each with its own target, and some
    made after others were dropped (so Python may reuse their ids).
    """
    for target in [*range(1, 70), *range(69, 0, -3)]:
        rules = HouseRules.from_spec({"preset": "north_american", "target_score": target})
        game = new_game(rules, seed=target)
        rng = random.Random(target)
        while not game.over:
            game.step(rng.choice(list(game.legal())))
        assert game.winner is not None
        assert game.score[game.winner] >= target > game.score[1 - game.winner], target
