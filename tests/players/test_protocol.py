"""The player protocol and the registry: built-in levels and outside module:Class players."""

from __future__ import annotations

import pytest

from bot.players import (
    LEVELS,
    SEARCH_BUDGET,
    BasicPlayer,
    Player,
    PlayerError,
    RandomPlayer,
    make_player,
)
from bot.players.expert import ExpertPlayer
from bot.rules import Game, HouseRules, seat_view


def test_levels_make_players_of_the_protocol() -> None:
    assert set(LEVELS) >= {"random", "basic"}
    basic, rand = make_player("basic", 1), make_player("random", 1)
    assert isinstance(basic, BasicPlayer) and basic.name == "basic"
    assert isinstance(rand, RandomPlayer) and rand.name == "random"
    assert isinstance(basic, Player) and isinstance(rand, Player)


def test_random_is_reproducible_from_its_seed() -> None:
    game = Game(HouseRules.preset_rules("north_american"), seed=3)
    assert game.turn is not None
    view = seat_view(game, game.turn)
    first = [make_player("random", 9).choose(view) for _ in range(5)]
    assert len(set(first)) == 1


def test_outside_players_load_by_module_and_class() -> None:
    player = make_player("tests.players.outside_player:LastLegal", 5)
    assert player.name == "last-legal"
    seeded = make_player("tests.players.outside_player:Seeded", 5)
    assert seeded.seed == 5  # type: ignore[attr-defined]


def test_a_searching_level_thinks_for_the_budget_or_counts_its_samples() -> None:
    timed = make_player("expert", 3)
    assert isinstance(timed, ExpertPlayer) and timed.budget == SEARCH_BUDGET
    counted = make_player("expert", 3, budget=None)
    assert isinstance(counted, ExpertPlayer) and counted.budget is None
    game = Game(HouseRules.preset_rules("north_american"), seed=11)
    assert game.turn is not None
    view = seat_view(game, game.turn)
    again = make_player("expert", 3, budget=None)
    assert isinstance(again, ExpertPlayer)
    first = counted.advise(view)
    assert first == again.advise(view) and first.samples == counted.min_samples, (
        "no clock: the same figures"
    )
    assert make_player("basic", 3, budget=None).name == "basic", "a level without a search"
    assert make_player("tests.players.outside_player:Seeded", 5, budget=None).seed == 5  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("expertest", "not a player level"),
        ("no.such.module:X", "cannot import"),
        ("tests.players.outside_player:Missing", "has no Missing"),
        ("tests.players.outside_player:NotAPlayer", "did not make a player"),
    ],
)
def test_bad_specs_say_what_is_wrong(spec: str, words: str) -> None:
    with pytest.raises(PlayerError, match=words):
        make_player(spec, 0)
