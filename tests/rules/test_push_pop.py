"""push and pop: an action taken back leaves the game as it was, the same object, nothing replayed."""

from __future__ import annotations

import random

import pytest

from bot.rules import Action, Game, HouseRules, game_record, new_game, public_view, seat_view


def _state(game: Game) -> tuple[object, ...]:
    """Everything a reader of the game sees."""
    views = tuple(seat_view(game, s) for s in range(game.players))
    return (repr(game), game_record(game), public_view(game), views, game.copy().legal())


@pytest.mark.parametrize(
    "preset", ["north_american", "british", "six_player", "almonte", "bid_euchre", "bid_euchre_8"]
)
def test_popping_every_push_walks_the_game_back_through_every_state(preset: str) -> None:
    game = new_game(HouseRules.preset_rules(preset), seed=5)
    rng = random.Random(5)
    states = []
    pushed: list[Action] = []
    while not game.over and game.deal_number <= 3:
        states.append(_state(game))
        action = rng.choice(list(game.legal()))
        game.push(action)
        pushed.append(action)
    assert game.deal_number > 1
    finished, played = _state(game), list(pushed)
    while pushed:
        assert game.pop() == pushed.pop()
        assert _state(game) == states.pop()
    with pytest.raises(IndexError):
        game.pop()
    for action in played:
        game.push(action)
    assert _state(game) == finished


def test_a_game_pops_back_to_what_a_replay_of_the_log_rebuilds() -> None:
    rules = HouseRules.preset_rules("toronto")
    game = Game(rules, seed=9)
    rng = random.Random(9)
    for _ in range(60):
        game.push(rng.choice(list(game.legal())))
    game.pop()
    rebuilt = Game(rules, seed=9)
    for _, action in game.log:
        rebuilt.step(action)
    assert _state(game) == _state(rebuilt)


def test_pop_takes_back_the_push_and_the_steps_after_it_and_clear_stack_forgets() -> None:
    game = Game(HouseRules.preset_rules("north_american"), seed=7)
    before = _state(game)
    game.push(Action.pass_())
    game.step(Action.pass_())
    assert game.pop() == Action.pass_() and _state(game) == before
    game.push(Action.pass_())
    game.clear_stack()
    with pytest.raises(IndexError):
        game.pop()
    assert len(game.log) == 1


def test_a_copy_has_nothing_to_pop() -> None:
    game = Game(HouseRules.preset_rules("north_american"), seed=7)
    game.push(Action.pass_())
    twin = game.copy()
    with pytest.raises(IndexError):
        twin.pop()
    assert game.pop() == Action.pass_() and len(twin.log) == 1
