"""Reviews of archived games: one person's deal on request, everyone's accuracy once a game ends.

The review itself (``bot.players.review``) is pure and slow (a fixed budget of
sampled deals a decision); it runs in a worker thread so the event loop keeps
answering clicks. :class:`Reviewer` finds the game and the person's seat in the
archive, runs the review and keeps each person's accuracy (``AccuracyRepo``).

    reviewer = Reviewer(db)
    tables.listeners.append(reviewer.on_table_event)   # accuracy of every finished game
    shown = await reviewer.deal(guild_id, user_id)     # the caller's last finished deal
    kept = await reviewer.table_game(guild_id, user_id, table_id, seat, deal)  # a gone table's
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final, Protocol, TypeVar

from bot.errors import UserFacingError
from bot.players.review import (
    REVIEW_BUDGET,
    Advisor,
    Budget,
    DealReview,
    ReviewError,
    Verdict,
    expert_advisor,
    review_deal,
    review_game,
    summarize,
)
from bot.rules import Action, SeatView, parse_record
from bot.rules.errors import RulesError
from bot.rules.record import starting_game
from bot.store import ArchivedGame, Database, GameArchiveRepo
from bot.store.accuracy import AccuracyRepo, GameAccuracy
from bot.store.errors import NotFoundError

__all__ = [
    "ANOTHER_PLAYERS_DEAL",
    "AccuracyTrend",
    "DealShown",
    "KeptTableGame",
    "NotYourDealError",
    "Reviewer",
    "finished_deals",
    "review_in_thread",
]

log = logging.getLogger(__name__)

T = TypeVar("T")
Run = Callable[[Callable[[], T]], Awaitable[T]]
"""Runs a slow call away from the event loop (default: ``asyncio.to_thread``)."""

_RECENT: Final = 10
"""Latest games of a server searched for the one a finished table archived."""

ANOTHER_PLAYERS_DEAL: Final = (
    "That Review is of another player's deal: a review goes through your own decisions."
)


class _Place(Protocol):
    @property
    def guild_id(self) -> int: ...


class _Table(Protocol):
    @property
    def id(self) -> int: ...

    @property
    def place(self) -> _Place: ...


class _Event(Protocol):
    @property
    def kind(self) -> str: ...

    @property
    def table(self) -> _Table: ...


@dataclass(frozen=True, slots=True)
class AccuracyTrend:
    """A person's accuracy on a server: how many games were reviewed, the mean, the latest."""

    games: int
    mean: float | None
    latest: tuple[float, ...]
    """The latest reviewed games' accuracy, oldest first."""


class ReviewerClosedError(RuntimeError):
    """The reviewer was closed while a review was under way (the bot stops)."""


class NotYourDealError(UserFacingError):
    """A review asked of a game the person did not play in."""


@dataclass(frozen=True, slots=True)
class DealShown:
    """A reviewed deal and where it sits in its game."""

    game: ArchivedGame
    seat: int
    deals: int
    """The game's finished deals."""
    review: DealReview


@dataclass(frozen=True, slots=True)
class KeptTableGame:
    """The game a finished table archived, as its people's Review buttons review it."""

    game: ArchivedGame
    record: dict[str, Any]
    deals: int
    """The game's finished deals."""


def finished_deals(record: dict[str, Any]) -> int:
    """How many deals of a game record were played to their end."""
    loaded = parse_record(record)
    game = starting_game(loaded)
    for actor, action in loaded.actions:
        mover = game.turn if actor is None else actor
        try:
            game.apply(-1 if mover is None else mover, action)
        except RulesError:
            break
    return sum(1 for r in game.results if r.result != "in_play")


async def _to_thread(call: Callable[[], T]) -> T:
    return await asyncio.to_thread(call)


async def review_in_thread(
    record: dict[str, Any],
    seat: int,
    deal: int,
    budget: Budget = REVIEW_BUDGET,
    advisor: Advisor | None = None,
    run: Run[Any] | None = None,
) -> DealReview:
    """``review_deal`` in a worker thread (or ``run``); a sentence if the deal can't be."""
    try:
        result: DealReview = await (run or _to_thread)(
            lambda: review_deal(record, seat, deal, budget, advisor)
        )
    except ReviewError as exc:
        raise UserFacingError(f"That deal can't be reviewed: {exc}.") from None
    return result


class Reviewer:
    """Review archived games of ``db`` at ``budget`` (or with ``advisor``), off the event loop."""

    def __init__(
        self,
        db: Database,
        *,
        budget: Budget = REVIEW_BUDGET,
        advisor: Advisor | None = None,
        run: Run[Any] | None = None,
    ) -> None:
        """Review with the expert at ``budget``; ``advisor`` and ``run`` replace it in tests."""
        self._games = GameArchiveRepo(db)
        self._accuracy = AccuracyRepo(db)
        self._budget = budget
        self._search = advisor or expert_advisor(budget)
        self._run: Run[Any] = run or _to_thread
        self._tasks: set[asyncio.Task[Any]] = set()
        self._closed = threading.Event()

    def _advise(self, view: SeatView, done: Action, seed: int) -> Verdict:
        """The search of one decision, unless the reviewer was closed (checked between them).

        A review runs in a worker thread, which nothing can cancel: this lets a stopping
        bot's thread end within one decision rather than the whole game.
        """
        if self._closed.is_set():
            raise ReviewerClosedError("the reviewer was closed")
        return self._search(view, done, seed)

    def close(self) -> None:
        """Stop the reviews under way at their next decision, and start no more."""
        self._closed.set()

    # ------------------------------------------------------------------ one deal

    async def deal(
        self, guild_id: int, user_id: int, game_id: int | None = None, deal: int | None = None
    ) -> DealShown:
        """The review of ``user_id``'s decisions in a deal of an archived game of the server.

        No game: the person's latest game; no deal: its last finished deal. A game the
        person did not play in, or a deal it never had, is refused in one sentence.
        """
        game = await self._game(guild_id, user_id, game_id)
        seat = next((p.seat for p in game.players if p.user_id == user_id), None)
        if seat is None:
            raise NotYourDealError(
                f"You didn't play in game #{game.id}: a review goes through your own decisions."
            )
        record = await self._games.record(game.id)
        deals = finished_deals(record)
        if deals == 0:
            raise UserFacingError(f"Game #{game.id} has no finished deal to review.")
        chosen = deals if deal is None else deal
        if not 1 <= chosen <= deals:
            raise UserFacingError(
                f"Game #{game.id} has deals 1 to {deals}: there is no deal {chosen}."
            )
        review = await self._review(record, seat, chosen)
        return DealShown(game, seat, deals, review)

    async def table_game(
        self, guild_id: int, user_id: int, table_id: int, seat: int, deal: int
    ) -> KeptTableGame | None:
        """The archived game of a finished table, for ``user_id`` to review ``seat``'s ``deal``.

        None when the server archived no game from that table. Only the person who sat in
        ``seat`` may review it, and only a deal the game finished: else one sentence.
        """
        game = await self._games.find_by_table(table_id)
        if game is None or game.guild_id != guild_id:
            return None
        if not any(p.seat == seat and p.user_id == user_id for p in game.players):
            raise NotYourDealError(ANOTHER_PLAYERS_DEAL)
        record = await self._games.record(game.id)
        deals = finished_deals(record)
        if not 1 <= deal <= deals:
            raise UserFacingError(
                f"Table {table_id}'s game has deals 1 to {deals}: there is no deal {deal}."
            )
        return KeptTableGame(game, record, deals)

    async def _game(self, guild_id: int, user_id: int, game_id: int | None) -> ArchivedGame:
        if game_id is None:
            latest = await self._games.list_by_player(guild_id, user_id, limit=1)
            if not latest:
                raise UserFacingError(
                    "You have no finished game on this server yet: play one with /euchre new, "
                    "then ask for its review."
                )
            return latest[0]
        try:
            game = await self._games.get(game_id)
        except NotFoundError:
            game = None
        if game is None or game.guild_id != guild_id:
            raise UserFacingError(f"There is no finished game #{game_id} on this server.")
        return game

    async def _review(self, record: dict[str, Any], seat: int, deal: int) -> DealReview:
        return await self.review(record, seat, deal)

    async def review(self, record: dict[str, Any], seat: int, deal: int) -> DealReview:
        """The review of ``seat``'s deal ``deal`` in a game record (a table's, or archived)."""
        return await review_in_thread(record, seat, deal, self._budget, self._advise, self._run)

    # ------------------------------------------------------------------ accuracy

    async def keep_accuracy(self, game_id: int) -> int:
        """Review every person's seat of an archived game and store their accuracy; how many."""
        game = await self._games.get(game_id)
        record = await self._games.record(game_id)
        kept = 0
        budget, advisor = self._budget, self._advise
        for player in game.players:
            if player.user_id is None or player.is_computer:
                continue
            seat = player.seat

            def whole(seat: int = seat) -> tuple[DealReview, ...]:
                return review_game(record, seat, budget, advisor)

            reviews = await self._run(whole)
            summary = summarize(reviews)
            if summary is None:
                continue
            await self._accuracy.save(
                GameAccuracy(
                    game_id=game.id,
                    user_id=player.user_id,
                    seat=seat,
                    accuracy=summary.accuracy,
                    decisions=summary.decisions,
                    flagged=summary.flagged,
                    points_lost=summary.points_lost,
                    reviewed_at=datetime.now(UTC),
                )
            )
            kept += 1
        return kept

    async def keep_table(self, guild_id: int, table_id: int) -> int:
        """Keep the accuracy of the game a finished table archived last; how many people."""
        games = await self._games.list_by_guild(guild_id, limit=_RECENT)
        game = next((g for g in games if g.table_id == table_id), None)
        return 0 if game is None else await self.keep_accuracy(game.id)

    def on_table_event(self, event: _Event) -> None:
        """A ``TableService`` listener: once a game ends, keep its people's accuracy."""
        if event.kind != "finished" or self._closed.is_set():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        table = event.table
        task = loop.create_task(self._keep_logged(table.place.guild_id, table.id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _keep_logged(self, guild_id: int, table_id: int) -> None:
        try:
            kept = await self.keep_table(guild_id, table_id)
        except ReviewerClosedError:
            log.info("guild %d: the review of table %d stopped with the bot", guild_id, table_id)
            return
        except Exception:
            log.exception("guild %d: could not review the game of table %d", guild_id, table_id)
            return
        log.info("guild %d: kept the accuracy of %d at table %d", guild_id, kept, table_id)

    async def settle(self) -> None:
        """Wait for the reviews under way (tests, and stopping)."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def trend(self, guild_id: int, user_id: int, latest: int = 10) -> AccuracyTrend:
        """The person's accuracy over their reviewed games of the server."""
        count, mean = await self._accuracy.average(guild_id, user_id)
        points = await self._accuracy.history(guild_id, user_id, limit=latest)
        return AccuracyTrend(count, mean, tuple(p.accuracy for p in points))
