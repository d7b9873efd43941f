"""Playing the daily deal: a person's start, moves and result, kept in the store as they go.

The deal is replayed from the person's stored actions at every step (the computers
play at a fixed number of samples, so the replay is the same in every process and
after a restart). The search runs in the search pool, at the priority of a person
playing against the computers. Par is computed once per
server and day: the first process to store it wins, the others read it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from bot.daily.repository import DailyPlay, DailyRepo
from bot.errors import UserFacingError
from bot.players.protocol import Player, make_player
from bot.rules import Action, ActionError, HouseRules, SeatView
from bot.rules.game import Game
from bot.search_pool import Priority, SearchPool
from bot.store.database import Database

from .deal import DailyDeal, Experts, daily_day, daily_seed, deal_result, par_of, play_to_person

__all__ = [
    "DailyService",
    "DailyStep",
    "StaleDailyError",
    "daily_rules",
    "fixed_expert",
    "streak",
]

Clock = Callable[[], datetime]


def fixed_expert(seat: int, seed: int) -> Player:
    """The expert at a fixed number of samples: the same moves in every process."""
    return make_player("expert", seed, budget=None)


def daily_rules(rules: HouseRules) -> HouseRules:
    """The server's rules when four play euchre; the standard rules otherwise."""
    if rules.game == "euchre" and rules.players == 4:
        return rules
    return HouseRules()


def streak(days: Sequence[date], today: date) -> int:
    """Consecutive days played up to ``today`` (or up to yesterday, if today is not yet)."""
    played = set(days)
    day = today if today in played else today - timedelta(days=1)
    count = 0
    while day in played:
        count += 1
        day -= timedelta(days=1)
    return count


class StaleDailyError(UserFacingError):
    """A button of an earlier step (or another day) of the daily deal."""


@dataclass(frozen=True, slots=True)
class DailyStep:
    """Where a person's daily deal stands."""

    day: date
    deal: DailyDeal
    actions: tuple[Action, ...]
    game: Game
    view: SeatView | None
    """The person's view when it is their turn; None once the deal is over."""
    points: int | None = None
    par: int | None = None

    @property
    def index(self) -> int:
        """How many actions the person has taken (the next button's number)."""
        return len(self.actions)


class DailyService:
    """Start, play and rank the daily deal of every server, kept in ``db``."""

    def __init__(
        self,
        db: Database,
        *,
        experts: Experts = fixed_expert,
        clock: Clock | None = None,
        pool: SearchPool | None = None,
    ) -> None:
        """Work on ``db``; the computers are ``experts``; ``clock`` tells the time (UTC).

        The computers search in ``pool`` (default: threads of this process).
        """
        self.repo = DailyRepo(db)
        self.pool = pool if pool is not None else SearchPool(0)
        self.experts = experts
        self.clock: Clock = clock or (lambda: datetime.now(UTC))

    def today(self, hour: int) -> date:
        """The server's day now."""
        return daily_day(self.clock(), hour)

    def deal_of(self, guild_id: int, day: date, rules: HouseRules) -> DailyDeal:
        """The server's deal of ``day``."""
        seed, seat = daily_seed(guild_id, day)
        return DailyDeal(daily_rules(rules), seed, seat)

    async def par(self, guild_id: int, day: date, deal: DailyDeal) -> int:
        """The day's par: stored, or computed now and stored (the first figure wins)."""
        stored = await self.repo.par(guild_id, day)
        if stored is not None:
            return stored
        figure = await self.pool.run(Priority.PLAY, par_of, deal, self.experts)
        return await self.repo.keep_par(guild_id, day, figure)

    async def begin(
        self, guild_id: int, user_id: int, name: str, rules: HouseRules, hour: int
    ) -> DailyStep:
        """The person's deal of today, new or where they left it; refused once finished."""
        day = self.today(hour)
        play = await self.repo.start(guild_id, day, user_id, name)
        if play.points is not None:
            raise UserFacingError(played_already(play, hour))
        return await self._step(day, self.deal_of(guild_id, day, rules), play)

    async def act(
        self,
        guild_id: int,
        user_id: int,
        rules: HouseRules,
        hour: int,
        stamp: tuple[date, int],
        code: str,
    ) -> DailyStep:
        """Take the person's action ``code`` drawn at ``stamp`` (day, action number)."""
        day, index = stamp
        today = self.today(hour)
        if day != today:
            raise StaleDailyError(
                f"That button is from the deal of {day.isoformat()}: "
                "use /euchre daily for today's deal."
            )
        play = await self.repo.get(guild_id, day, user_id)
        if play is None:
            raise StaleDailyError("That isn't your deal: use /euchre daily to play your own.")
        if play.points is not None:
            raise UserFacingError(played_already(play, hour))
        if index != len(play.actions):
            raise StaleDailyError("That button was already used.")
        try:
            action = Action.from_code(code)
        except ActionError:
            raise StaleDailyError("That button isn't a move.") from None
        deal = self.deal_of(guild_id, day, rules)
        actions = [*_actions(play), action]
        try:
            game, view = await self.pool.run(
                Priority.PLAY, play_to_person, deal, actions, self.experts
            )
        except ValueError:
            raise StaleDailyError("That move isn't legal now.") from None
        codes = tuple(str(a) for a in actions)
        points = par = None
        if view is None:
            points = deal_result(game, deal.seat)
            par = await self.par(guild_id, day, deal)
        if not await self.repo.record(guild_id, day, user_id, codes, index, points, par):
            raise StaleDailyError("That button was already used.")
        return DailyStep(day, deal, tuple(actions), game, view, points, par)

    async def current(
        self, guild_id: int, user_id: int, rules: HouseRules, hour: int
    ) -> DailyStep | None:
        """The person's deal of today as stored (None if not started)."""
        day = self.today(hour)
        play = await self.repo.get(guild_id, day, user_id)
        if play is None:
            return None
        return await self._step(day, self.deal_of(guild_id, day, rules), play)

    async def _step(self, day: date, deal: DailyDeal, play: DailyPlay) -> DailyStep:
        actions = _actions(play)
        game, view = await self.pool.run(Priority.PLAY, play_to_person, deal, actions, self.experts)
        return DailyStep(day, deal, tuple(actions), game, view, play.points, play.par)

    async def board(self, guild_id: int, hour: int) -> tuple[date, list[tuple[DailyPlay, int]]]:
        """Today's finished plays, best first, each with the person's streak."""
        day = self.today(hour)
        plays = await self.repo.finished(guild_id, day)
        days = await self.repo.days_of(guild_id, [p.user_id for p in plays], day)
        return day, [(p, streak(days.get(p.user_id, []), day)) for p in plays]

    def last_week(self, hour: int) -> tuple[date, date]:
        """The last whole week (Monday to Sunday, server days) before today."""
        today = self.today(hour)
        first = today - timedelta(days=today.weekday() + 7)
        return first, first + timedelta(days=6)

    async def weekly_leaders(
        self, guild_id: int, first: date, last: date
    ) -> list[tuple[str, int, int]]:
        """The week's players, best first: (name, points over par summed, days played)."""
        totals: dict[int, tuple[str, int, int]] = {}
        for play in await self.repo.between(guild_id, first, last):
            assert play.points is not None
            over = play.points - (play.par or 0)
            _, summed, days = totals.get(play.user_id, ("", 0, 0))
            totals[play.user_id] = (play.display_name, summed + over, days + 1)
        return sorted(totals.values(), key=lambda row: (-row[1], -row[2], row[0]))


def _actions(play: DailyPlay) -> list[Action]:
    return [Action.from_code(code) for code in play.actions]


def played_already(play: DailyPlay, hour: int) -> str:
    """The answer to a second try: the stored result and when the next deal comes."""
    assert play.points is not None
    par = "" if play.par is None else f" (par {play.par:+d})"
    return (
        f"You have played today's deal: you scored {play.points:+d}{par}. "
        f"A new deal comes at {hour:02d}:00 UTC."
    )
