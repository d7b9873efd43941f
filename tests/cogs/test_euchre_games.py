"""Whole games through the real bot: one person with three computers, and four people.

Every move of a person is a click on their private hand; every public payload of the
game is checked against the cards that were hidden at that moment.
"""

from __future__ import annotations

import asyncio

import pytest

from bot.rules import replay
from bot.server.settings import ServerSettings
from bot.tables import Table
from tests.cogs.euchre_driver import (
    ACTION_ID,
    HiddenCardWatch,
    act_through_hand,
    build_bot,
    only_table,
    random_policy,
    started,
)
from tests.conftest import MakeHarness
from tests.kit.harness import Sent


def hand_payloads(sent: list[Sent]) -> list[Sent]:
    """Every recorded payload that shows a private hand."""
    return [
        s
        for s in sent
        if s.is_message and any("Your hand" in (e.get("title") or "") for e in s.embeds)
    ]


@pytest.mark.parametrize("seed", [3, 11])
async def test_one_person_and_three_computers_play_a_whole_game(
    make_harness: MakeHarness, seed: int
) -> None:
    bot = build_bot(seed)
    h = await make_harness(bot)
    watch = HiddenCardWatch(h)
    watch.listen(bot.tables)
    g = h.guild(members=["alice"])
    alice = g.member("alice")

    opened = await h.slash(alice, "euchre new")
    assert not opened.ephemeral
    table_message = opened.message
    assert "Alice (host)" in table_message.text
    for _ in range(3):
        await h.click(alice, table_message, label="Add computer")
    started = await h.click(alice, table_message, label="Start")
    assert not started.reply.ephemeral
    table = only_table(bot)
    assert table.status == "playing"

    policy = random_policy(seed)
    reopened = 0
    while table.status == "playing":
        assert table.game is not None and table.game.turn == 0, "computers left a turn"
        needed, _ = await act_through_hand(h, bot, alice, table_message, policy)
        reopened += needed

    assert reopened == 1, "the private hand should be refreshed after computer moves"
    final = h.message(table_message.id)
    assert "game over" in final.text
    assert final.button("Play again")
    assert replay(table.record()).game.over
    assert bot.tables.store.tables[table.id].status == "finished"  # type: ignore[attr-defined]

    hands = hand_payloads(h.sent)
    assert hands and all(s.ephemeral for s in hands)
    assert all(h.message(s.message_id or 0).ephemeral for s in hands), "flag 64 on every hand"
    assert all(s.ephemeral for s in h.sent if s.is_message and ACTION_ID in s.dump())
    assert watch.check_all() > 20


async def test_four_people_play_a_whole_game(make_harness: MakeHarness) -> None:
    bot = build_bot(5)
    h = await make_harness(bot)
    watch = HiddenCardWatch(h)
    watch.listen(bot.tables)
    names = ["alice", "bob", "carol", "dave"]
    g = h.guild(members=names)
    people = [g.member(n) for n in names]

    opened = await h.slash(people[0], "euchre new")
    table_message = opened.message
    for person in people[1:]:
        joined = await h.click(person, table_message, label="Join")
        assert not joined.reply.ephemeral
    assert "can start the game" in h.message(table_message.id).text
    await h.click(people[0], table_message, label="Start")
    table = only_table(bot)
    assert [s.user_id for s in table.seats if s] == [p.id for p in people]

    policy = random_policy(5)
    reopened = 0
    moves = 0
    while table.status == "playing":
        assert table.game is not None and table.game.turn is not None
        person = people[table.game.turn]
        needed, _ = await act_through_hand(h, bot, person, table_message, policy)
        reopened += needed
        moves += 1

    assert reopened <= len(people), "hands should be refreshed when the turn comes"
    assert moves == len(table.game.log)
    assert "game over" in h.message(table_message.id).text
    hands = hand_payloads(h.sent)
    assert {s.visible_to for s in hands} == {p.id for p in people}
    assert all(s.ephemeral for s in hands)
    assert watch.check_all() > 50


async def test_a_turn_ping_is_a_new_message_taken_away_after_the_move(
    make_harness: MakeHarness,
) -> None:
    bot = build_bot(5, server=ServerSettings(ping_after=0))
    h = await make_harness(bot)
    people, table_message = await started(h)
    table = only_table(bot)
    policy = random_policy(1)
    movers = []
    for _ in range(6):
        assert table.game is not None and table.game.turn is not None
        movers.append(people[table.game.turn].id)
        await act_through_hand(h, bot, people[table.game.turn], table_message, policy)

    edits = [s for s in h.sent if s.public and s.message_id == table_message.id and s.body]
    assert edits and all("<@" not in (s.data.get("content") or "") for s in edits)
    assert all(not (s.data.get("allowed_mentions") or {}).get("users") for s in edits)
    pings = [s for s in h.sent if s.kind == "channel_send"]
    assert len(pings) >= 5
    for ping in pings:
        user = int(ping.content[2 : ping.content.index(">")])
        mentions = ping.data["allowed_mentions"]
        assert mentions.get("users") in ([str(user)], [user]) and mentions.get("parse") == []
    live = [p for p in pings if not h.message(p.message_id or 0).deleted]
    assert len(live) == 1, "each ping goes once its turn is over"
    assert table.game.turn is not None
    assert f"<@{people[table.game.turn].id}>" in live[0].content
    deletes = [s for s in h.sent if s.kind == "channel_delete"]
    assert len(deletes) == len(pings) - 1


def test_the_watch_would_catch_a_leak() -> None:
    from tests.cogs.euchre_driver import Snapshot

    watch = HiddenCardWatch(harness=None)  # type: ignore[arg-type]
    watch.snapshots.append(Snapshot(0, frozenset({"J♦"}), frozenset({"9♠"})))

    def edit(seq: int, embed: dict[str, object]) -> Sent:
        """The table message edited to show ``embed``."""
        return Sent(seq, "channel_edit", "PATCH", "", "", body={"embeds": [embed]})

    leaking = edit(1, {"description": "Trump: ♥ — Bob holds J♦"})
    assert watch.leaks(leaking, 0) == ["J♦"]
    last_deal = edit(2, {"fields": [{"name": "Last deal", "value": "9♠ · A♣"}]})
    assert watch.leaks(last_deal, 0) == ["A♣ (last deal)"]


async def test_the_persons_move_shows_at_once_then_each_computer_move_in_its_turn(
    make_harness: MakeHarness,
) -> None:
    bot = build_bot(3, delay=0.01)
    pauses: list[tuple[float, int]] = []
    h = await make_harness(bot)
    pace = bot.tables.crew.computer_pace  # the presenter's: the delay, then room in the channel

    async def paced(table: Table, delay: float) -> None:
        pauses.append((delay, len(h.sent)))
        await pace(table, delay)
        for _ in range(50):  # what was submitted is sent
            await asyncio.sleep(0)

    bot.tables.crew.computer_pace = paced
    (alice,), table_message = await started(h, ["alice"], computers=3)
    table = only_table(bot)
    game = table.game
    assert game is not None
    policy = random_policy(3)
    while table.status == "playing":
        moves_before, pauses_before = len(game.log), len(pauses)
        _, reply = await act_through_hand(h, bot, alice, table_message, policy)
        dispatch = [s for s in h.sent if s.seq >= reply.seq]
        assert dispatch[0] is reply, "the click is answered before the computers play"
        computer_moves = len(game.log) - moves_before - 1
        if computer_moves >= 2:
            break
    else:
        pytest.fail("no click was followed by two computer moves")
    paused = pauses[pauses_before:]
    assert [delay for delay, _ in paused] == [0.01] * computer_moves
    edits = [i for i, s in enumerate(h.sent) if s.seq >= reply.seq and s.public]
    edits = [i for i in edits if h.sent[i].message_id == table_message.id]
    assert len(edits) == computer_moves + 1, "the person's move, then each computer's"
    # Pause k comes before computer move k: by then, the k states before it were shown
    # (the person's own move may be shown before the first pause already).
    shown = [sum(i < mark for i in edits) for _, mark in paused]
    assert shown[0] in (0, 1) and shown[1:] == list(range(1, computer_moves))
