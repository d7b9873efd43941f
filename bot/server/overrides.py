"""The rules a host asks for at ``/euchre new``: a preset, and changes typed as ``rule=value``.

Where the server lets a host change its house rules, the table plays the host's rules
and its game is casual; everything else plays the house rules.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from bot.errors import UserFacingError
from bot.rules import HouseRules, RulesError
from bot.rules.house_rules import unused_because

from .fields import RULE_FIELDS, BadValueError, UnknownFieldError, find_field, match_fields
from .settings import ServerSettings

__all__ = [
    "OverrideNotAllowedError",
    "TableRules",
    "complete_changes",
    "parse_changes",
    "table_rules",
]

_SEPARATORS: Final = re.compile(r"[,;\n]")


class OverrideNotAllowedError(UserFacingError):
    """The server does not let a host change the rules for one table."""


@dataclass(frozen=True, slots=True)
class TableRules:
    """The rules a new table opens with, and whether its host changed the server's."""

    rules: HouseRules
    overridden: bool


def parse_changes(text: str) -> dict[str, str]:
    """``"stick_the_dealer=yes, target_score 11"`` as rule name to typed value.

    UnknownFieldError for a rule that does not exist, BadValueError for a piece
    that is not ``rule=value``.
    """
    out: dict[str, str] = {}
    for piece in _SEPARATORS.split(text):
        if not piece.strip():
            continue
        if re.search(r"[=:]", piece):
            parts = re.split(r"[=:]", piece, maxsplit=1)
        else:
            parts = piece.rsplit(None, 1)
        if len(parts) != 2 or not parts[0].strip() or not parts[1].strip():
            raise BadValueError(
                f"{piece.strip()[:40]!r} isn't a rule change: write rule=value, "
                "for example stick_the_dealer=yes, target_score=11."
            )
        name = find_field(RULE_FIELDS, parts[0], "rule").name
        if name == "preset":
            raise BadValueError("Choose the preset with the preset option, not in the changes.")
        out[name] = parts[1].strip()
    return out


def table_rules(
    settings: ServerSettings, preset: str | None = None, changes: str | None = None
) -> TableRules:
    """The rules a host asks for at /euchre new: a preset and/or changes to the house rules.

    OverrideNotAllowedError where the server does not allow it; BadValueError (nothing
    opened) when a value does not fit.
    """
    if preset is None and not (changes or "").strip():
        return TableRules(settings.rules, overridden=False)
    if not settings.host_may_override_rules:
        raise OverrideNotAllowedError(
            "This server doesn't let a table's host change the rules: open the table "
            "without preset or rules, and it plays the house rules (/euchre rules show)."
        )
    base = settings.rules
    if preset is not None:
        base = HouseRules.preset_rules(RULE_FIELDS["preset"].parse(preset))
    values = {
        name: RULE_FIELDS[name].parse(typed) for name, typed in parse_changes(changes or "").items()
    }
    try:
        rules = base.with_changes(**values)
    except RulesError as exc:
        raise BadValueError(
            f"Those rules can't be played together: {exc}. No table was opened."
        ) from None
    for name in values:
        unused = unused_because(name, rules)
        if unused is not None:
            raise BadValueError(
                f"{name}={RULE_FIELDS[name].text(values[name])} would make no difference at "
                f"this table: {unused}. No table was opened."
            )
    return TableRules(rules, overridden=rules != settings.rules)


def complete_changes(typed: str, rules: HouseRules, *, limit: int, length: int) -> list[str]:
    """Whole ``rule=value, ...`` texts completing the last piece of what a host is typing.

    At most ``limit`` of them, each at most ``length`` characters long.
    """
    head, _, last = typed.rpartition(",")
    prefix = f"{head.strip()}, " if head.strip() else ""
    name, equals, value = last.partition("=")
    if not equals:
        names = [f.name for f in match_fields(RULE_FIELDS, name, limit) if f.name != "preset"]
        options = [f"{prefix}{n}=" for n in names]
    else:
        try:
            values = find_field(RULE_FIELDS, name, "rule")
        except UnknownFieldError:
            return []
        default = HouseRules.preset_rules(rules.preset)
        shown = values.suggestions(
            value, limit, getattr(rules, values.name), getattr(default, values.name)
        )
        options = [f"{prefix}{values.name}={values.text(v)}" for v in shown]
    return [o for o in options if len(o) <= length][:limit]
