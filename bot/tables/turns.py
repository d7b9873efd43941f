"""One table's turn loop: the part of a :class:`~bot.tables.live.LiveTable` that plays its game.

A person's action (:meth:`Turns.act`); the computer turns after it
(:meth:`Turns.run_computers`), one lock at a time, so a click that races them is
simply refused as out of turn, and none once a stopping process halts them; a hint on
the person's turn; a forced card that plays itself for a person who wants it; and whom
to mention and how long computers wait, from the table's server's settings.

A computer's move waits its table's computer delay through the crew's
:data:`~bot.tables.crew.ComputerPace`: by default just the delay; the bot's is the delay
and, past it, until the table's channel can show the move at once.
"""

from __future__ import annotations

import asyncio
import logging

from bot.rules import Action, SeatView, seat_view
from bot.server.preferences import FORCED_CARD_DELAY, forced_play

from .computers import HINT_LEVEL, Advice
from .crew import Crew
from .errors import ClaimRefusedError, HintsOffError, NotYourTurnError, TableError
from .events import ClaimMade, PingDue, TurnPassed
from .progress import Progress, progress
from .public import Claim
from .table import Move, Table
from .turn_timers import TurnTimers, person_to_act

__all__ = ["Turns"]

log = logging.getLogger(__name__)


class Turns:
    """One table's moves by people and computers, hints, turn mentions and computers' pace."""

    def __init__(self, table: Table, crew: Crew, timers: TurnTimers) -> None:
        """Play ``table``'s game with ``crew`` (the store, the search, the claim check).

        A person's turn pings them on ``timers``, within their preferences.
        """
        self.table = table
        self.crew = crew
        self.saver = crew.saver
        self.thinking = crew.thinking
        self.timers = timers
        self.computing = 0
        """How many computer runs are playing this table's turns now."""

    async def act(
        self, user_id: int, seat: int, stamp: tuple[int, int], action: Action
    ) -> Progress:
        """A person's action from a private-hand button drawn at ``stamp``.

        The computers' turns it leads to are played in a task of their own
        (:meth:`carry_on`), so the answer goes at once.
        """
        table = self.table
        async with table.lock:
            await self.saver.bring_in_step(table)
            while True:  # again after a reload: the request is checked against the stored game
                table.check_human_action(user_id, seat, stamp)
                move = table.apply(seat, action)
                if await self.saver.move(table, move, urgent=True):
                    break
            self.timers.cancel()
            table.strikes.pop(seat, None)
            await self.carry_on(user_id, tell_turn=True)
            return progress(table, (move,))

    async def claim(self, user_id: int, seat: int, stamp: tuple[int, int]) -> Progress:
        """A person claims the rest of the deal from their private hand's button drawn at ``stamp``.

        Checked again under the lock, from their view as it is now
        (ClaimRefusedError when an unseen card could still take a trick); the deal is
        then played out as the plays the claim stands for (:meth:`_claim`).
        """
        table = self.table
        async with table.lock:
            await self.saver.bring_in_step(table)
            table.check_human_action(user_id, seat, stamp, on_turn=False)
            if not self.crew.claims(seat_view(table.require_game(), seat)):
                raise ClaimRefusedError(
                    "Your cards can't be sure of every trick left: an unseen card could "
                    "still take one. Play on."
                )
            moves = await self._claim(seat, by=user_id)
            self.timers.cancel()
            table.strikes.pop(seat, None)
            await self.carry_on(user_id, tell_turn=True)
            return progress(table, moves)

    async def _claim(self, seat: int, *, by: int | None) -> list[Move]:
        """Play out the deal as ``seat``'s claim (the lock held, the claim checked): the moves.

        The claimer's cards go from the highest; a person's seat plays its lowest legal
        card, a computer's seat what its computer chooses (searched in the pool). Each
        play is saved as any move is, marked as the claim's, and :class:`ClaimMade`
        follows the last, so the table shows the claim once. ``by``: the person
        claiming (None: a computer).
        """
        table = self.table
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

    def _claims_now(self, seat: int) -> bool:
        """Whether the computer of ``seat``, on its turn, claims the rest instead of playing."""
        view = seat_view(self.table.require_game(), seat)
        return view.phase == "play" and view.my_turn and self.crew.claims(view)

    def running(self) -> bool:
        """Whether the computers' turns are being played now (a resume would run them twice)."""
        return self.computing > 0

    def computer_waits(self) -> bool:
        """Whether the turn rests with a computer: a restored table's, before :meth:`resume`."""
        return self.table.computer_to_act() is not None

    async def resume(self) -> Progress:
        """Play the computer turns a restored (or stalled) table has pending, and wait for them."""
        return await self.run_computers()

    async def run_computers(self, *, requested_by: int | None = None) -> Progress:
        """Play computer turns until a person must act or the game ends, and wait for them.

        Each move waits the table's computer delay first, outside the lock; when the turn
        rests with a person, :class:`~bot.tables.events.TurnPassed` tells whom (after the
        request of ``requested_by``). The table counts as :attr:`computing` from the call
        on. A table out of step with the store is reloaded before any computer plays
        (SaveFailedError if the store cannot be read). A halted crew makes no further move.
        """
        table = self.table
        self.computing += 1
        if table.computer_to_act() is None:
            self.computing -= 1
            if table.is_open:
                async with table.lock:
                    await self._turn_passed(requested_by, 0)
            return progress(table, ())
        return progress(table, await self._play_on(requested_by))

    async def carry_on(self, requested_by: int | None, *, tell_turn: bool) -> None:
        """After a request (the table's lock held): the computers play on, or a person is told.

        A computer to act: its turns are played in a task of their own (counted as
        :attr:`computing` at once, so the keeper never starts another run). Otherwise,
        with ``tell_turn``, the person to act is told (:class:`TurnPassed`).
        """
        table = self.table
        if table.computer_to_act() is not None:
            crew = self.crew
            if not crew.play_on or crew.halting:
                return
            self.computing += 1
            task = asyncio.get_running_loop().create_task(
                self._play_on_logged(requested_by), name=f"table {table.id} computers"
            )
            crew.runs.add(task)
            task.add_done_callback(crew.runs.discard)
        elif tell_turn:
            await self._turn_passed(requested_by, 0)

    async def _play_on_logged(self, requested_by: int | None) -> None:
        try:
            await self._play_on(requested_by)
        except TableError as exc:
            log.info("table %d: the computers' turns stopped: %s", self.table.id, exc)
        except Exception:
            log.exception("table %d: the computers' turns failed", self.table.id)

    async def _play_on(self, requested_by: int | None) -> list[Move]:
        """The computers' run (counted in :attr:`computing` by the caller): the moves made."""
        table, crew = self.table, self.crew
        moves: list[Move] = []
        try:
            delay = table.computer_move_delay
            while table.computer_to_act() is not None and not crew.halting:
                thought = self.thinking.start(table)  # searches while the delay runs
                began = self.thinking.now()
                try:
                    await crew.computer_pace(table, delay)
                    waited = max(delay, self.thinking.now() - began)
                    async with table.lock:
                        await self.saver.bring_in_step(table)
                        seat = table.computer_to_act()
                        if seat is None or crew.halting:
                            break
                        if self._claims_now(seat):
                            moves.extend(await self._claim(seat, by=None))
                        else:
                            move = await self.thinking.move(table, thought, delay=waited)
                            if not await self.saver.move(table, move, urgent=False):
                                continue
                            moves.append(move)
                        if table.computer_to_act() is None and table.is_open:
                            await self._turn_passed(requested_by, len(moves))
                finally:
                    if thought is not None:
                        thought.drop()
        finally:
            self.computing -= 1
        return moves

    async def _turn_passed(self, requested_by: int | None, computer_moves: int) -> None:
        """Tell whom the turn rests with, if it just became a person's (the lock held).

        They are mentioned (:class:`PingDue`) unless they act first, after the wait of
        their server's ``ping_after`` within their own ``pings`` (at once for 0), counted
        from now: the moment the table shows their turn. Never when they made the
        request, a computer plays their seat, or the server or they want no mention.
        A forced card of theirs may play itself (:meth:`_forced_card`).
        """
        table = self.table
        self.timers.cancel()
        await self._forced_card()
        user_id = _newly_theirs(table)
        turn = None if table.game is None else table.game.turn
        if user_id is None or turn is None:
            return
        seat = table.seats[turn]
        ping_in = None
        if user_id != requested_by and seat is not None and not seat.away:
            prefs = await self.crew.preferences_of(user_id)
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
            self.timers.at_turn(user_id, ping_in, due, name="ping")
        else:
            await due()

    async def _forced_card(self) -> None:
        """Start the card that plays itself, if the person to act has only one (the lock held).

        With their ``play_forced_card`` preference, their only legal card is played for
        them :data:`FORCED_CARD_DELAY` seconds from now, unless they play it first (their
        move cancels it, and a turn moved on by then is left alone).
        """
        table = self.table
        user_id = person_to_act(table)  # a person playing their own seat
        game = table.game
        if user_id is None or game is None or game.turn is None:
            return
        seat = game.turn
        prefs = await self.crew.preferences_of(user_id)
        if not prefs.play_forced_card:
            return
        action = forced_play(table.view_for(user_id)[1].legal)
        if action is None:
            return

        async def play() -> None:
            move = table.apply(seat, action)
            if not await self.saver.move(table, move, urgent=True):
                return  # the table was reloaded: its stored turn is what counts
            self.timers.cancel()
            table.strikes.pop(seat, None)
            await self.carry_on(None, tell_turn=True)

        self.timers.at_turn(user_id, FORCED_CARD_DELAY, play, name="forced card")

    async def hint(self, user_id: int) -> tuple[SeatView, Advice]:
        """The expert's advice for the user's turn, in a casual game whose server allows hints.

        The search runs in the search pool (other tables' clicks are answered meanwhile);
        the table then remembers that a hint was used, which keeps its game casual. The
        caller brings the table in step first (:meth:`TableService.fetch_in_step`): the
        hint is for the game as stored.
        """
        table = self.table
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
