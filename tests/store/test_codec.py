"""How values travel between the models and the columns."""

from __future__ import annotations

import pytest

from bot.rules import HouseRules
from bot.store import CorruptDataError
from bot.store._codec import load_rules, rules_text


def test_a_stored_rules_text_is_read_once_into_the_same_rules() -> None:
    rules = HouseRules.preset_rules("toronto").with_changes(target_score=7)
    text = rules_text(rules)
    first = load_rules(text, "table 1 rules")
    assert first == rules
    assert load_rules(text, "table 2 rules") is first  # immutable: shared, not rebuilt


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "not a JSON object"),
        ('{"preset": "no_such_preset"}', "no longer valid"),
    ],
)
def test_rules_that_do_not_load_are_refused_with_their_place_every_time(
    text: str, says: str
) -> None:
    for _ in range(2):
        with pytest.raises(CorruptDataError, match=says) as caught:
            load_rules(text, "table 9 rules")
        assert "table 9 rules" in str(caught.value)
