"""The table service: a registry of tables, each owning its game.

:class:`TableService` is the :class:`~bot.tables.registry.Registry` of the process's
tables (by id, by place, by person; the recently closed ones too) that also makes them:
it opens a table (:meth:`TableService.open`, and a finished game's players dealing
another, :meth:`TableService.play_again`), takes the open ones in from the store at
start-up (:meth:`TableService.restore`) and stops every table's computers when the
process stops (:meth:`TableService.halt`, :meth:`TableService.settle`).

Everything else is the table's own: callers look a
:class:`~bot.tables.live.LiveTable` up and talk to it (``table.turns.act(...)``,
``table.lobby.join(...)``, ``table.absence.take_back(...)``), each change made under its
lock: check, apply, save, then answer. A change the store cannot save is taken back and
refused with :class:`~bot.tables.errors.SaveFailedError`; one it may have saved (no
answer came) leaves the table out of step, reloaded before its next change. What the
tables share (the store, the event bus, the search, the clock, the computers' pace) is
one :class:`~bot.tables.crew.Crew`, built here.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Sequence

from bot.rules import HouseRules
from bot.search_pool import SearchPool
from bot.server.preference_sources import MemoryPreferences, PreferenceSource
from bot.server.settings import ServerSettings
from bot.server.sources import FixedSettings, SettingsSource

from .computers import ClaimCheck, PlayerFactory, no_claims
from .crew import Crew
from .errors import NotSeatedError, TableExistsError, WrongStageError
from .events import EventBus, Listener
from .live import LiveTable
from .ownership import Ownership
from .persistence import NewTable, Place, TableStore
from .progress import Progress
from .registry import Registry
from .restoring import Restorer
from .saver import OPEN_UNSURE, SAVE_FAILED, SAVE_UNSURE, Saver
from .scheduler import LoopScheduler, Scheduler
from .seats import Player, Seat
from .snapshots import Snapshots
from .thinking import Thinking

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


class TableService(Registry):
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
        crew its own, so the process keeps one clock). ``claims`` says whether a
        seat's own cards take every trick left, from its view (default: nobody claims).

        ``keep_closed`` finished or aborted tables stay known, so their buttons answer
        sensibly and "Play again" works. ``ownership``: the servers this process serves
        (default: all, with no other process to wait for). ``computer_move_delay``: seconds
        before each computer move, where a server sets none of its own. ``play_on``: after
        a request the computers play their turns on their own (False: only when a test
        calls ``table.turns.run_computers``, stepping a game by hand).

        The computers search in ``pool`` (default: threads of this process); a move
        whose search is not back ``search_grace`` seconds after the computer delay is
        basic's (None: every search is waited for).
        """
        super().__init__(
            store, ownership if ownership is not None else Ownership(), keep_closed=keep_closed
        )
        self.computers = computers
        self.server_settings: SettingsSource = server_settings or FixedSettings()
        self.seeds = seeds
        self.events = EventBus()
        self.listeners: list[Listener] = self.events.listeners
        """Who hears every :class:`~bot.tables.events.TableEvent` (append to listen)."""
        self.pool = pool if pool is not None else SearchPool(0)
        snapshots = Snapshots(lambda user_id: self.crew.preferences_of(user_id), claims)
        self.crew = Crew(
            Saver(store, self.close, self.events, snapshots),
            Thinking(self.pool, computers, grace=search_grace),
            claims,
            scheduler if scheduler is not None else LoopScheduler(),
            preferences if preferences is not None else MemoryPreferences(),
            self.server_settings,
            computer_move_delay,
            play_on=play_on,
        )
        self.restorer = Restorer(self, self.crew)

    # ------------------------------------------------------------------ making tables

    async def open(
        self,
        place: Place,
        host: Player,
        *,
        rules: HouseRules | None = None,
        seats: Sequence[Seat | None] | None = None,
        rules_overridden: bool = False,
    ) -> LiveTable:
        """Open a lobby in ``place``, the host in the first seat (or the seats given).

        ``rules`` default to the server's, copied now: later changes never reach it.
        ``rules_overridden``: the host chose other rules than the server's.
        """
        async with self.opening:
            existing = self.at(place.id)
            if existing is not None:
                raise TableExistsError.of(existing.id, existing.number)
            await self.ownership.claim(place.guild_id)
            settings = await self.server_settings.get(place.guild_id)
            if rules is None:
                rules = settings.rules
            taken = list(seats) if seats is not None else [Seat.human(host)]
            taken += [None] * (rules.players - len(taken))
            seed = self.seeds()
            new = NewTable(place, host.user_id, rules, seed, tuple(taken), rules_overridden)
            try:
                saved = await self.store.create_table(new)
            except Exception as exc:
                return await self.restorer.opening_failed(new, exc)
            table = LiveTable(self.crew, saved.id, new, settings, saved.number)
            self.add(table)
            await self.crew.saver.tell(table, "opened", f"by {host.name}, rules {rules.to_spec()}")
        return table

    async def play_again(self, table_id: int, player: Player) -> LiveTable:
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

    async def restore(self) -> list[LiveTable]:
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
            table = await self.restorer.take_in(row, settings)
            if table is not None:
                restored.append(table)
        for guild in claimed:  # none of its tables came back after all
            if not self.has_open(guild):
                await self.release_if_idle(guild)
        return restored

    # ------------------------------------------------------------------ stopping

    def halt(self) -> None:
        """Stop playing computer turns at every table, for a process that is stopping.

        A computer run ends before its next move (each move made is saved already), and
        the keeper does nothing more; the next process plays the pending turns when it
        resumes the tables.
        """
        self.crew.halting = True

    async def settle(self, timeout: float | None = None) -> int:
        """Wait up to ``timeout`` seconds for the computer runs under way; how many still run."""
        running = self.crew.runs - {asyncio.current_task()}
        if not running:
            return 0
        _, late = await asyncio.wait(running, timeout=timeout)
        return len(late)
