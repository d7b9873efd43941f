"""The turn loop: the piece of the table service that plays a game.

A person's action (:meth:`Turns.act`); the computer turns after it
(:meth:`Turns.run_computers`), one lock at a time, so a click that races them is
simply refused as out of turn, and none once a stopping process halts them; a hint on
the person's turn; a forced card that plays itself for a person who wants it; and whom
to mention and how long computers wait, from the table's server's settings.

A computer's move waits its table's computer delay through a :data:`ComputerPace`: by
default just the delay; the bot's is the delay and, past it, until the table's channel
can show the move at once (Discord's budget), so that computer moves show one at a time
as they are made, never piling up behind the channel's budget.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from bot.rules import Action, SeatView, seat_view
from bot.server.preferences import FORCED_CARD_DELAY, forced_play

from .computers import HINT_LEVEL, Advice, ClaimCheck, PlayerFactory, no_claims
from .errors import ClaimRefusedError, HintsOffError, NotYourTurnError, TableError
from .events import ClaimMade, PingDue, TurnPassed
from .progress import Progress, progress
from .public import Claim
from .registry import Registry
from .restoring import Restorer
from .saver import Saver
from .table import Move, Table
from .thinking import Thinking
from .turn_timers import TurnTimers, person_to_act

__all__ = ["ComputerPace", "Turns", "plain_delay"]

log = logging.getLogger(__name__)

ComputerPace = Callable[[Table, float], Awaitable[None]]
"""Waits before a computer's move at a table: at least the delay given (seconds), from
the moment its turn began (the call), and longer where the table could not show the
move at once."""


async def plain_delay(table: Table, delay: float) -> None:
    """The pace of a service that shows tables nowhere paced: the delay alone."""
    if delay > 0:
        await asyncio.sleep(delay)


class Turns:
    """Moves by people and computers, hints, turn mentions and the computers' pace."""

    def __init__(
        self,
        registry: Registry,
        saver: Saver,
        restorer: Restorer,
        computers: PlayerFactory,
        timers: TurnTimers,
        thinking: Thinking,
        *,
        claims: ClaimCheck = no_claims,
        play_on: bool = True,
    ) -> None:
        """Play the tables of ``registry``, each move saved by ``saver``.

        Computer players are built by ``computers`` and search by ``thinking`` (the
        search pool); a person's turn pings them on
        ``timers``' clock, within their preferences. ``claims`` says whether a seat's
        cards take every trick left (a person is offered the claim, a computer makes
        it). ``play_on``: after a request the
        computers play their turns on their own (False: only when :meth:`run_computers`
        is called, for a test that steps a game by hand).
        """
        self.registry = registry
        self.saver = saver
        self.restorer = restorer
        self.computers = computers
        self.timers = timers
        self.thinking = thinking
        self.claims = claims
        self.play_on = play_on
        self.computing: dict[int, int] = {}
        """Tables whose computer turns are being played now (how many runs each)."""
        self.halting = False
        """Set by :meth:`halt`: computers make no further moves in this process."""
        self.pace: ComputerPace = plain_delay
        """How a computer's move waits its delay (the bot sets its channels' pace)."""
        self._turns: set[asyncio.Task[None]] = set()

    def hand(self, table_id: int, user_id: int) -> tuple[int, SeatView]:
        """A seated person's seat and view of the game."""
        return self.registry.get_any(table_id).view_for(user_id)

    async def act(
        self, table_id: int, user_id: int, seat: int, stamp: tuple[int, int], action: Action
    ) -> Progress:
        """A person's action from a private-hand button drawn at ``stamp``.

        The computers' turns it leads to are played in a task of their own
        (:meth:`carry_on`), so the answer goes at once.
        """
        table = await self.restorer.fetch(table_id)
        async with table.lock:
            await self.saver.bring_in_step(table)
            while True:  # again after a reload: the request is checked against the stored game
                table.check_human_action(user_id, seat, stamp)
                move = table.apply(seat, action)
                if await self.saver.move(table, move, urgent=True):
                    break
            self.timers.cancel(table.id)
            table.strikes.pop(seat, None)
            await self.carry_on(table, user_id, tell_turn=True)
            return progress(table, (move,))

    async def claim(
        self, table_id: int, user_id: int, seat: int, stamp: tuple[int, int]
    ) -> Progress:
        """A person claims the rest of the deal from their private hand's button drawn at ``stamp``.

        Checked again under the lock, from their view as it is now
        (ClaimRefusedError when an unseen card could still take a trick); the deal is
        then played out as the plays the claim stands for (:meth:`_claim`).
        """
        table = await self.restorer.fetch(table_id)
        async with table.lock:
            await self.saver.bring_in_step(table)
            table.check_human_action(user_id, seat, stamp, on_turn=False)
            if not self.claims(seat_view(table.require_game(), seat)):
                raise ClaimRefusedError(
                    "Your cards can't be sure of every trick left: an unseen card could "
                    "still take one. Play on."
                )
            moves = await self._claim(table, seat, by=user_id)
            self.timers.cancel(table.id)
            table.strikes.pop(seat, None)
            await self.carry_on(table, user_id, tell_turn=True)
            return progress(table, moves)

    async def _claim(self, table: Table, seat: int, *, by: int | None) -> list[Move]:
        """Play out the deal as ``seat``'s claim (the lock held, the claim checked): the moves.

        The claimer's cards go from the highest; a person's seat plays its lowest legal
        card, a computer's seat what its computer chooses (searched in the pool). Each
        play is saved as any move is, marked as the claim's, and :class:`ClaimMade`
        follows the last, so the table shows the claim once. ``by``: the person
        claiming (None: a computer).
        """
        view = seat_view(table.require_game(), seat)
        tricks = view.rules.hand_size - len(view.tricks)
        plays = await self.thinking.claim(table, seat, by_person=by is not None)
        table.claim = Claim(seat, tricks)
        moves: list[Move] = []
        try:
            for turn, action in plays:
                move = table.apply(turn, action, by_computer=table.is_computer(turn), claimed=True)
                if not await self.saver.move(table, move, urgent=by is not None, claimed=True):
                    break  # the table was reloaded: the store's game stands
                moves.append(move)
        finally:
            if not moves:
                table.claim = None
        if len(moves) == len(plays):
            last = "the last trick" if tricks == 1 else f"the last {tricks} tricks"
            said = f"{table.name(seat)} claims {last}"
            self.saver.events.emit(
                ClaimMade(await self.saver.snapshot(table), "claim", said, seat, tricks, by)
            )
        return moves

    def _claims_now(self, table: Table, seat: int) -> bool:
        """Whether the computer of ``seat``, on its turn, claims the rest instead of playing."""
        view = seat_view(table.require_game(), seat)
        return view.phase == "play" and view.my_turn and self.claims(view)

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
        table = self.registry.get_any(table_id)
        self.computing[table.id] = self.computing.get(table.id, 0) + 1
        if table.computer_to_act() is None:
            self._done_computing(table)
            if table.is_open:
                async with table.lock:
                    await self._turn_passed(table, requested_by, 0)
            return progress(table, ())
        return progress(table, await self._play_on(table, requested_by))

    async def carry_on(self, table: Table, requested_by: int | None, *, tell_turn: bool) -> None:
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
                thought = self.thinking.start(table)  # searches while the delay runs
                began = self.thinking.now()
                try:
                    await self.pace(table, delay)
                    waited = max(delay, self.thinking.now() - began)
                    async with table.lock:
                        await self.saver.bring_in_step(table)
                        seat = table.computer_to_act()
                        if seat is None or self.halting:
                            break
                        if self._claims_now(table, seat):
                            moves.extend(await self._claim(table, seat, by=None))
                        else:
                            move = await self.thinking.move(table, thought, delay=waited)
                            if not await self.saver.move(table, move, urgent=False):
                                continue
                            moves.append(move)
                        if table.computer_to_act() is None and table.is_open:
                            await self._turn_passed(table, requested_by, len(moves))
                finally:
                    if thought is not None:
                        thought.drop()
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

        They are mentioned (:class:`PingDue`) unless they act first, after the wait of
        their server's ``ping_after`` within their own ``pings`` (at once for 0), counted
        from now: the moment the table shows their turn. Never when they made the
        request, a computer plays their seat, or the server or they want no mention.
        A forced card of theirs may play itself (:meth:`_forced_card`).
        """
        self.timers.cancel(table.id)
        await self._forced_card(table)
        user_id = _newly_theirs(table)
        turn = None if table.game is None else table.game.turn
        if user_id is None or turn is None:
            return
        seat = table.seats[turn]
        ping_in = None
        if user_id != requested_by and seat is not None and not seat.away:
            prefs = await self.timers.preferences_of(user_id)
            ping_in = prefs.ping_delay(table.settings.ping_after)
        name = table.name(turn)
        said = f"{name} is to act"
        now = await self.saver.snapshot(table)
        self.saver.events.emit(
            TurnPassed(now, "turn", said, user_id, ping_in, requested_by, computer_moves)
        )
        if ping_in is None:
            return

        async def due() -> None:
            ping = PingDue(
                await self.saver.snapshot(table), "ping", f"{name} is mentioned", user_id
            )
            self.saver.events.emit(ping)

        if ping_in > 0:
            self.timers.at_turn(table, user_id, ping_in, due, name="ping")
        else:
            await due()

    async def _forced_card(self, table: Table) -> None:
        """Start the card that plays itself, if the person to act has only one (the lock held).

        With their ``play_forced_card`` preference, their only legal card is played for
        them :data:`FORCED_CARD_DELAY` seconds from now, unless they play it first (their
        move cancels it, and a turn moved on by then is left alone).
        """
        user_id = person_to_act(table)  # a person playing their own seat
        game = table.game
        if user_id is None or game is None or game.turn is None:
            return
        seat = game.turn
        prefs = await self.timers.preferences_of(user_id)
        if not prefs.play_forced_card:
            return
        action = forced_play(table.view_for(user_id)[1].legal)
        if action is None:
            return

        async def play() -> None:
            move = table.apply(seat, action)
            if not await self.saver.move(table, move, urgent=True):
                return  # the table was reloaded: its stored turn is what counts
            self.timers.cancel(table.id)
            table.strikes.pop(seat, None)
            await self.carry_on(table, None, tell_turn=True)

        self.timers.at_turn(table, user_id, FORCED_CARD_DELAY, play, name="forced card")

    async def hint(self, table_id: int, user_id: int) -> tuple[SeatView, Advice]:
        """The expert's advice for the user's turn, in a casual game whose server allows hints.

        The search runs in the search pool (other tables' clicks are answered meanwhile);
        the table then remembers that a hint was used, which keeps its game casual.
        """
        table = await self.restorer.fetch_in_step(table_id)  # the hint is for the game as stored
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
        advice = await self.thinking.advice(table, seat, HINT_LEVEL)
        async with table.lock:
            await self.saver.bring_in_step(table)
            table.require_open()
            if not table.hinted:
                try:
                    await self.saver.store.update_table(table.id, hinted=True)
                except Exception as exc:
                    raise self.saver.failed(f"table {table.id}: noting a hint", table, exc) from exc
                table.hinted = True
                await self.saver.tell(
                    table, "hint", f"{table.name(seat)} asked for a hint: the game is casual"
                )
        return view, advice


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
