"""The table service: every open table by id and by place, and every change made to one.

Each change runs under the table's lock: check, apply, save, then answer. A change the
store cannot save is taken back and refused with :class:`SaveFailedError`. When the
store cannot say whether it saved it (no answer came), the table is out of step: its
next change first reloads it from the store, as a restart would; a lobby whose opening
got no answer is looked for at its place and taken in (:mod:`bot.tables.reload`). Computer
turns are played by :meth:`TableService.run_computers` after a person acts, one lock
at a time, so a click that races them is simply refused as out of turn.

Longer than 450 lines on purpose: every change to a table is a method of this one
class, so each takes the table's lock and saves (or undoes) the same way.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import get_args

from bot.rules import Action, HouseRules, SeatView
from bot.server.settings import ComputerLevel, ServerSettings
from bot.server.sources import FixedSettings, SettingsSource
from bot.store import ConnectionLostError, DuplicateActionError

from .computers import HINT_LEVEL, Advice, AdvisingPlayer, PlayerFactory, decision_seed
from .errors import (
    ComputersNotAllowedError,
    HintsOffError,
    NoTableError,
    NotSeatedError,
    NotYourTurnError,
    SaveFailedError,
    TableClosedError,
    TableExistsError,
    WrongStageError,
)
from .events import EventKind, Listener, TableEvent, log_event
from .ownership import Ownership
from .persistence import NewTable, Place, SavedTable, TableStore
from .public import deal_summary
from .reload import answer_lost, is_the_new_table, place_taken, stored_open_at, stored_table
from .seats import Player, Seat
from .table import Move, Table

THREADED_LEVELS = frozenset({"expert"})
"""Computer levels slow enough (tenths of a second) to decide outside the event loop."""

__all__ = ["Progress", "TableService"]

log = logging.getLogger(__name__)

SAVE_FAILED = "Sorry, that couldn't be saved, so nothing changed. Please try again."
SAVE_UNSURE = (
    "Sorry, the database didn't answer, so that may or may not have been saved. "
    "The table will show which in a moment."
)
OPEN_UNSURE = (
    "Sorry, the database didn't answer, so the table may or may not have opened. "
    "Use /euchre new again: it opens one, or shows the one that did."
)


def random_seed() -> int:
    """A fresh seed for a table's shuffles."""
    return secrets.randbits(31)


@dataclass(frozen=True, slots=True)
class Progress:
    """What a request changed in a game: the moves applied and whom to tell it's their turn."""

    table: Table
    moves: tuple[Move, ...]
    mention: int | None
    """The person the turn just passed to, if it passed to a person."""

    @property
    def computer_moves(self) -> int:
        """How many of the moves computer players made."""
        return sum(move.by_computer for move in self.moves)

    @property
    def finished(self) -> bool:
        """Whether the game is over."""
        return self.table.status == "finished"


class TableService:
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
    ) -> None:
        """Tables saved to ``store``; computer players built by ``computers``.

        Each server's settings come from ``server_settings`` (default: the same for all).

        ``keep_closed`` finished or aborted tables stay known, so their buttons answer
        sensibly and "Play again" works. ``ownership``: the servers this process serves
        (default: all, with no other process to wait for).
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
            how = "finished" if closed.status == "finished" else "was closed"
            raise TableClosedError(f"Table {table_id} has {how}: start a new one with /euchre new.")
        raise NoTableError(f"Table {table_id} no longer exists: start a new one with /euchre new.")

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
                table_id, place, host.user_id, rules, seed, taken, rules_overridden=rules_overridden
            )
            table.settings = settings
            self._open[table_id] = table
            self._by_place[place.id] = table_id
            self._emit(table, "opened", f"by {host.name}, rules {rules.to_spec()}")
        return table

    async def _opening_failed(self, new: NewTable, exc: Exception) -> Table:
        """The store's open table at the place after a failed opening (``_opening`` held).

        When no answer came, or the store has a table there that memory does not know,
        its table there is taken in as a restart would: the lobby asked for (created
        after all) is returned, another table is refused as any existing one is.
        """
        if not (answer_lost(exc) or place_taken(exc)):
            raise self._save_failed(f"opening a table in place {new.place.id}") from exc
        log.warning("place %d: opening a table failed (%s); looking it up", new.place.id, exc)
        sorry = OPEN_UNSURE if answer_lost(exc) else SAVE_FAILED
        try:
            row = await stored_open_at(self.store, new.place)
        except Exception:
            log.exception("place %d: could not look up the store's open table", new.place.id)
            raise SaveFailedError(sorry) from exc
        table = None if row is None else await self._take_in(row, {})
        if table is None:
            raise SaveFailedError(sorry) from exc
        if answer_lost(exc) and row is not None and is_the_new_table(row, new):
            self._emit(table, "opened", "its unanswered opening went through")
            return table
        self._emit(table, "reloaded", f"taken in from the store ({table.status})")
        raise TableExistsError.of(table.id) from exc

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
        table = self.get(table_id)
        if table.status == "playing":
            return await self._take_over(table, player, seat)
        async with table.lock:
            await self._bring_in_step(table)
            before = list(table.seats)
            number = table.join(player, seat)
            await self._save_seats(table, before)
            self._emit(table, "seated", f"{player.name} sat in seat {number + 1}")
        return table

    async def add_computer(self, table_id: int, by: int, seat: int | None = None) -> Table:
        """The host seats a computer player, where the server allows them."""
        table = self.get(table_id)
        settings = await self.settings_of(table.place.guild_id)
        if not settings.allow_computers:
            raise ComputersNotAllowedError(
                "This server doesn't allow computer players: every seat needs a person."
            )
        async with table.lock:
            await self._bring_in_step(table)
            before = list(table.seats)
            number = table.add_computer(by, seat)
            await self._save_seats(table, before)
            self._emit(table, "seated", f"computer {table.name(number)} in seat {number + 1}")
        return table

    async def set_computer_level(self, table_id: int, by: int, level: str) -> Table:
        """The host chooses how well the table's computers play, those seated included."""
        if level not in get_args(ComputerLevel):
            raise WrongStageError(f"{level!r} is not a computer level.")
        table = self.get(table_id)
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
            self._emit(table, "seated", f"computers play at the {level} level")
        return table

    async def leave(self, table_id: int, user_id: int) -> Table:
        """A person leaves: their seat is freed, or taken over by a computer in a game."""
        table = self.get(table_id)
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
            self._emit(table, "left", f"{name} left seat {seat + 1}{taken_over}")
            if table.host_id != before[1]:
                self._emit(table, "host", f"{table.host_name} is the host now")
            if table.status == "aborted":
                self._emit(table, "aborted", "everyone left")
                self._close(table)
        return table

    async def start(self, table_id: int, by: int) -> Progress:
        """The host starts the game: the cards are dealt."""
        table = self.get(table_id)
        settings = await self.settings_of(table.place.guild_id)
        async with table.lock:
            await self._bring_in_step(table)
            table.start(by)
            table.settings = settings
            try:
                await self.store.update_table(table.id, status="playing")
            except Exception as exc:
                table.status, table.game = "lobby", None
                raise self._save_failed(f"table {table.id}: starting", table, exc) from exc
            assert table.game is not None
            self._emit(table, "started", f"seed {table.seed}, dealer seat {table.game.dealer + 1}")
            return self._progress(table, ())

    async def abort(self, table_id: int, by: int, *, may_manage: bool = False) -> Table:
        """Close a table: its host, or a member who may manage the server."""
        table = self.get(table_id)
        async with table.lock:
            await self._bring_in_step(table)
            status = table.status
            table.abort(by, may_manage=may_manage)
            try:
                await self.store.finish_table(table.id, "aborted", None)
            except Exception as exc:
                table.status = status
                raise self._save_failed(f"table {table.id}: aborting", table, exc) from exc
            self._emit(table, "aborted", f"by user {by}")
            self._close(table)
        return table

    async def play_again(self, table_id: int, player: Player) -> Table:
        """A new lobby in the same place with the same seats and rules; the clicker hosts."""
        old = self.get_any(table_id)
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

    # ------------------------------------------------------------------ playing

    def hand(self, table_id: int, user_id: int) -> tuple[int, SeatView]:
        """A seated person's seat and view of the game."""
        return self.get_any(table_id).view_for(user_id)

    async def act(
        self, table_id: int, user_id: int, seat: int, stamp: tuple[int, int], action: Action
    ) -> Progress:
        """A person's action from a private-hand button drawn at ``stamp``."""
        table = self.get(table_id)
        async with table.lock:
            await self._bring_in_step(table)
            while True:  # again after a reload: the request is checked against the stored game
                table.check_human_action(user_id, seat, stamp)
                move = table.apply(seat, action)
                if await self._save_move(table, move):
                    break
            table.strikes.pop(seat, None)
            return self._progress(table, (move,))

    async def run_computers(
        self,
        table_id: int,
        *,
        delay: float | None = 0.0,
        default_delay: float = 0.0,
        on_move: Callable[[Move], Awaitable[None]] | None = None,
    ) -> Progress:
        """Play computer turns until a person must act or the game ends.

        ``delay`` seconds pass before each computer move, outside the lock (None: the
        table's server's delay, else ``default_delay``), and ``on_move`` (if given) is
        awaited after each move, outside the lock too, so the moves can be shown one at
        a time. The table counts as :attr:`computing` from the call on. A table out of
        step with the store is reloaded before any computer plays (SaveFailedError if the
        store cannot be read).
        """
        table = self.get_any(table_id)
        moves: list[Move] = []
        self.computing[table.id] = self.computing.get(table.id, 0) + 1
        try:
            if delay is None:
                delay = await self.computer_delay(table, default_delay)
            while table.computer_to_act() is not None:
                if delay > 0:
                    await asyncio.sleep(delay)
                async with table.lock:
                    await self._bring_in_step(table)
                    if table.computer_to_act() is None:
                        break
                    move = await self._play_computer(table)
                    if not await self._save_move(table, move):
                        continue
                    moves.append(move)
                if on_move is not None:
                    await on_move(move)
        finally:
            self.computing[table.id] -= 1
            if not self.computing[table.id]:
                del self.computing[table.id]
        return self._progress(table, moves)

    async def hint(self, table_id: int, user_id: int) -> tuple[SeatView, Advice]:
        """The expert's advice for the user's turn, in a casual game whose server allows hints.

        The search runs in a worker thread (other tables' clicks are answered meanwhile);
        the table then remembers that a hint was used, which keeps its game casual.
        """
        table = self.get(table_id)
        seat, view = table.view_for(user_id)
        if not table.hints_allowed:
            why = (
                "this server has turned hints off"
                if not table.settings.allow_hints
                else "this game is ranked (every seat a person, the server's rules)"
            )
            raise HintsOffError(f"No hints here: {why}.")
        if not view.my_turn:
            raise NotYourTurnError(f"A hint comes on your turn: {table.whose_turn()} now.")
        game = table.require_game()
        advisor = self.computers(HINT_LEVEL, decision_seed(table.seed, seat, len(game.log)))
        if not isinstance(advisor, AdvisingPlayer):
            raise HintsOffError("No hints here: this bot's expert cannot explain its choices.")
        advice = await asyncio.to_thread(advisor.advise, view)
        async with table.lock:
            await self._bring_in_step(table)
            if not table.hinted:
                try:
                    await self.store.update_table(table.id, hinted=True)
                except Exception as exc:
                    raise self._save_failed(f"table {table.id}: noting a hint", table, exc) from exc
                table.hinted = True
                self._emit(
                    table, "hint", f"{table.name(seat)} asked for a hint: the game is casual"
                )
        return view, advice

    async def _play_computer(self, table: Table, *, for_seat: int | None = None) -> Move:
        """A computer's move at ``table`` (whose lock the caller holds).

        A searching level thinks in a worker thread, so other tables' clicks are
        answered meanwhile; the lock keeps this table still until the move is made.
        """
        seat, level, player, view = table.computer_decision(self.computers, for_seat=for_seat)
        if level in THREADED_LEVELS:
            action = await asyncio.to_thread(player.choose, view)
        else:
            action = player.choose(view)
        return table.apply(seat, action, by_computer=True)

    # ------------------------------------------------------------------ pace and pings

    async def turn_ping(self, progress: Progress, clicker: int | None) -> int | None:
        """Whom to mention now that a request moved the game on (None: nobody).

        The person the turn passed to, unless they made the request themselves
        (``clicker``) or their server turned turn mentions off.
        """
        if progress.mention is None or progress.mention == clicker:
            return None
        server = await self.settings_of(progress.table.place.guild_id)
        return progress.mention if server.mention_on_turn else None

    async def computer_delay(self, table: Table, default: float) -> float:
        """Seconds before each computer move at ``table``: its server's, else ``default``."""
        server = await self.settings_of(table.place.guild_id)
        if server.computer_move_delay is not None:
            return server.computer_move_delay
        return default

    # ------------------------------------------------------------------ restarts

    async def reload(self, table_id: int) -> Table:
        """Bring a table out of step with the store back in step now (else nothing happens).

        SaveFailedError if the store can't be read: the table stays out of step.
        """
        table = self.get_any(table_id)
        async with table.lock:
            await self._bring_in_step(table)
        return table

    async def restore(self) -> list[Table]:
        """Load every open table of this process's servers (at start-up) by replaying its record.

        Each server's lock is taken first, waiting for a process that still holds it,
        and only then are its tables read. A table whose record no longer replays is
        logged and left out; the others load.
        """
        owner = self.ownership
        claimed = sorted(g for g in await self.store.open_guilds() if owner.owns(g))
        for guild in claimed:
            await owner.claim(guild, wait=True)
        restored = []
        settings: dict[int, ServerSettings] = {}
        # Only the servers claimed: one whose first table opened meanwhile is not ours yet.
        for row in await self.store.open_tables(set(claimed).__contains__):
            table = await self._take_in(row, settings)
            if table is not None:
                restored.append(table)
        for guild in claimed:  # none of its tables came back after all
            if not self._has_open(guild):
                await self._release_if_idle(guild)
        return restored

    async def _take_in(self, row: SavedTable, settings: dict[int, ServerSettings]) -> Table | None:
        """Load a stored table into memory, its record replayed; None if it is not open.

        ``settings``: the servers' settings read so far (added to). A game the store has
        over (its last move saved, its archive not) is finished now.
        """
        try:
            table = Table.restore(row)
        except Exception:
            log.exception("table %d: its record does not replay; not restored", row.id)
            return None
        if not table.is_open:
            return None
        if table.game is not None and table.game.over:
            table.status = "finished"
            await self._finish(table)
            return None
        guild = table.place.guild_id
        if guild not in settings:
            settings[guild] = await self.settings_of(guild)
        table.settings = settings[guild]
        self._open[table.id] = table
        self._by_place[table.place.id] = table.id
        return table

    # ------------------------------------------------------------------ absent players

    async def _take_over(self, table: Table, player: Player, seat: int | None) -> Table:
        async with table.lock:
            await self._bring_in_step(table)
            before = list(table.seats)
            strikes = dict(table.strikes)
            number = table.take_over(player, seat)
            try:
                await self.store.save_seats(table.id, table.seats)
            except Exception as exc:
                table.seats, table.strikes = before, strikes
                raise self._save_failed(
                    f"table {table.id}: taking over seat {number}", table, exc
                ) from exc
            self._emit(table, "seated", f"{player.name} took over seat {number + 1}")
        return table

    async def take_back(self, table_id: int, user_id: int) -> Table:
        """A person whose seat a computer plays (turns timed out) plays it again."""
        table = self.get(table_id)
        async with table.lock:
            await self._bring_in_step(table)
            before = list(table.seats)
            seat = table.take_back(user_id)
            await self._save_seats(table, before)
            self._emit(table, "back", f"{table.name(seat)} took seat {seat + 1} back")
        return table

    async def time_out(
        self, table_id: int, seat: int, stamp: tuple[int, int]
    ) -> tuple[Progress, bool] | None:
        """A person let their turn run out: a computer plays it for them.

        Nothing happens (None) when the turn moved on meanwhile. After
        ``settings.timeouts_before_computer`` timed-out turns in a row the computer keeps the
        seat until its owner takes it back: the second item says whether that happened.
        """
        table = self.get(table_id)
        async with table.lock:
            await self._bring_in_step(table)
            game = table.game
            if (
                table.status != "playing"
                or game is None
                or table.stamp != stamp
                or game.turn != seat
                or table.is_computer(seat)
            ):
                return None
            move = await self._play_computer(table, for_seat=seat)
            if not await self._save_move(table, move):
                return None  # the store had the turn played already: the table was reloaded
            strikes = table.strikes.get(seat, 0) + 1
            table.strikes[seat] = strikes
            away = table.status == "playing" and strikes >= table.settings.timeouts_before_computer
            if away:
                before = list(table.seats)
                table.set_away(seat)
                try:
                    await self.store.save_seats(table.id, table.seats)
                except Exception:
                    table.seats = before
                    away = False
                    log.exception("table %d: could not save seat %d as away", table.id, seat)
            what = "a computer plays the seat until they return" if away else "a computer played"
            self._emit(table, "timeout", f"{table.name(seat)} ran out of time: {what}")
            return self._progress(table, (move,)), away

    async def close_idle(self, table_id: int, idle_since: float, now: float) -> Table | None:
        """Close a table nobody touched since ``idle_since``: None if it was closed already."""
        table = self._open.get(table_id)
        if table is None:
            return None
        async with table.lock:
            if not table.is_open:
                return None
            status = table.status
            table.status = "aborted"
            try:
                await self.store.finish_table(table.id, "aborted", None)
            except Exception:
                table.status = status
                log.exception("table %d: could not close it as idle", table.id)
                return None
            minutes = (now - idle_since) / 60
            self._emit(table, "aborted", f"idle for {minutes:.0f} minutes")
            self._close(table)
        return table

    # ------------------------------------------------------------------ inside the lock

    async def _save_seats(self, table: Table, before: list[Seat | None]) -> None:
        try:
            await self.store.save_seats(table.id, table.seats)
        except Exception as exc:
            table.seats = before
            raise self._save_failed(f"table {table.id}: saving seats", table, exc) from exc

    async def _save_move(self, table: Table, move: Move) -> bool:
        """Save an applied move; SaveFailedError (the move taken back) if the store can't.

        False when the store already holds an action at that index (an earlier save
        whose outcome was unknown went through after all): the move is taken back and
        the table reloaded from the store, so the caller checks its request again.
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
        self._emit(table, "move", f"{table.name(move.seat)} {move.action.to_json()}", move)
        if game.deal_number != move.deal_number or game.over:
            result = deal_summary(move.deal_number, game.results[move.deal_number - 1])
            self._emit(
                table, "deal", f"deal {result.number}: {result.result}, points {result.points}"
            )
        if game.over:
            await self._finish(table)
        return True

    async def _bring_in_step(self, table: Table) -> None:
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
            raise self._save_failed(f"table {table.id}: reloading it from the store") from exc
        table.adopt(stored)
        game = table.game
        # The store has the last move but not the archive: finished as that move would have.
        over = table.status == "playing" and game is not None and game.over
        if over:
            table.status = "finished"
        actions = 0 if game is None else len(game.log)
        self._emit(table, "reloaded", f"from the store: {table.status}, {actions} actions")
        if over:
            await self._finish(table)
        elif not table.is_open:
            self._close(table)

    async def _finish(self, table: Table) -> None:
        game = table.game
        assert game is not None
        try:
            await self.store.finish_table(table.id, "finished", table.record())
        except Exception:
            log.exception("table %d: could not archive the finished game", table.id)
        self._emit(table, "finished", f"score {game.score[0]}-{game.score[1]}")
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

    def _emit(self, table: Table, kind: EventKind, text: str, move: Move | None = None) -> None:
        event = TableEvent(table, kind, text, move)
        for listener in self.listeners:
            try:
                listener(event)
            except Exception:
                log.exception("table event listener failed on %s", event.line())

    @staticmethod
    def _save_failed(
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
