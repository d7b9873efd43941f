"""The rules a host asks for at /euchre new: changes read, checked and completed."""

from __future__ import annotations

import pytest

from bot.rules import HouseRules
from bot.server.fields import BadValueError
from bot.server.overrides import (
    OverrideNotAllowedError,
    complete_changes,
    parse_changes,
    table_rules,
)
from bot.server.settings import ServerSettings


def test_a_hosts_changes_are_read_and_checked() -> None:
    assert parse_changes("stick_the_dealer=yes; target score: 7\npartners_best on") == {
        "stick_the_dealer": "yes",
        "target_score": "7",
        "partners_best": "on",
    }
    with pytest.raises(BadValueError, match="isn't a rule change"):
        parse_changes("stick_the_dealer")
    with pytest.raises(BadValueError, match="preset option"):
        parse_changes("preset=toronto")
    settings = ServerSettings(rules=HouseRules.preset_rules("toronto"))
    same = table_rules(settings)
    assert same.rules == settings.rules and not same.overridden
    assert not table_rules(settings, "toronto").overridden
    chosen = table_rules(settings, "british", "target_score=5")
    assert chosen.overridden
    assert chosen.rules == HouseRules.preset_rules("british").with_changes(target_score=5)
    with pytest.raises(BadValueError, match="can't be played together"):
        table_rules(settings, None, "deck=almonte30")
    fixed = settings.model_copy(update={"rules": settings.rules.with_changes(deals_per_game=3)})
    with pytest.raises(BadValueError) as unused:
        table_rules(fixed, None, "target_score=5")
    assert unused.value.message == (
        "target_score=5 would make no difference at this table: the game is a fixed number of "
        "deals. No table was opened."
    )
    assert table_rules(fixed, None, "deals_per_game=off, target_score=5").rules.target_score == 5
    with pytest.raises(BadValueError, match="Bid Euchre does not use it"):
        table_rules(settings, "bid_euchre", "stick_the_dealer=yes")
    closed = settings.model_copy(update={"host_may_override_rules": False})
    with pytest.raises(OverrideNotAllowedError):
        table_rules(closed, None, "target_score=5")


def test_a_hosts_changes_are_completed_piece_by_piece() -> None:
    rules = HouseRules()
    assert complete_changes("stick", rules, limit=25, length=100) == ["stick_the_dealer="]
    assert complete_changes("target_score=5, stick_the_dealer=", rules, limit=25, length=100) == [
        "target_score=5, stick_the_dealer=yes",
        "target_score=5, stick_the_dealer=no",
    ]
    assert complete_changes("nonsense=", rules, limit=25, length=100) == []
    typed = "x" * 88 + ", deck="
    every = complete_changes(typed, rules, limit=25, length=1000)
    short = complete_changes(typed, rules, limit=25, length=100)
    assert short and len(short) < len(every) and all(len(o) <= 100 for o in short)
    assert complete_changes(typed, rules, limit=25, length=50) == []
    assert complete_changes("", rules, limit=3, length=100) == ["game=", "players="]
