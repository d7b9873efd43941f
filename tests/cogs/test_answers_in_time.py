"""Answers in time: a click or command answers before anything of it waits on the database.

The harness charges every database round trip made before an interaction's first
answer 300 ms (tests/kit/slow_database.py) and fails a call whose total passes 2.5 s; here
the bot's interactions that write (an event's creation, its cancel closing every table of
a round, a move) are answered first, their work's result filling the deferred answer.
"""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest
from discord.ext import commands

from bot.store import Database
from bot.waits import WaitingLock, answer_first_with, before_waiting
from tests.cogs.test_tournament_commands import DIRECTOR, MEMBERS, event_harness, settled
from tests.conftest import MakeHarness
from tests.kit.harness import Harness, HarnessError
from tests.sqlite_only import db

__all__ = ["db"]


def _slow_bot(db: Database, trips: int) -> commands.Bot:
    """A bot whose one command reads the database ``trips`` times before it answers."""
    bot = commands.Bot(
        command_prefix="!",
        intents=discord.Intents.none(),
        allowed_mentions=discord.AllowedMentions.none(),
    )

    @bot.tree.command(name="slow", description="Reads, then answers")
    async def slow(interaction: discord.Interaction[Any]) -> None:
        for _ in range(trips):
            await db.fetch_one("SELECT 1")
        await interaction.response.send_message("done", ephemeral=True)

    return bot


@pytest.mark.parametrize("trips", [8, 9])
async def test_round_trips_before_the_first_answer_are_held_to_the_budget(
    db: Database, trips: int
) -> None:
    async with Harness(_slow_bot(db, trips)) as h:
        g = h.guild(members=["ada"])
        if trips * 0.3 <= 2.5:  # 8 trips: 2.4 s, within the budget
            assert (await h.slash(g.member("ada"), "slow", channel=g.channel)).content == "done"
            return
        with pytest.raises(HarnessError, match="9 database round trips before its first answer"):
            await h.slash(g.member("ada"), "slow", channel=g.channel)


async def test_the_hook_answers_only_for_the_task_that_took_the_interaction() -> None:
    answered: list[str] = []

    async def hook() -> None:
        answered.append("first")

    async def handler() -> None:
        answer_first_with(hook)
        child = asyncio.create_task(before_waiting())  # a task the handler starts
        await child
        assert answered == [], "a task of the handler's does not answer for it"
        await before_waiting()
        assert answered == ["first"]

    await asyncio.create_task(handler())
    await before_waiting()  # no interaction at hand: nothing
    assert answered == ["first"]


async def test_a_held_lock_answers_before_waiting_a_free_one_does_not() -> None:
    answered: list[str] = []
    lock = WaitingLock()

    async def hook() -> None:
        answered.append("first")

    async def click() -> None:
        answer_first_with(hook)
        async with lock:
            pass

    await asyncio.create_task(click())
    assert answered == []
    async with lock:
        waiting = asyncio.create_task(click())
        await asyncio.sleep(0)
        assert answered == ["first"], "answered before waiting for the holder"
    await waiting


async def test_an_events_creation_and_its_cancel_answer_before_they_write(
    make_harness: MakeHarness, db: Database
) -> None:
    h, bot, g = await event_harness(make_harness, db)
    created = await h.slash(
        g.member(DIRECTOR), "euchre tournament new", {"name": "Night", "rounds": 2, "deals": 1}
    )
    assert created.deferred and not created.ephemeral, "a public thinking answer first"
    message = h.last_public_message(g.channel)
    assert created.reply.message_id == message.id, "the event message fills the answer"
    assert "Night" in str(message.embeds)
    for name in MEMBERS:
        joined = await h.click(g.member(name), message, label="Join")
        assert joined.ephemeral and "You're in" in joined.content
    started = await h.click(g.member(DIRECTOR), h.message(message.id), label="Start now")
    assert started.deferred and started.ephemeral
    await settled(h, bot)
    cancelled = await h.click(g.member(DIRECTOR), h.message(message.id), label="Cancel")
    assert cancelled.deferred, "closing the round's tables comes after the answer"
    assert cancelled.ephemeral and "cancelled" in cancelled.content
    await settled(h, bot)
    assert all(not t.is_open for t in bot.tables.open_tables)


async def test_a_refusal_after_a_public_deferral_is_private(
    make_harness: MakeHarness, db: Database
) -> None:
    h, _, g = await event_harness(make_harness, db)
    options = {"name": "Night", "rounds": 2, "deals": 1}
    await h.slash(g.member(DIRECTOR), "euchre tournament new", options)
    shown = len(h.public_messages(g.channel))
    again = await h.slash(g.member(DIRECTOR), "euchre tournament new", options)
    assert again.ephemeral and "already has an event" in again.content
    assert [s.kind for s in again.sent if s.interaction_id == again.interaction_id][-2:] == [
        "delete_original",
        "followup",
    ], "the public thinking message is taken back"
    assert len(h.public_messages(g.channel)) == shown, "nothing public stays of the refusal"
