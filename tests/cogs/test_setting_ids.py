"""Settings that name a channel or a role of the server, set through the real bot.

Ids are Discord snowflakes of 18 or 19 digits, past the 2**53 a float holds exactly; a
channel or role is checked against the server as the bot sees it.
"""

from __future__ import annotations

import logging
import re
from datetime import date

import pytest

from bot.store import Database, GuildSettingsRepo
from tests.cogs.test_daily_commands import Weekly, weekly_harness
from tests.conftest import MakeHarness
from tests.kit import payloads
from tests.kit.harness import FakeGuild, Harness, Result
from tests.sqlite_only import db

__all__ = ["db"]

CHANNEL_TAKES = "daily_channel takes a text channel of this server, or off. Nothing was changed."


def shown(typed: str) -> str:
    """What a refusal quotes: a mention the chat sent as its id."""
    return repr(re.sub(r"<(?:#|@&)(\d+)>", r"\1", typed))


async def set_setting(h: Harness, g: FakeGuild, setting: str, value: str) -> Result:
    admin = g.member("admin")
    return await h.slash(admin, "euchre settings set", {"setting": setting, "value": value})


@pytest.fixture
async def weekly(make_harness: MakeHarness, db: Database) -> Weekly:
    return await weekly_harness(make_harness, db, [("admin", {"manage_guild": True}), "ada"])


async def test_a_channel_is_saved_with_every_digit_of_its_id(weekly: Weekly, db: Database) -> None:
    h, g, news = weekly.h, weekly.g, weekly.news
    assert news.id > 2**53
    for typed in (str(news.id), f"<#{news.id}>", "#daily-news", "Daily-News"):
        await GuildSettingsRepo(db).update(g.id, daily_channel=None)
        result = await set_setting(h, g, "daily_channel", typed)
        assert result.ephemeral and f"<#{news.id}>" in result.text, result.text
        assert (await GuildSettingsRepo(db).get(g.id)).daily_channel == news.id, typed
    shown = (await h.slash(g.member("ada"), "euchre settings show")).text
    assert f"`daily_channel` **<#{news.id}>**" in shown


async def test_a_channel_that_is_not_a_text_channel_of_this_server_is_refused(
    weekly: Weekly, db: Database
) -> None:
    h, g, news = weekly.h, weekly.g, weekly.news
    elsewhere = h.guild(name="Elsewhere", channels=("lobby",)).channel
    voice = h.next_id()
    h.gateway(
        "CHANNEL_CREATE",
        {
            **payloads.text_channel(voice, g.id, "Lounge"),
            "type": 2,
            "bitrate": 64000,
            "user_limit": 0,
        },
    )
    cases = [
        ("123", "this server has no such channel"),
        (str(elsewhere.id), "this server has no such channel"),
        (f"<#{elsewhere.id}>", "this server has no such channel"),
        (str(voice), "it is not a text channel"),
        ("abc", "this server has no channel of that name"),
    ]
    for typed, reason in cases:
        result = await set_setting(h, g, "daily_channel", typed)
        assert result.ephemeral
        assert (
            result.text == f"Can't set daily_channel to {shown(typed)}: {reason}. {CHANNEL_TAKES}"
        )
        assert (await GuildSettingsRepo(db).get(g.id)).daily_channel == news.id, typed


async def test_autocomplete_offers_the_servers_text_channels_by_name(weekly: Weekly) -> None:
    h, g, news = weekly.h, weekly.g, weekly.news
    answer = await h.autocomplete(
        g.member("admin"),
        "euchre settings set",
        {"setting": "daily_channel", "value": ""},
        focused="value",
    )
    table = g.channels["table"]
    assert answer.choices == [
        {"name": "#table: the week's daily deal leaders are posted here", "value": str(table.id)},
        {
            "name": "#daily-news (now): the week's daily deal leaders are posted here",
            "value": str(news.id),
        },
        {"name": "off: not posted", "value": "off"},
    ]
    typed = await h.autocomplete(
        g.member("admin"),
        "euchre settings set",
        {"setting": "daily_channel", "value": "#dai"},
        focused="value",
    )
    assert [c["value"] for c in typed.choices] == [str(news.id)]


async def test_the_bots_own_role_and_everyone_are_neither_offered_nor_taken(
    weekly: Weekly, db: Database
) -> None:
    h, g = weekly.h, weekly.g
    assert g.me is not None
    [own] = g.me.role_ids
    offered = await h.autocomplete(
        g.member("ada"),
        "euchre settings set",
        {"setting": "rules_admin_role_id", "value": ""},
        focused="value",
    )
    admin_role = g.member("admin").role_ids[0]
    assert [c["value"] for c in offered.choices] == [str(admin_role), "none"]
    for typed in (str(own), f"<@&{own}>", "EuchreBot-role", "@everyone", str(g.id)):
        result = await set_setting(h, g, "rules_admin_role_id", typed)
        assert result.text == (
            f"Can't set rules_admin_role_id to {shown(typed)}: @everyone and the roles of bots "
            "and integrations can't be chosen. rules_admin_role_id takes a role of this "
            "server, or none. Nothing was changed."
        )
        assert (await GuildSettingsRepo(db).get(g.id)).rules_admin_role_id is None


async def _a_played_week(weekly: Weekly) -> None:
    ada = weekly.g.member("ada").id
    day = date(2024, 4, 30)
    await weekly.daily.repo.start(weekly.g.id, day, ada, "Ada")
    assert await weekly.daily.repo.record(weekly.g.id, day, ada, ("pass",), 0, 1, 0)


@pytest.mark.parametrize("announced", [True, False])
async def test_a_weekly_channel_that_is_gone_is_skipped_with_one_warning(
    weekly: Weekly, announced: bool, caplog: pytest.LogCaptureFixture
) -> None:
    h, news = weekly.h, weekly.news
    await _a_played_week(weekly)
    h.delete_channel(news.id, announce=announced)
    caplog.set_level(logging.DEBUG, logger="cogs.euchre.daily")
    for _ in range(3):
        await weekly.clock.advance(7 * 86400)  # a look every hour of three weeks
    posts = [s for s in h.sent if s.method == "POST" and s.channel_id == news.id]
    assert len(posts) == (0 if announced else 1)
    assert h.errors == []
    said = [r for r in caplog.records if "not posted in channel" in r.getMessage()]
    assert [r.levelno for r in said][:1] == [logging.WARNING]
    assert all(r.levelno == logging.DEBUG for r in said[1:])


async def test_a_saved_channel_of_another_server_is_never_posted_in(
    weekly: Weekly, db: Database
) -> None:
    h, g = weekly.h, weekly.g
    elsewhere = h.guild(name="Elsewhere", channels=("lobby",)).channel
    await GuildSettingsRepo(db).update(g.id, daily_channel=elsewhere.id)
    await _a_played_week(weekly)
    await weekly.clock.advance(7 * 86400)
    assert h.public_messages(elsewhere) == []
    assert h.errors == []
