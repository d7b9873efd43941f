"""A tournament night with the bot as a process: eight members play three rounds to the
champion, and the bot is killed (SIGKILL) in the middle of a round and started again.

Each round's two tables open in threads of the event's channel and ping their four
members there; the members play their hands as people do (tests/e2e/players.py), and
the director presses Next round between rounds. After the kill the restarted bot
resumes the event and its tables where they were: the members reopen their hands and
play on, and the event ends with its champion and final standings.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from pathlib import Path

import pytest

from tests.e2e.bot_process import BotProcess
from tests.e2e.fake_discord import FakeDiscord, Message, User
from tests.e2e.players import EuchreTable, Players
from tests.waiting import BOUND

DIRECTOR = "director"
MEMBERS = [f"m{n}" for n in range(8)]
ROUNDS = 3
_TABLE = re.compile(r"euchre:t:(\d+):")


async def answered(fake: FakeDiscord, member: User, message: Message, label: str) -> None:
    clicked = await fake.click(member, message, label=label)
    await clicked.wait_answered(BOUND)
    assert clicked.original_id is not None


def round_threads(fake: FakeDiscord, number: int) -> list[int]:
    return [
        cid
        for cid, channel in fake.channels.items()
        if channel.get("type") == 11 and f": round {number}, table " in str(channel.get("name"))
    ]


def seated(fake: FakeDiscord, thread: int) -> tuple[EuchreTable, list[User]] | None:
    """The table of a thread and the members its ping named, once both are posted."""
    shown = [m for m in fake.public_messages() if m.channel_id == thread]
    ids = {int(found[1]) for m in shown for c in m.custom_ids if (found := _TABLE.match(c))}
    text = " ".join(m.content for m in shown)
    members = [fake.member(n) for n in MEMBERS if f"<@{fake.member(n).id}>" in text]
    if len(ids) != 1 or len(members) != 4:
        return None
    return EuchreTable(fake, ids.pop()), members


async def round_tables(fake: FakeDiscord, number: int) -> list[Players]:
    def ready() -> bool:
        threads = round_threads(fake, number)
        return len(threads) == 2 and all(seated(fake, t) is not None for t in threads)

    await fake.wait_for(ready, timeout=BOUND, what=f"round {number}'s tables and pings")
    tables = []
    for thread in round_threads(fake, number):
        found = seated(fake, thread)
        assert found is not None
        tables.append(Players(*found))
    everyone = sorted(m.name for p in tables for m in p.members)
    assert everyone == MEMBERS, "every member sits at one table of the round"
    return tables


async def play_round(tables: list[Players]) -> None:
    for players in tables:
        await players.open_hands()
    assert all(r is None for r in await asyncio.gather(*(p.play() for p in tables)))


@pytest.mark.slow
async def test_a_night_killed_mid_round_plays_on_to_its_champion(tmp_path: Path) -> None:
    async with FakeDiscord(members=[DIRECTOR, *MEMBERS], managers=[DIRECTOR]) as fake:
        bot = BotProcess(fake, tmp_path / "bot")
        try:
            await bot.start()
            director = fake.member(DIRECTOR)
            created = await fake.slash(
                director,
                "euchre tournament new",
                {"name": "E2E night", "rounds": ROUNDS, "deals": 2},
            )
            await created.wait_answered(BOUND)
            assert created.original_id is not None
            event = fake.messages[created.original_id]
            for name in MEMBERS:
                await answered(fake, fake.member(name), event, "Join")
            await answered(fake, director, fake.messages[event.id], "Start now")

            for number in range(1, ROUNDS + 1):
                tables = await round_tables(fake, number)
                if number == 2:  # mid-round: some moves made, then kill -9
                    first = tables[0]
                    await first.open_hands()
                    stopped = await first.play(stop=lambda _, p=first: len(p.clicks) >= 6)
                    assert stopped is not None, "the table ended before the kill"
                    await bot.kill()
                    await bot.start()
                await play_round(tables)
                if number < ROUNDS:

                    def between() -> bool:
                        return "Next round" in [b.label for b in fake.messages[event.id].buttons]

                    await fake.wait_for(between, timeout=BOUND, what="the round's end")
                    await answered(fake, director, fake.messages[event.id], "Next round")

            def champion() -> bool:
                notices = " ".join(m.content for m in fake.public_messages())
                final = "Final standings" in str(fake.messages[event.id].payload.get("embeds"))
                return "has finished. Champion" in notices and final

            await fake.wait_for(champion, timeout=BOUND, what="the champion")
            assert not fake.messages[event.id].buttons, "no buttons once the event has ended"
            events = [m for m in fake.public_messages() if "E2E night" in str(m.payload)]
            assert sum("Final standings" in str(m.payload) for m in events) == 1
            assert await bot.stop() == 0
            assert (bot.starts, bot.kills) == (2, 1)
            assert not fake.problems, fake.problems
            assert not bot.faults(), bot.tail()
        finally:
            with contextlib.suppress(Exception):
                await bot.kill()
