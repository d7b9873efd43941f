"""Reviews of archived games: one person's deal on request, a game's accuracy where wanted.

The review itself (``bot.players.review``) is pure and slow (a fixed budget of
sampled deals a decision); it runs in the search pool (``bot.search_pool``), deal by
deal, so the event loop keeps answering clicks and a move never waits behind a whole
game's review. :class:`Reviewer` finds the game and the person's seat in the archive,
runs the review and keeps each person's accuracy (``AccuracyRepo``).

A person's games are reviewed only where they want it: each game they finish when they
turned ``review_games`` on (``/euchre me``), otherwise the deals they ask a review of
(a Review button, ``/euchre review``). Each reviewed deal is kept, and a game's accuracy
is that of its deals reviewed (``AccuracyRepo.save_deal``): the league's figures are the
reviews that were made. Reviews are the pool's background work: under pressure the
oldest are dropped, and a person who asked is told so in one sentence.

    reviewer = Reviewer(db, pool=pool)
    tables.listeners.append(reviewer.on_table_event)   # accuracy where wanted, once a game ends
    shown = await reviewer.deal(guild_id, user_id)     # the caller's last finished deal
    kept = await reviewer.table_game(guild_id, user_id, table_id, seat, deal)  # a gone table's
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Collection
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final, Protocol

from bot.errors import UserFacingError
from bot.players.review import (
    REVIEW_BUDGET,
    Advisor,
    Budget,
    DealReview,
    Verdict,
    decision_score,
    expert_advisor,
    summarize,
)
from bot.review.repository import AccuracyRepo, DealAccuracy
from bot.rules import Action, SeatView
from bot.search_pool import PoolClosedError, Priority, SearchPool
from bot.store import ArchivedGame, Database, GameArchiveRepo
from bot.store.preferences import PreferenceRepo

from .deal import (
    ANOTHER_PLAYERS_DEAL,
    DealShown,
    KeptTableGame,
    NotYourDealError,
    finished_deals,
    review_in_pool,
)

__all__ = ["AccuracyTrend", "Reviewer", "ReviewerClosedError"]

log = logging.getLogger(__name__)

_RECENT: Final = 10
"""Latest games of a server searched for the one a finished table archived."""


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
    def snapshot(self) -> _Table: ...


@dataclass(frozen=True, slots=True)
class AccuracyTrend:
    """A person's accuracy on a server: how many games were reviewed, the mean, the latest."""

    games: int
    mean: float | None
    latest: tuple[float, ...]
    """The latest reviewed games' accuracy, oldest first."""


class ReviewerClosedError(RuntimeError):
    """The reviewer was closed while a review was under way (the bot stops)."""


class Reviewer:
    """Review archived games of ``db`` at ``budget`` (or with ``advisor``), in the search pool."""

    def __init__(
        self,
        db: Database,
        *,
        budget: Budget = REVIEW_BUDGET,
        advisor: Advisor | None = None,
        pool: SearchPool | None = None,
    ) -> None:
        """Review with the expert at ``budget`` in ``pool`` (default: threads of this process).

        ``advisor`` replaces the expert's search (tests); in a pool of worker processes it
        must be picklable.
        """
        self._games = GameArchiveRepo(db)
        self._accuracy = AccuracyRepo(db)
        self._preferences = PreferenceRepo(db)
        self._budget = budget
        self.pool = pool if pool is not None else SearchPool(0)
        self._advisor = advisor
        self._search = advisor or expert_advisor(budget)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._closed = threading.Event()
        self._asked: dict[int, list[tuple[int, int, DealReview]]] = {}
        """Reviews made at a table still playing (person, seat, review), kept once it ends."""
        self._keeping: set[tuple[int, int]] = set()
        """(game, person) whose accuracy is being kept now."""

    def _advise(self, view: SeatView, done: Action, seed: int) -> Verdict:
        """The search of one decision, unless the reviewer was closed (checked between them).

        A review in a thread of this process cannot be cancelled: this lets a stopping
        bot's thread end within one decision rather than the whole deal.
        """
        if self._closed.is_set():
            raise ReviewerClosedError("the reviewer was closed")
        return self._search(view, done, seed)

    def close(self) -> None:
        """Stop the reviews under way at their next decision, and start no more."""
        self._closed.set()

    # ------------------------------------------------------------------ one deal

    async def deal(
        self,
        guild_id: int,
        user_id: int,
        number: int | None = None,
        deal: int | None = None,
        *,
        game_id: int | None = None,
    ) -> DealShown:
        """The review of ``user_id``'s decisions in a deal of an archived game of the server.

        The game numbered ``number`` on the server as people see it, or the game
        ``game_id`` (a button's); neither: the person's latest game. No deal: its last
        finished deal. A game the person did not play in, or a deal it never had, is
        refused in one sentence.
        """
        game = await self._game(guild_id, user_id, number, game_id)
        shown = game.shown_number
        seat = next((p.seat for p in game.players if p.user_id == user_id), None)
        if seat is None:
            raise NotYourDealError(
                f"You didn't play in game #{shown}: a review goes through your own decisions."
            )
        record = await self._games.record(game.id)
        deals = finished_deals(record)
        if deals == 0:
            raise UserFacingError(f"Game #{shown} has no finished deal to review.")
        chosen = deals if deal is None else deal
        if not 1 <= chosen <= deals:
            raise UserFacingError(
                f"Game #{shown} has deals 1 to {deals}: there is no deal {chosen}."
            )
        review = await self._review(record, seat, chosen)
        self._start(
            self._keep_logged(f"game {game.id}", self.keep_deal(game.id, user_id, seat, review))
        )
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
                f"This table's game has deals 1 to {deals}: there is no deal {deal}."
            )
        return KeptTableGame(game, record, deals)

    async def _game(
        self, guild_id: int, user_id: int, number: int | None, game_id: int | None
    ) -> ArchivedGame:
        if game_id is not None:
            game = await self._games.of_server(guild_id, game_id)
            if game is None:
                raise UserFacingError("That game is no longer in this server's archive.")
            return game
        if number is None:
            latest = await self._games.list_by_player(guild_id, user_id, limit=1)
            if not latest:
                raise UserFacingError(
                    "You have no finished game on this server yet: play one with /euchre new, "
                    "then ask for its review."
                )
            return latest[0]
        game = await self._games.numbered(guild_id, number)
        if game is None:
            raise UserFacingError(f"There is no finished game #{number} on this server.")
        return game

    async def _review(self, record: dict[str, Any], seat: int, deal: int) -> DealReview:
        return await self.review(record, seat, deal)

    async def review(
        self,
        record: dict[str, Any],
        seat: int,
        deal: int,
        *,
        priority: Priority = Priority.REVIEW,
    ) -> DealReview:
        """The review of ``seat``'s deal ``deal`` in a game record (a table's, or archived)."""
        advisor = self._advise if self.pool.in_process else self._advisor
        return await review_in_pool(
            self.pool, record, seat, deal, self._budget, advisor, priority=priority
        )

    def asked(
        self,
        guild_id: int,
        table_id: int,
        user_id: int,
        seat: int,
        review: DealReview,
        *,
        playing: bool,
    ) -> None:
        """``user_id`` asked for ``review`` at table ``table_id``: keep it for their accuracy.

        ``playing``: the game goes on, so it is kept once the game is archived; otherwise
        with the game the table archived, now, in the background.
        """
        if playing:
            self._asked.setdefault(table_id, []).append((user_id, seat, review))
        elif not self._closed.is_set():
            self._start(
                self._keep_logged(
                    f"table {table_id}",
                    self._keep_at_table(guild_id, table_id, user_id, seat, review),
                )
            )

    async def _keep_at_table(
        self, guild_id: int, table_id: int, user_id: int, seat: int, review: DealReview
    ) -> int:
        game = await self._games.find_by_table(table_id)
        if game is None or game.guild_id != guild_id:
            return 0
        return await self.keep_deal(game.id, user_id, seat, review)

    async def keep_deal(self, game_id: int, user_id: int, seat: int, review: DealReview) -> int:
        """Keep one reviewed deal of an archived game for ``user_id``'s accuracy; 1 if kept."""
        summary = summarize((review,))
        if summary is None:
            return 0
        valued = [d for d in review.decisions if d.valued]
        await self._accuracy.save_deal(
            DealAccuracy(
                game_id=game_id,
                user_id=user_id,
                seat=seat,
                deal=review.deal,
                accuracy=summary.accuracy,
                decisions=summary.decisions,
                flagged=summary.flagged,
                points_lost=summary.points_lost,
                score_total=sum(decision_score(d) for d in valued),
                lost_total=sum(d.lost for d in valued),
                reviewed_at=datetime.now(UTC),
            )
        )
        return 1

    async def keep_accuracy(self, game_id: int, users: Collection[int] | None = None) -> int:
        """Review people's seats of an archived game and store their accuracy; how many.

        ``users``: whose (default: every person's). Each deal is a review of its own in
        the pool, kept as it comes (``keep_deal``); a deal whose review was dropped from
        the pool's full queue is left out.
        """
        game = await self._games.get(game_id)
        record = await self._games.record(game_id)
        deals = finished_deals(record)
        people = [
            p
            for p in game.players
            if p.user_id is not None and not p.is_computer and (users is None or p.user_id in users)
        ]
        kept = 0
        for player in people:
            assert player.user_id is not None
            key = (game.id, player.user_id)
            if key in self._keeping:
                continue
            self._keeping.add(key)
            try:
                reviews = await asyncio.gather(
                    *(
                        self.review(record, player.seat, deal, priority=Priority.AUTO_REVIEW)
                        for deal in range(1, deals + 1)
                    ),
                    return_exceptions=True,
                )
            finally:
                self._keeping.discard(key)
            made = 0
            for review in reviews:
                if isinstance(review, UserFacingError):
                    continue  # dropped, or a deal that can't be reviewed
                if isinstance(review, BaseException):
                    raise review
                made += await self.keep_deal(game.id, player.user_id, player.seat, review)
            kept += 1 if made else 0
        return kept

    async def keep_table(self, guild_id: int, table_id: int) -> int:
        """Keep the reviews wanted of a finished table's game; how many people have some.

        The whole game of each person who turned ``review_games`` on, and the deals the
        others asked a review of while it was played.
        """
        asked = self._asked.pop(table_id, [])
        games = await self._games.list_by_guild(guild_id, limit=_RECENT)
        game = next((g for g in games if g.table_id == table_id), None)
        if game is None:
            return 0
        wanted = set()
        for player in game.players:
            if player.user_id is None or player.is_computer:
                continue
            if (await self._preferences.get(player.user_id)).review_games:
                wanted.add(player.user_id)
        kept = await self.keep_accuracy(game.id, wanted) if wanted else 0
        people = set()
        for user_id, seat, review in asked:
            if user_id not in wanted and await self.keep_deal(game.id, user_id, seat, review):
                people.add(user_id)
        return kept + len(people)

    def on_table_event(self, event: _Event) -> None:
        """A ``TableService`` listener: once a game ends, keep the accuracy of who wants it."""
        if event.kind != "finished" or self._closed.is_set():
            return
        table = event.snapshot
        self._start(
            self._keep_logged(f"table {table.id}", self.keep_table(table.place.guild_id, table.id))
        )

    def _start(self, work: Any) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            work.close()
            return
        task = loop.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _keep_logged(self, what: str, work: Any) -> None:
        try:
            kept = await work
        except (ReviewerClosedError, PoolClosedError):
            log.info("the review of %s stopped with the bot", what)
            return
        except UserFacingError as exc:  # dropped from a full queue, or a deal not reviewable
            log.info("the review of %s was not kept: %s", what, exc)
            return
        except Exception:
            log.exception("could not review the game of %s", what)
            return
        log.info("kept the accuracy of %d at %s", kept, what)

    async def settle(self) -> None:
        """Wait for the reviews under way (tests, and stopping)."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def trend(self, guild_id: int, user_id: int, latest: int = 10) -> AccuracyTrend:
        """The person's accuracy over their reviewed games of the server."""
        count, mean = await self._accuracy.average(guild_id, user_id)
        points = await self._accuracy.history(guild_id, user_id, limit=latest)
        return AccuracyTrend(count, mean, tuple(p.accuracy for p in points))
