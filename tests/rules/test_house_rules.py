"""House rules: presets as the record format lists them, validation errors that name the field."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from bot.rules import PRESETS, HouseRules, RefusedError


def test_presets_match_the_record_format_table() -> None:
    na = HouseRules.preset_rules("north_american")
    assert (na.players, na.deck, na.joker, na.target_score, na.first_dealer) == (
        4,
        "24",
        "none",
        10,
        "first_black_jack",
    )
    to = HouseRules.preset_rules("toronto")
    assert (
        to.dealer_partner_order_up,
        to.order_up_needs_suit,
        to.defend_alone,
        to.lone_lead,
        to.points_super_euchre,
    ) == ("must_go_alone", "everyone", "vs_lone_maker", "left_of_loner", 4)
    br = HouseRules.preset_rules("british")
    assert (br.joker, br.target_score, br.first_dealer, br.alone_declaration, br.defend_alone) == (
        "joker",
        11,
        "random",
        "after_trump",
        "always",
    )
    six = HouseRules.preset_rules("six_player")
    assert (six.players, six.deck, six.joker, six.target_score) == (6, "32", "joker", 11)
    assert (
        six.points_made,
        six.points_march,
        six.points_lone_march,
        six.points_euchre,
        six.points_lone_defender_euchre,
    ) == (1, 3, 6, 3, 6)
    al = HouseRules.preset_rules("almonte")
    assert (al.players, al.deck, al.target_score, al.points_march) == (6, "almonte30", 15, 3)


@pytest.mark.parametrize(
    ("spec", "field"),
    [
        ({"players": 6}, "deck"),
        ({"target_score": 0}, "target_score"),
        ({"players": 5}, "players"),
        ({"stick": True}, "stick"),
        ({"defend_alone": "sometimes"}, "defend_alone"),
        ({"deck": 52}, "deck"),
        ({"preset": "almonte", "players": 4}, "deck"),
        ({"preset": "almonte", "joker": "joker"}, "joker"),
        ({"two_bennies": "red_black"}, "two_bennies"),
        ({"preset": "six_player", "farmers_hand": "three_of_a_rank"}, "farmers_hand"),
        ({"points_made": 0}, "points_made"),
        ({"deals_per_game": 0}, "deals_per_game"),
        ({"preset": "klondike"}, "preset"),
    ],
)
def test_impossible_rules_name_the_field(spec: dict[str, object], field: str) -> None:
    with pytest.raises(RefusedError) as err:
        HouseRules.from_spec(spec)
    assert str(err.value).startswith(f"{field}:"), str(err.value)


def test_deck_accepts_the_integers() -> None:
    assert HouseRules.from_spec({"deck": 32}).deck == "32"


def test_to_spec_round_trips_and_lists_differences() -> None:
    for name in PRESETS:
        rules = HouseRules.preset_rules(name)
        assert rules.to_spec() == {"preset": name}
        changed = rules.with_changes(stick_the_dealer=not rules.stick_the_dealer, target_score=7)
        assert HouseRules.from_spec(changed.to_spec()) == changed
        assert changed.differences_from_preset() == ["target_score", "stick_the_dealer"]


def test_rules_are_immutable() -> None:
    rules = HouseRules.preset_rules("toronto")
    with pytest.raises(ValidationError, match="target_score") as err:
        rules.target_score = 5  # type: ignore[misc]
    assert [(e["loc"], e["type"]) for e in err.value.errors()] == [
        (("target_score",), "frozen_instance")
    ]
    assert rules.target_score == HouseRules.preset_rules("toronto").target_score
