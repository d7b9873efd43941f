"""A table in a thread when a moderator steps in: the thread archived, locked or deleted."""

from __future__ import annotations

import asyncio

from bot.discord.app import EuchreBot
from bot.server.settings import ServerSettings
from tests.cogs.euchre_driver import build_bot, only_table
from tests.conftest import MakeHarness
from tests.kit.harness import FakeGuild, Harness, StoredMessage

SETTINGS = ServerSettings(tables_in_threads=True)


async def lobby_in_a_thread(
    make_harness: MakeHarness,
) -> tuple[Harness, EuchreBot, FakeGuild, int, StoredMessage]:
    """Alice's table in a new thread, Bob seated at it."""
    bot = build_bot(2, server=SETTINGS)
    h = await make_harness(bot)
    g = h.guild(members=["alice", "bob"])
    await h.slash(g.member("alice"), "euchre new")
    table = only_table(bot)
    assert table.place.thread_id is not None
    thread = table.place.thread_id
    message = h.last_public_message(thread)
    await h.click(g.member("bob"), message, label="Join")
    assert "2. 🟠 Bob" in h.message(message.id).text
    return h, bot, g, thread, message


async def settled(h: Harness, bot: EuchreBot) -> None:
    """Everything the bot set going is done: its tasks, its messages, what they started."""
    for _ in range(2):
        await asyncio.sleep(0)  # a call due now starts on the loop's next turn
        assert await bot.scheduler.settle(5.0) == 0
        assert await bot.pacers.flush(5.0)
        await h.settle()


def requests_to(h: Harness, thread: int, method: str, path: str) -> list[int | None]:
    """The statuses of the bot's requests ``method path`` to ``thread``, in order."""
    return [
        s.status
        for s in h.sent
        if (s.method, s.path) == (method, path) and s.path_params.get("channel_id") == str(thread)
    ]


async def test_an_archived_thread_is_reopened_and_shows_the_newest_table(
    make_harness: MakeHarness,
) -> None:
    h, bot, g, thread, message = await lobby_in_a_thread(make_harness)
    h.archive_thread(thread)
    left = await h.slash(g.member("bob"), "euchre leave", channel=thread)
    assert left.ephemeral
    await settled(h, bot)

    assert not h.thread_archived(thread)
    edits = requests_to(h, thread, "PATCH", "/channels/{channel_id}/messages/{message_id}")
    assert edits[0] == 400, "Discord refused the edit: Thread is archived"
    assert edits[-1] == 200, "and took it once the thread was open again"
    reopened = [s for s in h.sent if s.path == "/channels/{channel_id}" and s.method == "PATCH"]
    assert [s.body for s in reopened] == [{"archived": False}]
    assert "Bob" not in h.message(message.id).text
    assert only_table(bot).is_open


async def test_a_locked_archived_thread_is_left_alone(make_harness: MakeHarness) -> None:
    """Reopening a locked thread takes Manage Threads, which the bot does not ask for."""
    h, bot, g, thread, message = await lobby_in_a_thread(make_harness)
    h.archive_thread(thread, locked=True)
    await h.slash(g.member("bob"), "euchre leave", channel=thread, allow_errors=True)
    await settled(h, bot)
    assert h.thread_archived(thread)
    [logged] = h.take_errors("editing its message")  # an operator sees it: an error
    assert "PATCH /channels/" in logged.getMessage() and "(code 50083)" in logged.getMessage()
    reopening = [s for s in h.sent if s.path == "/channels/{channel_id}" and s.method == "PATCH"]
    assert reopening == [], "no reopening Discord would refuse (403) and count"
    assert "2. 🟠 Bob" in h.message(message.id).text
    assert only_table(bot).is_open, "a moderator may reopen it; the idle timer closes it else"


async def test_a_deleted_thread_closes_its_table_as_abort_does(make_harness: MakeHarness) -> None:
    bot = build_bot(2, server=SETTINGS)
    h = await make_harness(bot)
    g = h.guild(members=["alice"])
    alice = g.member("alice")
    await h.slash(alice, "euchre new")
    table = only_table(bot)
    thread = table.place.thread_id
    assert thread is not None
    message = h.last_public_message(thread)
    for _ in range(3):
        await h.click(alice, message, label="Add computer")
    await h.click(alice, message, label="Start")
    assert table.status == "playing"
    hand = await h.slash(alice, "euchre hand", channel=thread)
    await settled(h, bot)

    h.delete_channel(thread)
    await settled(h, bot)

    assert table.status == "aborted" and not bot.tables.open_tables
    notice = h.last_public_message(g.channel)
    assert notice.text == f"🛑 Table {table.number} was closed: its thread was deleted."
    assert not h.message(hand.message.id).components, "the open hand shows the end"
    clicked = await h.click(alice, message, label="Your hand")
    assert clicked.ephemeral and "closed" in clicked.content
    again = await h.slash(alice, "euchre new")
    assert "thread" in again.content, "a new table opens"


async def test_a_thread_found_deleted_on_an_edit_closes_its_table(
    make_harness: MakeHarness,
) -> None:
    """Without the gateway's word (missed while the bot was away), the edit's answer tells."""
    h, bot, g, thread, _ = await lobby_in_a_thread(make_harness)
    table = only_table(bot)
    h.delete_channel(thread, announce=False)
    await h.slash(g.member("bob"), "euchre leave", channel=thread)
    await settled(h, bot)
    assert not bot.tables.open_tables
    edits = requests_to(h, thread, "PATCH", "/channels/{channel_id}/messages/{message_id}")
    assert edits == [404]
    assert requests_to(h, thread, "POST", "/channels/{channel_id}/messages") == [200], (
        "only the table's first post: not posted again where the thread is gone"
    )
    notice = h.last_public_message(g.channel)
    assert notice.text == f"🛑 Table {table.number} was closed: its thread was deleted."


async def test_a_deleted_channel_closes_the_tables_in_it(make_harness: MakeHarness) -> None:
    bot = build_bot(2)
    h = await make_harness(bot)
    g = h.guild(members=["alice"], channels=["table", "other"])
    await h.slash(g.member("alice"), "euchre new")
    table = only_table(bot)
    h.delete_channel(g.channel.id)
    await settled(h, bot)
    assert table.status == "aborted" and not bot.tables.open_tables
    assert not [s for s in h.sent if s.kind == "channel_send"], "nowhere to say it"
