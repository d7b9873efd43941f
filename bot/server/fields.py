"""What a rule, setting or preference accepts, and the text a person typed turned into it.

Every rule is a field of :class:`~bot.rules.HouseRules`, every setting a field of
:class:`~.settings.ServerSettings` and every personal preference a field of
:class:`~.preferences.Preferences`; :class:`FieldValues` reads from the field's type
what it accepts, turns a value a person typed into it (or says why not), and writes
it back as text. How many choices a list may offer is the caller's (the chat's) limit.
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
from fractions import Fraction
from typing import Any, Final, Literal

import annotated_types
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from bot.errors import UserFacingError
from bot.rules import HouseRules

from .preferences import PREFERENCE_NAMES, Preferences
from .settings import SETTING_NAMES, ServerSettings, wordings_of

__all__ = [
    "PREFERENCE_FIELDS",
    "RULE_FIELDS",
    "SETTING_FIELDS",
    "BadValueError",
    "FieldValues",
    "ServerNames",
    "ServerObjects",
    "UnknownFieldError",
    "field_values",
    "find_field",
    "match_fields",
]

ValueKind = Literal["choice", "bool", "int", "float", "role", "channel"]

_TRUE: Final = frozenset({"yes", "y", "true", "on", "1"})
_FALSE: Final = frozenset({"no", "n", "false", "off", "0"})
_EMPTY: Final = frozenset({"off", "none", "no", "default", "never", "-", "unlimited"})
_UNITS: Final = {"": 1, "s": 1, "sec": 1, "secs": 1, "second": 1, "seconds": 1}
_UNITS_LONG: Final = {"m": 60, "min": 60, "mins": 60, "minute": 60, "minutes": 60, "h": 3600}
_NUMBER: Final = re.compile(r"([+-]?(?:\d+(?:\.\d*)?|\.\d+))\s*([a-z]*)")
_OBJECT_WORDS: Final = {
    "role": ("a role of this server", "@"),
    "channel": ("a text channel of this server", "#"),
}
"""What a role or channel field takes, in words, and the mark its name may be typed with."""
_UNFIT: Final = {
    "role": "@everyone and the roles of bots and integrations can't be chosen",
    "channel": "it is not a text channel",
}

# The house rules' words for "none" and their usual values (a setting keeps its own on
# its field: see :func:`~.settings.wording`).
_RULE_EMPTY_WORDS: Final = {"deals_per_game": "off", "points_super_euchre": "off"}
_RULE_EXAMPLES: Final[dict[str, tuple[Any, ...]]] = {
    "target_score": (5, 7, 10, 11, 15, 21, 25),
    "deals_per_game": (None, 4, 6, 8, 12, 16),
    "points_super_euchre": (None, 2, 3, 4, 6),
}


class UnknownFieldError(UserFacingError):
    """No rule or setting has that name."""


class BadValueError(UserFacingError):
    """A value that does not fit the rule or setting; the message says why and what would."""


@dataclass(frozen=True, slots=True)
class ServerNames:
    """A server's roles or its channels, by id to their names.

    ``fit``: those a setting may name; ``unfit``: those it has that no setting takes (a
    bot's role, a voice channel), so that a refusal says why.
    """

    fit: Mapping[int, str]
    unfit: Mapping[int, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ServerObjects:
    """A server's roles and channels, as the chat sees them, for a role or channel field."""

    roles: ServerNames | None = None
    channels: ServerNames | None = None

    def of(self, kind: ValueKind) -> ServerNames | None:
        """The roles or the channels, for a field of that kind."""
        return self.roles if kind == "role" else self.channels


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
        elif self.kind in _OBJECT_WORDS:
            words = _OBJECT_WORDS[self.kind][0]
        else:
            number = "a whole number" if self.kind == "int" else "a number"
            unit = " (seconds)" if self.seconds else ""
            words = f"{number} from {self.text(self.low)} to {self.text(self.high)}{unit}"
        return f"{words}, or {self.empty}" if self.empty else words

    @property
    def seconds(self) -> bool:
        """Whether the value is a number of seconds (it may be typed as ``2 min``)."""
        return self.name.endswith(("_seconds", "_delay", "_after"))

    def parse(self, typed: str, server: ServerObjects | None = None) -> Any:
        """The value ``typed`` stands for; BadValueError saying why it doesn't fit.

        A role or a channel is its id or its name; ``server`` (its roles and channels)
        lets it be given by its name, and refuses what the server does not have or no
        setting takes. The caller turns the chat's mention of one into its id.
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
            words = "_".join(text.replace("-", " ").split())
            for choice in self.choices:
                if words == str(choice).lower():
                    return choice
            raise self.refuse(typed, "that's not one of its values")
        if self.kind in _OBJECT_WORDS:
            return self._server_object(typed, None if server is None else server.of(self.kind))
        return self._number(typed, text)

    def _number(self, typed: str, text: str) -> int | float:
        match = _NUMBER.fullmatch(text)
        units = {**_UNITS, **_UNITS_LONG} if self.seconds else {"": 1}
        if match is None or match[2] not in units:
            raise self.refuse(typed, "that's not a number")
        value: int | float
        if self.kind == "int":  # exactly: a float loses the digits of an id past 2**53
            try:
                exact = Fraction(match[1]) * units[match[2]]
            except ValueError:  # more digits than Python reads as a number (4,300)
                raise self.refuse(typed, "that's not a number") from None
            if exact.denominator != 1:
                raise self.refuse(typed, "it must be a whole number")
            value = int(exact)
        else:
            value = float(match[1]) * units[match[2]]
            if not math.isfinite(value):
                raise self.refuse(typed, "that's not a number")
        return self._in_bounds(typed, value)

    def _in_bounds(self, typed: str, value: int | float) -> int | float:
        if self.low is not None and value < self.low:
            raise self.refuse(typed, f"the smallest it can be is {self.text(self.low)}")
        if self.high is not None and value > self.high:
            raise self.refuse(typed, f"the largest it can be is {self.text(self.high)}")
        return value

    def _server_object(self, typed: str, names: ServerNames | None) -> int:
        text = typed.strip()
        noun = self.kind
        if text.isascii() and text.isdigit():
            found = int(text)
            if names is None:
                return int(self._in_bounds(typed, found))
            if found in names.fit:
                return found
            if found in names.unfit:
                raise self.refuse(typed, _UNFIT[noun])
        if names is not None:
            wanted = {text.lower(), text.lower().removeprefix(_OBJECT_WORDS[noun][1])}
            named = [i for i, name in names.fit.items() if name.lower() in wanted]
            if len(named) == 1:
                return named[0]
            if named:
                raise self.refuse(typed, f"several {noun}s have that name: pick one from the list")
            if any(name.lower() in wanted for name in names.unfit.values()):
                raise self.refuse(typed, _UNFIT[noun])
        if text.isdigit():
            raise self.refuse(typed, f"this server has no such {noun}")
        raise self.refuse(typed, f"this server has no {noun} of that name")

    def refuse(self, typed: str, reason: str) -> BadValueError:
        """The refusal of a typed value, with the reason and the allowed values."""
        shown = typed.strip()[:40] or "nothing"
        return BadValueError(
            f"Can't set {self.name} to {shown!r}: {reason}. "
            f"{self.name} takes {self.allowed()}. Nothing was changed."
        )

    def suggestions(
        self, typed: str, limit: int, current: Any = None, preset: Any = None
    ) -> list[Any]:
        """At most ``limit`` values worth offering while a person types: theirs, then usual ones."""
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
        return out[:limit]

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
        elif isinstance(rule, annotated_types.Gt | annotated_types.Lt):
            raise TypeError(f"{rule!r}: bound a field people type with ge and le, which it shows")
    return low, high


def field_values(model: type[BaseModel], name: str) -> FieldValues:
    """What field ``name`` of ``model`` accepts."""
    info = model.model_fields[name]
    inner, optional = _unwrap(info.annotation)
    words = wordings_of(model).get(name)
    empty = (words.empty if words else _RULE_EMPTY_WORDS.get(name, "none")) if optional else None
    examples = tuple(info.examples) if info.examples else _RULE_EXAMPLES.get(name, ())
    common: dict[str, Any] = {
        "name": name,
        "description": info.description or name.replace("_", " "),
        "empty": empty,
        "examples": examples,
    }
    extra = info.json_schema_extra
    discord = extra.get("discord_id") if isinstance(extra, dict) else None
    if discord in _OBJECT_WORDS:
        low, high = _bounds(info)
        return FieldValues(kind=typing.cast(ValueKind, discord), low=low, high=high, **common)
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
    name: field_values(ServerSettings, name) for name in SETTING_NAMES
}
"""Every server setting, by name."""

PREFERENCE_FIELDS: Final[dict[str, FieldValues]] = {
    name: field_values(Preferences, name) for name in PREFERENCE_NAMES
}
"""Every personal preference, by name."""


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


def match_fields(fields: Mapping[str, FieldValues], typed: str, limit: int) -> list[FieldValues]:
    """At most ``limit`` fields whose name, then description, matches what a person types."""
    words = typed.strip().lower().replace("_", " ").split()
    if not words:
        return list(fields.values())[:limit]
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
    return [*first, *second, *third][:limit]
