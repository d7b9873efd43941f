"""The store's exceptions: every failure of bot/store is a :class:`StoreError`.

Messages are sentences for the operator's log or for the service layer to
rephrase; none of them is meant to be shown to a Discord user as it is.
"""

from __future__ import annotations

__all__ = [
    "ActionIndexError",
    "AlreadyArchivedError",
    "ConnectionLostError",
    "ConstraintError",
    "CorruptDataError",
    "DuplicateActionError",
    "InvalidRecordError",
    "MigrationError",
    "NotFoundError",
    "OpenEventExistsError",
    "OpenTableExistsError",
    "SchemaTooNewError",
    "SeasonStateError",
    "SettingsError",
    "StoreBusyError",
    "StoreError",
    "TableStateError",
]


class StoreError(Exception):
    """Something in the store went wrong; the message says what."""


class SchemaTooNewError(StoreError):
    """The database was written by a newer version of the bot; it was left untouched."""

    def __init__(self, found: int, known: int) -> None:
        super().__init__(
            f"this database was written by a newer version of the bot (schema {found}, "
            f"this bot knows up to {known}); upgrade the bot or use another data directory"
        )
        self.found = found
        self.known = known


class MigrationError(StoreError):
    """The shipped migrations are malformed, or one of them failed (and was rolled back)."""


class StoreBusyError(StoreError):
    """Another connection held the database for longer than the busy timeout."""


class ConnectionLostError(StoreError):
    """The connection to the database server dropped during a call (a server restart...).

    The store connects again at its next call. ``unsure`` is True when a write was
    sent and its answer never came: it may have been saved. Otherwise nothing of the
    call was saved, and doing it again is safe. ``reason`` is the driver's words.
    ``timed_out`` is True when the server did not answer within the store's bound
    (a host gone without closing the connection): the store closed the connection
    itself, and did not run the call again, which would only have waited once more.
    """

    def __init__(
        self, message: str, *, reason: str = "", unsure: bool = False, timed_out: bool = False
    ) -> None:
        super().__init__(message)
        self.reason = reason
        self.unsure = unsure
        self.timed_out = timed_out


class ConstraintError(StoreError):
    """A write broke a constraint of the schema (unique, foreign key, check)."""


class NotFoundError(StoreError, LookupError):
    """No row with that id."""


class OpenEventExistsError(StoreError):
    """The channel already holds a tournament event that has not ended."""


class OpenTableExistsError(StoreError):
    """The channel (or thread) already has a table in the lobby or in play."""


class TableStateError(StoreError):
    """The table's status does not allow this (a finished table, a started table's rules...)."""


class ActionIndexError(StoreError):
    """An action appended out of order: the message says which index was expected."""

    def __init__(self, message: str, *, table_id: int, index: int, expected: int) -> None:
        super().__init__(message)
        self.table_id = table_id
        self.index = index
        self.expected = expected


class DuplicateActionError(ActionIndexError):
    """That table already has an action at that index; the stored one is unchanged."""


class SeasonStateError(StoreError):
    """A season cannot do that now: one is already running, it has ended, the name is taken."""


class AlreadyArchivedError(StoreError):
    """That table's game is already in the archive."""


class CorruptDataError(StoreError):
    """A stored value no longer validates (rules of an older bot, hand-edited JSON...)."""


class InvalidRecordError(StoreError, ValueError):
    """A game record, deal list or action handed to the store is not valid record format."""


class SettingsError(StoreError, ValueError):
    """A server setting with an unknown name or a value out of range; the message names it."""
