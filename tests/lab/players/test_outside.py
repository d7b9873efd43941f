"""euchre-cli's computer seated through the protocol: always legal, and beaten by basic."""

from __future__ import annotations

import pytest

from bot.players import make_player
from bot.rules import Game, HouseRules, seat_view
from lab.players.arena import run_match

pytest.importorskip("euchre")

SPEC = "lab.players.outside.euchre_cli:EuchreCliPlayer"


@pytest.mark.parametrize("preset", ["north_american", "toronto"])
def test_euchre_cli_always_answers_legally(preset: str) -> None:
    rules = HouseRules.preset_rules(preset)
    for g in range(4):
        game = Game(rules, seed=g)
        players = [make_player(SPEC if s % 2 else "basic", g * 10 + s) for s in range(4)]
        while not game.over:
            seat = game.turn
            assert seat is not None
            view = seat_view(game, seat)
            action = players[seat].choose(view)
            assert action in view.legal, (view.phase, action, view.legal)
            game.step(action)


def test_a_match_is_reproducible_from_its_seed() -> None:
    first = run_match("basic", SPEC, 3, seed=8)
    again = run_match("basic", SPEC, 3, seed=8)
    assert [s.wins for s in first.sides] == [s.wins for s in again.sides]
    assert first.sides[1].points == again.sides[1].points
