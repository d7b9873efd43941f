"""Discord's contract for components and modals, and choices (autocomplete, commands).

A message's legacy components are at most 5 action rows, each 1 to 5 buttons or one
select; a message flagged IS_COMPONENTS_V2 holds at most 40 components and 4,000
characters of text. Labels, custom_ids, options and placeholders keep their lengths,
and a custom_id appears once a message. A modal has a title of 1 to 45 characters and
1 to 5 components.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from tests.kit import limits
from tests.kit.violations import Check, Path, Violation

__all__ = ["check_choices", "check_components", "check_modal", "walk"]

_ROW, _BUTTON, _STRING_SELECT, _TEXT_INPUT, _TEXT_DISPLAY, _LABEL = 1, 2, 3, 4, 10, 18
_SELECTS = frozenset({3, 5, 6, 7, 8})
_LINK, _PREMIUM = 5, 6


def walk(components: Iterable[Mapping[str, Any]]) -> Iterable[Mapping[str, Any]]:
    """Every component, depth first, rows and containers and their children alike."""
    for comp in components:
        yield comp
        yield from walk(comp.get("components") or ())
        for key in ("component", "accessory"):
            inner = comp.get(key)
            if isinstance(inner, Mapping):
                yield from walk([inner])


def check_components(components: Any, *, v2: bool, path: Path = ()) -> list[Violation]:
    """A message's components: rows of buttons or one select; ids unique and within limits."""
    check = Check()
    if components is None:
        return check.found
    rows = list(components)
    if v2:
        every = list(walk(rows))
        check.many(path, every, limits.V2_COMPONENTS)
        text = sum(
            len(str(c.get("content") or "")) for c in every if c.get("type") == _TEXT_DISPLAY
        )
        if text > limits.V2_TEXT:
            found = f"{text} characters"
            check.add(Violation(path, f"{limits.V2_TEXT} characters of text", found, "MAX_TEXT"))
    else:
        check.many(path, rows, limits.ACTION_ROWS)
    _tree(check, path, rows)
    seen: dict[str, int] = {}
    for comp in walk(rows):
        custom_id = comp.get("custom_id")
        if custom_id is not None:
            seen[custom_id] = seen.get(custom_id, 0) + 1
    for custom_id, times in seen.items():
        if times > 1:
            check.add(
                Violation(
                    path,
                    "each custom_id once a message",
                    f"{custom_id!r} {times} times",
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                    "Component custom id cannot be duplicated",
                )
            )

    return check.found


def _tree(check: Check, path: Path, components: Sequence[Mapping[str, Any]]) -> None:
    for i, comp in enumerate(components):
        at = (*path, i)
        kind = comp.get("type")
        if kind == _ROW:
            _row(check, at, list(comp.get("components") or ()))
        else:
            _component(check, at, comp)
            inner = comp.get("components")
            if inner is not None:
                _tree(check, (*at, "components"), list(inner))
            for key in ("component", "accessory"):
                if isinstance(comp.get(key), Mapping):
                    _component(check, (*at, key), comp[key])


def _row(check: Check, path: Path, items: Sequence[Mapping[str, Any]]) -> None:
    """An action row: 1 to 5 buttons, or one select (or, in a modal, one text input)."""
    at = (*path, "components")
    selects = [c for c in items if c.get("type") in _SELECTS or c.get("type") == _TEXT_INPUT]
    if selects and len(items) > 1:
        check.add(
            Violation(
                at,
                "one select a row",
                f"{len(items)} components with a select",
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "The specified component exceeds the maximum width",
            )
        )
    else:
        check.many(at, items, limits.ROW_BUTTONS, 1)
    for j, item in enumerate(items):
        _component(check, (*at, j), item)


def _component(check: Check, path: Path, comp: Mapping[str, Any]) -> None:
    kind = comp.get("type")
    if kind == _BUTTON:
        check.text((*path, "label"), comp.get("label"), limits.BUTTON_LABEL)
        if comp.get("style") == _LINK:
            check.text((*path, "url"), comp.get("url") or "", limits.BUTTON_URL, 1)
        elif comp.get("style") != _PREMIUM:
            check.text((*path, "custom_id"), comp.get("custom_id") or "", limits.CUSTOM_ID, 1)
    elif kind in _SELECTS:
        check.text((*path, "custom_id"), comp.get("custom_id") or "", limits.CUSTOM_ID, 1)
        check.text((*path, "placeholder"), comp.get("placeholder"), limits.PLACEHOLDER)
        check.number((*path, "min_values"), comp.get("min_values"), 0, limits.SELECT_VALUES)
        check.number((*path, "max_values"), comp.get("max_values"), 1, limits.SELECT_VALUES)
        if kind == _STRING_SELECT:
            options = list(comp.get("options") or ())
            check.many((*path, "options"), options, limits.SELECT_OPTIONS, 1)
            for k, option in enumerate(options):
                at = (*path, "options", k)
                check.text((*at, "label"), option.get("label") or "", limits.OPTION_TEXT, 1)
                check.text((*at, "value"), option.get("value") or "", limits.OPTION_TEXT, 1)
                check.text((*at, "description"), option.get("description"), limits.OPTION_TEXT)
    elif kind == _TEXT_INPUT:
        check.text((*path, "custom_id"), comp.get("custom_id") or "", limits.CUSTOM_ID, 1)
        check.text((*path, "label"), comp.get("label"), limits.INPUT_LABEL)
        check.text((*path, "placeholder"), comp.get("placeholder"), limits.INPUT_PLACEHOLDER)
        check.text((*path, "value"), comp.get("value"), limits.INPUT_VALUE)
        check.number((*path, "min_length"), comp.get("min_length"), 0, limits.INPUT_VALUE)
        check.number((*path, "max_length"), comp.get("max_length"), 1, limits.INPUT_VALUE)
    elif kind == _LABEL:
        check.text((*path, "label"), comp.get("label") or "", limits.INPUT_LABEL, 1)
        check.text((*path, "description"), comp.get("description"), limits.LABEL_DESCRIPTION)


# ---------------------------------------------------------------------- interactions


def check_modal(data: Mapping[str, Any], *, prefix: Path = ()) -> list[Violation]:
    """A modal: its custom_id, a title of 1 to 45 characters, 1 to 5 components."""
    check = Check()
    check.text((*prefix, "custom_id"), data.get("custom_id") or "", limits.CUSTOM_ID, 1)
    check.text((*prefix, "title"), data.get("title") or "", limits.MODAL_TITLE, 1)
    components = list(data.get("components") or ())
    check.many((*prefix, "components"), components, limits.MODAL_COMPONENTS, 1)
    _tree(check, (*prefix, "components"), components)
    return check.found


def check_choices(choices: Sequence[Mapping[str, Any]] | None, path: Path) -> list[Violation]:
    """Autocomplete or command choices: 25 at most, names 1-100, string values up to 100."""
    check = Check()
    check.many(path, choices, limits.CHOICES)
    for i, choice in enumerate(choices or ()):
        check.text((*path, i, "name"), choice.get("name") or "", limits.CHOICE_NAME, 1)
        value = choice.get("value")
        if isinstance(value, str):
            check.text((*path, i, "value"), value, limits.CHOICE_VALUE)
    return check.found
