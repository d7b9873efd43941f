"""The daily deal: the same deal and seat for a server and day, par stored once, one play each."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from bot.daily.deal import DailyDeal, daily_day, daily_seed, deal_result, par_of, play_to_person
from bot.daily.repository import DailyRepo
from bot.daily.service import streak
from bot.players.protocol import Player, make_player
from bot.rules import Action, HouseRules
from bot.store import Database
from tests.sqlite_only import db

__all__ = ["db"]


def basic(seat: int, seed: int) -> Player:
    return make_player("basic", seed)


def test_the_day_turns_over_at_the_servers_hour() -> None:
    assert daily_day(datetime(2024, 5, 1, 5, 59, tzinfo=UTC), 6) == date(2024, 4, 30)
    assert daily_day(datetime(2024, 5, 1, 6, 0, tzinfo=UTC), 6) == date(2024, 5, 1)
    assert daily_day(datetime(2024, 5, 1, 0, 0, tzinfo=UTC), 0) == date(2024, 5, 1)


def test_seed_and_seat_depend_on_the_server_and_the_day_only() -> None:
    day = date(2024, 5, 1)
    assert daily_seed(7, day) == daily_seed(7, day)
    assert daily_seed(7, day) != daily_seed(8, day)
    assert daily_seed(7, day) != daily_seed(7, date(2024, 5, 2))
    assert all(0 <= daily_seed(g, day)[1] < 4 for g in range(20))
    assert len({daily_seed(g, day)[1] for g in range(40)}) == 4


def test_a_deal_replays_from_the_persons_actions_and_par_is_the_expert_in_their_seat() -> None:
    seed, seat = daily_seed(11, date(2024, 5, 1))
    deal = DailyDeal(HouseRules(), seed, seat)
    actions: list[Action] = []
    while True:
        game, view = play_to_person(deal, actions, basic)
        if view is None:
            break
        assert view.seat == seat
        actions.append(basic(seat, seed + seat).choose(view))
    # The person playing as the computer would have played gets the computer's par.
    assert deal_result(game, seat) == par_of(
        deal, lambda s, sd: basic(s, seed + seat if s == seat else sd)
    )
    with pytest.raises(ValueError):
        play_to_person(deal, [*actions, actions[-1]], basic)


async def test_par_is_kept_once_and_each_person_plays_once(db: Database) -> None:
    repo = DailyRepo(db)
    day = date(2024, 5, 1)
    assert await repo.keep_par(1, day, 2) == 2
    assert await repo.keep_par(1, day, -1) == 2  # another process's figure comes second
    play = await repo.start(1, day, 10, "ada")
    assert play.actions == () and play.points is None
    assert await repo.record(1, day, 10, ("pass",), done=0)
    assert not await repo.record(1, day, 10, ("order",), done=0)  # a stale answer
    again = await repo.start(1, day, 10, "ada")
    assert again.actions == ("pass",)
    assert await repo.record(1, day, 10, ("pass", "play.AS"), done=1, points=1, par=2)
    assert not await repo.record(1, day, 10, ("pass", "play.AS", "x"), done=2)
    await repo.start(1, day, 11, "bob")
    await repo.record(1, day, 11, ("pass",), done=0, points=2, par=2)
    board = await repo.finished(1, day)
    assert [(p.display_name, p.points, p.par) for p in board] == [("bob", 2, 2), ("ada", 1, 2)]
    assert await repo.finished(2, day) == []


def test_a_streak_counts_the_days_played_in_a_row_up_to_today_or_yesterday() -> None:
    today = date(2024, 5, 10)
    days = [date(2024, 5, d) for d in (3, 4, 7, 8, 9)]
    assert streak(days, today) == 3  # today not yet played: the run up to yesterday
    assert streak([*days, today], today) == 4
    assert streak([date(2024, 5, 8)], today) == 0
    assert streak([], today) == 0
