"""The lobby: the piece of the table service that opens tables, seats people and closes them.

A table opens in a channel or thread with its host seated (:meth:`Lobby.open`), people
and computers sit down and leave, the host starts the game or closes the table, and a
finished game's players deal another (:meth:`Lobby.play_again`). A member who joins
during a game takes over a computer's seat (:class:`~bot.tables.absence.Absence`).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import get_args

from bot.rules import HouseRules
from bot.server.settings import ComputerLevel
from bot.server.sources import SettingsSource

from .absence import Absence
from .errors import (
    ComputersNotAllowedError,
    NotSeatedError,
    SaveFailedError,
    TableExistsError,
    WrongStageError,
)
from .events import TableClosed
from .persistence import NewTable, Place
from .progress import Progress, progress
from .registry import Registry
from .restoring import Restorer
from .saver import Saver
from .seats import Player, Seat
from .stopping import finished_deals_record
from .table import Table
from .turns import Turns

__all__ = ["Lobby"]

log = logging.getLogger("bot.tables.service")


class Lobby:
    """Tables opened, seats taken and left, games started, tables closed by their host."""

    def __init__(
        self,
        registry: Registry,
        saver: Saver,
        restorer: Restorer,
        turns: Turns,
        absence: Absence,
        server_settings: SettingsSource,
        *,
        seeds: Callable[[], int],
        computer_move_delay: float,
    ) -> None:
        """Tables kept in ``registry`` and saved by ``saver``.

        The game after a request is ``turns``'s; each server's settings come from
        ``server_settings``; each table's shuffles from ``seeds()``;
        ``computer_move_delay`` where a server sets none of its own.
        """
        self.registry = registry
        self.saver = saver
        self.restorer = restorer
        self.turns = turns
        self.absence = absence
        self.server_settings = server_settings
        self.seeds = seeds
        self.computer_move_delay = computer_move_delay
        self.event_table: Callable[[int], Awaitable[bool]] | None = None
        """Whether a table belongs to a tournament event (set by the tournament runner)."""

    async def open(
        self,
        place: Place,
        host: Player,
        *,
        rules: HouseRules | None = None,
        seats: Sequence[Seat | None] | None = None,
        rules_overridden: bool = False,
    ) -> Table:
        """Open a lobby in ``place``, the host in the first seat (or the seats given).

        ``rules`` default to the server's, copied now: later changes never reach it.
        ``rules_overridden``: the host chose other rules than the server's.
        """
        async with self.registry.opening:
            existing = self.registry.at(place.id)
            if existing is not None:
                raise TableExistsError.of(existing.id)
            await self.registry.ownership.claim(place.guild_id)
            settings = await self.server_settings.get(place.guild_id)
            if rules is None:
                rules = settings.rules
            taken = list(seats) if seats is not None else [Seat.human(host)]
            taken += [None] * (rules.players - len(taken))
            seed = self.seeds()
            new = NewTable(place, host.user_id, rules, seed, tuple(taken), rules_overridden)
            try:
                table_id = await self.saver.store.create_table(new)
            except Exception as exc:
                return await self.restorer.opening_failed(new, exc)
            table = Table(
                table_id,
                place,
                host.user_id,
                rules,
                seed,
                taken,
                rules_overridden=rules_overridden,
                settings=settings,
                computer_move_delay=self.computer_move_delay,
            )
            self.registry.add(table)
            await self.saver.tell(table, "opened", f"by {host.name}, rules {rules.to_spec()}")
        return table

    async def set_message(self, table: Table, message_id: int) -> None:
        """Remember the table's public message (a failed save is only logged)."""
        table.message_id = message_id
        try:
            await self.saver.store.update_table(table.id, message_id=message_id)
        except Exception:
            log.exception("table %d: could not save its message id", table.id)

    async def join(self, table_id: int, player: Player, seat: int | None = None) -> Table:
        """Seat a person: the next seat, or the one chosen (moving them if seated).

        During a game, a member takes over a computer's seat where the server allows it.
        """
        table = await self.restorer.fetch(table_id)
        check = self.event_table
        if not table.in_event and check is not None and await check(table.id):
            table.in_event = True  # its event has not claimed it yet (a restart under way)
        if table.status == "playing":
            return await self.absence.take_over(table, player, seat)
        async with table.lock:
            await self.saver.bring_in_step(table)
            before = list(table.seats)
            number = table.join(player, seat)
            await self.saver.seats(table, before)
            await self.saver.tell(table, "seated", f"{player.name} sat in seat {number + 1}")
        return table

    async def add_computer(self, table_id: int, by: int, seat: int | None = None) -> Table:
        """The host seats a computer player, where the server allows them."""
        table = await self.restorer.fetch(table_id)
        # A permission: as it is now.
        settings = await self.server_settings.get(table.place.guild_id)
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
        return table

    async def set_computer_level(self, table_id: int, by: int, level: str) -> Table:
        """The host chooses how well the table's computers play, those seated included."""
        if level not in get_args(ComputerLevel):
            raise WrongStageError(f"{level!r} is not a computer level.")
        table = await self.restorer.fetch(table_id)
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
        return table

    async def leave(self, table_id: int, user_id: int) -> Table:
        """A person leaves: their seat is freed, or taken over by a computer in a game."""
        table = await self.restorer.fetch(table_id)
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
                self.registry.close(table)
            else:
                await self.turns.carry_on(table, user_id, tell_turn=False)
        return table

    async def start(self, table_id: int, by: int) -> Progress:
        """The host starts the game: the cards are dealt."""
        table = await self.restorer.fetch(table_id)
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
            await self.turns.carry_on(table, by, tell_turn=True)
            return progress(table, ())

    async def abort(self, table_id: int, by: int, *, may_manage: bool = False) -> Table:
        """Close a table: its host, or a member who may manage the server."""
        table = await self.restorer.fetch(table_id)
        async with table.lock:
            await self.saver.bring_in_step(table)
            status = table.status
            table.abort(by, may_manage=may_manage)
            try:
                await self.saver.store.finish_table(table.id, "aborted", None)
            except Exception as exc:
                table.status = status
                raise self.saver.failed(f"table {table.id}: aborting", table, exc) from exc
            self.saver.events.emit(
                TableClosed(await self.saver.snapshot(table), "aborted", f"by user {by}")
            )
            self.registry.close(table)
        return table

    async def stop(self, table_id: int, by: int, reason: str) -> Table:
        """Close a table before its game's end, keeping its finished deals (archived, unrated).

        For a tournament round's timer: ``by`` manages the table; ``reason`` is kept with
        the game. A table without a finished deal closes as an abort does.
        """
        table = await self.restorer.fetch(table_id)
        async with table.lock:
            await self.saver.bring_in_step(table)
            status, game = table.status, table.game
            kept = None if game is None else finished_deals_record(game, table.record(), reason)
            table.abort(by, may_manage=True)
            try:
                await self.saver.store.finish_table(
                    table.id, "aborted", kept, stopped=None if kept is None else reason
                )
            except Exception as exc:
                table.status = status
                raise self.saver.failed(f"table {table.id}: stopping", table, exc) from exc
            self.saver.events.emit(TableClosed(await self.saver.snapshot(table), "aborted", reason))
            self.registry.close(table)
        return table

    async def play_again(self, table_id: int, player: Player) -> Table:
        """A new lobby in the same place with the same seats and rules; the clicker hosts."""
        old = await self.restorer.fetch(table_id, closed=True)
        if old.status != "finished":
            raise WrongStageError("This game isn't over yet.")
        if old.seat_of(player.user_id) is None:
            raise NotSeatedError(
                "Only this game's players can deal another: open your own table with /euchre new."
            )
        return await self.open(
            old.place,
            player,
            rules=old.rules,
            seats=old.seats,
            rules_overridden=old.rules_overridden,
        )
