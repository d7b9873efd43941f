"""The one exception the rules core raises: a refused action, or rules that can't be played."""

from __future__ import annotations

from typing import Final, Literal, get_args

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
"""Why an action was refused, as record-format.md names it."""

ERROR_CODES: Final[tuple[ErrorCode, ...]] = get_args(ErrorCode)
"""Every ``ErrorCode``, in the order above."""


class RuleError(ValueError):
    """Refused by the rules: ``code`` from the record format, ``message`` for the player.

    Raised for an action the rules do not allow (the game state is unchanged),
    and for house rules that cannot be played (``not_allowed``; the message
    names the field and the reason).
    """

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        self.message = message

    def __repr__(self) -> str:
        return f"RuleError({self.code!r}, {self.message!r})"
