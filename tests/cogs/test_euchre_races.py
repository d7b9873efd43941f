"""Races through the real bot: each ends in exactly one applied action and answered clicks."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.discord.app import EuchreBot
from bot.discord.pace.pacing import ChannelLimits
from bot.players import make_player
from bot.server.settings import ServerSettings
from bot.settings import Settings
from bot.store import ConnectionLostError
from bot.tables import MemoryTableStore, SavedTable, Table, TableService
from bot.tables.persistence import NewTable
from bot.tables.scheduler import ManualScheduler
from bot.tables.service import OPEN_UNSURE, SAVE_UNSURE
from tests.cogs.euchre_driver import action_buttons, clocked_bot, only_table, started
from tests.conftest import MakeHarness
from tests.kit.harness import FakeMember, Harness, Result, StoredMessage

NAMES = ["alice", "bob", "carol", "dave"]
LIMIT = 60


async def opened(
    make_harness: MakeHarness, limit: float | None = None
) -> tuple[Harness, ManualScheduler, Table, list[FakeMember], StoredMessage]:
    """A game started by four people on a manual clock (``limit``: a turn's time limit)."""
    bot, clock = clocked_bot(ServerSettings(turn_time_limit_seconds=limit))
    h = await make_harness(bot)
    people, message = await started(h)
    table = only_table(bot)
    assert table.game is not None and table.game.turn is not None
    return h, clock, table, people, message


async def first_turn(
    store: MemoryTableStore, make_harness: MakeHarness
) -> tuple[Harness, Table, FakeMember, StoredMessage, StoredMessage, str]:
    """A started game over ``store``: the person to act, the table message, their hand
    and the custom_id of their first action button."""
    bot, _ = clocked_bot(store=store)
    h = await make_harness(bot)
    people, message = await started(h)
    table = only_table(bot)
    assert table.game is not None and table.game.turn is not None
    person = people[table.game.turn]
    hand = await hand_of(h, person, message)
    return h, table, person, message, hand, action_buttons(hand, table.stamp)[0].custom_id


async def hand_of(h: Harness, person: FakeMember, message: StoredMessage) -> StoredMessage:
    return (await h.click(person, h.message(message.id), label="Your hand")).message


def answered(result: Result) -> bool:
    return result.responded and bool(result.reply)


async def test_a_double_click_applies_once_and_answers_both(make_harness: MakeHarness) -> None:
    h, _, table, people, message = await opened(make_harness)
    person = people[table.game.turn]
    hand = await hand_of(h, person, message)
    button = action_buttons(hand, table.stamp)[0]
    moves = len(table.game.log)
    payloads = [h.build_component(person, hand, custom_id=button.custom_id) for _ in range(2)]
    results = await asyncio.gather(*(h.dispatch(p) for p in payloads))
    assert len(table.game.log) == moves + 1
    assert all(answered(r) for r in results)
    texts = [r.reply.content for r in results]
    assert sum("out of date" in t for t in texts) == 1, texts


async def test_two_players_clicking_at_once(make_harness: MakeHarness) -> None:
    h, _, table, people, message = await opened(make_harness)
    turn = table.game.turn
    other = (turn + 1) % 4
    hands = [await hand_of(h, people[s], message) for s in (turn, other)]
    payloads: list[dict[str, Any]] = []
    for seat, hand in zip((turn, other), hands, strict=True):
        buttons = action_buttons(hand, table.stamp) or hand.buttons
        payloads.append(
            h.build_component(people[seat], hand, custom_id=buttons[0].custom_id, force=True)
        )
    moves = len(table.game.log)
    results = await asyncio.gather(*(h.dispatch(p) for p in payloads))
    assert len(table.game.log) == moves + 1
    assert all(answered(r) for r in results)


async def test_a_click_racing_the_turn_timer(make_harness: MakeHarness) -> None:
    h, clock, table, people, message = await opened(make_harness, LIMIT)
    person = people[table.game.turn]
    hand = await hand_of(h, person, message)
    await clock.advance(LIMIT - 3)
    stamp, moves = table.stamp, len(table.game.log)
    payload = h.build_component(person, hand, custom_id=action_buttons(hand, stamp)[0].custom_id)
    result, _ = await asyncio.gather(h.dispatch(payload), clock.advance(5))
    assert answered(result)
    assert len(table.game.log) == moves + 1
    assert table.game.log[-1][0] == people.index(person)


async def test_double_join_and_double_start(make_harness: MakeHarness) -> None:
    bot, _ = clocked_bot()
    h = await make_harness(bot)
    g = h.guild(members=NAMES)
    people = [g.member(n) for n in NAMES]
    message = (await h.slash(people[0], "euchre new")).message
    joins = [h.build_component(people[1], message, label="Join") for _ in range(2)]
    results = await asyncio.gather(*(h.dispatch(p) for p in joins))
    table = only_table(bot)
    assert sum(1 for s in table.seats if s is not None) == 2
    assert all(answered(r) for r in results)
    assert sum(r.reply.ephemeral for r in results) == 1
    for person in people[2:]:
        await h.click(person, h.message(message.id), label="Join")
    starts = [h.build_component(people[0], h.message(message.id), label="Start") for _ in range(2)]
    results = await asyncio.gather(*(h.dispatch(p) for p in starts))
    assert table.status == "playing" and all(answered(r) for r in results)
    refused = [r.reply for r in results if r.reply.ephemeral]
    assert len(refused) == 1 and "already started" in refused[0].content


class FlakyStore(MemoryTableStore):
    """A store whose next ``failing`` saves of an action raise."""

    failing = 0

    async def append_action(self, *args: Any, **kwargs: Any) -> None:
        if self.failing:
            self.failing -= 1
            raise OSError("disk full")
        await super().append_action(*args, **kwargs)


async def test_a_move_that_cannot_be_saved_is_not_applied_and_can_be_retried(
    make_harness: MakeHarness,
) -> None:
    store = FlakyStore()
    h, table, person, _message, hand, custom_id = await first_turn(store, make_harness)
    assert table.game is not None
    before = (table.record(), table.stamp)
    store.failing = 1
    refused = await h.click(person, hand, custom_id=custom_id, allow_errors=True)
    assert refused.reply.ephemeral and "try again" in refused.reply.content
    assert (table.record(), table.stamp) == before
    assert store.tables[table.id].actions == []
    again = await h.click(person, h.message(hand.id), custom_id=custom_id)
    assert again.reply.kind == "update" and len(store.tables[table.id].actions) == 1


class UnsureStore(MemoryTableStore):
    """A store that saves the next ``unsure`` actions but loses the answer (no reply came)."""

    unsure = 0

    async def append_action(self, *args: Any, **kwargs: Any) -> None:
        await super().append_action(*args, **kwargs)
        if self.unsure:
            self.unsure -= 1
            raise ConnectionLostError("no answer", reason="timeout", unsure=True)


async def test_a_move_whose_save_is_unsure_shows_on_the_table_once_it_is_reloaded(
    make_harness: MakeHarness,
) -> None:
    store = UnsureStore()
    h, table, person, message, hand, custom_id = await first_turn(store, make_harness)
    assert table.game is not None
    shown = h.message(message.id).embeds
    store.unsure = 1
    refused = await h.click(person, hand, custom_id=custom_id, allow_errors=True)
    assert refused.reply.ephemeral and refused.reply.content == SAVE_UNSURE
    assert table.out_of_step and len(store.tables[table.id].actions) == 1
    assert h.message(message.id).embeds == shown

    again = await h.click(person, h.message(hand.id), custom_id=custom_id)
    assert again.reply.kind == "update" and "out of date" in (again.reply.content or "")
    assert not table.out_of_step and len(table.game.log) == 1
    assert h.message(message.id).embeds != shown  # the public message shows the saved move


class UnsureOpenings(MemoryTableStore):
    """A store whose next opening saves (``wrote``) or not and loses the answer."""

    wrote: bool | None = None
    lookups_fail = 0

    async def create_table(self, new: NewTable) -> SavedTable:
        wrote, self.wrote = self.wrote, None
        if wrote is None:
            return await super().create_table(new)
        if wrote:
            await super().create_table(new)
        raise ConnectionLostError("no answer", reason="timeout", unsure=True)

    async def open_tables(self, *args: Any, **kwargs: Any) -> Any:
        if self.lookups_fail:
            self.lookups_fail -= 1
            raise ConnectionLostError("connecting again failed", reason="refused")
        return await super().open_tables(*args, **kwargs)


async def test_an_opening_whose_answer_was_lost_never_jams_the_channel(
    make_harness: MakeHarness,
) -> None:
    store = UnsureOpenings()
    tables = TableService(store, make_player, seeds=lambda: 5)
    bot = EuchreBot(
        Settings(computer_move_delay=0), tables=tables, channel_limits=ChannelLimits.unlimited()
    )
    h = await make_harness(bot)
    g = h.guild(members=NAMES)
    alice, bob = g.member("alice"), g.member("bob")

    store.wrote = True  # saved: the table is found and shown as opened
    opened = await h.slash(alice, "euchre new")
    assert not opened.ephemeral and only_table(bot).message_id == opened.message.id
    await h.slash(alice, "euchre abort")

    store.wrote = False  # not saved: the person is told, and trying again opens it
    refused = await h.slash(alice, "euchre new")
    assert refused.ephemeral and refused.content == OPEN_UNSURE and bot.tables.open_tables == []
    assert not (await h.slash(alice, "euchre new")).ephemeral
    await h.slash(alice, "euchre abort")

    store.wrote, store.lookups_fail = True, 1  # saved, and the store can't say so yet
    refused = await h.slash(alice, "euchre new", allow_errors=True)
    assert refused.ephemeral and refused.content == OPEN_UNSURE
    again = await h.slash(bob, "euchre new")
    assert again.ephemeral and "already a table here" in again.content
    assert only_table(bot).host_id == alice.id
