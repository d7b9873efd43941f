"""What the house-rules commands say: setting sentences, confirmations, choice labels."""

from __future__ import annotations

from bot.render.server_config import (
    preset_choice_name,
    rule_change_text,
    rule_value_choice_name,
    rules_replaced_text,
    server_rules_panels,
    setting_sentence,
    setting_value_choice_name,
    settings_panel,
    table_rules_panel,
)
from bot.rules import HouseRules
from bot.rules.house_rules import PRESETS
from bot.server.fields import RULE_FIELDS, SETTING_FIELDS
from bot.server.settings import ServerSettings
from bot.server.sources import RuleChange

GUILD = 9


def test_every_setting_has_its_own_sentence_for_every_value() -> None:
    for name, values in SETTING_FIELDS.items():
        shown = [999999999999999999, None] if values.kind == "role" else values.suggestions("", 25)
        sentences = set()
        for value in shown:
            settings = ServerSettings().model_copy(update={name: value})
            sentence = setting_sentence(name, settings, 1.0)
            assert sentence.endswith(".") and not sentence.startswith(name.capitalize())
            sentences.add(sentence)
        assert len(sentences) == len(shown), name


def test_the_settings_list_names_every_setting() -> None:
    embed = settings_panel(ServerSettings(), 1.5)
    text = embed.description or ""
    for name in SETTING_FIELDS:
        assert f"`{name}`" in text
    assert "bot's default 1.5 seconds" in text
    admins = ServerSettings(rules_admin_role_id=999999999999999999, turn_time_limit_seconds=120)
    text = settings_panel(admins, 1.5).description or ""
    assert "or the <@&999999999999999999> role may" in text and "A turn lasts 2 minutes." in text


def test_choice_labels_fit_discords_limit() -> None:
    for preset in PRESETS:
        assert len(preset_choice_name(preset)) <= 100
        rules = HouseRules.preset_rules(preset)
        for name, values in RULE_FIELDS.items():
            for value in values.suggestions("", 25):
                label = rule_value_choice_name(name, value, rules, values.text(value))
                assert 0 < len(label) <= 100
    settings = ServerSettings()
    for name, values in SETTING_FIELDS.items():
        for value in values.suggestions("", 25):
            label = setting_value_choice_name(name, value, settings, values.text(value), 1.0)
            assert 0 < len(label) <= 100


def test_confirmations_say_what_changed() -> None:
    before = HouseRules()
    after = before.with_changes(duplicate_card_wins="first")
    text = rule_change_text(RuleChange(before, after, "duplicate_card_wins"), "second", "first")
    assert "it was second" in text
    assert "It makes no difference in these rules: it matters only with two packs." in text
    bid = rule_change_text(
        RuleChange(before, before.with_changes(bid_minimum=4), "bid_minimum"), "3", "4"
    )
    assert "It makes no difference in these rules: it is a rule of Bid Euchre." in bid
    assert "two packs" not in bid
    back = rule_change_text(RuleChange(after, before, "duplicate_card_wins"), "first", "second")
    assert "North American rule again" in back
    same = rules_replaced_text(RuleChange(before, before), reset=True)
    assert "Nothing changed" in same


def test_a_tables_rules_say_why_they_differ() -> None:
    server = HouseRules.preset_rules("toronto")
    kept = table_rules_panel(4, HouseRules(), overridden=False, server_rules=server)
    assert "keeps the rules it opened with" in (kept.description or "")
    casual = table_rules_panel(4, HouseRules(), overridden=True, server_rules=server)
    assert "casual" in (casual.description or "")
    assert len(server_rules_panels(server, table_number=4, table_rules=HouseRules())) == 2
    [alone] = server_rules_panels(server, table_number=4, table_rules=server)
    assert "Table 4 here plays these rules" in (alone.description or "")
