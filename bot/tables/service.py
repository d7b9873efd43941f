"""The table service: every open table by id and by place, and every change made to one.

Each change runs under the table's lock: check, apply, save, then answer. A change the
store cannot save is taken back and refused with :class:`SaveFailedError`; one it may
have saved (no answer came) leaves the table out of step, reloaded before its next
change (:mod:`bot.tables.restoring`). :class:`TableService` is one class, so every
change locks and saves (or undoes) the same way, made of pieces: here finding tables,
the lobby and the helpers used inside the lock; playing in :mod:`bot.tables.playing`,
restarts and reloads in :mod:`bot.tables.restoring`, absent players in
:mod:`bot.tables.absence`, and what the pieces share in :mod:`bot.tables.service_base`.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from typing import get_args

from bot.rules import HouseRules
from bot.server.settings import ComputerLevel, ServerSettings
from bot.server.sources import FixedSettings, SettingsSource
from bot.store import DuplicateActionError

from .absence import AbsenceMixin
from .computers import PlayerFactory
from .errors import (
    ComputersNotAllowedError,
    NoTableError,
    NotSeatedError,
    SaveFailedError,
    TableClosedError,
    TableExistsError,
    WrongStageError,
)
from .events import (
    DealEnded,
    Listener,
    MoveMade,
    TableClosed,
    TableEvent,
    log_event,
)
from .ownership import Ownership
from .persistence import NewTable, Place, TableStore
from .playing import PlayingMixin
from .public import deal_summary
from .restoring import RestoringMixin
from .seats import Player, Seat
from .service_base import OPEN_UNSURE, SAVE_FAILED, SAVE_UNSURE, Progress, random_seed
from .table import Move, Table

__all__ = ["OPEN_UNSURE", "SAVE_FAILED", "SAVE_UNSURE", "Progress", "TableService"]

log = logging.getLogger(__name__)


class TableService(PlayingMixin, RestoringMixin, AbsenceMixin):
    """Every table of the process. Build one at start-up and hand it to the bot."""

    def __init__(
        self,
        store: TableStore,
        computers: PlayerFactory,
        *,
        server_settings: SettingsSource | None = None,
        seeds: Callable[[], int] = random_seed,
        keep_closed: int = 256,
        ownership: Ownership | None = None,
        computer_move_delay: float = 0.0,
        play_on: bool = True,
    ) -> None:
        """Tables saved to ``store``; computer players built by ``computers``.

        Each server's settings come from ``server_settings`` (default: the same for all).

        ``keep_closed`` finished or aborted tables stay known, so their buttons answer
        sensibly and "Play again" works. ``ownership``: the servers this process serves
        (default: all, with no other process to wait for). ``computer_move_delay``: seconds
        before each computer move, where a server sets none of its own. ``play_on``: after
        a request the computers play their turns on their own (False: only when
        :meth:`run_computers` is called, for a test that steps a game by hand).
        """
        self.store = store
        self.ownership = ownership if ownership is not None else Ownership()
        self.computers = computers
        self.server_settings: SettingsSource = server_settings or FixedSettings()
        self.listeners: list[Listener] = [log_event]
        self._seeds = seeds
        self._keep_closed = keep_closed
        self._open: dict[int, Table] = {}
        self._by_place: dict[int, int] = {}
        self._closed: OrderedDict[int, Table] = OrderedDict()
        self._opening = asyncio.Lock()
        self._releasing: set[asyncio.Task[None]] = set()
        self.computing: dict[int, int] = {}
        """Tables whose computer turns are being played now (how many runs each)."""
        self.halting = False
        """Set by ``halt``: computers make no further moves in this process."""
        self.computer_move_delay = computer_move_delay
        self.play_on = play_on
        self._turns: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------------ finding tables

    async def settings_of(self, guild_id: int) -> ServerSettings:
        """The settings of a server."""
        return await self.server_settings.get(guild_id)

    @property
    def open_tables(self) -> list[Table]:
        """Every table in its lobby or playing."""
        return list(self._open.values())

    def get(self, table_id: int) -> Table:
        """An open table; TableClosedError or NoTableError otherwise."""
        table = self._open.get(table_id)
        if table is not None:
            return table
        closed = self._closed.get(table_id)
        if closed is not None:
            raise TableClosedError.of(table_id, closed.status, closed.public())
        raise NoTableError.of(table_id)

    def get_any(self, table_id: int) -> Table:
        """An open table, or a recently closed one."""
        table = self._open.get(table_id) or self._closed.get(table_id)
        if table is None:
            self.get(table_id)  # raises the right refusal
        assert table is not None
        return table

    def at(self, place_id: int) -> Table | None:
        """The open table of a channel or thread."""
        table_id = self._by_place.get(place_id)
        return None if table_id is None else self._open[table_id]

    def tables_of(self, user_id: int) -> list[Table]:
        """The open tables where a user sits."""
        return [t for t in self._open.values() if t.seat_of(user_id) is not None]

    def find(self, place_id: int, user_id: int) -> Table:
        """The table of this place, else the only table the user sits at."""
        table = self.at(place_id)
        if table is not None:
            return table
        mine = self.tables_of(user_id)
        if len(mine) == 1:
            return mine[0]
        if mine:
            raise NoTableError(
                "There's no table here, and you sit at several: use this in a table's channel."
            )
        raise NoTableError("There's no table here: start one with /euchre new.")

    # ------------------------------------------------------------------ lobby

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
        async with self._opening:
            existing = self.at(place.id)
            if existing is not None:
                raise TableExistsError.of(existing.id)
            await self.ownership.claim(place.guild_id)
            settings = await self.settings_of(place.guild_id)
            if rules is None:
                rules = settings.rules
            taken = list(seats) if seats is not None else [Seat.human(host)]
            taken += [None] * (rules.players - len(taken))
            seed = self._seeds()
            new = NewTable(place, host.user_id, rules, seed, tuple(taken), rules_overridden)
            try:
                table_id = await self.store.create_table(new)
            except Exception as exc:
                return await self._opening_failed(new, exc)
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
            self._open[table_id] = table
            self._by_place[place.id] = table_id
            self._tell(table, "opened", f"by {host.name}, rules {rules.to_spec()}")
        return table

    async def set_message(self, table: Table, message_id: int) -> None:
        """Remember the table's public message (a failed save is only logged)."""
        table.message_id = message_id
        try:
            await self.store.update_table(table.id, message_id=message_id)
        except Exception:
            log.exception("table %d: could not save its message id", table.id)

    async def join(self, table_id: int, player: Player, seat: int | None = None) -> Table:
        """Seat a person: the next seat, or the one chosen (moving them if seated).

        During a game, a member takes over a computer's seat where the server allows it.
        """
        table = await self.fetch(table_id)
        if table.status == "playing":
            return await self._take_over(table, player, seat)
        async with table.lock:
            await self._bring_in_step(table)
            before = list(table.seats)
            number = table.join(player, seat)
            await self._save_seats(table, before)
            self._tell(table, "seated", f"{player.name} sat in seat {number + 1}")
        return table

    async def add_computer(self, table_id: int, by: int, seat: int | None = None) -> Table:
        """The host seats a computer player, where the server allows them."""
        table = await self.fetch(table_id)
        settings = await self.settings_of(table.place.guild_id)  # a permission: as it is now
        if not settings.allow_computers:
            raise ComputersNotAllowedError(
                "This server doesn't allow computer players: every seat needs a person."
            )
        async with table.lock:
            await self._bring_in_step(table)
            before = list(table.seats)
            number = table.add_computer(by, seat)
            await self._save_seats(table, before)
            self._tell(table, "seated", f"computer {table.name(number)} in seat {number + 1}")
        return table

    async def set_computer_level(self, table_id: int, by: int, level: str) -> Table:
        """The host chooses how well the table's computers play, those seated included."""
        if level not in get_args(ComputerLevel):
            raise WrongStageError(f"{level!r} is not a computer level.")
        table = await self.fetch(table_id)
        async with table.lock:
            await self._bring_in_step(table)
            before = list(table.seats)
            chosen = table.chosen_level
            table.set_computer_level(by, level)
            try:
                await self._save_seats(table, before)
            except SaveFailedError:
                table.chosen_level = chosen
                raise
            self._tell(table, "seated", f"computers play at the {level} level")
        return table

    async def leave(self, table_id: int, user_id: int) -> Table:
        """A person leaves: their seat is freed, or taken over by a computer in a game."""
        table = await self.fetch(table_id)
        async with table.lock:
            await self._bring_in_step(table)
            before = (list(table.seats), table.host_id, table.status)
            name = table.name(table.require_seat(user_id))
            seat = table.leave(user_id)
            try:
                await self.store.save_seats(table.id, table.seats)
                if table.host_id != before[1]:
                    await self.store.update_table(table.id, host_id=table.host_id)
                if table.status == "aborted":
                    await self.store.finish_table(table.id, "aborted", None)
            except Exception as exc:
                table.seats, table.host_id, table.status = before
                raise self._save_failed(f"table {table.id}: leaving", table, exc) from exc
            taken_over = " (a computer plays it now)" if table.status == "playing" else ""
            self._tell(table, "left", f"{name} left seat {seat + 1}{taken_over}")
            if table.host_id != before[1]:
                self._tell(table, "host", f"{table.host_name} is the host now")
            if table.status == "aborted":
                self._emit(TableClosed(table, "aborted", "everyone left"))
                self._close(table)
            else:
                await self._carry_on(table, user_id, tell_turn=False)
        return table

    async def start(self, table_id: int, by: int) -> Progress:
        """The host starts the game: the cards are dealt."""
        table = await self.fetch(table_id)
        async with table.lock:
            await self._bring_in_step(table)
            table.start(by)
            try:
                await self.store.update_table(table.id, status="playing")
            except Exception as exc:
                table.status, table.game = "lobby", None
                raise self._save_failed(f"table {table.id}: starting", table, exc) from exc
            assert table.game is not None
            self._tell(table, "started", f"seed {table.seed}, dealer seat {table.game.dealer + 1}")
            await self._carry_on(table, by, tell_turn=True)
            return self._progress(table, ())

    async def abort(self, table_id: int, by: int, *, may_manage: bool = False) -> Table:
        """Close a table: its host, or a member who may manage the server."""
        table = await self.fetch(table_id)
        async with table.lock:
            await self._bring_in_step(table)
            status = table.status
            table.abort(by, may_manage=may_manage)
            try:
                await self.store.finish_table(table.id, "aborted", None)
            except Exception as exc:
                table.status = status
                raise self._save_failed(f"table {table.id}: aborting", table, exc) from exc
            self._emit(TableClosed(table, "aborted", f"by user {by}"))
            self._close(table)
        return table

    async def play_again(self, table_id: int, player: Player) -> Table:
        """A new lobby in the same place with the same seats and rules; the clicker hosts."""
        old = await self.fetch(table_id, closed=True)
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

    # ------------------------------------------------------------------ inside the lock

    async def _save_seats(self, table: Table, before: list[Seat | None]) -> None:
        try:
            await self.store.save_seats(table.id, table.seats)
        except Exception as exc:
            table.seats = before
            raise self._save_failed(f"table {table.id}: saving seats", table, exc) from exc

    async def _save_move(self, table: Table, move: Move, *, urgent: bool) -> bool:
        """Save an applied move; SaveFailedError (the move taken back) if the store can't.

        False when the store already holds an action at that index (an earlier save
        whose outcome was unknown went through after all): the move is taken back and
        the table reloaded from the store, so the caller checks its request again.
        ``urgent``: a person waits to see it (:class:`MoveMade`).
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
            await self._bring_in_step(table)
            game = table.game
            if game is None or len(game.log) <= move.index:
                table.out_of_step = True  # the store contradicts itself: try again later
                raise self._save_failed(f"table {table.id}: action {move.index} refused") from exc
            return False
        except Exception as exc:
            table.undo_last()
            raise self._save_failed(
                f"table {table.id}: saving action {move.index}", table, exc
            ) from exc
        game = table.game
        assert game is not None
        said = f"{table.name(move.seat)} {move.action.to_json()}"
        self._emit(MoveMade(table, "move", said, move, urgent))
        if game.deal_number != move.deal_number or game.over:
            result = deal_summary(move.deal_number, game.results[move.deal_number - 1])
            said = f"deal {result.number}: {result.result}, points {result.points}"
            self._emit(DealEnded(table, "deal", said, result))
        if game.over:
            await self._finish(table)
        return True

    async def _finish(self, table: Table) -> None:
        game = table.game
        assert game is not None
        try:
            await self.store.finish_table(table.id, "finished", table.record())
        except Exception:
            log.exception("table %d: could not archive the finished game", table.id)
        self._emit(TableClosed(table, "finished", f"score {game.score[0]}-{game.score[1]}"))
        self._close(table)

    def _progress(self, table: Table, moves: Iterable[Move]) -> Progress:
        done = tuple(moves)
        game = table.game
        mention = None
        if table.status == "playing" and game is not None and game.turn is not None:
            seat = table.seats[game.turn]
            last = game.log[-1][0] if game.log else None
            new_deal = bool(done) and done[-1].deal_number != game.deal_number
            if seat is not None and seat.user_id is not None and (last != game.turn or new_deal):
                mention = seat.user_id
        return Progress(table, done, mention)

    def _close(self, table: Table) -> None:
        self._open.pop(table.id, None)
        if self._by_place.get(table.place.id) == table.id:
            del self._by_place[table.place.id]
        guild = table.place.guild_id
        if self.ownership.locks is not None and not self._has_open(guild):
            release = asyncio.get_running_loop().create_task(self._release_if_idle(guild))
            self._releasing.add(release)
            release.add_done_callback(self._releasing.discard)
        self._closed[table.id] = table
        while len(self._closed) > self._keep_closed:
            self._closed.popitem(last=False)

    def _has_open(self, guild_id: int) -> bool:
        return any(t.place.guild_id == guild_id for t in self._open.values())

    async def _release_if_idle(self, guild_id: int) -> None:
        """Let the server's lock go unless a table of it opened meanwhile (opening holds it)."""
        async with self._opening:
            if not self._has_open(guild_id):
                try:
                    await self.ownership.release(guild_id)
                except Exception:
                    log.exception("guild %d: could not let its lock go", guild_id)

    def _emit(self, event: TableEvent) -> None:
        for listener in self.listeners:
            try:
                listener(event)
            except Exception:
                log.exception("table event listener failed on %s", event.line())
