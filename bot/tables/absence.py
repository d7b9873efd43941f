"""Absent players: the part of a :class:`~bot.tables.live.LiveTable` for people away.

A member takes over a computer's seat during a game (:meth:`Absence.take_over`,
reached through ``join``); a person whose turn ran out has a computer play it
(:meth:`Absence.time_out`), and keep the seat after too many in a row until they
take it back (:meth:`Absence.take_back`); a table nobody touches is closed
(:meth:`Absence.close_idle`), and so is one whose channel or thread was deleted
(:meth:`Absence.close_gone`). The timers that call these are in
:mod:`bot.tables.keeper`.
"""

from __future__ import annotations

import logging

from .crew import Crew
from .events import TableClosed
from .progress import Progress, progress
from .seats import Player
from .table import Table
from .turns import Turns

__all__ = ["Absence"]

log = logging.getLogger(__name__)


class Absence:
    """One table's seats taken over, turns timed out, seats taken back; closed when idle or gone."""

    def __init__(self, table: Table, crew: Crew, turns: Turns) -> None:
        """``table``'s, changes saved by ``crew``'s saver, computers played by ``turns``."""
        self.table = table
        self.saver = crew.saver
        self.turns = turns

    async def take_over(self, player: Player, seat: int | None) -> None:
        """A member takes over a computer's seat during a game."""
        table = self.table
        async with table.lock:
            await self.saver.bring_in_step(table)
            before = list(table.seats)
            strikes = dict(table.strikes)
            number = table.take_over(player, seat)
            try:
                await self.saver.store.save_seats(table.id, table.seats)
            except Exception as exc:
                table.seats, table.strikes = before, strikes
                raise self.saver.failed(
                    f"table {table.id}: taking over seat {number}", table, exc
                ) from exc
            await self.saver.tell(table, "seated", f"{player.name} took over seat {number + 1}")

    async def take_back(self, user_id: int) -> None:
        """A person whose seat a computer plays (turns timed out) plays it again."""
        table = self.table
        async with table.lock:
            await self.saver.bring_in_step(table)
            before = list(table.seats)
            seat = table.take_back(user_id)
            await self.saver.seats(table, before)
            await self.saver.tell(table, "back", f"{table.name(seat)} took seat {seat + 1} back")
            await self.turns.carry_on(user_id, tell_turn=False)

    async def time_out(self, seat: int, stamp: tuple[int, int]) -> tuple[Progress, bool] | None:
        """A person let their turn run out: a computer plays it for them.

        Nothing happens (None) when the turn moved on meanwhile. After
        ``settings.timeouts_before_computer`` timed-out turns in a row the computer keeps the
        seat until its owner takes it back: the second item says whether that happened.
        """
        table = self.table
        table.require_open()
        async with table.lock:
            await self.saver.bring_in_step(table)
            game = table.game
            if (
                table.status != "playing"
                or game is None
                or table.stamp != stamp
                or game.turn != seat
                or table.is_computer(seat)
            ):
                return None
            move = await self.turns.thinking.move(table, for_seat=seat)
            if not await self.saver.move(table, move, urgent=True):
                return None  # the store had the turn played already: the table was reloaded
            self.turns.timers.cancel()
            strikes = table.strikes.get(seat, 0) + 1
            table.strikes[seat] = strikes
            away = table.status == "playing" and strikes >= table.settings.timeouts_before_computer
            if away:
                before = list(table.seats)
                table.set_away(seat)
                try:
                    await self.saver.store.save_seats(table.id, table.seats)
                except Exception:
                    table.seats = before
                    away = False
                    log.exception("table %d: could not save seat %d as away", table.id, seat)
            what = "a computer plays the seat until they return" if away else "a computer played"
            await self.saver.tell(table, "timeout", f"{table.name(seat)} ran out of time: {what}")
            return progress(table, (move,)), away

    async def close_idle(self, idle_since: float, now: float) -> bool:
        """Close the table, untouched since ``idle_since``: False if it was closed already."""
        table = self.table
        async with table.lock:
            if not table.is_open:
                return False
            status = table.status
            table.status = "aborted"
            try:
                await self.saver.store.finish_table(table.id, "aborted", None)
            except Exception:
                table.status = status
                log.exception("table %d: could not close it as idle", table.id)
                return False
            minutes = (now - idle_since) / 60
            self.saver.events.emit(
                TableClosed(
                    await self.saver.snapshot(table), "aborted", f"idle for {minutes:.0f} minutes"
                )
            )
            self.saver.close(table)
        return True

    async def close_gone(self, where: str) -> bool:
        """Close the table, its channel or thread deleted, as an abort does.

        ``where`` names what went (``"thread"``). False when it was closed already.
        """
        table = self.table
        async with table.lock:
            if not table.is_open:
                return False
            await self.saver.bring_in_step(table)
            status = table.status
            table.status = "aborted"
            await self.saver.aborted(
                table, status, "closing", f"its {where} was deleted", place_gone=True
            )
        return True
