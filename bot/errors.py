"""The project's own exceptions.

:class:`UserFacingError` is the base for every error whose message is meant for the
person who caused it: "It is not your turn.", "You must follow suit.", "The table is
full.". Any layer may raise it (it knows nothing of Discord); the error funnel (the
command tree's ``on_error`` and views via :func:`bot.discord.replies.report_error`) answers it
with an ephemeral message. Every other exception is a bug: it is logged and the user
gets an apology.

discord.py only passes its own ``AppCommandError`` from app-command *checks* to the
funnel, so raise ``UserFacingError`` from command callbacks and component handlers,
and ``app_commands.CheckFailure`` from checks.
"""

from __future__ import annotations

__all__ = ["UserFacingError"]


class UserFacingError(Exception):
    """An expected refusal whose message is shown to the user, ephemerally."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
