"""House rules in plain words: every field explained, grouped, changes marked."""

from __future__ import annotations

import pytest

from bot.render.rules import (
    CHANGED_MARK,
    GROUPS,
    explain,
    matters,
    rules_line,
    rules_panel,
    rules_text,
)
from bot.rules import PRESETS, HouseRules

FIELDS = set(HouseRules.model_fields) - {"preset"}


def test_every_field_is_in_exactly_one_group() -> None:
    grouped = [f for _, fields in GROUPS for f in fields]
    assert sorted(grouped) == sorted(FIELDS)
    assert [title for title, _ in GROUPS] == [
        "Pack",
        "Bidding",
        "Going alone",
        "Play",
        "Scoring",
        "Game length",
        "Bid Euchre",
    ]


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_field_has_a_sentence_for_every_preset(preset: str) -> None:
    rules = HouseRules.preset_rules(preset)
    for field in FIELDS:
        sentence = explain(field, rules)
        assert sentence.endswith((".", ")")) and "_" not in sentence, (field, sentence)


def test_every_value_of_every_choice_field_reads_differently() -> None:
    plain = HouseRules.preset_rules("north_american")
    double = plain.with_changes(packs=2, joker="joker")
    for field, info in HouseRules.model_fields.items():
        base = double if field == "two_bennies" else plain
        choices = getattr(info.annotation, "__args__", ())
        if field == "preset" or not choices or not all(isinstance(c, str) for c in choices):
            continue
        sentences = set()
        for value in choices:
            try:
                rules = base.with_changes(**{field: value})
            except ValueError:
                continue
            sentences.add(explain(field, rules))
        assert len(sentences) > 1 or field == "benny_upcard", field


def test_changes_from_the_preset_are_marked_and_in_the_line() -> None:
    rules = HouseRules.from_spec(
        {"preset": "north_american", "stick_the_dealer": True, "points_super_euchre": 4}
    )
    text = rules_text(rules)
    marked = [line for line in text.splitlines() if CHANGED_MARK in line]
    assert len(marked) == 2 and any("Stick the dealer" in line for line in marked)
    assert rules_line(rules) == "North American · to 10 · stick the dealer · super-euchre 4"
    embed = rules_panel(rules)
    assert "2 rule(s) changed" in (embed.description or "")
    assert [f.name for f in embed.fields] == [title for title, _ in GROUPS][:-1]  # no Bid Euchre
    assert sum(len(f.value or "") for f in embed.fields) < 6000


def test_rules_that_cannot_matter_are_left_out_unless_changed() -> None:
    single = HouseRules.preset_rules("north_american")
    assert not matters("duplicate_card_wins", single) and not matters("benny_upcard", single)
    assert "equal cards" not in rules_text(single)
    assert "Benny is turned up" in rules_text(HouseRules.preset_rules("british"))


def test_a_fixed_number_of_deals_shows_in_the_line() -> None:
    rules = HouseRules.from_spec({"preset": "toronto", "deals_per_game": 8})
    assert rules_line(rules).startswith("Euchre Toronto · 8 deals")
    assert "lasts 8 deals" in rules_text(rules)


def test_bid_euchre_rules_show_the_bidding_and_hide_euchre_only_rules() -> None:
    rules = HouseRules.preset_rules("bid_euchre_8")
    text = rules_text(rules)
    assert "Eight players, four against four" in text
    assert "Bids start at 3 tricks" in text and "it wins or loses 12 points" in text
    assert "the first one played wins" in text and "Stick the dealer" not in text
    assert "order up" not in text.lower()
    embed = rules_panel(rules)
    assert [f.name for f in embed.fields][-1] == "Bid Euchre"
    assert all(f.value for f in embed.fields)
    assert (
        rules_line(rules.with_changes(shoot=False)) == "Bid Euchre for eight · to 32 · no shooting"
    )
