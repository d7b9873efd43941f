"""A server's house rules and settings: what each accepts, who may change them, and the change.

Every rule is a field of :class:`~bot.rules.HouseRules` and every setting a field of
:class:`~bot.store.GuildSettings`; :class:`FieldValues` reads from the field's type
what it accepts, turns a value a person typed into it (or says why not), and writes
it back as text. :class:`ServerSettings` is the table service's preferences on the
database that can also change them: only a member with Manage Server or the server's
rules-admin role may, each change is checked whole before anything is saved, and a
table never sees a change (it copied the rules when it opened).
"""

from __future__ import annotations

import contextlib
import difflib
import math
import re
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal

import annotated_types
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from bot.errors import UserFacingError
from bot.rules import HouseRules, RulesError
from bot.store import SETTING_NAMES, Database, GuildSettings, SettingsError

from .database import GuildPrefs
from .prefs import PrefsSource, TablePrefs

__all__ = [
    "RULE_FIELDS",
    "SETTING_DESCRIPTIONS",
    "SETTING_FIELDS",
    "BadValueError",
    "Editor",
    "FieldValues",
    "NotRulesAdminError",
    "OverrideNotAllowedError",
    "RuleChange",
    "ServerSettings",
    "SettingChange",
    "SettingsReadOnlyError",
    "TableRules",
    "UnknownFieldError",
    "complete_changes",
    "editable",
    "find_field",
    "match_fields",
    "parse_changes",
    "settings_of",
    "table_rules",
]

ValueKind = Literal["choice", "bool", "int", "float", "role"]

_TRUE: Final = frozenset({"yes", "y", "true", "on", "1"})
_FALSE: Final = frozenset({"no", "n", "false", "off", "0"})
_EMPTY: Final = frozenset({"off", "none", "no", "default", "never", "-", "unlimited"})
_UNITS: Final = {"": 1, "s": 1, "sec": 1, "secs": 1, "second": 1, "seconds": 1}
_UNITS_LONG: Final = {"m": 60, "min": 60, "mins": 60, "minute": 60, "minutes": 60, "h": 3600}
_NUMBER: Final = re.compile(r"([+-]?(?:\d+(?:\.\d*)?|\.\d+))\s*([a-z]*)")
_ROLE: Final = re.compile(r"<@&(\d{1,20})>|(\d{15,20})")

SETTING_DESCRIPTIONS: Final[dict[str, str]] = {
    "tables_in_threads": "open each table in a thread of its own, not in the channel",
    "turn_time_limit_seconds": "seconds a player has for a move (off: no limit)",
    "allow_computers": "computer players may fill empty seats",
    "host_may_override_rules": "a table's host may change the rules at /euchre new (casual game)",
    "mention_on_turn": "mention a player when it is their turn",
    "computer_move_delay": "seconds between computer moves (default: the bot's setting)",
    "rules_admin_role_id": "a role that may change the rules and settings, besides Manage Server",
    "computer_default_level": "how well the computer players a host adds play",
    "timeouts_before_computer": "timed-out turns in a row before a computer keeps a player's seat",
    "allow_seat_takeover": "members may take over a computer's seat during a game",
}
"""What each server setting means, in the words autocomplete shows."""

_EMPTY_WORDS: Final = {
    "deals_per_game": "off",
    "points_super_euchre": "off",
    "turn_time_limit_seconds": "off",
    "computer_move_delay": "default",
    "rules_admin_role_id": "none",
}
_EXAMPLES: Final[dict[str, tuple[Any, ...]]] = {
    "target_score": (5, 7, 10, 11, 15, 21, 25),
    "deals_per_game": (None, 4, 6, 8, 12, 16),
    "turn_time_limit_seconds": (None, 30, 60, 120, 300, 600, 3600),
    "computer_move_delay": (None, 0, 0.5, 1, 2, 3, 5),
    "points_super_euchre": (None, 2, 3, 4, 6),
}

_MAX_CHOICES: Final = 25


# ---------------------------------------------------------------------- refusals


class UnknownFieldError(UserFacingError):
    """No rule or setting has that name."""


class BadValueError(UserFacingError):
    """A value that does not fit the rule or setting; the message says why and what would."""


class NotRulesAdminError(UserFacingError):
    """The member may not change the server's rules or settings."""


class SettingsReadOnlyError(UserFacingError):
    """This bot keeps no server settings (it runs without a database)."""


class OverrideNotAllowedError(UserFacingError):
    """The server does not let a host change the rules for one table."""


# ---------------------------------------------------------------------- what a field takes


@dataclass(frozen=True, slots=True)
class FieldValues:
    """What one rule or setting accepts, read from its pydantic field."""

    name: str
    description: str
    kind: ValueKind
    choices: tuple[Any, ...] = ()
    """The allowed values of a ``choice`` field."""
    low: float | None = None
    high: float | None = None
    empty: str | None = None
    """The word for "no value" when the field may be empty (``off``, ``default``...)."""
    examples: tuple[Any, ...] = ()

    @property
    def optional(self) -> bool:
        """Whether the field may be empty (None)."""
        return self.empty is not None

    def text(self, value: Any) -> str:
        """A value as a person types it: ``yes``, ``11``, ``off``, ``almonte30``."""
        if value is None:
            return self.empty or "none"
        if self.kind == "bool":
            return "yes" if value else "no"
        if isinstance(value, float) and value.is_integer():
            return str(int(value))
        return str(value)

    def allowed(self) -> str:
        """Every value it takes, in words: "a whole number from 1 to 100, or off"."""
        if self.kind == "bool":
            words = "yes or no"
        elif self.kind == "choice":
            words = "one of " + ", ".join(self.text(c) for c in self.choices)
        elif self.kind == "role":
            words = "a role of this server"
        else:
            number = "a whole number" if self.kind == "int" else "a number"
            unit = " (seconds)" if self._seconds else ""
            words = f"{number} from {self.text(self.low)} to {self.text(self.high)}{unit}"
        return f"{words}, or {self.empty}" if self.empty else words

    @property
    def _seconds(self) -> bool:
        return self.name.endswith("_seconds") or self.name.endswith("_delay")

    def parse(self, typed: str, roles: Mapping[int, str] | None = None) -> Any:
        """The value ``typed`` stands for; BadValueError saying why it doesn't fit.

        ``roles`` (id to name) lets a role be given by its name, and refuses ids of
        roles the server does not have.
        """
        text = " ".join(typed.split()).lower()
        if self.kind == "bool":
            if text in _TRUE:
                return True
            if text in _FALSE:
                return False
            raise self.refuse(typed, "that's not yes or no")
        if self.optional and text in _EMPTY:
            return None
        if self.kind == "choice":
            for choice in self.choices:
                if text == str(choice).lower():
                    return choice
            raise self.refuse(typed, "that's not one of its values")
        if self.kind == "role":
            return self._role(typed, roles)
        return self._number(typed, text)

    def _number(self, typed: str, text: str) -> int | float:
        match = _NUMBER.fullmatch(text)
        units = {**_UNITS, **_UNITS_LONG} if self._seconds else {"": 1}
        if match is None or match[2] not in units:
            raise self.refuse(typed, "that's not a number")
        number = float(match[1]) * units[match[2]]
        if not math.isfinite(number):
            raise self.refuse(typed, "that's not a number")
        if self.kind == "int":
            if not number.is_integer():
                raise self.refuse(typed, "it must be a whole number")
            value: int | float = int(number)
        else:
            value = number
        if self.low is not None and value < self.low:
            raise self.refuse(typed, f"the smallest it can be is {self.text(self.low)}")
        if self.high is not None and value > self.high:
            raise self.refuse(typed, f"the largest it can be is {self.text(self.high)}")
        return value

    def _role(self, typed: str, roles: Mapping[int, str] | None) -> int:
        text = typed.strip()
        match = _ROLE.fullmatch(text)
        if match is not None:
            role_id = int(match[1] or match[2])
            if roles is None or role_id in roles:
                return role_id
            raise self.refuse(typed, "this server has no such role")
        named = [rid for rid, name in (roles or {}).items() if name.lower() == text.lower()]
        if len(named) == 1:
            return named[0]
        reason = "this server has no role of that name"
        if named:
            reason = "several roles have that name: pick one from the list"
        raise self.refuse(typed, reason)

    def refuse(self, typed: str, reason: str) -> BadValueError:
        """The refusal of a typed value, with the reason and the allowed values."""
        shown = typed.strip()[:40] or "nothing"
        return BadValueError(
            f"Can't set {self.name} to {shown!r}: {reason}. "
            f"{self.name} takes {self.allowed()}. Nothing was changed."
        )

    def suggestions(self, typed: str, current: Any = None, preset: Any = None) -> list[Any]:
        """Values worth offering while a person types: what they typed, then the usual ones."""
        if self.kind == "bool":
            candidates: list[Any] = [True, False]
        elif self.kind == "choice":
            candidates = list(self.choices)
        else:
            candidates = [current, preset, *self.examples]
            if self.kind == "int" and self.low is not None and self.high is not None:
                start = int(self.low)
                candidates += [*range(start, min(int(self.high), start + 9) + 1), int(self.high)]
            if self.optional:
                candidates.append(None)
        text = typed.strip().lower()
        if self.kind in ("int", "float") and text:
            with contextlib.suppress(BadValueError):
                candidates.insert(0, self.parse(typed))
        out: list[Any] = []
        for value in candidates:
            if value is None and not self.optional:
                continue
            if value in out or (text and not self._offer(value, text)):
                continue
            out.append(value)
        return out[:_MAX_CHOICES]

    def _offer(self, value: Any, text: str) -> bool:
        shown = self.text(value).lower()
        if shown.startswith(text) or text in shown:
            return True
        try:
            return bool(self.parse(text) == value)
        except BadValueError:
            return False


def _unwrap(annotation: Any) -> tuple[Any, bool]:
    """The annotation without ``| None``, and whether None was allowed."""
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return args[0], True
    return annotation, False


def _bounds(info: FieldInfo) -> tuple[float | None, float | None]:
    low = high = None
    for rule in info.metadata:
        if isinstance(rule, annotated_types.Ge):
            low = typing.cast(float, rule.ge)
        elif isinstance(rule, annotated_types.Le):
            high = typing.cast(float, rule.le)
    return low, high


def field_values(model: type[BaseModel], name: str, description: str | None = None) -> FieldValues:
    """What field ``name`` of ``model`` accepts."""
    info = model.model_fields[name]
    inner, optional = _unwrap(info.annotation)
    empty = _EMPTY_WORDS.get(name, "none") if optional else None
    common: dict[str, Any] = {
        "name": name,
        "description": description or info.description or name.replace("_", " "),
        "empty": empty,
        "examples": _EXAMPLES.get(name, ()),
    }
    if name.endswith("_role_id"):
        return FieldValues(kind="role", **common)
    if typing.get_origin(inner) is Literal:
        return FieldValues(kind="choice", choices=typing.get_args(inner), **common)
    if inner is bool:
        return FieldValues(kind="bool", **common)
    if inner in (int, float):
        low, high = _bounds(info)
        kind: ValueKind = "int" if inner is int else "float"
        return FieldValues(kind=kind, low=low, high=high, **common)
    raise TypeError(f"{model.__name__}.{name}: no way to type a {inner!r}")


RULE_FIELDS: Final[dict[str, FieldValues]] = {
    name: field_values(HouseRules, name) for name in HouseRules.model_fields
}
"""Every house rule, by name, in the model's order."""

SETTING_FIELDS: Final[dict[str, FieldValues]] = {
    name: field_values(GuildSettings, name, SETTING_DESCRIPTIONS.get(name))
    for name in SETTING_NAMES
}
"""Every server setting, by name."""


def find_field(fields: Mapping[str, FieldValues], typed: str, what: str) -> FieldValues:
    """The field named ``typed`` (spaces for underscores are fine); UnknownFieldError if none."""
    key = "_".join(typed.strip().lower().replace("-", " ").split())
    found = fields.get(key)
    if found is not None:
        return found
    close = difflib.get_close_matches(key, list(fields), n=3, cutoff=0.6)
    hint = f" Did you mean {' or '.join(close)}?" if close else ""
    raise UnknownFieldError(
        f"There's no {what} called {typed.strip()[:40]!r}.{hint} "
        f"Pick one from the list as you type."
    )


def match_fields(fields: Mapping[str, FieldValues], typed: str) -> list[FieldValues]:
    """The fields whose name, then description, matches what a person is typing."""
    words = typed.strip().lower().replace("_", " ").split()
    if not words:
        return list(fields.values())[:_MAX_CHOICES]
    key = "_".join(words)
    first = [f for f in fields.values() if f.name.startswith(key)]
    second = [f for f in fields.values() if key in f.name and f not in first]
    third = [
        f
        for f in fields.values()
        if f not in first
        and f not in second
        and all(w in f"{f.name.replace('_', ' ')} {f.description}".lower() for w in words)
    ]
    return [*first, *second, *third][:_MAX_CHOICES]


# ---------------------------------------------------------------------- rules for one table


@dataclass(frozen=True, slots=True)
class TableRules:
    """The rules a new table opens with, and whether its host changed the server's."""

    rules: HouseRules
    overridden: bool


_SEPARATORS: Final = re.compile(r"[,;\n]")


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
    settings: GuildSettings, preset: str | None = None, changes: str | None = None
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
    return TableRules(rules, overridden=rules != settings.rules)


def complete_changes(typed: str, rules: HouseRules) -> list[str]:
    """Whole ``rule=value, ...`` texts completing the last piece of what a host is typing."""
    head, _, last = typed.rpartition(",")
    prefix = f"{head.strip()}, " if head.strip() else ""
    name, equals, value = last.partition("=")
    if not equals:
        names = [f.name for f in match_fields(RULE_FIELDS, name) if f.name != "preset"]
        options = [f"{prefix}{n}=" for n in names]
    else:
        try:
            values = find_field(RULE_FIELDS, name, "rule")
        except UnknownFieldError:
            return []
        default = HouseRules.preset_rules(rules.preset)
        shown = values.suggestions(
            value, getattr(rules, values.name), getattr(default, values.name)
        )
        options = [f"{prefix}{values.name}={values.text(v)}" for v in shown]
    return [o for o in options if len(o) <= 100][:_MAX_CHOICES]


# ---------------------------------------------------------------------- changing them


@dataclass(frozen=True, slots=True)
class Editor:
    """Who asks for a change: whether they may manage the server, and their roles."""

    manage_guild: bool
    role_ids: frozenset[int] = field(default_factory=frozenset)


@dataclass(frozen=True, slots=True)
class RuleChange:
    """The server's house rules before and after a change; ``field`` None for a whole set."""

    before: HouseRules
    after: HouseRules
    field: str | None = None

    @property
    def changed(self) -> bool:
        """Whether anything is different."""
        return self.before != self.after


@dataclass(frozen=True, slots=True)
class SettingChange:
    """One server setting before and after a change (``name`` None: every setting reset)."""

    before: GuildSettings
    after: GuildSettings
    name: str | None = None

    @property
    def changed(self) -> bool:
        """Whether anything is different."""
        return self.before.model_dump(exclude={"updated_at"}) != self.after.model_dump(
            exclude={"updated_at"}
        )


def _prefs_settings(prefs: TablePrefs) -> dict[str, Any]:
    """The settings a server has before it changes any: the bot's configured defaults."""
    return {
        "tables_in_threads": prefs.tables_in_threads,
        "allow_computers": prefs.allow_computers,
        "mention_on_turn": prefs.mention_on_turn,
        "computer_move_delay": prefs.computer_move_delay,
        "computer_default_level": prefs.computer_level,
    }


async def settings_of(prefs: PrefsSource, guild_id: int) -> GuildSettings:
    """A server's rules and settings as its tables get them, from any preferences source."""
    if isinstance(prefs, ServerSettings):
        return await prefs.current(guild_id)
    table = await prefs.table_prefs(guild_id)
    return GuildSettings(guild_id=guild_id, rules=table.rules, **_prefs_settings(table))


def editable(prefs: PrefsSource) -> ServerSettings:
    """The preferences as something that can change them; SettingsReadOnlyError if not."""
    if isinstance(prefs, ServerSettings):
        return prefs
    raise SettingsReadOnlyError(
        "This bot runs without a database, so its house rules and settings can't be "
        "changed; ask its owner."
    )


class ServerSettings(GuildPrefs):
    """Each server's preferences from the database, which its admins may also change."""

    def __init__(self, db: Database, defaults: TablePrefs | None = None) -> None:
        """Work on ``db``; a server that changed nothing has ``defaults`` and their rules."""
        super().__init__(db, defaults)
        self._db = db

    async def current(self, guild_id: int) -> GuildSettings:
        """The server's rules and settings as its tables get them."""
        stored = await self._settings.get(guild_id)
        if stored.updated_at is not None:
            return stored
        return stored.model_copy(update=_prefs_settings(self._defaults))

    @staticmethod
    def may_change(settings: GuildSettings, editor: Editor) -> bool:
        """Whether ``editor`` may change the server's rules and settings."""
        role = settings.rules_admin_role_id
        return editor.manage_guild or (role is not None and role in editor.role_ids)

    async def _check(self, guild_id: int, editor: Editor) -> GuildSettings:
        current = await self.current(guild_id)
        if not self.may_change(current, editor):
            role = current.rules_admin_role_id
            who = "the Manage Server permission" + (
                f" or the <@&{role}> role" if role is not None else ""
            )
            raise NotRulesAdminError(
                f"Changing this server's house rules and settings needs {who}. "
                "Anyone may read them with /euchre rules show and /euchre settings show."
            )
        return current

    async def _save_rules(self, current: GuildSettings, rules: HouseRules) -> None:
        if current.updated_at is None:
            # The first change writes the configured defaults too, so none of them moves.
            await self._settings.update(current.guild_id, **_prefs_settings(self._defaults))
        await self._settings.set_rules(current.guild_id, rules)

    async def set_rule(self, guild_id: int, editor: Editor, name: str, typed: str) -> RuleChange:
        """Change one house rule (``preset``: start from another preset, keeping the changes)."""
        values = find_field(RULE_FIELDS, name, "rule")
        async with self._db.transaction():
            current = await self._check(guild_id, editor)
            value = values.parse(typed)
            before = current.rules
            try:
                if values.name == "preset":
                    after = HouseRules.from_spec({**before.to_spec(), "preset": value})
                else:
                    after = before.with_changes(**{values.name: value})
            except RulesError as exc:
                raise BadValueError(
                    f"Can't set {values.name} to {values.text(value)}: it doesn't fit the "
                    f"other rules ({exc}). {values.name} takes {values.allowed()}. "
                    "Nothing was changed."
                ) from None
            if after != before:
                await self._save_rules(current, after)
        return RuleChange(before, after, values.name)

    async def use_preset(self, guild_id: int, editor: Editor, preset: str) -> RuleChange:
        """Make the server's house rules one preset's, with no change."""
        rules = HouseRules.preset_rules(RULE_FIELDS["preset"].parse(preset))
        return await self._replace_rules(guild_id, editor, rules)

    async def reset_rules(self, guild_id: int, editor: Editor) -> RuleChange:
        """Back to the bot's default house rules (North American); the settings stay."""
        return await self._replace_rules(guild_id, editor, HouseRules())

    async def _replace_rules(self, guild_id: int, editor: Editor, rules: HouseRules) -> RuleChange:
        async with self._db.transaction():
            current = await self._check(guild_id, editor)
            if rules != current.rules:
                await self._save_rules(current, rules)
        return RuleChange(current.rules, rules)

    async def set_setting(
        self,
        guild_id: int,
        editor: Editor,
        name: str,
        typed: str,
        roles: Mapping[int, str] | None = None,
    ) -> SettingChange:
        """Change one server setting; ``roles`` (id to name) are the server's roles."""
        values = find_field(SETTING_FIELDS, name, "setting")
        async with self._db.transaction():
            before = await self._check(guild_id, editor)
            value = values.parse(typed, roles)
            after = await self._update(before, {values.name: value}, values)
        return SettingChange(before, after, values.name)

    async def reset_settings(self, guild_id: int, editor: Editor) -> SettingChange:
        """Every setting back to the bot's defaults; the house rules stay."""
        defaults = GuildSettings(guild_id=guild_id)
        reset = {name: getattr(defaults, name) for name in SETTING_NAMES}
        async with self._db.transaction():
            before = await self._check(guild_id, editor)
            changes = {**reset, **_prefs_settings(self._defaults)}
            after = await self._update(before, changes, None)
        return SettingChange(before, after)

    async def _update(
        self, current: GuildSettings, changes: dict[str, Any], values: FieldValues | None
    ) -> GuildSettings:
        if current.updated_at is None:
            changes = {**_prefs_settings(self._defaults), **changes}
        try:
            return await self._settings.update(current.guild_id, **changes)
        except SettingsError as exc:
            allowed = f" {values.name} takes {values.allowed()}." if values else ""
            raise BadValueError(
                f"That setting doesn't fit: {exc}.{allowed} Nothing was changed."
            ) from None
