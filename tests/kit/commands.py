"""Discord's contract for application commands, checked when the bot syncs them.

A slash command's and each option's name is 1 to 32 letters, numbers, ``-``, ``_`` or
``'`` (Devanagari and Thai marks too), in lower case wherever a letter has a lower
case; descriptions are 1 to 100 characters; a command, subcommand or group holds at
most 25 options, choices or subcommands; required options come first; one command's
names, descriptions and choice values add up to 8,000 characters at most; a scope
(global, or one guild) holds at most 100 slash commands.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from tests.kit import limits
from tests.kit.components import check_choices
from tests.kit.violations import Check, Path, Violation

__all__ = ["check_command", "check_commands", "valid_name"]

_CHAT_INPUT = 1
_DESCRIPTION = limits.COMMAND_DESCRIPTION
_SUBCOMMAND, _GROUP = 1, 2
_MARK_SCRIPTS = ((0x0900, 0x097F), (0x0E00, 0x0E7F))
"""Devanagari and Thai, whose combining marks a name may use."""


def valid_name(name: str) -> bool:
    """Whether ``name`` may name a slash command or an option."""
    if not 1 <= len(name) <= limits.COMMAND_NAME or name != name.lower():
        return False
    for char in name:
        category = unicodedata.category(char)
        if char in "-_'" or category[0] in "LN":
            continue
        if category[0] == "M" and any(lo <= ord(char) <= hi for lo, hi in _MARK_SCRIPTS):
            continue
        return False
    return True


def check_commands(commands: Sequence[Mapping[str, Any]]) -> list[Violation]:
    """A whole sync (``PUT`` of a scope's commands): each command, and 100 slash commands."""
    check = Check()
    chat = [c for c in commands if int(c.get("type") or _CHAT_INPUT) == _CHAT_INPUT]
    if len(chat) > limits.COMMANDS:
        found = f"{len(chat)} slash commands"
        message = "Maximum number of application commands reached"
        check.add(Violation((), f"{limits.COMMANDS} slash commands", found, "MAX", message))
    _unique(check, (), commands)
    for i, command in enumerate(commands):
        check.found += check_command(command, prefix=(i,))
    return check.found


def check_command(command: Mapping[str, Any], *, prefix: Path = ()) -> list[Violation]:
    """One command: its name, description, options, and its size (8,000 characters)."""
    check = Check()
    kind = int(command.get("type") or _CHAT_INPUT)
    name = str(command.get("name") or "")
    if kind == _CHAT_INPUT:
        _name(check, (*prefix, "name"), name)
        check.text((*prefix, "description"), command.get("description") or "", _DESCRIPTION, 1)
        _options(check, (*prefix, "options"), list(command.get("options") or ()), depth=0)
    else:
        check.text((*prefix, "name"), name, limits.COMMAND_NAME, 1)
    size = _size(command)
    if size > limits.COMMAND_SIZE:
        check.add(
            Violation(
                prefix,
                f"{limits.COMMAND_SIZE} characters of names, descriptions and choices",
                f"{size} characters",
                "APPLICATION_COMMAND_TOO_LARGE",
                f"Command exceeds maximum size ({limits.COMMAND_SIZE})",
            )
        )
    return check.found


def _name(check: Check, path: Path, name: str) -> None:
    if not valid_name(name):
        check.add(
            Violation(
                path,
                f"1 to {limits.COMMAND_NAME} lower-case letters, numbers, - _ '",
                repr(name),
                "APPLICATION_COMMAND_INVALID_NAME",
                "Command name is invalid",
            )
        )


def _unique(check: Check, path: Path, items: Sequence[Mapping[str, Any]]) -> None:
    names = [(int(i.get("type") or 1), str(i.get("name") or "")) for i in items]
    twice = sorted({n for n in names if names.count(n) > 1})
    for _, name in twice:
        check.add(
            Violation(
                path,
                "each name once",
                f"{name!r} more than once",
                "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                "Option names must be unique",
            )
        )


def _options(check: Check, path: Path, options: Sequence[Mapping[str, Any]], depth: int) -> None:
    """A list of options, subcommands or groups: 25 at most, required ones first."""
    check.many(path, options, limits.COMMAND_OPTIONS)
    _unique(check, path, options)
    optional_seen = False
    for i, option in enumerate(options):
        at = (*path, i)
        kind = int(option.get("type") or 0)
        _name(check, (*at, "name"), str(option.get("name") or ""))
        check.text((*at, "description"), option.get("description") or "", _DESCRIPTION, 1)
        if kind in (_SUBCOMMAND, _GROUP):
            if depth >= 2 or (kind == _GROUP and depth >= 1):
                found = "a subcommand group nested too deep"
                check.add(Violation(at, "groups of subcommands, one deep", found, "NESTING"))
            _options(check, (*at, "options"), list(option.get("options") or ()), depth + 1)
            continue
        required = bool(option.get("required"))
        if required and optional_seen:
            check.add(
                Violation(
                    (*at, "required"),
                    "required options before the others",
                    "a required option after an optional one",
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                    "Required options must be placed before non-required options",
                )
            )
        optional_seen = optional_seen or not required
        choices = option.get("choices")
        if choices and option.get("autocomplete"):
            found = "both choices and autocomplete"
            check.add(Violation(at, "choices or autocomplete", found, "AUTOCOMPLETE_CHOICES"))
        check.found += check_choices(choices, (*at, "choices"))
        check.number((*at, "min_length"), option.get("min_length"), 0, limits.STRING_LENGTH)
        check.number((*at, "max_length"), option.get("max_length"), 1, limits.STRING_LENGTH)


def _size(item: Mapping[str, Any]) -> int:
    """Characters of names, descriptions and choice values, the longest localization counted."""
    total = _longest(item, "name") + _longest(item, "description")
    for choice in item.get("choices") or ():
        total += _longest(choice, "name") + len(str(choice.get("value") or ""))
    for option in item.get("options") or ():
        total += _size(option)
    return total


def _longest(item: Mapping[str, Any], key: str) -> int:
    """The longest of ``item[key]`` and its localizations."""
    local = item.get(f"{key}_localizations") or {}
    return max([len(str(item.get(key) or "")), *(len(str(v)) for v in local.values())])
