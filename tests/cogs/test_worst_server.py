"""The server's own pages at their worst, through the real bot: rules, settings, preferences,
help, web links, the daily deal's boards, the lesson and a review, with long names.

Every payload passes Discord's contract in the harness; a list that grows with the
server (the daily deal's leaderboard and its week) goes on in further messages, whole.
"""

from __future__ import annotations

import asyncio
import re
from datetime import date

from bot.league import LeagueService
from bot.review.service import Reviewer
from bot.rules import PRESETS
from bot.settings import Settings
from bot.store import Database, GameArchiveRepo, GuildSettingsRepo, Seat
from cogs.euchre.daily import WEEKLY_EVERY
from tests.cogs.euchre_driver import build_bot
from tests.cogs.test_daily_commands import weekly_harness
from tests.cogs.test_review_commands import SMALL
from tests.cogs.worst import long_guild, long_members, long_name
from tests.conftest import MakeHarness
from tests.league.util import RULES, finished_record
from tests.sqlite_only import db

__all__ = ["db"]

PLAYERS = 60


async def test_rules_settings_preferences_help_and_web_at_their_longest(
    make_harness: MakeHarness,
) -> None:
    bot = build_bot()
    bot.settings = Settings(computer_move_delay=0, web_base_url="https://" + "w" * 60 + ".example")
    h = await make_harness(bot)
    g = long_guild(h, 2)
    admin, member = g.member("p00"), g.member("p01")
    for preset in PRESETS:
        await h.slash(admin, "euchre rules preset", {"preset": preset})
        await h.slash(member, "euchre rules show")
    names = await h.autocomplete(admin, "euchre rules set", {"rule": ""}, focused="rule")
    for choice in names.choices:
        values = await h.autocomplete(
            admin, "euchre rules set", {"rule": choice["value"], "value": ""}, focused="value"
        )
        assert len(values.choices) <= 25
    await h.slash(admin, "euchre settings show")
    settings = await h.autocomplete(
        admin, "euchre settings set", {"setting": ""}, focused="setting"
    )
    assert settings.choices
    for command in ("euchre me show", "euchre help", "euchre web"):
        await h.slash(member, command)
    await h.slash(admin, "euchre settings set", {"setting": "web_public", "value": "on"})
    await h.slash(member, "euchre web")


async def test_the_daily_boards_name_everyone_in_as_many_messages_as_it_takes(
    make_harness: MakeHarness, db: Database
) -> None:
    weekly = await weekly_harness(make_harness, db, long_members(PLAYERS))
    h, g, clock, news = weekly.h, weekly.g, weekly.clock, weekly.news
    repo = weekly.daily.repo
    for n in range(PLAYERS):
        user = g.member(f"p{n:02d}").id
        for day in (date(2024, 4, 30), date(2024, 5, 1)):
            await repo.start(g.id, day, user, long_name(n))
            assert await repo.record(g.id, day, user, ("pass",), 0, n % 7 - 3, 1)

    board = await h.slash(g.member("p00"), "euchre daily", {"show": "leaderboard"})
    texts = [
        s.data.get("content") or "" for s in board.sent if s.kind in ("followup", "edit_original")
    ]
    assert len(texts) > 1, "the board goes on in a second message"
    ranks = [int(r) for t in texts for r in re.findall(r"^(\d+)\. ", t, re.MULTILINE)]
    assert ranks == list(range(1, PLAYERS + 1))

    await clock.advance(0)
    # Monday 6 May: the week is over; its parts go out in the channel's pace, on this clock
    weekly_tick = asyncio.create_task(clock.advance(5 * 86400 + 12 * 3600 + WEEKLY_EVERY))
    while not weekly_tick.done():
        await asyncio.sleep(0)
        await clock.advance(0.5)
    await weekly_tick
    posts = h.public_messages(news)
    weekly = [int(r) for p in posts for r in re.findall(r"^(\d+)\. ", p.content, re.MULTILINE)]
    assert len(posts) > 1 and weekly == list(range(1, PLAYERS + 1))


async def test_a_lesson_and_a_review_with_long_names(
    make_harness: MakeHarness, db: Database
) -> None:
    bot = build_bot()
    bot.league = LeagueService(db, reviewer=Reviewer(db, budget=SMALL))  # type: ignore[attr-defined]
    h = await make_harness(bot)
    g = long_guild(h, 4)
    people = [g.member(f"p{i:02d}") for i in range(4)]
    await GuildSettingsRepo(db).set_rules(g.id, RULES)
    game = await GameArchiveRepo(db).archive(
        guild_id=g.id,
        record=finished_record(3),
        players=[Seat.person(n, p.id, p.display_name) for n, p in enumerate(people)],
        ranked=True,
    )
    review = await h.slash(people[0], "euchre review", {"game": game.id})
    message = review.message
    while any(b.label and "Previous" in b.label and not b.disabled for b in message.buttons):
        message = (
            await h.click(
                people[0],
                message,
                label=next(
                    str(b.label) for b in message.buttons if b.label and "Previous" in b.label
                ),
            )
        ).message
    lesson = await h.slash(people[1], "euchre learn")
    step = lesson.message
    for _ in range(40):
        buttons = [b for b in step.buttons if not b.disabled]
        if not buttons:
            break
        step = (await h.click(people[1], step, custom_id=buttons[0].custom_id)).message
