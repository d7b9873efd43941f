"""A table in a thread that a moderator archives or deletes, with the bot as its own process.

The fake Discord refuses edits in an archived thread (``50083``) and everything in a
deleted one (``10003``), as Discord does; the bot reopens the one and closes the table of
the other, so no table stays stale or "playing" until its idle timer.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.kit.bot_process import BotProcess
from tests.kit.fake_discord import FakeDiscord
from tests.kit.fake_players import Choice, Players
from tests.kit.pace import _open, _seat
from tests.kit.waiting import BOUND

_WAIT = BOUND

pytestmark = pytest.mark.slow  # a bot process each, run one at a time by CI


async def _table_in_a_thread(fake: FakeDiscord, bot: BotProcess) -> tuple[Players, int]:
    """Alice's table against three computers, dealt, in a thread of the channel."""
    await bot.start()
    alice = fake.member("alice")
    table = await _open(fake, alice)
    await _seat(table, [alice])
    thread_id = table.message.channel_id
    assert thread_id != fake.channel_id and "thread_metadata" in fake.channels[thread_id]
    players = Players(table, [alice])
    await players.open_hands()
    return players, thread_id


async def test_an_archived_thread_is_reopened_and_shows_the_next_move(tmp_path: Path) -> None:
    async with FakeDiscord(members=("alice",)) as fake:
        bot = BotProcess(fake, tmp_path / "bot", options={"tables_in_threads": True})
        async with bot.killed_at_the_end(show=200):
            players, thread_id = await _table_in_a_thread(fake, bot)
            await fake.archive_thread(thread_id)
            assert fake.thread_archived(thread_id)
            refused_before = sum(r.status == 400 for r in fake.requests)

            choice = await _next_choice(fake, players)
            clicked = len(fake.requests)
            assert (await players.make(choice)).outcome == "applied"

            def shown_in_the_thread() -> bool:
                return any(
                    r.status == 200
                    and r.method in ("POST", "PATCH")
                    and r.path.startswith(f"/channels/{thread_id}/messages")
                    for r in fake.requests[clicked:]
                )

            await fake.wait_for(
                lambda: not fake.thread_archived(thread_id) and shown_in_the_thread(),
                timeout=_WAIT,
                what="the thread to be reopened and the table shown anew",
            )
            refused = [r for r in fake.requests if r.status == 400][refused_before:]
            assert refused, "the bot edited in the archived thread first, as it would on Discord"
            assert all(
                r.answer == {"code": 50083, "message": "Thread is archived"} for r in refused
            )
            assert fake.problems == []


async def test_a_deleted_thread_closes_its_table(tmp_path: Path) -> None:
    async with FakeDiscord(members=("alice",)) as fake:
        bot = BotProcess(fake, tmp_path / "bot", options={"tables_in_threads": True})
        async with bot.killed_at_the_end(show=200):
            players, thread_id = await _table_in_a_thread(fake, bot)
            table_id = players.table.id
            await fake.delete_channel(thread_id)
            closed = f"Table {table_id} was closed"

            def told_in_the_channel() -> bool:
                return any(
                    m.channel_id == fake.channel_id and closed in m.content
                    for m in fake.public_messages()
                )

            await fake.wait_for(told_in_the_channel, timeout=_WAIT, what="the table's end")
            # Alice's open hand shows the end: a click on it is answered, and changes nothing.
            sent = await fake.slash(fake.member("alice"), "euchre hand")
            answer = await sent.wait_answered(_WAIT)
            assert answer.acknowledged
            assert fake.problems == []


async def _next_choice(fake: FakeDiscord, players: Players) -> Choice:
    """Alice's next move, once her hand offers one."""
    await fake.wait_for(
        lambda: players.next_choice() is not None, timeout=_WAIT, what="alice's turn"
    )
    choice = players.next_choice()
    assert choice is not None
    return choice
