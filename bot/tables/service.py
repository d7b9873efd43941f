"""The table service: every open table by id and by place, and every change made to one.

Each change runs under the table's lock: check, apply, save, then answer. A change the
store cannot save is taken back and refused with
:class:`~bot.tables.errors.SaveFailedError`; one it may have saved (no answer came)
leaves the table out of step, reloaded before its next change. :class:`TableService`
builds its pieces once and hands each what it uses:

- a :class:`~bot.tables.registry.Registry` of the open and recently closed tables;
- a :class:`~bot.tables.saver.Saver` that saves under the lock (or undoes) and tells
  the :class:`~bot.tables.events.EventBus`, given to every piece, so every change
  locks and saves the same way;
- :class:`~bot.tables.lobby.Lobby` (opening, seats, start, closing),
  :class:`~bot.tables.turns.Turns` (the turn loop: moves, computers, their pace, hints),
  :class:`~bot.tables.restoring.Restorer` (restarts, tables memory no longer holds) and
  :class:`~bot.tables.absence.Absence` (seats taken over, turns timed out, idle tables).

The service itself only hands each request to its piece: it is what the cogs, the
keeper and the tests use.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence

from bot.rules import Action, HouseRules, SeatView
from bot.search_pool import SearchPool
from bot.server.preference_sources import PreferenceSource
from bot.server.preferences import Preferences
from bot.server.settings import ServerSettings
from bot.server.sources import FixedSettings, SettingsSource

from .absence import Absence
from .computers import Advice, ClaimCheck, PlayerFactory, no_claims
from .events import EventBus, Listener
from .lobby import Lobby
from .ownership import Ownership
from .persistence import Place, TableStore
from .progress import Progress
from .registry import Registry
from .restoring import Restorer
from .saver import OPEN_UNSURE, SAVE_FAILED, SAVE_UNSURE, Saver
from .scheduler import Scheduler
from .seats import Player, Seat
from .snapshots import Snapshots, TableSnapshot
from .table import Table
from .thinking import Thinking
from .turn_timers import TurnTimers
from .turns import ComputerPace, Turns

__all__ = [
    "OPEN_UNSURE",
    "SAVE_FAILED",
    "SAVE_UNSURE",
    "Progress",
    "TableService",
    "random_seed",
]


def random_seed() -> int:
    """A fresh seed for a table's shuffles."""
    return secrets.randbits(31)


class TableService:
    """Every table of the process. Build one at start-up and hand it to the bot."""

    def __init__(
        self,
        store: TableStore,
        computers: PlayerFactory,
        *,
        server_settings: SettingsSource | None = None,
        preferences: PreferenceSource | None = None,
        claims: ClaimCheck = no_claims,
        scheduler: Scheduler | None = None,
        seeds: Callable[[], int] = random_seed,
        keep_closed: int = 256,
        ownership: Ownership | None = None,
        computer_move_delay: float = 0.0,
        play_on: bool = True,
        pool: SearchPool | None = None,
        search_grace: float | None = None,
    ) -> None:
        """Tables saved to ``store``; computer players built by ``computers``.

        Each server's settings come from ``server_settings`` (default: the same for all),
        each person's preferences from ``preferences`` (default: in memory). A turn's
        ping waits on ``scheduler`` (default: the event loop's clock; the bot hands the
        service its own, so the process keeps one clock). ``claims`` says whether a
        seat's own cards take every trick left, from its view (default: nobody claims).

        ``keep_closed`` finished or aborted tables stay known, so their buttons answer
        sensibly and "Play again" works. ``ownership``: the servers this process serves
        (default: all, with no other process to wait for). ``computer_move_delay``: seconds
        before each computer move, where a server sets none of its own. ``play_on``: after
        a request the computers play their turns on their own (False: only when
        :meth:`run_computers` is called, for a test that steps a game by hand).

        The computers search in ``pool`` (default: threads of this process); a move
        whose search is not back ``search_grace`` seconds after the computer delay is
        basic's (None: every search is waited for).
        """
        self.store = store
        self.ownership = ownership if ownership is not None else Ownership()
        self.computers = computers
        self.server_settings: SettingsSource = server_settings or FixedSettings()
        self.computer_move_delay = computer_move_delay
        self.events = EventBus()
        self.registry = Registry(self.ownership, keep_closed=keep_closed)
        self.timers = TurnTimers(scheduler, preferences)
        self.snapshots = Snapshots(self.timers.preferences_of, claims)
        self.saver = Saver(store, self.registry, self.events, self.snapshots)
        self.restorer = Restorer(
            self.registry,
            self.saver,
            self.server_settings,
            computer_move_delay=computer_move_delay,
        )
        self.pool = pool if pool is not None else SearchPool(0)
        self.thinking = Thinking(self.pool, computers, grace=search_grace)
        self.turns = Turns(
            self.registry,
            self.saver,
            self.restorer,
            computers,
            self.timers,
            self.thinking,
            claims=claims,
            play_on=play_on,
        )
        self.absence = Absence(self.registry, self.saver, self.restorer, self.turns)
        self.lobby = Lobby(
            self.registry,
            self.saver,
            self.restorer,
            self.turns,
            self.absence,
            self.server_settings,
            seeds=seeds,
            computer_move_delay=computer_move_delay,
        )

    # ------------------------------------------------------------------ what it holds

    @property
    def listeners(self) -> list[Listener]:
        """Who hears every :class:`~bot.tables.events.TableEvent` (append to listen)."""
        return self.events.listeners

    @property
    def computing(self) -> dict[int, int]:
        """Tables whose computer turns are being played now (how many runs each)."""
        return self.turns.computing

    @property
    def halting(self) -> bool:
        """Set by :meth:`halt`: computers make no further moves in this process."""
        return self.turns.halting

    @property
    def scheduler(self) -> Scheduler:
        """The clock a turn's timed calls (its ping) wait on."""
        return self.timers.scheduler

    @scheduler.setter
    def scheduler(self, scheduler: Scheduler) -> None:
        self.timers.scheduler = scheduler

    @property
    def computer_pace(self) -> ComputerPace:
        """How a computer's move waits its delay (default: the delay alone)."""
        return self.turns.pace

    @computer_pace.setter
    def computer_pace(self, pace: ComputerPace) -> None:
        self.turns.pace = pace

    @property
    def preferences(self) -> PreferenceSource:
        """Where each person's preferences are read."""
        return self.timers.preferences

    @preferences.setter
    def preferences(self, preferences: PreferenceSource) -> None:
        self.timers.preferences = preferences

    async def preferences_of(self, user_id: int) -> Preferences:
        """A person's preferences; the defaults when they can't be read (logged)."""
        return await self.timers.preferences_of(user_id)

    @property
    def play_on(self) -> bool:
        """After a request the computers play their turns on their own."""
        return self.turns.play_on

    @property
    def open_tables(self) -> list[Table]:
        """Every table in its lobby or playing."""
        return self.registry.open_tables

    async def settings_of(self, guild_id: int) -> ServerSettings:
        """The settings of a server."""
        return await self.server_settings.get(guild_id)

    async def snapshot(self, table: Table) -> TableSnapshot:
        """``table`` as it is now, frozen, as an event would carry it (to answer a click)."""
        return await self.snapshots.of(table)

    def get(self, table_id: int) -> Table:
        """An open table; TableClosedError or NoTableError otherwise."""
        return self.registry.get(table_id)

    def get_any(self, table_id: int) -> Table:
        """An open table, or a recently closed one."""
        return self.registry.get_any(table_id)

    def at(self, place_id: int) -> Table | None:
        """The open table of a channel or thread."""
        return self.registry.at(place_id)

    def tables_of(self, user_id: int) -> list[Table]:
        """The open tables where a user sits."""
        return self.registry.tables_of(user_id)

    def find(self, place_id: int, user_id: int) -> Table:
        """The table of this place, else the only table the user sits at."""
        return self.registry.find(place_id, user_id)

    async def fetch(self, table_id: int, *, closed: bool = False) -> Table:
        """The table of a button (open, or recently closed too); refused as the store has it."""
        return await self.restorer.fetch(table_id, closed=closed)

    async def fetch_in_step(self, table_id: int) -> Table:
        """The open table of a button, reloaded first where it is out of step with the store."""
        return await self.restorer.fetch_in_step(table_id)

    # ------------------------------------------------------------------ the lobby

    async def open(
        self,
        place: Place,
        host: Player,
        *,
        rules: HouseRules | None = None,
        seats: Sequence[Seat | None] | None = None,
        rules_overridden: bool = False,
    ) -> Table:
        """Open a lobby in ``place`` (:meth:`Lobby.open`)."""
        return await self.lobby.open(
            place, host, rules=rules, seats=seats, rules_overridden=rules_overridden
        )

    async def set_message(self, table: Table | int, message_id: int) -> None:
        """Remember the table's public message (a failed save is only logged)."""
        if isinstance(table, int):
            table = self.registry.get_any(table)
        await self.lobby.set_message(table, message_id)

    async def join(self, table_id: int, player: Player, seat: int | None = None) -> Table:
        """Seat a person, or during a game let a member take over a computer's seat."""
        return await self.lobby.join(table_id, player, seat)

    async def add_computer(self, table_id: int, by: int, seat: int | None = None) -> Table:
        """The host seats a computer player, where the server allows them."""
        return await self.lobby.add_computer(table_id, by, seat)

    async def set_computer_level(self, table_id: int, by: int, level: str) -> Table:
        """The host chooses how well the table's computers play."""
        return await self.lobby.set_computer_level(table_id, by, level)

    async def leave(self, table_id: int, user_id: int) -> Table:
        """A person leaves: their seat is freed, or taken over by a computer in a game."""
        return await self.lobby.leave(table_id, user_id)

    async def start(self, table_id: int, by: int) -> Progress:
        """The host starts the game: the cards are dealt."""
        return await self.lobby.start(table_id, by)

    async def abort(self, table_id: int, by: int, *, may_manage: bool = False) -> Table:
        """Close a table: its host, or a member who may manage the server."""
        return await self.lobby.abort(table_id, by, may_manage=may_manage)

    async def stop(self, table_id: int, by: int, reason: str) -> Table:
        """Close a table before its end, its finished deals archived (never rated)."""
        return await self.lobby.stop(table_id, by, reason)

    async def play_again(self, table_id: int, player: Player) -> Table:
        """A new lobby in the same place with the same seats and rules; the clicker hosts."""
        return await self.lobby.play_again(table_id, player)

    # ------------------------------------------------------------------ the turns

    def hand(self, table_id: int, user_id: int) -> tuple[int, SeatView]:
        """A seated person's seat and view of the game."""
        return self.turns.hand(table_id, user_id)

    async def act(
        self, table_id: int, user_id: int, seat: int, stamp: tuple[int, int], action: Action
    ) -> Progress:
        """A person's action from a private-hand button drawn at ``stamp`` (:meth:`Turns.act`)."""
        return await self.turns.act(table_id, user_id, seat, stamp, action)

    async def claim(
        self, table_id: int, user_id: int, seat: int, stamp: tuple[int, int]
    ) -> Progress:
        """A person claims the rest of the deal from a button drawn at ``stamp``.

        See :meth:`Turns.claim`.
        """
        return await self.turns.claim(table_id, user_id, seat, stamp)

    def halt(self) -> None:
        """Stop playing computer turns, for a process that is stopping (:meth:`Turns.halt`)."""
        self.turns.halt()

    async def settle(self, timeout: float | None = None) -> int:
        """Wait up to ``timeout`` seconds for the computer runs under way; how many still run."""
        return await self.turns.settle(timeout)

    async def resume(self, table_id: int) -> Progress:
        """Play the computer turns a restored (or stalled) table has pending, and wait for them."""
        return await self.turns.resume(table_id)

    async def run_computers(self, table_id: int, *, requested_by: int | None = None) -> Progress:
        """Play computer turns until a person must act or the game ends, and wait for them."""
        return await self.turns.run_computers(table_id, requested_by=requested_by)

    async def hint(self, table_id: int, user_id: int) -> tuple[SeatView, Advice]:
        """The expert's advice for the user's turn (:meth:`Turns.hint`)."""
        return await self.turns.hint(table_id, user_id)

    # ------------------------------------------------------------------ restarts

    async def reload(self, table_id: int) -> Table:
        """Bring a table out of step with the store back in step now (else nothing happens)."""
        return await self.restorer.reload(table_id)

    async def restore(self) -> list[Table]:
        """Load every open table of this process's servers (at start-up)."""
        return await self.restorer.restore()

    # ------------------------------------------------------------------ absent players

    async def take_back(self, table_id: int, user_id: int) -> Table:
        """A person whose seat a computer plays (turns timed out) plays it again."""
        return await self.absence.take_back(table_id, user_id)

    async def time_out(
        self, table_id: int, seat: int, stamp: tuple[int, int]
    ) -> tuple[Progress, bool] | None:
        """A person let their turn run out: a computer plays it (:meth:`Absence.time_out`)."""
        return await self.absence.time_out(table_id, seat, stamp)

    async def close_idle(self, table_id: int, idle_since: float, now: float) -> Table | None:
        """Close a table nobody touched since ``idle_since``: None if it was closed already."""
        return await self.absence.close_idle(table_id, idle_since, now)

    async def close_gone(self, table_id: int, where: str) -> Table | None:
        """Close a table whose channel or thread was deleted, as an abort does."""
        return await self.absence.close_gone(table_id, where)
