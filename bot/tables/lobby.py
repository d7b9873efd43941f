"""One table's lobby: the part of a :class:`~bot.tables.live.LiveTable` that seats and closes.

People and computers sit down and leave, the host starts the game or closes the table.
A member who joins during a game takes over a computer's seat
(:class:`~bot.tables.absence.Absence`). Opening a table, and a finished game's players
dealing another, are the :class:`~bot.tables.service.TableService`'s: they make a table.
"""

from __future__ import annotations

import logging
from typing import get_args

from bot.server.settings import ComputerLevel

from .absence import Absence
from .crew import Crew
from .errors import ComputersNotAllowedError, SaveFailedError, WrongStageError
from .events import TableClosed
from .progress import Progress, progress
from .seats import Player
from .stopping import finished_deals_record
from .table import Table
from .turns import Turns

__all__ = ["Lobby"]

log = logging.getLogger("bot.tables.service")


class Lobby:
    """One table's seats taken and left, its game started, the table closed by its host."""

    def __init__(self, table: Table, crew: Crew, turns: Turns, absence: Absence) -> None:
        """``table``'s, saved by ``crew``'s saver; the game after a request is ``turns``'s."""
        self.table = table
        self.crew = crew
        self.saver = crew.saver
        self.turns = turns
        self.absence = absence

    async def set_message(self, message_id: int) -> None:
        """Remember the table's public message (a failed save is only logged)."""
        table = self.table
        table.message_id = message_id
        try:
            await self.saver.store.update_table(table.id, message_id=message_id)
        except Exception:
            log.exception("table %d: could not save its message id", table.id)

    async def join(self, player: Player, seat: int | None = None) -> None:
        """Seat a person: the next seat, or the one chosen (moving them if seated).

        During a game, a member takes over a computer's seat where the server allows it.
        """
        table = self.table
        check = self.crew.event_table
        if not table.in_event and check is not None and await check(table.id):
            table.in_event = True  # its event has not claimed it yet (a restart under way)
        if table.status == "playing":
            await self.absence.take_over(player, seat)
            return
        async with table.lock:
            await self.saver.bring_in_step(table)
            before = list(table.seats)
            number = table.join(player, seat)
            await self.saver.seats(table, before)
            await self.saver.tell(table, "seated", f"{player.name} sat in seat {number + 1}")

    async def add_computer(self, by: int, seat: int | None = None) -> None:
        """The host seats a computer player, where the server allows them."""
        table = self.table
        # A permission: as it is now.
        settings = await self.crew.server_settings.get(table.place.guild_id)
        if not settings.allow_computers:
            raise ComputersNotAllowedError(
                "This server doesn't allow computer players: every seat needs a person."
            )
        async with table.lock:
            await self.saver.bring_in_step(table)
            before = list(table.seats)
            number = table.add_computer(by, seat)
            await self.saver.seats(table, before)
            await self.saver.tell(
                table, "seated", f"computer {table.name(number)} in seat {number + 1}"
            )

    async def set_computer_level(self, by: int, level: str) -> None:
        """The host chooses how well the table's computers play, those seated included."""
        if level not in get_args(ComputerLevel):
            raise WrongStageError(f"{level!r} is not a computer level.")
        table = self.table
        async with table.lock:
            await self.saver.bring_in_step(table)
            before = list(table.seats)
            chosen = table.chosen_level
            table.set_computer_level(by, level)
            try:
                await self.saver.seats(table, before)
            except SaveFailedError:
                table.chosen_level = chosen
                raise
            await self.saver.tell(table, "seated", f"computers play at the {level} level")

    async def leave(self, user_id: int) -> None:
        """A person leaves: their seat is freed, or taken over by a computer in a game."""
        table = self.table
        async with table.lock:
            await self.saver.bring_in_step(table)
            before = (list(table.seats), table.host_id, table.status)
            name = table.name(table.require_seat(user_id))
            seat = table.leave(user_id)
            try:
                await self.saver.store.save_seats(table.id, table.seats)
                if table.host_id != before[1]:
                    await self.saver.store.update_table(table.id, host_id=table.host_id)
                if table.status == "aborted":
                    await self.saver.store.finish_table(table.id, "aborted", None)
            except Exception as exc:
                table.seats, table.host_id, table.status = before
                raise self.saver.failed(f"table {table.id}: leaving", table, exc) from exc
            taken_over = " (a computer plays it now)" if table.status == "playing" else ""
            await self.saver.tell(table, "left", f"{name} left seat {seat + 1}{taken_over}")
            if table.host_id != before[1]:
                await self.saver.tell(table, "host", f"{table.host_name} is the host now")
            if table.status == "aborted":
                self.saver.events.emit(
                    TableClosed(await self.saver.snapshot(table), "aborted", "everyone left")
                )
                self.saver.close(table)
            else:
                await self.turns.carry_on(user_id, tell_turn=False)

    async def start(self, by: int) -> Progress:
        """The host starts the game: the cards are dealt."""
        table = self.table
        async with table.lock:
            await self.saver.bring_in_step(table)
            table.start(by)
            try:
                await self.saver.store.update_table(table.id, status="playing")
            except Exception as exc:
                table.status, table.game = "lobby", None
                raise self.saver.failed(f"table {table.id}: starting", table, exc) from exc
            assert table.game is not None
            await self.saver.tell(
                table, "started", f"seed {table.seed}, dealer seat {table.game.dealer + 1}"
            )
            await self.turns.carry_on(by, tell_turn=True)
            return progress(table, ())

    async def abort(self, by: int, *, may_manage: bool = False) -> None:
        """Close the table: its host, or a member who may manage the server."""
        table = self.table
        async with table.lock:
            await self.saver.bring_in_step(table)
            status = table.status
            table.abort(by, may_manage=may_manage)
            await self.saver.aborted(table, status, "aborting", f"by user {by}")

    async def stop(self, by: int, reason: str) -> None:
        """Close the table before its game's end, keeping its finished deals (archived, unrated).

        For a tournament round's timer: ``by`` manages the table; ``reason`` is kept with
        the game. A table without a finished deal closes as an abort does.
        """
        table = self.table
        async with table.lock:
            await self.saver.bring_in_step(table)
            status, game = table.status, table.game
            kept = None if game is None else finished_deals_record(game, table.record(), reason)
            table.abort(by, may_manage=True)
            await self.saver.aborted(
                table,
                status,
                "stopping",
                reason,
                record=kept,
                stopped=None if kept is None else reason,
            )
