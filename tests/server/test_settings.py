"""The one model of a server's settings: one field each, with its words, and who may change it."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from bot.rules import HouseRules
from bot.server.settings import (
    SETTING_NAMES,
    WORDINGS,
    Editor,
    NotRulesAdminError,
    ServerSettings,
)

ROLE = 555555555555555555


def test_every_setting_is_one_described_and_worded_field() -> None:
    fields = ServerSettings.model_fields
    assert set(SETTING_NAMES) == set(fields) - {"rules", "updated_at"}
    for name in SETTING_NAMES:
        assert fields[name].description, name
        assert WORDINGS[name].value, name


def test_the_defaults_are_the_ones_the_bot_plays_with() -> None:
    settings = ServerSettings()
    assert settings.rules == HouseRules.preset_rules("north_american")
    assert settings.ping_after == 8 and settings.allow_seat_takeover and settings.allow_computers
    assert not settings.tables_in_threads and settings.updated_at is None
    assert settings.timeouts_before_computer == 2 and settings.computer_default_level == "basic"
    assert settings.settings_only() == {n: getattr(settings, n) for n in SETTING_NAMES}


def test_a_setting_out_of_range_is_refused_by_the_model() -> None:
    with pytest.raises(ValidationError, match="turn_time_limit_seconds"):
        ServerSettings(turn_time_limit_seconds=3)
    with pytest.raises(ValidationError, match="extra"):
        ServerSettings.model_validate({"no_such_setting": True})


@pytest.mark.parametrize(
    ("changes", "name", "shown", "sentence"),
    [
        ({}, "tables_in_threads", "no", "Tables open in the channel where /euchre new is used."),
        ({"tables_in_threads": True}, "tables_in_threads", "yes", "Each table opens in a thread"),
        ({}, "turn_time_limit_seconds", "off", "No time limit on a turn."),
        ({"turn_time_limit_seconds": 90}, "turn_time_limit_seconds", "90 s", "A turn lasts 90 s."),
        ({}, "computer_move_delay", "default", "the bot's default 2 seconds a move."),
        ({"computer_move_delay": 1.0}, "computer_move_delay", "1 s", "Computer players wait 1 s"),
        ({}, "rules_admin_role_id", "none", "Only members with Manage Server"),
        ({"rules_admin_role_id": ROLE}, "rules_admin_role_id", "@Rules", "the @Rules role may"),
        ({"timeouts_before_computer": 1}, "timeouts_before_computer", "1", "a timed-out turn,"),
        ({"timeouts_before_computer": 3}, "timeouts_before_computer", "3", "After 3 timed-out"),
        ({"allow_seat_takeover": False}, "allow_seat_takeover", "no", "Nobody may take over"),
        ({}, "computer_default_level", "basic", "play at the basic level."),
    ],
)
def test_each_value_reads_as_a_sentence(
    changes: dict[str, object], name: str, shown: str, sentence: str
) -> None:
    settings = ServerSettings.model_validate(changes)
    assert sentence in settings.sentence(name, shown, "2 seconds")


def test_only_manage_server_or_the_rules_role_may_change_them() -> None:
    plain = ServerSettings()
    with_role = ServerSettings(rules_admin_role_id=ROLE)
    admin = Editor(manage_guild=True)
    member = Editor(manage_guild=False, role_ids=frozenset({ROLE}), shown_role=lambda r: f"@{r}")
    assert plain.may_change(admin) and with_role.may_change(admin)
    assert not plain.may_change(member) and with_role.may_change(member)
    with pytest.raises(NotRulesAdminError, match="needs the Manage Server permission\\."):
        plain.check_editor(member)
    stranger = Editor(manage_guild=False, shown_role=lambda r: f"@{r}")
    with pytest.raises(NotRulesAdminError, match=f"or the @{ROLE} role"):
        with_role.check_editor(stranger)
    with_role.check_editor(member)
