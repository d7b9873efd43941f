"""Permissions before acting: a missing permission is one sentence, and no request is refused.

The fakes answer a request the bot's permissions do not allow with 403 (50013, or 50001
without View Channel), and the harness fails any call that gets one the test did not
expect: every test here passes only if the bot looked first.
"""

from __future__ import annotations

import logging

import discord
import pytest

from bot.server.settings import ServerSettings
from bot.store import Database
from tests.cogs.euchre_driver import build_bot, only_table
from tests.cogs.test_champion_roles import champion_names, on_clock, play_to_the_end, texts
from tests.cogs.test_tournament_commands import DIRECTOR, MEMBERS, event_harness, settled
from tests.conftest import MakeHarness
from tests.kit.harness import DEFAULT_BOT_PERMISSIONS, FakeGuild, Harness
from tests.sqlite_only import db

__all__ = ["db"]

NAMES = {
    "view_channel": "View Channel",
    "send_messages": "Send Messages",
    "send_messages_in_threads": "Send Messages in Threads",
    "create_public_threads": "Create Public Threads",
    "embed_links": "Embed Links",
}


def without(*names: str) -> discord.Permissions:
    taken = discord.Permissions(**dict.fromkeys(names, True)).value
    return discord.Permissions(DEFAULT_BOT_PERMISSIONS.value & ~taken)


def guild_without(h: Harness, *names: str) -> FakeGuild:
    """A guild where the bot (and @everyone) lack ``names``; members may direct events."""
    lacking = without(*names)
    return h.guild(
        members=[(DIRECTOR, {"manage_guild": True}), *MEMBERS, "alice"],
        everyone=lacking,
        bot_permissions=lacking,
    )


def no_channel_requests(h: Harness) -> None:
    refused = [s for s in h.sent if s.status == 403]
    assert refused == [], refused


@pytest.mark.parametrize("name", ["view_channel", "send_messages", "embed_links"])
async def test_a_table_needs_to_see_send_and_embed_in_its_channel(
    make_harness: MakeHarness, name: str
) -> None:
    bot = build_bot(1)
    h = await make_harness(bot)
    g = guild_without(h, name)
    result = await h.slash(g.member("alice"), "euchre new")
    assert result.ephemeral
    assert result.content == (
        f"I can't keep a table here: I need the {NAMES[name]} permission in <#{g.channel.id}>."
    )
    assert bot.tables.open_tables == [], "nothing opened"
    no_channel_requests(h)


async def test_a_table_in_a_thread_needs_to_send_in_threads(make_harness: MakeHarness) -> None:
    bot = build_bot(1, server=ServerSettings(tables_in_threads=True))
    h = await make_harness(bot)
    g = h.guild(members=["alice", "bob"])
    await h.slash(g.member("alice"), "euchre new")
    thread = only_table(bot).place.thread_id
    assert thread is not None
    g.take_from_bot("send_messages_in_threads")
    refused = await h.slash(g.member("bob"), "euchre new", channel=thread)
    assert refused.content == (
        f"I can't keep a table here: I need the Send Messages in Threads permission in <#{thread}>."
    )
    no_channel_requests(h)


@pytest.mark.parametrize("name", ["create_public_threads", "send_messages_in_threads"])
async def test_without_threads_a_table_opens_in_the_channel(
    make_harness: MakeHarness, name: str
) -> None:
    bot = build_bot(1, server=ServerSettings(tables_in_threads=True))
    h = await make_harness(bot)
    g = guild_without(h, name)
    await h.slash(g.member("alice"), "euchre new")
    table = only_table(bot)
    assert table.place.thread_id is None and table.place.id == g.channel.id
    assert not [s for s in h.sent if s.kind == "thread_create"]
    no_channel_requests(h)


@pytest.mark.parametrize("name", sorted(NAMES))
async def test_an_event_needs_its_channel_and_threads(
    make_harness: MakeHarness, db: Database, name: str
) -> None:
    h, bot, g = await event_harness(make_harness, db, bot_permissions=without(name))
    g.take_from_bot(name)
    result = await h.slash(g.member(DIRECTOR), "euchre tournament new", {"name": "Night"})
    assert result.ephemeral
    assert result.content == (
        f"I can't run an event here: I need the {NAMES[name]} permission in <#{g.channel.id}>."
    )
    assert bot.tournaments is not None and bot.tournaments.running == []
    no_channel_requests(h)


async def test_a_start_without_threads_is_refused_and_changes_nothing(
    make_harness: MakeHarness, db: Database
) -> None:
    h, bot, g = await event_harness(make_harness, db)
    await h.slash(g.member(DIRECTOR), "euchre tournament new", {"name": "Night", "rounds": 2})
    message = h.last_public_message(g.channel)
    for name in MEMBERS:
        await h.click(g.member(name), message, label="Join")
    g.take_from_bot("create_public_threads")
    refused = await h.click(g.member(DIRECTOR), h.message(message.id), label="Start now")
    assert refused.ephemeral and refused.content == (
        "I can't run an event here: I need the Create Public Threads permission in "
        f"<#{g.channel.id}>."
    )
    await settled(h, bot)
    assert bot.tables.open_tables == [] and "Start now" in [
        b.label for b in h.message(message.id).buttons
    ]
    no_channel_requests(h)


async def test_a_permission_taken_mid_game_stops_the_requests_not_the_game(
    make_harness: MakeHarness, caplog: pytest.LogCaptureFixture
) -> None:
    bot = build_bot(1)
    h = await make_harness(bot)
    g = h.guild(members=["alice"])
    alice = g.member("alice")
    await h.slash(alice, "euchre new")
    message = h.last_public_message(g.channel)
    for _ in range(3):
        await h.click(alice, message, label="Add computer")
    g.take_from_bot("embed_links")
    before = len([s for s in h.sent if s.kind == "channel_edit"])
    with caplog.at_level(logging.WARNING):
        started = await h.click(alice, h.message(message.id), label="Start")
        assert started.redrawn, "the click's own answer needs no permission"
        await bot.tables.settle(10.0)
        await bot.pacers.flush(10.0)
        await h.settle()
    assert only_table(bot).status == "playing"
    assert len([s for s in h.sent if s.kind == "channel_edit"]) == before, "no edit sent"
    assert "lacks the Embed Links permission" in caplog.text
    no_channel_requests(h)


async def test_manage_roles_taken_before_the_end_is_one_sentence_and_no_request(
    make_harness: MakeHarness, db: Database
) -> None:
    h, bot, g, clock = await on_clock(make_harness, db)
    role_id = g.add_role("Champion")
    event_id = await play_to_the_end(
        h, bot, g, clock, champion_role=role_id, after_start=lambda: g.take_from_bot("manage_roles")
    )
    for name in champion_names(bot, g, event_id):
        line = (
            f"⚠️ I couldn't give the champion role to <@{g.member(name).id}>: "
            "I need the Manage Roles permission to give **Champion**."
        )
        assert line in texts(h, g)
    assert not [s for s in h.sent if s.kind == "member_role"], "nothing Discord would refuse"
