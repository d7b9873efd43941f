"""The refusals of an event: one clear sentence each for the person who asked."""

from __future__ import annotations

from bot.errors import UserFacingError

__all__ = [
    "ChannelBusyError",
    "EventStateError",
    "NotDirectorError",
    "ResultError",
    "SignUpError",
    "TooFewPlayersError",
    "TournamentError",
]


class TournamentError(UserFacingError):
    """An event request that cannot be done now; the message says why. Nothing changed."""


class SignUpError(TournamentError):
    """Joining, leaving, naming or confirming a partner, or checking in was refused."""


class NotDirectorError(TournamentError):
    """Someone who does not direct the event pressed a director's button."""


class EventStateError(TournamentError):
    """The event is not in a phase where this can be done (already started, paused...)."""


class TooFewPlayersError(TournamentError):
    """Fewer than four people at the start: the director may seat computers or cancel."""


class ChannelBusyError(TournamentError):
    """The channel already holds an event that has not ended."""


class ResultError(TournamentError):
    """A table's result does not fit its round (unknown table, too many deals...)."""
