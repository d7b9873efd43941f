"""A computer's pace at a table: its delay, then room in its channel, at most its delay again."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import cast

import discord

from bot.discord.app import EuchreBot
from bot.discord.pace.pacing import Pacers
from bot.discord.publisher import Publisher
from bot.tables.scheduler import ManualScheduler


def busy_channel() -> tuple[Publisher, SimpleNamespace, ManualScheduler, asyncio.Event]:
    """A publisher whose table's edit is in flight until the event is set: no room to show."""
    clock = ManualScheduler()
    publisher = Publisher(cast(EuchreBot, SimpleNamespace(pacers=Pacers(clock))))
    message_id = discord.utils.time_snowflake(discord.utils.utcnow())
    table = SimpleNamespace(id=7, place=SimpleNamespace(id=11), message_id=message_id)
    answered = asyncio.Event()

    async def edit() -> None:
        await answered.wait()

    publisher.pacers.of(11).submit(("table", 7), "edit", edit)
    return publisher, table, clock, answered


async def waits(publisher: Publisher, table: SimpleNamespace, delay: float) -> asyncio.Task[None]:
    task = asyncio.ensure_future(publisher.computer_pace(table, delay))
    for _ in range(10):
        await asyncio.sleep(0)
    return task


async def advance(clock: ManualScheduler, seconds: float) -> None:
    await clock.advance(seconds)
    for _ in range(10):
        await asyncio.sleep(0)


async def test_a_move_waits_for_room_past_its_delay_and_goes_once_its_table_can_show_it() -> None:
    publisher, table, clock, answered = busy_channel()
    move = await waits(publisher, table, 1.0)
    await advance(clock, 1.5)
    assert not move.done(), "past its delay, the table's edit still in flight"
    answered.set()
    await advance(clock, 0)
    assert move.done(), "shown at once now"


async def test_a_move_waits_for_room_at_most_its_delay_again_and_none_without_a_delay() -> None:
    publisher, table, clock, answered = busy_channel()
    assert (await waits(publisher, table, 0.0)).done(), "quick computers stay quick"
    move = await waits(publisher, table, 1.0)
    await advance(clock, 1.9)
    assert not move.done()
    await advance(clock, 0.1)
    assert move.done(), "given up at twice its delay: the table never stalls"
    slow = await waits(publisher, table, 30.0)
    await advance(clock, 34.9)
    assert not slow.done()
    await advance(clock, 0.1)
    assert slow.done(), "and never more than the budget's period past it"
    answered.set()
