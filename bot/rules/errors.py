"""The errors of the rules core: one root, ``RulesError``, that callers catch.

Everything the rules core raises for bad input is a ``RulesError`` with a
``message`` a player can read. Its subclasses say what was refused, for the
callers that answer differently:

- ``RefusedError``: the rules refuse an action now (the game unchanged), or
  house rules that cannot be played; ``code`` is record-format.md's error code;
- ``CardError``: text that names no card or suit;
- ``ActionError``: text or JSON that is not an action at all;
- ``RecordError``: a document that is not a game record.
"""

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


class RulesError(ValueError):
    """Refused by the rules core: catch this one. ``message`` is a sentence for the player."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.message!r})"


class RefusedError(RulesError):
    """An action the rules do not allow now, or house rules that cannot be played.

    ``code`` is the record format's. For an action the game state is unchanged;
    for house rules (``not_allowed``) the message names the field and the reason.
    """

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code: ErrorCode = code

    def __repr__(self) -> str:
        return f"RefusedError({self.code!r}, {self.message!r})"


class CardError(RulesError):
    """A card or suit name that names none."""


class ActionError(RulesError):
    """Text that is not an action at all (unknown verb, missing or malformed field or code)."""


class RecordError(RulesError):
    """The document is not a valid game record; the message says what is wrong and where."""
