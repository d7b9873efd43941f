"""Saving a change made under a table's lock, and telling it: what every piece is given.

:class:`Saver` saves seats and moves through the :class:`TableStore`, archives a game
that is over, and tells each change on the service's :class:`EventBus`. A change the
store cannot save is taken back and refused with :class:`SaveFailedError`; one it may
have saved (no answer came) leaves the table out of step, and the next change first
reloads it from the store (:meth:`Saver.bring_in_step`), as a restart would.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from bot.store import ConnectionLostError, DuplicateActionError

from .errors import SaveFailedError
from .events import DealEnded, EventBus, EventKind, MoveMade, TableClosed, TableReloaded
from .persistence import TableStatus, TableStore
from .public import deal_summary
from .reload import stored_table
from .seats import Seat
from .snapshots import Snapshots, TableSnapshot
from .table import Move, Table

__all__ = ["OPEN_UNSURE", "SAVE_FAILED", "SAVE_UNSURE", "Saver"]

SAVE_FAILED = "Sorry, that couldn't be saved, so nothing changed. Please try again."
SAVE_UNSURE = (
    "Sorry, the database didn't answer, so that may or may not have been saved. "
    "The table will show which in a moment."
)
OPEN_UNSURE = (
    "Sorry, the database didn't answer, so the table may or may not have opened. "
    "Use /euchre new again: it opens one, or shows the one that did."
)

log = logging.getLogger("bot.tables.service")


class Saver:
    """Saves what changed at a table (its lock held) and tells the bus."""

    def __init__(
        self,
        store: TableStore,
        close: Callable[[Table], None],
        events: EventBus,
        snapshots: Snapshots,
    ) -> None:
        """Save to ``store``; ``close`` each table found closed (the registry's); tell ``events``.

        Each event carries the table's snapshot, made by ``snapshots``.
        """
        self.store = store
        self.close = close
        self.events = events
        self.snapshots = snapshots

    async def snapshot(self, table: Table) -> TableSnapshot:
        """The table now, frozen (its lock held): what an event carries."""
        return await self.snapshots.of(table)

    async def tell(self, table: Table, kind: EventKind, text: str) -> None:
        """Tell a plain event of ``table`` (its lock held), with its snapshot."""
        self.events.tell(await self.snapshot(table), kind, text)

    @staticmethod
    def failed(
        what: str, table: Table | None = None, exc: BaseException | None = None
    ) -> SaveFailedError:
        """The refusal of a change the store failed to save (called while handling ``exc``).

        When no answer came (``unsure``), the store may hold the change after all:
        ``table`` is marked out of step, and the person is told it may have been saved.
        """
        log.exception("Store failure while %s", what)
        if table is not None and isinstance(exc, ConnectionLostError) and exc.unsure:
            table.out_of_step = True
            log.warning("table %d: out of step with the store until it is reloaded", table.id)
            return SaveFailedError(SAVE_UNSURE)
        return SaveFailedError(SAVE_FAILED)

    async def seats(self, table: Table, before: list[Seat | None]) -> None:
        """Save the table's seats; ``before`` put back and SaveFailedError if the store can't."""
        try:
            await self.store.save_seats(table.id, table.seats)
        except Exception as exc:
            table.seats = before
            raise self.failed(f"table {table.id}: saving seats", table, exc) from exc

    async def move(self, table: Table, move: Move, *, urgent: bool, claimed: bool = False) -> bool:
        """Save an applied move; SaveFailedError (the move taken back) if the store can't.

        False when the store already holds an action at that index (an earlier save
        whose outcome was unknown went through after all): the move is taken back and
        the table reloaded from the store, so the caller checks its request again.
        ``urgent``: a person waits to see it; ``claimed``: one of a claim's plays
        (:class:`MoveMade`).
        """
        try:
            actor = table.actor_of(move.index)
            await self.store.append_action(
                table.id,
                move.index,
                move.seat,
                move.action.to_json(),
                None if actor is None else actor.to_json(),
            )
        except DuplicateActionError as exc:
            table.undo_last()
            log.warning(
                "table %d: the store already has action %d; reloading the table",
                table.id,
                move.index,
            )
            table.out_of_step = True
            await self.bring_in_step(table)
            game = table.game
            if game is None or len(game.log) <= move.index:
                table.out_of_step = True  # the store contradicts itself: try again later
                raise self.failed(f"table {table.id}: action {move.index} refused") from exc
            return False
        except Exception as exc:
            table.undo_last()
            raise self.failed(f"table {table.id}: saving action {move.index}", table, exc) from exc
        game = table.game
        assert game is not None
        said = f"{table.name(move.seat)} {move.action.to_json()}"
        now = await self.snapshot(table)  # one snapshot for every event of this move
        self.events.emit(MoveMade(now, "move", said, move, urgent, claimed))
        if game.deal_number != move.deal_number or game.over:
            result = deal_summary(move.deal_number, game.results[move.deal_number - 1])
            said = f"deal {result.number}: {result.result}, points {result.points}"
            self.events.emit(DealEnded(now, "deal", said, result))
        if game.over:
            await self.finish(table, now)
        return True

    async def finish(self, table: Table, now: TableSnapshot | None = None) -> None:
        """Archive a game that is over and close its table (a failed archive is logged).

        ``now``: the table's snapshot, where the caller has just made it.
        """
        game = table.game
        assert game is not None
        try:
            await self.store.finish_table(table.id, "finished", table.record())
        except Exception:
            log.exception("table %d: could not archive the finished game", table.id)
        if now is None:
            now = await self.snapshot(table)
        self.events.emit(TableClosed(now, "finished", f"score {game.score[0]}-{game.score[1]}"))
        self.close(table)

    async def aborted(
        self,
        table: Table,
        before: TableStatus,
        what: str,
        reason: str,
        *,
        record: dict[str, Any] | None = None,
        stopped: str | None = None,
        place_gone: bool = False,
    ) -> None:
        """Save a table just marked aborted, tell it closed for ``reason`` and close it.

        ``record`` and ``stopped``: the finished deals kept of a game stopped early
        (:meth:`TableStore.finish_table`). If the store can't, the table's status goes
        back to ``before`` and SaveFailedError refuses the change (``what`` was done).
        """
        try:
            await self.store.finish_table(table.id, "aborted", record, stopped=stopped)
        except Exception as exc:
            table.status = before
            raise self.failed(f"table {table.id}: {what}", table, exc) from exc
        now = await self.snapshot(table)
        self.events.emit(TableClosed(now, "aborted", reason, place_gone=place_gone))
        self.close(table)

    async def bring_in_step(self, table: Table) -> None:
        """Reload a table out of step with the store (its lock held), as a restart would.

        The state the store holds replaces the table's in memory and the table's
        message is redrawn (the ``reloaded`` event); a game the store has over is
        finished, a table it has closed is closed. SaveFailedError if the store can't
        be read: the table stays out of step.
        """
        if not table.out_of_step:
            return
        try:
            stored = await stored_table(self.store, table.id)
        except Exception as exc:
            raise self.failed(f"table {table.id}: reloading it from the store") from exc
        table.adopt(stored)
        game = table.game
        # The store has the last move but not the archive: finished as that move would have.
        over = table.status == "playing" and game is not None and game.over
        if over:
            table.status = "finished"
        actions = 0 if game is None else len(game.log)
        self.events.emit(
            TableReloaded(
                await self.snapshot(table),
                "reloaded",
                f"from the store: {table.status}, {actions} actions",
            )
        )
        if over:
            await self.finish(table)
        elif not table.is_open:
            self.close(table)
