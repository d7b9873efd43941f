"""What a rule or setting accepts, and a typed value turned into it (or refused)."""

from __future__ import annotations

import pytest

from bot.rules import HouseRules
from bot.server.fields import (
    RULE_FIELDS,
    SETTING_FIELDS,
    BadValueError,
    ServerNames,
    ServerObjects,
    UnknownFieldError,
    find_field,
    match_fields,
)
from bot.server.settings import SETTING_NAMES, ServerSettings


def test_every_rule_and_setting_has_a_way_to_be_typed() -> None:
    assert list(SETTING_NAMES) == [n for n in ServerSettings.model_fields if n in SETTING_FIELDS]
    assert list(RULE_FIELDS) == list(HouseRules.model_fields)
    assert list(SETTING_FIELDS) == list(SETTING_NAMES)
    for values in [*RULE_FIELDS.values(), *SETTING_FIELDS.values()]:
        assert values.description and values.allowed()


@pytest.mark.parametrize(
    ("name", "typed", "value"),
    [
        ("stick_the_dealer", "Yes", True),
        ("stick_the_dealer", "off", False),
        ("players", "6", 6),
        ("deck", "ALMONTE30", "almonte30"),
        ("target_score", " 11 ", 11),
        ("points_super_euchre", "off", None),
        ("points_super_euchre", "4", 4),
        ("deals_per_game", "none", None),
    ],
)
def test_rule_values_are_read_as_people_type_them(name: str, typed: str, value: object) -> None:
    values = RULE_FIELDS[name]
    parsed = values.parse(typed)
    assert parsed == value and type(parsed) is type(value)
    assert values.parse(values.text(parsed)) == parsed


@pytest.mark.parametrize(
    ("name", "typed", "value"),
    [
        ("turn_time_limit_seconds", "90", 90),
        ("turn_time_limit_seconds", "2m", 120),
        ("turn_time_limit_seconds", "2 minutes", 120),
        ("turn_time_limit_seconds", "off", None),
        ("computer_move_delay", "0.5s", 0.5),
        ("computer_move_delay", "default", None),
        ("computer_default_level", "expert", "expert"),
    ],
)
def test_setting_values_are_read_as_people_type_them(name: str, typed: str, value: object) -> None:
    assert SETTING_FIELDS[name].parse(typed) == value


def test_roles_are_read_by_id_or_name() -> None:
    values = SETTING_FIELDS["rules_admin_role_id"]
    roles = ServerObjects(
        roles=ServerNames({111111111111111111: "Rules", 222222222222222222: "Mods"})
    )
    assert values.parse("111111111111111111", roles) == 111111111111111111
    assert values.parse("mods", roles) == 222222222222222222
    assert values.parse("none", roles) is None
    with pytest.raises(BadValueError, match="no such role"):
        values.parse("333333333333333333", roles)
    with pytest.raises(BadValueError, match="several roles"):
        values.parse("mods", ServerObjects(roles=ServerNames({1: "Mods", 2: "mods"})))


def test_whole_numbers_are_read_exactly_past_a_floats_digits() -> None:
    hour = SETTING_FIELDS["daily_hour"]
    assert hour.parse("23") == 23 and type(hour.parse("23")) is int
    with pytest.raises(BadValueError, match="largest it can be is 23"):
        hour.parse("9007199254740993")
    channel = SETTING_FIELDS["daily_channel"]
    assert channel.parse("1579290198540288011") == 1579290198540288011
    with pytest.raises(BadValueError, match="largest it can be is 9223372036854775807"):
        channel.parse("9223372036854775808")


@pytest.mark.parametrize(
    ("name", "typed", "reason"),
    [
        ("target_score", "0", "the smallest it can be is 1"),
        ("target_score", "nan", "not a number"),
        ("target_score", "1e400", "not a number"),
        ("target_score", "9" * 5000, "not a number"),  # past the digits Python reads
        ("target_score", "10m", "not a number"),
        ("points_made", "1.5", "whole number"),
        ("packs", "3", "not one of its values"),
        ("joker", "", "not one of its values"),
        ("ace_no_face", "sometimes", "not yes or no"),
    ],
)
def test_a_value_that_does_not_fit_is_refused_with_what_would(
    name: str, typed: str, reason: str
) -> None:
    values = RULE_FIELDS[name]
    with pytest.raises(BadValueError) as caught:
        values.parse(typed)
    assert reason in caught.value.message
    assert f"{name} takes {values.allowed()}" in caught.value.message


def test_allowed_values_in_words() -> None:
    assert RULE_FIELDS["target_score"].allowed() == "a whole number from 1 to 100"
    assert RULE_FIELDS["points_super_euchre"].allowed() == "a whole number from 1 to 50, or off"
    assert RULE_FIELDS["stick_the_dealer"].allowed() == "yes or no"
    assert RULE_FIELDS["players"].allowed() == "one of 4, 6, 8"
    assert SETTING_FIELDS["computer_move_delay"].allowed() == (
        "a number from 0 to 60 (seconds), or default"
    )


def test_names_are_found_loosely_and_matched_by_meaning() -> None:
    assert find_field(RULE_FIELDS, "Stick the dealer", "rule").name == "stick_the_dealer"
    with pytest.raises(UnknownFieldError, match="Did you mean target_score"):
        find_field(RULE_FIELDS, "target_scor", "rule")
    assert match_fields(RULE_FIELDS, "super", 25)[0].name == "points_super_euchre"
    assert "lone_lead" in [f.name for f in match_fields(RULE_FIELDS, "who leads", 25)]
    assert len(match_fields(RULE_FIELDS, "", 25)) == 25
    assert len(match_fields(RULE_FIELDS, "", 3)) == 3


def test_suggestions_start_with_what_was_typed() -> None:
    target = RULE_FIELDS["target_score"]
    assert target.suggestions("13", 25)[0] == 13
    assert target.suggestions("1000", 25) == []
    assert RULE_FIELDS["deck"].suggestions("alm", 25) == ["almonte30", "almonte21"]
    assert RULE_FIELDS["stick_the_dealer"].suggestions("", 25) == [True, False]
    assert len(target.suggestions("", 4)) == 4
