"""What breaks Discord's contract: a :class:`Violation`, and Discord's answer to it.

A violation names where in the JSON body it is (the path Discord's ``errors`` names),
the limit and what was found; :func:`error_answer` builds the answer Discord gives a
request holding such violations, and :class:`ContractError` is how a test fails on one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

__all__ = ["JSON", "Check", "ContractError", "Path", "Violation", "describe", "error_answer"]

JSON: TypeAlias = dict[str, Any]
Path: TypeAlias = tuple[str | int, ...]


@dataclass(frozen=True)
class Violation:
    """One thing in a payload past Discord's limits (or past the bot's mention rule)."""

    path: Path
    """Where in the JSON body, as Discord's ``errors`` names it (``embeds.0.fields.3.value``)."""
    limit: str
    """The limit, in words: ``at most 1024 characters``."""
    found: str
    """What the payload holds there: ``1052 characters``."""
    code: str = "BASE_TYPE_MAX_LENGTH"
    """Discord's error code for it, as its ``_errors`` entries carry."""
    message: str = ""
    """Discord's sentence for it (``Must be 1024 or fewer in length.``)."""
    refused: bool = True
    """Discord answers the request with an error (False: a rule of the bot's own)."""
    status: int = 400
    error_code: int = 50035
    """The JSON error code of Discord's answer (50035 Invalid Form Body, unless...)."""

    @property
    def where(self) -> str:
        """The path, dotted (``(body)`` for the request as a whole)."""
        return ".".join(str(p) for p in self.path) or "(body)"

    def __str__(self) -> str:
        whose = "Discord's limit" if self.refused else "the bot's rule"
        return f"{self.where}: {self.found} ({whose}: {self.limit})"


class ContractError(AssertionError):
    """A test fails here: the bot sent a payload past Discord's contract."""

    def __init__(self, request: str, violations: Sequence[Violation]) -> None:
        """``request``: the method and route, for the message."""
        super().__init__(f"{request} breaks Discord's contract: {describe(violations)}")
        self.request = request
        self.violations = list(violations)


def describe(violations: Iterable[Violation]) -> str:
    """Every violation, one a line after the first."""
    return "; ".join(str(v) for v in violations)


class Check:
    """Collects the violations of one payload."""

    def __init__(self) -> None:
        self.found: list[Violation] = []

    def add(self, violation: Violation) -> None:
        self.found.append(violation)

    def text(self, path: Path, value: Any, most: int, least: int = 0) -> None:
        """A string of ``least`` to ``most`` characters (absent or null: not checked)."""
        if value is not None:
            self._length(path, len(str(value)), "characters", most, least)

    def many(self, path: Path, items: Sequence[Any] | None, most: int, least: int = 0) -> None:
        """A list of ``least`` to ``most`` items (absent or null: not checked)."""
        if items is not None:
            self._length(path, len(items), "items", most, least)

    def _length(self, path: Path, size: int, unit: str, most: int, least: int) -> None:
        """A length past its bounds, in Discord's words for it."""
        if least <= size <= most:
            return
        if least:
            limit, code = f"{least} to {most} {unit}", "BASE_TYPE_BAD_LENGTH"
            message = f"Must be between {least} and {most} in length."
        else:
            limit, code = f"at most {most} {unit}", "BASE_TYPE_MAX_LENGTH"
            message = f"Must be {most} or fewer in length."
        self.add(Violation(path, limit, f"{size} {unit}", code, message))

    def number(self, path: Path, value: Any, least: int, most: int) -> None:
        if value is not None and not least <= int(value) <= most:
            limit = f"{least} to {most}"
            message = f"int value should be between {least} and {most}."
            self.add(Violation(path, limit, str(value), "NUMBER_TYPE_MAX", message))


def error_answer(violations: Sequence[Violation]) -> tuple[int, JSON] | None:
    """Discord's answer to a request with these violations: (status, JSON body), or None.

    Form errors nest under their path, each leaf holding ``_errors`` (Discord's
    ``{"code": 50035, "errors": {...}, "message": "Invalid Form Body"}``); a request
    Discord refuses whole (an empty message, a file too large) gets its own code.
    """
    refused = [v for v in violations if v.refused]
    if not refused:
        return None
    whole = next((v for v in refused if v.error_code != 50035), None)
    if whole is not None:
        return whole.status, {"code": whole.error_code, "message": whole.message}
    errors: JSON = {}
    for violation in refused:
        node = errors
        for part in violation.path:
            node = node.setdefault(str(part), {})
        message = violation.message or f"Must be {violation.limit}."
        node.setdefault("_errors", []).append({"code": violation.code, "message": message})
    return 400, {"code": 50035, "errors": errors, "message": "Invalid Form Body"}
