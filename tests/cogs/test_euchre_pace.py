"""The table under Discord's channel budget, on a hand-driven clock; and a bot that stops.

Four people click as fast as they can: the budget (5 edits, 5 posts, 5 deletes per 5 s)
is never overrun, states in between are dropped rather than queued, and when the window
opens again the table jumps to the newest state. Turn pings whose turn is over before
their post's turn never get posted.
"""

from __future__ import annotations

import asyncio

from bot.discord.app import STOPPING
from bot.discord.pace.pacing import DISCORD_LIMITS
from bot.discord.tables.embeds import table_embed
from bot.server.settings import ServerSettings
from bot.tables import MemoryTableStore
from tests.cogs.euchre_driver import (
    act_through_hand,
    action_buttons,
    build_bot,
    clocked_bot,
    only_table,
    resumed,
    started,
)
from tests.cogs.test_euchre_keeping import keeping_of
from tests.kit.harness import Harness, visible_text
from tests.kit.waiting import BOUND, until

NAMES = ["alice", "bob", "carol", "dave"]


async def test_quick_clicks_spend_the_budget_and_the_table_jumps_to_the_newest_state() -> None:
    bot, clock = clocked_bot(ServerSettings(ping_after=0), channel_limits=DISCORD_LIMITS)
    async with Harness(bot) as h:
        people, message = await started(h, NAMES)
        table = only_table(bot)
        for _ in range(9):
            assert table.game is not None and table.game.turn is not None
            mover = people[table.game.turn]
            await act_through_hand(h, bot, mover, h.message(message.id), lambda b: b[0])

        def kinds(kind: str) -> list[int]:
            return [i for i, s in enumerate(h.sent) if s.kind == kind]

        def table_edits() -> int:
            return sum(h.sent[i].message_id == message.id for i in kinds("channel_edit"))

        assert table_edits() == 1, "the window's edits are spread a second apart"
        assert len(kinds("channel_send")) <= 1 and len(kinds("channel_delete")) <= 1
        stale = visible_text(h.message(message.id).data)

        await clock.advance(1)
        await until(lambda: table_edits() == 2, "one edit, straight to the newest state")
        now = visible_text(h.message(message.id).data)
        assert now != stale
        shown = visible_text({"embeds": h.message(message.id).data["embeds"]})
        newest = table_embed(table.public()).to_dict()
        assert shown == visible_text({"embeds": [newest]}), "the table shows its newest state"

        for _ in range(20):
            await clock.advance(1)
            await asyncio.sleep(0.01)
        assert await bot.pacers.flush(BOUND)
        assert table_edits() == 2, "nothing older comes after the newest state"
        pings = [h.sent[i] for i in kinds("channel_send")]
        live = [p for p in pings if not h.message(p.message_id or 0).deleted]
        assert len(live) == 1, "one ping is live: the one whose turn it is"
        assert table.game is not None and table.game.turn is not None
        assert f"<@{people[table.game.turn].id}>" in live[0].content
        pacer = bot.pacers.of(people[0].guild.channel.id)
        assert pacer.idle and pacer.dropped > 0
        assert pacer.started["edit"] == 2


async def test_stopping_lets_the_click_in_hand_finish_and_refuses_new_ones() -> None:
    store = MemoryTableStore()
    bot = build_bot(3, delay=0.05, store=store)
    async with Harness(bot) as h:
        (alice,), message = await started(h, ["alice"], computers=3)
        table = only_table(bot)
        assert table.game is not None and table.game.turn == 0
        hand = (await h.click(alice, h.message(message.id), label="Your hand")).message
        button = action_buttons(hand, table.stamp)[0]
        moves = len(table.game.log)

        moving = asyncio.create_task(h.click(alice, hand, custom_id=button.custom_id))
        while len(table.game.log) == moves:  # the move is made; the computers follow
            await asyncio.sleep(0)
        stopping = asyncio.create_task(bot.close())
        while not bot.stopping:
            await asyncio.sleep(0)
        late = await h.click(alice, h.message(message.id), label="Your hand")
        assert late.ephemeral and late.content == STOPPING

        answered = await moving
        assert answered.reply.kind == "update", "the click in hand was answered"
        await stopping
        assert table.computer_to_act() is not None, "the computers stopped before their move"
        assert bot.pacers.of(table.place.channel_id).idle, "what waited was sent"
        stored = await store.load_table(table.id)
        assert len(stored.actions) == len(table.game.log), "every move made was saved"

    again = build_bot(3, delay=0, store=store)
    async with Harness(again) as h:
        (restored,) = await again.tables.restore()
        await keeping_of(again).resume_all()
        await resumed(again, restored)
        assert restored.computer_to_act() is None, "the next process plays the computers' turns"
        assert restored.game is not None and len(restored.game.log) > len(table.game.log)
