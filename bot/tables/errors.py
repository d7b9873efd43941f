"""Every refusal a table can give, each a :class:`~bot.errors.UserFacingError` with a sentence.

A refused request changes nothing: the table checks before it acts. The messages are
written for the person who clicked, so the error funnel shows them as they are.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.errors import UserFacingError
from bot.rules import ErrorCode

if TYPE_CHECKING:
    from .public import PublicTable

__all__ = [
    "ClaimRefusedError",
    "ComputersNotAllowedError",
    "IllegalMoveError",
    "NoTableError",
    "NotHostError",
    "NotReadyError",
    "NotSeatedError",
    "NotYourHandError",
    "NotYourTurnError",
    "SaveFailedError",
    "SeatTakenError",
    "StaleActionError",
    "TableClosedError",
    "TableError",
    "TableExistsError",
    "TableFullError",
    "TableMovingError",
    "WrongStageError",
    "named_table",
]


def named_table(number: int | None) -> str:
    """A table as a sentence begins with it: "Table 3", or "This table" if not known."""
    return "This table" if number is None else f"Table {number}"


class TableError(UserFacingError):
    """Base of the table refusals."""


class NoTableError(TableError):
    """No open table where the user asked."""

    @classmethod
    def of(cls, number: int | None = None) -> NoTableError:
        """The refusal of a button of a table this process does not have (numbered, if known)."""
        return cls(f"{named_table(number)} no longer exists: start a new one with /euchre new.")


class TableClosedError(TableError):
    """The table was finished or aborted (a button from an old message).

    ``public`` is what everyone may see of the closed table (its result), where known.
    """

    public: PublicTable | None = None

    @classmethod
    def of(cls, number: int, status: str, public: PublicTable | None = None) -> TableClosedError:
        """The refusal of a change at the table numbered ``number``, closed as ``status`` says."""
        how = "has finished" if status == "finished" else "was closed"
        refusal = cls(f"Table {number} {how}: start a new one with /euchre new.")
        refusal.public = public
        return refusal


class TableExistsError(TableError):
    """A channel or thread already has an open table (``table_id``, where known)."""

    table_id: int | None = None

    @classmethod
    def of(cls, table_id: int, number: int) -> TableExistsError:
        """The refusal of a second table where table ``table_id`` (numbered ``number``) is open."""
        refusal = cls(
            f"There's already a table here (table {number}): join it, "
            "or its host can close it with /euchre abort."
        )
        refusal.table_id = table_id
        return refusal


class TableMovingError(TableError):
    """Another process of the bot still holds the server (a rolling restart)."""


class NotSeatedError(TableError):
    """The user does not sit at the table."""

    @classmethod
    def at(cls, status: str) -> NotSeatedError:
        """The refusal of someone not seated at a table in ``status``."""
        if status == "lobby":
            return cls("You're not seated at this table: click Join to sit down.")
        return cls("You're not playing at this table.")


class NotYourHandError(TableError):
    """A private-hand button used by someone other than the seat's player."""


class SeatTakenError(TableError):
    """The chosen seat belongs to another player."""


class TableFullError(TableError):
    """No seat left to take."""


class ComputersNotAllowedError(TableError):
    """The server does not let computer players sit."""


class NotHostError(TableError):
    """Only the host may do this."""


class NotReadyError(TableError):
    """The game cannot start: seats are empty."""


class WrongStageError(TableError):
    """The request does not fit the table's stage (a lobby action once the game is on...)."""

    @classmethod
    def no_cards_yet(cls) -> WrongStageError:
        """The refusal of a hand asked for before the game starts."""
        return cls("The game hasn't started yet: your cards come once it does.")


class NotYourTurnError(TableError):
    """Another seat is to act."""


class StaleActionError(TableError):
    """A button from an earlier moment of the game: the game has moved on since it was drawn."""


class ClaimRefusedError(TableError):
    """A claim the seat's cards can't make good: some unseen card could still take a trick."""


class IllegalMoveError(TableError):
    """The rules refuse the action; ``code`` is the rules core's error code."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code: ErrorCode = code


class HintsOffError(TableError):
    """No hint here: a ranked game, or a server that turned hints off."""


class SaveFailedError(TableError):
    """The store could not save the action, so it was not applied."""
