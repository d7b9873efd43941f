"""``/euchre daily`` through the real bot: a deal played end to end, a second try, forged ids."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from bot.daily.deal import deal_result, par_of, play_to_person
from bot.daily.service import DailyService, fixed_expert
from bot.discord.app import EuchreBot, database_tables
from bot.league import LeagueService
from bot.render.daily import weekly_texts
from bot.rules import Action, HouseRules
from bot.settings import Settings
from bot.store import Database, GuildSettingsRepo
from bot.tables.scheduler import ManualScheduler
from cogs.euchre.daily import WEEKLY_EVERY
from tests.cogs.euchre_driver import build_bot
from tests.conftest import MakeHarness
from tests.kit.harness import FakeGuild, Harness, MemberSpec
from tests.sqlite_only import db

__all__ = ["db"]

DAY = date(2024, 5, 1)
NOON = datetime(2024, 5, 1, 12, tzinfo=UTC)


async def daily_harness(
    make_harness: MakeHarness, db: Database
) -> tuple[Harness, FakeGuild, DailyService, list[datetime]]:
    """The bot with the daily deal, ada and bob in its server, and the deal's clock: a list
    whose one moment, noon of ``DAY`` at first, the test moves."""
    when = [NOON]
    bot = build_bot()
    league = LeagueService(db)
    league.daily = DailyService(db, clock=lambda: when[0])
    bot.league = league  # type: ignore[attr-defined]
    h = await make_harness(bot)
    return h, h.guild(members=["ada", "bob"]), league.daily, when


async def test_a_daily_deal_is_played_to_the_end_once(
    make_harness: MakeHarness, db: Database
) -> None:
    h, g, daily, when = await daily_harness(make_harness, db)
    ada = g.member("ada")
    shown = await h.slash(ada, "euchre daily")
    assert shown.deferred and shown.ephemeral
    assert shown.reply.content.startswith(f"**Deal of the day, {DAY.isoformat()}**")
    message = shown.message
    deal = daily.deal_of(g.id, DAY, HouseRules())
    taken: list[Action] = []
    while h.message(message.id).buttons:
        button = h.message(message.id).buttons[0]
        assert button.custom_id.startswith(f"euchre:dd:20240501:{len(taken)}:")
        taken.append(Action.from_code(button.custom_id.split(":")[4]))
        if len(taken) == 2:
            # A restart between moves (a new service): the deal resumes as stored.
            h.bot.league.daily = DailyService(db, clock=lambda: when[0])  # type: ignore[union-attr]
            resumed = await h.slash(ada, "euchre daily")
            assert resumed.reply.content == h.message(message.id).content
        click = await h.click(ada, message, custom_id=button.custom_id)
        assert click.deferred
    game, view = play_to_person(deal, taken, fixed_expert)
    assert view is None
    points, par = deal_result(game, deal.seat), par_of(deal, fixed_expert)
    final = h.message(message.id).content
    assert f"scored **{points:+d}**" in final and f"is **{par:+d}**" in final
    assert await daily.repo.par(g.id, DAY) == par

    again = await h.slash(ada, "euchre daily", allow_errors=True)
    assert again.ephemeral
    assert again.content == (
        f"You have played today's deal: you scored {points:+d} (par {par:+d}). "
        "A new deal comes at 00:00 UTC."
    )
    board = await h.slash(g.member("bob"), "euchre daily", {"show": "leaderboard"})
    assert board.reply.content.splitlines()[1] == f"1. Ada: {points:+d} (par {par:+d})"


async def test_forged_and_stale_buttons_change_nothing(
    make_harness: MakeHarness, db: Database
) -> None:
    h, g, daily, when = await daily_harness(make_harness, db)
    ada = g.member("ada")
    message = (await h.slash(ada, "euchre daily")).message
    before = h.message(message.id).content
    first = h.message(message.id).buttons[0].custom_id

    forged = h.build_forged_component(ada, message, "euchre:dd:20240501:0:play.AS", custom_id=first)
    illegal = await h.dispatch(forged)
    assert illegal.last_reply.content == "That move isn't legal now."
    later = h.build_forged_component(ada, message, first.replace(":0:", ":5:"), custom_id=first)
    assert (await h.dispatch(later)).last_reply.content == "That button was already used."
    garbled = h.build_forged_component(ada, message, "euchre:dd:2024:0:pass", custom_id=first)
    out_of_use = await h.dispatch(garbled)
    assert out_of_use.ephemeral and "doesn't work any more" in out_of_use.content
    assert h.message(message.id).content == before
    assert (await daily.repo.get(g.id, DAY, ada.id)).actions == ()  # type: ignore[union-attr]

    when[0] = datetime(2024, 5, 2, 1, tzinfo=UTC)
    yesterday = await h.click(ada, message, custom_id=first)
    assert yesterday.last_reply.content == (
        "That button is from the deal of 2024-05-01: use /euchre daily for today's deal."
    )
    assert h.message(message.id).content == before


@dataclass
class Weekly:
    """A bot whose clock the test turns, and a server that posts its weeks in ``news``."""

    h: Harness
    bot: EuchreBot
    g: FakeGuild
    clock: ManualScheduler
    daily: DailyService
    news: Any


async def weekly_harness(
    make_harness: MakeHarness, db: Database, members: Sequence[str | MemberSpec]
) -> Weekly:
    clock = ManualScheduler()
    settings = Settings(computer_move_delay=0)
    bot = EuchreBot(settings, tables=database_tables(settings, db), scheduler=clock)
    league = LeagueService(db)
    league.daily = DailyService(db, clock=lambda: NOON + timedelta(seconds=clock.now()))
    bot.league = league
    h = await make_harness(bot)
    g = h.guild(members=members)
    news = g.add_channel("daily-news")
    await GuildSettingsRepo(db).update(g.id, daily_channel=news.id)
    return Weekly(h, bot, g, clock, league.daily, news)


async def test_the_weeks_leaders_are_posted_once_in_the_servers_channel(
    make_harness: MakeHarness, db: Database
) -> None:
    weekly = await weekly_harness(make_harness, db, ["ada", "bob", "cy"])
    h, bot, g, clock, news = weekly.h, weekly.bot, weekly.g, weekly.clock, weekly.news
    repo = weekly.daily.repo
    for day, name, points, par in [
        (date(2024, 4, 30), "ada", 1, 2),
        (date(2024, 5, 1), "ada", 2, -1),
        (date(2024, 5, 1), "bob", 4, 1),
        (date(2024, 5, 6), "cy", 4, 0),  # the next week
    ]:
        user = g.member(name).id
        await repo.start(g.id, day, user, name.title())
        assert await repo.record(g.id, day, user, ("pass",), 0, points, par)

    await clock.advance(0)  # Wednesday 1 May: the week before had no plays
    assert h.public_messages(news) == []
    await clock.advance(4 * 86400)  # Sunday 5 May, noon: the week is not over
    assert h.public_messages(news) == []
    await clock.advance(12 * 3600 + WEEKLY_EVERY)  # Monday 6 May: it is
    [post] = h.public_messages(news)
    assert [post.content] == weekly_texts(
        date(2024, 4, 29), date(2024, 5, 5), [("Bob", 3, 1), ("Ada", 2, 2)]
    )
    await clock.advance(2 * 86400)
    assert len(h.public_messages(news)) == 1
    cog: Any = bot.clicks  # the euchre cog, as its extension loaded it
    assert await cog.post_weeks() == 0  # another process looking finds the week claimed
