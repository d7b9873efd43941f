"""The champions' role for a set time: given when an event finishes, taken back when it ends.

The change that finishes an event notes in the store the role each champion is to hold
and until when (:func:`bot.tournaments.champion_roles`). :class:`ChampionRoles`
then gives each role through the injected :class:`RoleHands` (the UI's Discord side)
and times its removal on the scheduler. A role that cannot be given or taken back (a
permission missing, the role deleted, the member gone) is one :class:`RoleRefusedError`
sentence, told once to the event's channel through :attr:`ChampionRoles.listeners`,
and forgotten; the event is finished all the same. After a restart, :meth:`resume`
gives what was not given yet, takes back at once what fell due while the bot was down,
and times the rest. Nothing here knows Discord.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Final, Literal, Protocol

from bot.tables.scheduler import Scheduler, Timer
from bot.tournaments.model import ChampionRole
from bot.tournaments.repository import TournamentRepo

from .running import EventChanged, tell_each, utc_now

__all__ = ["ChampionRoles", "RoleHands", "RoleNotice", "RoleRefusedError"]

log = logging.getLogger(__name__)

RETRY_SECONDS: Final = 600.0
"""A role Discord could not be reached about is tried again this much later."""


class RoleRefusedError(Exception):
    """Discord won't give (or take back) a role: the message is one sentence for the server."""


class RoleHands(Protocol):
    """Who gives and takes back roles (the UI's Discord side)."""

    async def give(self, role: ChampionRole) -> None:
        """Give the role to its champion; RoleRefusedError when that can't be done."""
        ...

    async def take(self, role: ChampionRole) -> None:
        """Take the role back; RoleRefusedError when that can't be done."""
        ...


@dataclass(frozen=True, slots=True)
class RoleNotice:
    """What became of a champion's role: given, taken back, or refused (``text`` says why)."""

    role: ChampionRole
    kind: Literal["given", "taken", "refused"]
    text: str = ""


class ChampionRoles:
    """Every champion role of this process's servers, given, timed and taken back."""

    def __init__(
        self,
        repo: TournamentRepo,
        scheduler: Scheduler,
        hands: RoleHands,
        *,
        clock: Callable[[], datetime] = utc_now,
    ) -> None:
        """Roles noted in ``repo``, given and taken by ``hands``, timed on ``scheduler``."""
        self.repo = repo
        self.scheduler = scheduler
        self.hands = hands
        self.clock = clock
        self.listeners: list[Callable[[RoleNotice], None]] = []
        self._timers: dict[tuple[int, int], Timer] = {}
        self._lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()

    def on_event_change(self, change: EventChanged) -> None:
        """A tournament runner listener: a finished event's champions get their role."""
        event = change.event
        if change.kind != "finished" or event.settings.champion_role_id is None:
            return
        if event.id is None:
            return
        task = asyncio.get_running_loop().create_task(self._crown_logged(event.id, event.guild_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _crown_logged(self, event_id: int, guild_id: int) -> None:
        try:
            await self.crown(event_id, guild_id)
        except Exception:
            log.exception("event %d: its champion roles could not be given", event_id)

    async def crown(self, event_id: int, guild_id: int) -> None:
        """Give the roles a finished event noted, and time their removal."""
        roles = await self.repo.champion_roles([guild_id])
        for role in roles:
            if role.tournament_id == event_id:
                await self._keep(role)

    async def resume(self, guild_filter: Callable[[int], bool] | None = None) -> int:
        """Go on with every role noted (of the servers ``guild_filter`` accepts); how many."""
        kept = 0
        for role in await self.repo.champion_roles():
            if guild_filter is None or guild_filter(role.guild_id):
                try:
                    await self._keep(role)
                except Exception:
                    log.exception("event %d: a champion role was not resumed", role.tournament_id)
                    continue
                kept += 1
        return kept

    def close(self) -> None:
        """Stop every timer (the bot stops); the roles stay noted."""
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()

    async def settle(self) -> None:
        """Wait for the roles being given (tests, and a stopping bot)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    @property
    def timed(self) -> list[tuple[int, int]]:
        """The (event, member) roles whose removal is timed."""
        return sorted(self._timers)

    # ------------------------------------------------------------------ giving and taking

    async def _keep(self, role: ChampionRole) -> None:
        """Give the role if not given yet, then take it back now or time it."""
        key = (role.tournament_id, role.user_id)
        async with self._lock:
            if key in self._timers:
                return
            if role.expires_at <= self.clock():
                if role.given:
                    await self._take(role)
                else:  # its time ran out before it could be given
                    await self.repo.champion_role_done(*key)
                return
            if not role.given:
                try:
                    await self.hands.give(role)
                except RoleRefusedError as refusal:
                    await self.repo.champion_role_done(*key)
                    self._emit(RoleNotice(role, "refused", str(refusal)))
                    return
                except Exception:
                    log.exception("event %d: role not given, tried again later", key[0])
                    self._time(role, RETRY_SECONDS)
                    return
                await self.repo.champion_role_given(*key)
                role = role.model_copy(update={"given": True})
                self._emit(RoleNotice(role, "given"))
            self._time(role, (role.expires_at - self.clock()).total_seconds())

    def _time(self, role: ChampionRole, delay: float) -> None:
        key = (role.tournament_id, role.user_id)

        async def due() -> None:
            self._timers.pop(key, None)
            await self._keep(role)

        self._timers[key] = self.scheduler.call_later(
            max(0.0, delay), due, name=f"event {key[0]} champion role of {key[1]}"
        )

    async def _take(self, role: ChampionRole) -> None:
        key = (role.tournament_id, role.user_id)
        try:
            await self.hands.take(role)
        except RoleRefusedError as refusal:
            self._emit(RoleNotice(role, "refused", str(refusal)))
        except Exception:
            log.exception("event %d: role not taken back, tried again later", key[0])
            self._time(role, RETRY_SECONDS)
            return
        else:
            self._emit(RoleNotice(role, "taken"))
        await self.repo.champion_role_done(*key)

    def _emit(self, notice: RoleNotice) -> None:
        tell_each(self.listeners, notice, log, f"champion role listener failed on {notice.kind}")
