"""A server's house rules and settings as its members read them: lists, confirmations, choices.

The rules themselves are drawn by :mod:`.rules`; this adds what the ``/euchre rules``
and ``/euchre settings`` commands say around them: the server's settings in plain
words, the sentence confirming a change, and the labels of autocomplete choices.
"""

from __future__ import annotations

from typing import Any, Final

from bot.rules import HouseRules, RulesError
from bot.rules.house_rules import PRESET_DESCRIPTIONS, unused_because
from bot.server.fields import SETTING_FIELDS, FieldValues
from bot.server.settings import ServerSettings
from bot.server.sources import RuleChange, SettingChange

from .fitting import OPTION_TEXT, shorten
from .panel import Panel
from .rules import CHANGED_MARK, PRESET_NAMES, explain, rules_panel

__all__ = [
    "choice_name",
    "preset_choice_name",
    "role_mention",
    "rule_change_text",
    "rule_value_choice_name",
    "rules_replaced_text",
    "server_rules_panels",
    "setting_change_text",
    "setting_sentence",
    "setting_value_choice_name",
    "settings_panel",
    "shown_value",
    "table_rules_panel",
]

_CHOICE_LIMIT: Final = OPTION_TEXT
_OPEN_TABLES: Final = "Tables already open keep their rules; the next table opened uses these."


def role_mention(role_id: int) -> str:
    """A role as a message mentions it."""
    return f"<@&{role_id}>"


def shown_value(values: FieldValues, value: Any) -> str:
    """A rule's or setting's value as a message shows it (a role or channel as its mention)."""
    if values.kind == "role" and value is not None:
        return role_mention(value)
    if values.kind == "channel" and value is not None:
        return f"<#{value}>"
    return values.text(value)


def choice_name(text: str) -> str:
    """Text shortened to the length of an autocomplete choice's name."""
    return shorten(text, _CHOICE_LIMIT)


def preset_choice_name(preset: str) -> str:
    """A preset as a choice: its name and what it plays."""
    return choice_name(f"{PRESET_NAMES[preset]}: {_plays(preset)}")


def _plays(preset: str) -> str:
    """What a preset plays, without the name its description may start with."""
    head, said, tail = PRESET_DESCRIPTIONS[preset].partition(": ")
    return tail if said else head


def rule_value_choice_name(name: str, value: Any, rules: HouseRules, shown: str) -> str:
    """A value of a rule as a choice: the value, then what the rule would mean with it."""
    now = " (now)" if getattr(rules, name) == value else ""
    if name == "preset":
        return choice_name(f"{PRESET_NAMES[value]}{now}: {_plays(value)}")
    try:
        changed = rules.with_changes(**{name: value})
    except RulesError as exc:
        return choice_name(f"{shown}: doesn't fit the other rules ({exc})")
    return choice_name(f"{shown}{now}: {explain(name, changed)}")


def setting_value_choice_name(
    name: str, value: Any, settings: ServerSettings, shown: str, default_delay: float
) -> str:
    """A value of a setting as a choice: the value, then what it would mean."""
    now = " (now)" if getattr(settings, name) == value else ""
    changed = settings.model_copy(update={name: value})
    return choice_name(f"{shown}{now}: {setting_sentence(name, changed, default_delay)}")


# ---------------------------------------------------------------------- rules


def server_rules_panels(
    server: HouseRules,
    *,
    table_number: int | None = None,
    table_rules: HouseRules | None = None,
    table_overridden: bool = False,
) -> list[Panel]:
    """The server's house rules; and the table's here (``table_number``), when it plays others."""
    panel = rules_panel(server, title="This server's house rules")
    if table_number is None or table_rules is None:
        return [panel]
    if table_rules == server:
        panel.description = f"{panel.description}\nTable {table_number} here plays these rules."
        return [panel]
    table = table_rules_panel(
        table_number, table_rules, overridden=table_overridden, server_rules=server
    )
    return [panel, table]


def table_rules_panel(
    number: int, rules: HouseRules, *, overridden: bool, server_rules: HouseRules | None
) -> Panel:
    """The rules of table ``number``, saying where they differ from the server's house rules."""
    panel = rules_panel(rules, title=f"Rules of table {number}")
    notes = []
    if overridden:
        notes.append("The host chose these rules for this table, so the game is casual.")
    elif server_rules is not None and server_rules != rules:
        notes.append(
            "The server's house rules changed after this table opened: it keeps the rules "
            "it opened with."
        )
    if notes:
        panel.description = f"{panel.description}\n" + "\n".join(notes)
    return panel


def _preset_name(rules: HouseRules) -> str:
    return PRESET_NAMES[rules.preset]


def rule_change_text(change: RuleChange, shown_before: str, shown_after: str) -> str:
    """The confirmation of ``/euchre rules set``, in plain words."""
    name = change.field
    if name is None:
        raise ValueError("a change of one rule names its field")
    after = change.after
    if not change.changed:
        return f"**{name}** is already **{shown_after}**: nothing changed."
    if name == "preset":
        kept = after.differences_from_preset()
        keeping = f", keeping {len(kept)} changed rule(s)" if kept else ""
        lines = [
            f"{CHANGED_MARK} House rule **preset** is now **{shown_after}**: the rules start "
            f"from {_preset_name(after)}{keeping}. {PRESET_DESCRIPTIONS[after.preset]}."
        ]
    else:
        lines = [
            f"{CHANGED_MARK} House rule **{name}** is now **{shown_after}** "
            f"(it was {shown_before}).",
            explain(name, after),
        ]
        if name not in after.differences_from_preset():
            lines.append(f"That is the {_preset_name(after)} rule again.")
        unused = unused_because(name, after)
        if unused is not None:
            lines.append(f"It makes no difference in these rules: {unused}.")
    lines.append(_OPEN_TABLES)
    return "\n".join(lines)


def rules_replaced_text(change: RuleChange, *, reset: bool) -> str:
    """The confirmation of ``/euchre rules preset`` or ``/euchre rules reset``."""
    after = change.after
    base = f"**{_preset_name(after)}**: {PRESET_DESCRIPTIONS[after.preset]}."
    if not change.changed:
        return f"The house rules already are {base} Nothing changed."
    dropped = len(change.before.differences_from_preset())
    if reset:
        head = f"{CHANGED_MARK} The house rules are back to the bot's defaults, {base}"
    else:
        head = f"{CHANGED_MARK} The house rules are now {base}"
    lines = [head]
    if dropped:
        lines.append(f"The {dropped} rule(s) changed before were dropped.")
    lines += ["See them all with /euchre rules show.", _OPEN_TABLES]
    return "\n".join(lines)


# ---------------------------------------------------------------------- settings


def _seconds(value: float) -> str:
    if value >= 120 and value % 60 == 0:
        return f"{value / 60:g} minutes"
    return "1 second" if value == 1 else f"{value:g} seconds"


def setting_sentence(name: str, settings: ServerSettings, default_delay: float) -> str:
    """One plain sentence saying what a setting does with the value it has."""
    values = SETTING_FIELDS[name]
    value = getattr(settings, name)
    shown = _seconds(value) if values.seconds and value is not None else shown_value(values, value)
    return settings.sentence(name, shown, _seconds(default_delay))


def settings_panel(settings: ServerSettings, default_delay: float) -> Panel:
    """Every server setting: its name and value as typed, then what it means."""
    lines = [
        f"`{name}` **{shown_value(values, getattr(settings, name))}**: "
        f"{setting_sentence(name, settings, default_delay)}"
        for name, values in SETTING_FIELDS.items()
    ]
    return Panel(
        title="This server's settings",
        description="\n".join(lines),
        colour="dark_green",
        footer="Admins change one with /euchre settings set.",
    )


def setting_change_text(
    change: SettingChange, shown_before: str, shown_after: str, default_delay: float
) -> str:
    """The confirmation of ``/euchre settings set`` or ``reset``, in plain words."""
    name = change.name
    if name is None:
        if not change.changed:
            return "The settings already are the defaults: nothing changed."
        return (
            f"{CHANGED_MARK} Every setting is back to its default (the house rules stay). "
            "See them with /euchre settings show."
        )
    if not change.changed:
        return f"**{name}** is already **{shown_after}**: nothing changed."
    return (
        f"{CHANGED_MARK} Setting **{name}** is now **{shown_after}** (it was {shown_before}).\n"
        f"{setting_sentence(name, change.after, default_delay)}"
    )
