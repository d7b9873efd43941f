"""What the league's listeners read of the table service's and the tournaments' events.

Protocols only, so that the league depends on no module above it: ``bot.tables`` passes
its :class:`~bot.tables.events.TableEvent` and its tournament runner's ``EventChanged``.
"""

from __future__ import annotations

from typing import Protocol

__all__ = ["TableEventLike", "TournamentChangeLike"]


class _Place(Protocol):
    @property
    def guild_id(self) -> int: ...


class _Table(Protocol):
    @property
    def place(self) -> _Place: ...


class TableEventLike(Protocol):
    """What :meth:`LeagueService.on_table_event` reads of a ``bot.tables.TableEvent``."""

    @property
    def kind(self) -> str:
        """The event's kind; ``"finished"`` once a game is over and archived."""
        ...

    @property
    def table(self) -> _Table:
        """The table it happened at."""
        ...


class _Event(Protocol):
    @property
    def guild_id(self) -> int: ...


class TournamentChangeLike(Protocol):
    """What :meth:`LeagueService.on_tournament_change` reads of a tournament's change."""

    @property
    def kind(self) -> str:
        """The change; ``"finished"`` or ``"cancelled"`` once the event is over."""
        ...

    @property
    def event(self) -> _Event:
        """The event as it stands."""
        ...
