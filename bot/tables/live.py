"""A table of the service: one object owning its lock, game, turn loop and timers.

:class:`LiveTable` is a :class:`~bot.tables.table.Table` (its seats, game, lock and the
checks of every request) with the parts that change it, each holding this table only:

- :attr:`LiveTable.turns` (:class:`~bot.tables.turns.Turns`): moves, claims, hints, and
  the computers' turn loop, counted in ``turns.computing``;
- :attr:`LiveTable.timers` (:class:`~bot.tables.turn_timers.TurnTimers`): the timed
  calls of a person's turn (their ping, a forced card);
- :attr:`LiveTable.lobby` (:class:`~bot.tables.lobby.Lobby`): seats, the start, closing;
- :attr:`LiveTable.absence` (:class:`~bot.tables.absence.Absence`): seats taken over,
  turns timed out, seats taken back, an idle or deleted table closed.

What every table shares (the store and event bus, the search, the clock) is its
:class:`~bot.tables.crew.Crew`. Callers look a table up in the
:class:`~bot.tables.service.TableService` and talk to it: ``table.turns.act(...)``.
Each change is told on the bus with a frozen :class:`~bot.tables.snapshots.TableSnapshot`;
the UI reads only those, and the answers of :meth:`LiveTable.snapshot`,
:meth:`LiveTable.watched` and :meth:`LiveTable.review_of`, which hold nothing live.
"""

from __future__ import annotations

from typing import Any

from bot.server.settings import ServerSettings

from .absence import Absence
from .crew import Crew
from .lobby import Lobby
from .persistence import NewTable, SavedTable
from .public import PublicTable
from .reviewing import review_record, reviewable_deals
from .snapshots import TableSnapshot
from .table import Table
from .turn_timers import TurnTimers
from .turns import Turns
from .watching import DealtHands, dealt_hands

__all__ = ["LiveTable"]


class LiveTable(Table):
    """A table of the service and what changes it (see the module docstring)."""

    def __init__(
        self,
        crew: Crew,
        table_id: int,
        new: NewTable,
        settings: ServerSettings | None = None,
        number: int | None = None,
    ) -> None:
        """The lobby ``new``, saved as ``table_id`` numbered ``number``, of ``crew``'s service.

        ``settings``: its server's, as :class:`Table` takes them; its computers wait the
        crew's delay where the server sets none.
        """
        super().__init__(
            table_id,
            new.place,
            new.host_id,
            new.rules,
            new.seed,
            new.seats,
            rules_overridden=new.rules_overridden,
            settings=settings,
            computer_move_delay=crew.computer_move_delay,
            number=number,
        )
        self.crew = crew
        self.timers = TurnTimers(self, crew)
        self.turns = Turns(self, crew, self.timers)
        self.absence = Absence(self, crew, self.turns)
        self.lobby = Lobby(self, crew, self.turns, self.absence)

    @classmethod
    def of_saved(
        cls, crew: Crew, stored: SavedTable, settings: ServerSettings | None = None
    ) -> LiveTable:
        """The table the store holds, its record replayed (see :meth:`Table.replay`)."""
        table = cls(crew, stored.id, stored.opened, settings, stored.number)
        table.replay(stored)
        return table

    async def snapshot(self) -> TableSnapshot:
        """The table now, frozen, as an event would carry it (to answer a click)."""
        return await self.crew.saver.snapshot(self)

    def watched(self) -> tuple[PublicTable, DealtHands]:
        """The table now and every hand of its deal just ended (a sentence if not now)."""
        dealt = dealt_hands(self)
        return self.public(), dealt

    def review_of(self, user_id: int, seat: int, deal: int) -> tuple[dict[str, Any], int]:
        """The record in which ``user_id`` reviews ``seat``'s ``deal``; the deals open to review.

        A sentence (a ``WrongStageError``) if they may not.
        """
        return review_record(self, user_id, seat, deal), reviewable_deals(self)

    async def reload(self) -> None:
        """Bring the table back in step with the store now, if it is out of step.

        SaveFailedError if the store can't be read: the table stays out of step.
        """
        async with self.lock:
            await self.crew.saver.bring_in_step(self)
