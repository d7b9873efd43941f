"""The league's refusals: sentences for the person who asked."""

from __future__ import annotations

from bot.errors import UserFacingError

__all__ = ["LeagueError", "NoSuchGameError", "NoSuchSeasonError", "SeasonError"]


class LeagueError(UserFacingError):
    """A league request that cannot be answered; the message says why."""


class NoSuchGameError(LeagueError):
    """No finished game of this server has that number."""


class NoSuchSeasonError(LeagueError):
    """This server has no season by that name or number."""


class SeasonError(LeagueError):
    """A season cannot start or end now (one is running, none is, the name is taken)."""
