"""How values travel between the models and the columns: JSON text, times, rules, rows, changes."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from bot.rules import HouseRules, RulesError
from bot.rules.house_rules import describe_validation_error
from bot.store.database import Row
from bot.store.errors import CorruptDataError, SettingsError

M = TypeVar("M", bound=BaseModel)


def dump_json(value: Any) -> str:
    """Compact JSON text for a column."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def load_json(text: object, where: str) -> Any:
    """Decode a JSON column; what does not decode is :class:`CorruptDataError`."""
    if not isinstance(text, str):
        raise CorruptDataError(f"{where}: expected JSON text, found {type(text).__name__}")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise CorruptDataError(f"{where}: not valid JSON ({exc})") from None


def time_text(moment: datetime) -> str:
    """A timezone-aware time as ISO 8601 text in UTC."""
    if moment.tzinfo is None:
        raise ValueError("store times must be timezone-aware")
    return moment.astimezone(UTC).isoformat()


def time_value(text: str | None) -> datetime | None:
    """The time of an ISO 8601 column (None stays None)."""
    return None if text is None else datetime.fromisoformat(text)


def rules_text(rules: HouseRules) -> str:
    """House rules as stored: the JSON of their spec (preset plus overrides)."""
    return dump_json(rules.to_spec())


def load_rules(text: object, where: str) -> HouseRules:
    """Stored house rules, validated again; rules this bot cannot play are CorruptDataError.

    Rules are immutable, so a text read before gives the same rules object again: building
    and validating them costs about a millisecond, and a page of open tables reads several.
    """
    if isinstance(text, str):
        known = _known_rules(text)
        if known is not None:
            return known
    return _parsed_rules(text, where)


@lru_cache(maxsize=256)
def _known_rules(text: str) -> HouseRules | None:
    """The rules of a stored text (None if they do not load: said with their place again)."""
    try:
        return _parsed_rules(text, "")
    except CorruptDataError:
        return None


def _parsed_rules(text: object, where: str) -> HouseRules:
    spec = load_json(text, where)
    if not isinstance(spec, dict):
        raise CorruptDataError(f"{where}: the stored house rules are not a JSON object")
    try:
        return HouseRules.from_spec(spec)
    except RulesError as exc:
        raise CorruptDataError(
            f"{where}: the stored house rules are no longer valid ({exc}); set them again"
        ) from None


def row_dict(row: Row) -> dict[str, Any]:
    """A row as a dict of column name to value."""
    return {key: row[key] for key in row.keys()}  # noqa: SIM118 (sqlite3.Row is not a Mapping)


def build(model: type[M], where: str, fields: dict[str, Any]) -> M:
    """Validate stored values into a model; a stored value out of range is CorruptDataError."""
    try:
        return model.model_validate(fields)
    except ValidationError as exc:
        raise CorruptDataError(f"{where}: {describe_validation_error(exc)}") from None


def check_names(
    changes: Iterable[str], names: Sequence[str], one: str, every: str, hint: str = ""
) -> None:
    """Refuse the changes whose names are not ``names`` (SettingsError naming them all)."""
    unknown = sorted(set(changes) - set(names))
    if unknown:
        raise SettingsError(
            f"{', '.join(unknown)}: not {one}{hint}; {every} are {', '.join(names)}"
        )


def changed(model: type[M], fields: dict[str, Any]) -> M:
    """Validate changed values into a model; a bad value is SettingsError naming it."""
    try:
        return model.model_validate(fields)
    except ValidationError as exc:
        raise SettingsError(describe_validation_error(exc)) from None
