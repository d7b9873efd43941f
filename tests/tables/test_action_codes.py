"""Action codes: every legal action of many games round-trips; anything else is refused."""

from __future__ import annotations

import random

import pytest

from bot.rules import Action, Game, HouseRules
from bot.tables import decode_action, encode_action
from bot.tables.action_codes import ACTION_CODE_PATTERN


@pytest.mark.parametrize(
    ("preset", "changes"),
    [
        ("north_american", {}),
        ("british", {"partners_best": True, "ace_no_face": True}),
        ("six_player", {"partners_best": True}),
        ("north_american", {"farmers_hand": "nines_and_tens", "deck": "32"}),
    ],
)
def test_every_legal_action_round_trips(preset: str, changes: dict[str, object]) -> None:
    rules = HouseRules.from_spec({"preset": preset, **changes})
    seen: set[str] = set()
    rng = random.Random(7)
    for seed in range(30):
        game = Game(rules, seed=seed)
        while not game.over:
            for action in game.legal():
                code = encode_action(action)
                assert decode_action(code) == action
                assert len(code) <= 20
                seen.add(code.split(".")[0])
            game.step(rng.choice(game.legal()))
    assert {"pass", "order_up", "call", "discard", "play"} <= seen


def test_explicit_alone_false_round_trips() -> None:
    for action in (Action("order_up", alone=False), Action("call", suit=2, alone=False)):
        assert decode_action(encode_action(action)) == action


@pytest.mark.parametrize(
    "code",
    [
        "",
        "play",
        "play.ZZ",
        "play.10H.x",
        "call.X",
        "call.H.maybe",
        "ask.x",
        "jump",
        "pass.1",
        "order_up.alone.alone",
        "swap.",
        "PLAY.10H",
        "discard.10h.1",
    ],
)
def test_malformed_codes_are_refused(code: str) -> None:
    with pytest.raises(ValueError):
        decode_action(code)


def test_pattern_is_anchored_by_its_user() -> None:
    import re

    assert re.fullmatch(ACTION_CODE_PATTERN, "swap.9C-9D-9S")
    assert not re.fullmatch(ACTION_CODE_PATTERN, "play.10H:7")
