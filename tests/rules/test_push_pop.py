"""push and pop: an action taken back leaves the game as it was, the same object, nothing replayed.

What ``push`` keeps is a ``snapshot`` of the ``State``, taken by field name: the
tests below walk every field the class declares, so a field added to ``State``
that a push did not keep, or that a pop did not bring back, fails them.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules import (
    Action,
    Contract,
    Deal,
    DealResult,
    Game,
    HouseRules,
    Trick,
    game_record,
    new_game,
    public_view,
    seat_view,
)
from bot.rules.state import Fixed, State, field_names

from .variants import BID_RULES, RULES

VALUES = (int, str, bytes, type(None), Action, Deal, Trick, Contract, DealResult, Fixed, HouseRules)
"""What a field may hold besides lists: values the engine never changes in place."""


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


def _declared() -> set[str]:
    """The fields ``State`` declares: as compiled (mypyc lists them) or in its annotations."""
    compiled: tuple[str, ...] | None = getattr(State, "__mypyc_attrs__", None)
    return set(State.__annotations__ if compiled is None else compiled)


def _frozen(value: Any) -> Any:
    """``value`` with every list made a tuple: a copy to compare with later."""
    if isinstance(value, list | tuple):
        return tuple(_frozen(v) for v in value)
    return value


def _fields(state: State) -> dict[str, Any]:
    return {name: _frozen(getattr(state, name)) for name in sorted(_declared())}


def _is_value(value: object) -> bool:
    if isinstance(value, tuple):
        return all(_is_value(v) for v in value)
    return isinstance(value, VALUES)


def _random_states(rules: HouseRules, seed: int, deals: int = 3) -> list[Game]:
    """A random game at every step of its first ``deals`` deals (copies, so each stays put)."""
    rng = random.Random(seed)
    game = new_game(rules, seed=seed)
    games = []
    while not game.over and game.deal_number <= deals:
        games.append(game.copy())
        game.step(rng.choice(list(game.legal())))
    games.append(game)
    return games


def test_a_snapshot_covers_every_field_state_declares() -> None:
    game = new_game(HouseRules.preset_rules("north_american"), seed=1)
    assert set(field_names(game.state)) == _declared()
    assert len(_declared()) > 40


@pytest.mark.parametrize("rules", RULES + BID_RULES, ids=lambda r: r.preset)
def test_every_field_holds_a_list_or_a_value_the_engine_never_changes(rules: HouseRules) -> None:
    """So a snapshot that copies the lists (and the hands' lists) shares nothing that changes."""
    for game in _random_states(rules, seed=3):
        for name, value in ((n, getattr(game.state, n)) for n in _declared()):
            if isinstance(value, list):
                items = [x for v in value for x in (v if isinstance(v, list) else [v])]
                assert all(_is_value(x) for x in items), name
            else:
                assert _is_value(value), name


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(RULES + BID_RULES), st.integers(min_value=0, max_value=2**63))
def test_pop_brings_back_every_field_whatever_happened_since_the_push(
    rules: HouseRules, seed: int
) -> None:
    rng = random.Random(seed)
    for game in _random_states(rules, seed)[::3]:
        if game.over:
            continue
        before = _fields(game.state)
        game.push(rng.choice(list(game.legal())))
        for _ in range(rng.randrange(12)):  # steps after the push go too
            if not game.over:
                game.step(rng.choice(list(game.legal())))
        for name in _declared():  # and so does anything done to the state's lists
            value = getattr(game.state, name)
            if isinstance(value, list):
                value.append(value[0] if value else None)
                for item in value:
                    if isinstance(item, list):
                        item.append(None)
        game.pop()
        after = _fields(game.state)
        assert [n for n in before if after[n] != before[n]] == []


@pytest.mark.parametrize("rules", RULES[:3] + BID_RULES[:1], ids=lambda r: r.preset)
def test_a_copy_has_every_field_and_shares_no_list(rules: HouseRules) -> None:
    for game in _random_states(rules, seed=11):
        twin = game.copy()
        assert _fields(twin.state) == _fields(game.state)
        for name in _declared():
            value = getattr(game.state, name)
            if isinstance(value, list):
                assert getattr(twin.state, name) is not value, name
                for mine, theirs in zip(value, getattr(twin.state, name), strict=True):
                    assert not isinstance(mine, list) or mine is not theirs, name
