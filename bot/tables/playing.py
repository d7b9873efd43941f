"""Playing, pace and pings: the part of :class:`~bot.tables.service.TableService` for a game.

A person's action (:meth:`PlayingMixin.act`); the computer turns after it
(:meth:`PlayingMixin.run_computers`), one lock at a time, so a click that races them is
simply refused as out of turn, and none once a stopping process halts them; a hint on
the person's turn; and whom to mention and how long computers wait, from the table's
server's settings.
"""

from __future__ import annotations

import asyncio
import logging

from bot.rules import Action, SeatView

from .computers import HINT_LEVEL, Advice, AdvisingPlayer, decision_seed
from .errors import HintsOffError, NotYourTurnError, TableError
from .events import TurnPassed
from .service_base import Progress, ServiceBase
from .table import Move, Table

__all__ = ["THREADED_LEVELS", "PlayingMixin"]

log = logging.getLogger(__name__)

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
        """A person's action from a private-hand button drawn at ``stamp``.

        The computers' turns it leads to are played in a task of their own
        (:meth:`_carry_on`), so the answer goes at once.
        """
        table = await self.fetch(table_id)
        async with table.lock:
            await self._bring_in_step(table)
            while True:  # again after a reload: the request is checked against the stored game
                table.check_human_action(user_id, seat, stamp)
                move = table.apply(seat, action)
                if await self._save_move(table, move, urgent=True):
                    break
            table.strikes.pop(seat, None)
            await self._carry_on(table, user_id, tell_turn=True)
            return self._progress(table, (move,))

    def halt(self) -> None:
        """Stop playing computer turns, for a process that is stopping.

        A computer run ends before its next move (each move made is saved already), and
        the keeper does nothing more; the next process plays the pending turns when it
        resumes the tables.
        """
        self.halting = True

    async def settle(self, timeout: float | None = None) -> int:
        """Wait up to ``timeout`` seconds for the computer runs under way; how many still run."""
        running = self._turns - {asyncio.current_task()}
        if not running:
            return 0
        _, late = await asyncio.wait(running, timeout=timeout)
        return len(late)

    async def resume(self, table_id: int) -> Progress:
        """Play the computer turns a restored (or stalled) table has pending, and wait for them."""
        return await self.run_computers(table_id)

    async def run_computers(self, table_id: int, *, requested_by: int | None = None) -> Progress:
        """Play computer turns until a person must act or the game ends, and wait for them.

        Each move waits the table's computer delay first, outside the lock; when the turn
        rests with a person, :class:`~bot.tables.events.TurnPassed` tells whom (after the
        request of ``requested_by``). The table counts as :attr:`computing` from the call
        on. A table out of step with the store is reloaded before any computer plays
        (SaveFailedError if the store cannot be read). A halted service (:meth:`halt`)
        makes no further move.
        """
        table = self.get_any(table_id)
        self.computing[table.id] = self.computing.get(table.id, 0) + 1
        if table.computer_to_act() is None:
            self._done_computing(table)
            if table.is_open:
                async with table.lock:
                    await self._turn_passed(table, requested_by, 0)
            return self._progress(table, ())
        return self._progress(table, await self._play_on(table, requested_by))

    async def _carry_on(self, table: Table, requested_by: int | None, *, tell_turn: bool) -> None:
        """After a request (the table's lock held): the computers play on, or a person is told.

        A computer to act: its turns are played in a task of their own (counted as
        :attr:`computing` at once, so the keeper never starts another run). Otherwise,
        with ``tell_turn``, the person to act is told (:class:`TurnPassed`).
        """
        if table.computer_to_act() is not None:
            if not self.play_on or self.halting:
                return
            self.computing[table.id] = self.computing.get(table.id, 0) + 1
            task = asyncio.get_running_loop().create_task(
                self._play_on_logged(table, requested_by), name=f"table {table.id} computers"
            )
            self._turns.add(task)
            task.add_done_callback(self._turns.discard)
        elif tell_turn:
            await self._turn_passed(table, requested_by, 0)

    async def _play_on_logged(self, table: Table, requested_by: int | None) -> None:
        try:
            await self._play_on(table, requested_by)
        except TableError as exc:
            log.info("table %d: the computers' turns stopped: %s", table.id, exc)
        except Exception:
            log.exception("table %d: the computers' turns failed", table.id)

    async def _play_on(self, table: Table, requested_by: int | None) -> list[Move]:
        """The computers' run (counted in :attr:`computing` by the caller): the moves made."""
        moves: list[Move] = []
        try:
            delay = table.computer_move_delay
            while table.computer_to_act() is not None and not self.halting:
                if delay > 0:
                    await asyncio.sleep(delay)
                async with table.lock:
                    await self._bring_in_step(table)
                    if table.computer_to_act() is None or self.halting:
                        break
                    move = await self._play_computer(table)
                    if not await self._save_move(table, move, urgent=False):
                        continue
                    moves.append(move)
                    if table.computer_to_act() is None and table.is_open:
                        await self._turn_passed(table, requested_by, len(moves))
        finally:
            self._done_computing(table)
        return moves

    def _done_computing(self, table: Table) -> None:
        self.computing[table.id] -= 1
        if not self.computing[table.id]:
            del self.computing[table.id]

    async def _turn_passed(
        self, table: Table, requested_by: int | None, computer_moves: int
    ) -> None:
        """Tell whom the turn rests with, if it just became a person's (the lock held).

        They are to be mentioned unless they made the request, a computer plays their
        seat, or their server turned turn mentions off.
        """
        user_id = _newly_theirs(table)
        turn = None if table.game is None else table.game.turn
        if user_id is None or turn is None:
            return
        seat = table.seats[turn]
        ping = (
            user_id != requested_by
            and table.settings.mention_on_turn
            and seat is not None
            and not seat.away
        )
        text = f"{table.name(turn)} is to act"
        self._emit(TurnPassed(table, "turn", text, user_id, ping, requested_by, computer_moves))

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
                self._tell(
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


def _newly_theirs(table: Table) -> int | None:
    """The person the turn just passed to (None: a computer's turn, or still the same person's).

    The turn is newly theirs when someone else acted last, or the last action ended a deal.
    """
    game = table.game
    if table.status != "playing" or game is None or game.turn is None:
        return None
    seat = table.seats[game.turn]
    if seat is None or seat.user_id is None:
        return None
    if game.log and game.log[-1][0] == game.turn and table.actors[-1][0] == game.deal_number:
        return None
    return seat.user_id
