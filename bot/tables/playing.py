"""Playing, pace and pings: the part of :class:`~bot.tables.service.TableService` for a game.

A person's action (:meth:`PlayingMixin.act`); the computer turns after it
(:meth:`PlayingMixin.run_computers`), one lock at a time, so a click that races them is
simply refused as out of turn, and none once a stopping process halts them; a hint on
the person's turn; and whom to mention and how long computers wait, from the table's
server's settings.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from bot.rules import Action, SeatView

from .computers import HINT_LEVEL, Advice, AdvisingPlayer, decision_seed
from .errors import HintsOffError, NotYourTurnError
from .service_base import Progress, ServiceBase
from .table import Move, Table

__all__ = ["THREADED_LEVELS", "PlayingMixin"]

THREADED_LEVELS = frozenset({"expert"})
"""Computer levels slow enough (tenths of a second) to decide outside the event loop."""


class PlayingMixin(ServiceBase):
    """Moves by people and computers, hints, turn mentions and the computers' pace."""

    def hand(self, table_id: int, user_id: int) -> tuple[int, SeatView]:
        """A seated person's seat and view of the game."""
        return self.get_any(table_id).view_for(user_id)

    async def act(
        self, table_id: int, user_id: int, seat: int, stamp: tuple[int, int], action: Action
    ) -> Progress:
        """A person's action from a private-hand button drawn at ``stamp``."""
        table = await self.fetch(table_id)
        async with table.lock:
            await self._bring_in_step(table)
            while True:  # again after a reload: the request is checked against the stored game
                table.check_human_action(user_id, seat, stamp)
                move = table.apply(seat, action)
                if await self._save_move(table, move):
                    break
            table.strikes.pop(seat, None)
            return self._progress(table, (move,))

    def halt(self) -> None:
        """Stop playing computer turns, for a process that is stopping.

        A computer run ends before its next move (each move made is saved already), and
        the keeper does nothing more; the next process plays the pending turns when it
        resumes the tables.
        """
        self.halting = True

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
        store cannot be read). A halted service (:meth:`halt`) makes no further move.
        """
        table = self.get_any(table_id)
        moves: list[Move] = []
        self.computing[table.id] = self.computing.get(table.id, 0) + 1
        try:
            if delay is None:
                delay = await self.computer_delay(table, default_delay)
            while table.computer_to_act() is not None and not self.halting:
                if delay > 0:
                    await asyncio.sleep(delay)
                async with table.lock:
                    await self._bring_in_step(table)
                    if table.computer_to_act() is None or self.halting:
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
        table = await self.fetch_in_step(table_id)  # the hint is for the game as stored
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
            table.require_open()
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
