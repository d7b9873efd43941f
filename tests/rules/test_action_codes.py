"""Action codes and reprs: every legal action of many games round-trips; anything else is refused."""

from __future__ import annotations

import random

import pytest

from bot.rules import ACTION_CODE_PATTERN, Action, ActionError, Game, HouseRules, parse_card


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
                code = str(action)
                assert Action.from_code(code) == action
                assert len(code) <= 20
                assert eval(repr(action), {"Action": Action}) == action
                seen.add(code.split(".")[0])
            game.step(rng.choice(game.legal()))
    assert {"pass", "order_up", "call", "discard", "play"} <= seen


def test_explicit_alone_false_round_trips() -> None:
    for action in (Action("order_up", alone=False), Action("call", suit=2, alone=False)):
        assert Action.from_code(str(action)) == action


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
    with pytest.raises(ActionError):
        Action.from_code(code)


def test_pattern_is_anchored_by_its_user() -> None:
    import re

    assert re.fullmatch(ACTION_CODE_PATTERN, "swap.9C-9D-9S")
    assert not re.fullmatch(ACTION_CODE_PATTERN, "play.10H:7")


def test_codes_are_the_button_ids_already_sent() -> None:
    # Buttons posted before the codec moved into Action must keep working.
    assert str(Action.play("10H")) == "play.10H"
    assert str(Action.order_up()) == "order_up"
    assert str(Action.order_up(alone=False)) == "order_up.with"
    assert str(Action.call("S", alone=True)) == "call.S.alone"
    assert str(Action.ask(3)) == "ask.3"
    assert str(Action.swap(["9C", "9D", "9S"])) == "swap.9C-9D-9S"
    assert str(Action.pass_()) == "pass"
    assert str(Action.go_alone()) == "alone"
    assert str(Action.redeal()) == "redeal"


def test_constructors_build_the_record_actions() -> None:
    assert Action.play("JD") == Action("play", card=parse_card("JD"))
    assert Action.call(2) == Action("call", suit=2)
    assert Action.call("H", alone=False) == Action("call", suit=2, alone=False)
    assert Action.discard() == Action("discard")
    assert Action.discard("9S").to_json(0) == {"seat": 0, "do": "discard", "card": "9S"}


def test_repr_reads_like_the_constructor() -> None:
    assert repr(Action.pass_()) == "Action.pass_()"
    assert repr(Action.play("10H")) == "Action.play('10H')"
    assert repr(Action.call("S", alone=True)) == "Action.call('S', alone=True)"
    assert repr(Action.order_up(alone=False)) == "Action.order_up(alone=False)"
    assert repr(Action.ask(4)) == "Action.ask(4)"
    assert repr(Action.give()) == "Action.give()"


@pytest.mark.parametrize("card", ["1H", "ZZ", 99, -1])
def test_constructors_refuse_cards_that_are_not_cards(card: int | str) -> None:
    with pytest.raises(ValueError, match="not a card"):
        Action.play(card)
