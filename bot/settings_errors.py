"""The settings' validation errors said as one line, where the operator set each value.

pydantic says a problem in its own terms: a union's members by their schema's names
(``search_workers[constrained-int]``), a validator's message after ``Value error, ``,
and a check of several options together with no place at all. :func:`describe` names
where each bad value came from (the ``EUCHRE_*`` variable, or the config file when the
value is in it) and says what the option takes in words. A check of several options
raises :class:`OptionsClashError` naming them, so its line names where those were set.
"""

from __future__ import annotations

import difflib
import json
import re
import types
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal, Union, get_args, get_origin

from pydantic import BaseModel
from pydantic_core import ErrorDetails
from pydantic_settings import SettingsError

__all__ = [
    "ENV_PREFIX",
    "OptionsClashError",
    "Origins",
    "closest",
    "describe",
    "describe_settings_error",
    "env_name",
]

ENV_PREFIX = "EUCHRE_"
_LIST_HINT = "write a list like [123, 456]"

_PLAIN = {
    "tuple_type": _LIST_HINT,
    "list_type": _LIST_HINT,
    "path_type": "Input should be a path, as text",
}
"""pydantic's messages that say too little, or too much of its insides, by error type."""
_BOUND_WORDS = {"ge": "at least", "gt": "above", "le": "at most", "lt": "below"}
_TYPE_WORDS: dict[object, str] = {
    int: "a whole number",
    float: "a number",
    bool: "true or false",
    str: "text",
}


class OptionsClashError(ValueError):
    """A check of several options together failed: ``options`` are those it is about."""

    def __init__(self, message: str, *options: str) -> None:
        super().__init__(message)
        self.options = options


def env_name(option: str) -> str:
    """The environment variable of an option: ``EUCHRE_`` and its name in capitals."""
    return f"{ENV_PREFIX}{option}".upper()


def closest(word: str, choices: Iterable[str]) -> str | None:
    """The choice ``word`` is most likely a misspelling of, if any is close."""
    close = difflib.get_close_matches(word, list(choices), n=1)
    return close[0] if close else None


@dataclass(frozen=True)
class Origins:
    """Where the options' values came from: the environment beats the config file."""

    file: Path
    in_file: frozenset[str]
    """The options the file sets (none when it does not exist)."""
    environ: Mapping[str, str]

    def in_environment(self, option: str) -> bool:
        """Whether the option's variable is set (empty counts as not set, as in Settings)."""
        name = env_name(option)
        return any(key.upper() == name and value for key, value in self.environ.items())

    def of(self, options: Sequence[str]) -> str:
        """Where ``options`` were set, in one phrase: the file, the variables, or both."""
        variables = [env_name(o) for o in options if self.in_environment(o)]
        from_file = any(o in self.in_file and not self.in_environment(o) for o in options)
        places = [str(self.file)] if from_file else []
        if variables:
            noun = "environment variable" if len(variables) == 1 else "environment variables"
            places.append(f"{noun} {_and(variables)}")
        return _and(places) if places else "the settings"


def describe(
    errors: list[ErrorDetails], model: type[BaseModel], origins: Origins, options: Sequence[str]
) -> str:
    """Say every problem on one line, grouped by where the bad value came from.

    ``options`` are the model's fields that the file or the environment may set.
    """
    problems: dict[str, list[str]] = {}
    for error in errors:
        loc = error["loc"]
        field = str(loc[0]) if loc else ""
        indices = [part for part in loc[1:] if isinstance(part, int)]
        index = "".join(f"[{part}]" for part in indices)
        if len(indices) < len(loc) - 1:  # a union's member, named by its schema
            message = f"Input should be {_expected(model, field, len(indices))}"
        else:
            message = _PLAIN.get(error["type"]) or error["msg"].removeprefix("Value error, ")
        if not loc:
            clash = (error.get("ctx") or {}).get("error")
            source, problem = origins.of(getattr(clash, "options", ())), message
        elif error["type"] == "extra_forbidden":
            close = closest(field.lower(), options)
            hint = f" (did you mean '{close}'?)" if close else ""
            problem = f"unknown option '{field}'{hint}: remove it or fix its spelling"
            source = str(origins.file)
        elif field not in options:  # a secret, by its variable's name
            source, problem = field, message
        elif origins.in_environment(field):
            source = f"environment variable {env_name(field)}"
            problem = (f"{index}: " if index else "") + message
        else:
            source, problem = str(origins.file), f"{field}{index} = {error['input']!r}: {message}"
        said = problems.setdefault(source, [])
        if problem not in said:  # a union's members fail together
            said.append(problem)
    return "; ".join(f"{source}: {'; '.join(each)}" for source, each in problems.items())


def describe_settings_error(exc: SettingsError, model: type[BaseModel]) -> str:
    """The environment source's error, which reads a list that is not JSON."""
    # It says 'error ... field "name" ...'.
    match = re.search(r'field "(\w+)"', str(exc))
    if match and match[1] in model.model_fields:
        return f"environment variable {env_name(match[1])}: not valid JSON ({_LIST_HINT})"
    return str(exc)


def _and(words: Sequence[str]) -> str:
    return words[-1] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _expected(model: type[BaseModel], field: str, depth: int) -> str:
    """What the field takes (at ``depth`` items into its lists), in words."""
    annotation = model.model_fields[field].annotation
    for _ in range(depth):
        annotation = get_args(annotation)[0]
    return _words(annotation)


def _words(annotation: object) -> str:
    """A type in words: ``a whole number from 0 to 256, or "auto"``."""
    origin = get_origin(annotation)
    if origin in (Union, types.UnionType):
        members = [a for a in get_args(annotation) if a is not type(None)]
        return ", or ".join(_words(member) for member in members)
    if origin is Literal:
        return " or ".join(json.dumps(value) for value in get_args(annotation))
    if origin is not Annotated:
        return _TYPE_WORDS.get(annotation, getattr(annotation, "__name__", str(annotation)))
    base, *extras = get_args(annotation)
    bounds: dict[str, object] = {}
    for extra in extras:  # pydantic's Field(ge=0), or annotated_types' Ge(0) itself
        for each in getattr(extra, "metadata", [extra]):
            bounds.update((k, getattr(each, k)) for k in _BOUND_WORDS if hasattr(each, k))
    return _words(base) + _bounds(bounds)


def _bounds(bounds: Mapping[str, object]) -> str:
    if "ge" in bounds and "le" in bounds:
        return f" from {bounds['ge']} to {bounds['le']}"
    said = [f"{_BOUND_WORDS[k]} {v}" for k, v in bounds.items()]
    return f" of {_and(said)}" if said else ""
