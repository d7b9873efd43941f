"""The computers' thinking, on the search pool: moves, hints and claims.

A searching level (:data:`SEARCHING_LEVELS`) decides in the bot's search pool
(``bot.search_pool``), never in the event loop. A computer's move starts to search
as its turn begins, while the table waits its computer delay, so the delay hides
the search; if the search is not back ``grace`` seconds after the delay (the
workers are all busy, or one died), basic plays the seat's move instead and the
table goes on: a table never stalls on a search. A hint and a person's claim wait
for their search, at their own priority.

The jobs are the module-level functions below, handed a copy of the game: a
worker process gets it pickled (as its record, replayed there), a thread its own
copy, so the table's game can move on meanwhile.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from bot.rules import Action, Game, SeatView, seat_view
from bot.rules.claims import claim_plays
from bot.search_pool import Priority, SearchPool

from .computers import Advice, AdvisingPlayer, PlayerFactory, decision_seed
from .errors import HintsOffError
from .table import Move, Table

__all__ = [
    "FALLBACK_LEVEL",
    "SEARCHING_LEVELS",
    "ClaimChooser",
    "Thinking",
    "Thought",
    "advise_at",
    "choose_at",
]

log = logging.getLogger(__name__)

SEARCHING_LEVELS = frozenset({"expert"})
"""Computer levels slow enough (tenths of a second) to decide in the search pool."""

FALLBACK_LEVEL: Final = "basic"
"""The level whose move a computer plays when its search is not back in time."""


def choose_at(players: PlayerFactory, level: str, seed: int, game: Game, seat: int) -> Action:
    """The move of ``level`` seeded ``seed`` for ``seat`` of ``game`` (a pool job)."""
    return players(level, seed).choose(seat_view(game, seat))


def advise_at(players: PlayerFactory, level: str, seed: int, game: Game, seat: int) -> Advice:
    """The advice of ``level`` seeded ``seed`` for ``seat`` of ``game`` (a pool job)."""
    advisor = players(level, seed)
    assert isinstance(advisor, AdvisingPlayer)
    return advisor.advise(seat_view(game, seat))


@dataclass(frozen=True, slots=True)
class ClaimChooser:
    """What each seat plays while a claim is played out (``claim_plays``'s chooser).

    A person's seat plays its lowest legal card (None here); a computer's seat what
    its level chooses, seeded as its own move would be.
    """

    players: PlayerFactory
    levels: tuple[str | None, ...]
    """Each seat's computer level; None for a person."""
    table_seed: int
    base: int
    """The game's actions before the claim."""

    def __call__(self, view: SeatView) -> Action | None:
        level = self.levels[view.seat]
        if level is None:
            return None
        played = sum(len(t.cards) for t in view.tricks) + len(view.trick)
        seed = decision_seed(self.table_seed, view.seat, self.base + played)
        return self.players(level, seed).choose(view)


def _claim_at(game: Game, seat: int, chooser: ClaimChooser) -> list[tuple[int, Action]]:
    return claim_plays(game, seat, chooser)


@dataclass(frozen=True, slots=True)
class Thought:
    """A computer's move being searched: for which seat, at which action, since when."""

    seat: int
    index: int
    """The game's actions when the search began (the move is the next one)."""
    started: float
    """When the turn began, on the loop's clock."""
    search: asyncio.Future[Action] | None
    """The search (None: a level that decides at once)."""

    def fits(self, table: Table) -> bool:
        """Whether the table is still where the search began."""
        game = table.game
        return game is not None and game.turn == self.seat and len(game.log) == self.index

    def drop(self) -> None:
        """Stop waiting for the search (the pool takes it back if it has not started)."""
        if self.search is not None:
            self.search.cancel()


class Thinking:
    """The searches of one table service, on ``pool``, by the players ``players`` builds."""

    def __init__(
        self,
        pool: SearchPool,
        players: PlayerFactory,
        *,
        grace: float | None = None,
        clock: Callable[[], float] | None = None,
    ) -> None:
        """Search on ``pool``; a move not back ``grace`` s after its delay falls back to basic.

        ``grace`` None waits for every search (tests: a move must not depend on the
        machine's speed). ``clock`` is the loop's by default.
        """
        self.pool = pool
        self.players = players
        self.grace = grace
        self._clock = clock
        self.fallbacks = 0
        """Moves basic played because the search was late."""

    def now(self) -> float:
        """The thinking's clock (the running loop's by default)."""
        return self._clock() if self._clock is not None else asyncio.get_running_loop().time()

    def start(self, table: Table, *, for_seat: int | None = None) -> Thought | None:
        """Begin the move of the computer to act (or of ``for_seat``), as its turn begins."""
        game = table.game
        seat = table.computer_to_act() if for_seat is None else for_seat
        if game is None or seat is None or game.turn != seat:
            return None
        level = table.computer_level_of(seat)
        search = None
        if level in SEARCHING_LEVELS:
            seed = decision_seed(table.seed, seat, len(game.log))
            priority = Priority.MOVE if table.present else Priority.PLAY
            search = self.pool.submit(
                priority, choose_at, self.players, level, seed, game.copy(), seat
            )
        return Thought(seat, len(game.log), self.now(), search)

    async def move(
        self,
        table: Table,
        thought: Thought | None = None,
        *,
        delay: float = 0.0,
        for_seat: int | None = None,
    ) -> Move:
        """The computer's move at ``table`` (whose lock the caller holds), applied.

        ``thought`` is the search begun as the turn began (:meth:`start`), used if the
        table is still where it began; ``delay`` is the computer delay already waited.
        """
        if thought is None or not thought.fits(table):
            if thought is not None:
                thought.drop()
            thought = self.start(table, for_seat=for_seat)
            delay = 0.0
        assert thought is not None and table.game is not None
        seat = thought.seat
        seed = decision_seed(table.seed, seat, len(table.game.log))
        if thought.search is None:
            action = self.players(table.computer_level_of(seat), seed).choose(
                seat_view(table.game, seat)
            )
        else:
            action = await self._searched(table, thought, delay, seed)
        return table.apply(seat, action, by_computer=True)

    async def _searched(self, table: Table, thought: Thought, delay: float, seed: int) -> Action:
        assert thought.search is not None and table.game is not None
        if self.grace is None:
            return await thought.search
        left = thought.started + delay + self.grace - self.now()
        try:
            return await asyncio.wait_for(thought.search, max(0.0, left))
        except TimeoutError:
            self.fallbacks += 1
            log.warning(
                "table %d: the search of seat %d was late: basic plays its move",
                table.id,
                thought.seat,
            )
            return self.players(FALLBACK_LEVEL, seed).choose(seat_view(table.game, thought.seat))

    async def advice(self, table: Table, seat: int, level: str) -> Advice:
        """The advice of ``level`` for ``seat``'s turn (a hint), searched at hint priority."""
        game = table.require_game()
        seed = decision_seed(table.seed, seat, len(game.log))
        if not isinstance(self.players(level, seed), AdvisingPlayer):
            raise HintsOffError("No hints here: this bot's expert cannot explain its choices.")
        advice: Advice = await self.pool.run(
            Priority.HINT, advise_at, self.players, level, seed, game.copy(), seat
        )
        return advice

    async def claim(self, table: Table, seat: int, *, by_person: bool) -> list[tuple[int, Action]]:
        """The plays ``seat``'s claim stands for (a computer's claim searched as a move)."""
        game = table.require_game()
        levels = tuple(
            table.computer_level_of(s) if table.is_computer(s) else None
            for s in range(len(table.seats))
        )
        chooser = ClaimChooser(self.players, levels, table.seed, len(game.log))
        priority = Priority.CLAIM if by_person else Priority.MOVE
        return await self.pool.run(priority, _claim_at, game.copy(), seat, chooser)
