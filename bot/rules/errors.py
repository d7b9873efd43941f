"""The one exception the rules core raises for an action the rules do not allow."""

from __future__ import annotations

from typing import Final, Literal

ErrorCode = Literal[
    "not_your_turn",
    "wrong_phase",
    "card_not_in_hand",
    "must_follow_suit",
    "cannot_pass",
    "suit_turned_down",
    "needs_suit",
    "bid_too_low",
    "not_allowed",
]
ERROR_CODES: Final[tuple[ErrorCode, ...]] = (
    "not_your_turn",
    "wrong_phase",
    "card_not_in_hand",
    "must_follow_suit",
    "cannot_pass",
    "suit_turned_down",
    "needs_suit",
    "bid_too_low",
    "not_allowed",
)


class RuleError(Exception):
    """An action rejected by the rules: ``code`` from the record format, ``message`` for the player.

    The game state is unchanged when this is raised.
    """

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        self.message = message

    def __repr__(self) -> str:
        return f"RuleError({self.code!r}, {self.message!r})"
