"""Bid Euchre through the real bot: a whole game, an eight-seat table, a refused bid."""

from __future__ import annotations

from typing import Any

from bot.discord.buttons import action_button
from bot.discord.routes import routed
from bot.rules import Action, HouseRules, replay
from bot.server.settings import ServerSettings
from tests.cogs.euchre_driver import (
    ACTION_ID,
    HiddenCardWatch,
    act_through_hand,
    action_buttons,
    build_bot,
    only_table,
    random_policy,
    started,
    state,
)
from tests.conftest import MakeHarness


def code(button: Any) -> str:
    """The action code a hand's button carries (its label may be a card's picture)."""
    return str(button.custom_id).split(":")[6]


def test_every_bid_euchre_action_code_routes_in_an_id_under_100_characters() -> None:
    actions = [
        Action.pass_(),
        Action.shoot(),
        *(Action.bid(n) for n in range(3, 9)),
        *(Action.declare(t) for t in ("C", "D", "H", "S", "high", "low")),
        Action.give("10H"),
        Action.discard("10H"),
    ]
    for action in actions:
        # The largest ids a table can reach: a snowflake-sized table id, a long game.
        button = action_button(2**63 - 1, 7, (9_999, 99_999), str(action), 24)
        assert len(button.custom_id) <= 100 and routed(button.custom_id), button.custom_id
        assert Action.from_code(button.custom_id.split(":")[6]) == action


async def test_one_person_and_three_computers_play_a_whole_bid_euchre_game(
    make_harness: MakeHarness,
) -> None:
    bot = build_bot(7)
    h = await make_harness(bot)
    watch = HiddenCardWatch(h)
    watch.listen(bot.tables)
    alice = h.guild(members=["alice"]).member("alice")

    opened = await h.slash(alice, "euchre new", {"preset": "bid_euchre"})
    table_message = opened.message
    assert "Bid Euchre" in table_message.text
    for _ in range(3):
        await h.click(alice, table_message, label="Add computer")
    await h.click(alice, table_message, label="Start")
    table = only_table(bot)
    assert table.game is not None and table.game.rules.game == "bid_euchre"
    assert table.status == "playing"

    policy = random_policy(7)
    codes: set[str] = set()
    while table.status == "playing":
        assert table.game.turn == 0, "computers left a turn"
        await act_through_hand(h, bot, alice, table_message, policy)
        hand = h.last_ephemeral(alice)
        codes |= {code(b) for b in action_buttons(hand)}
        assert all(len(str(b.custom_id)) <= 100 for b in hand.buttons)

    assert "pass" in codes and "shoot" in codes and "bid.3" in codes
    final = h.message(table_message.id)
    assert "game over" in final.text and final.button("Play again")
    record = table.record()
    assert record["rules"] == {"preset": "bid_euchre"}
    assert replay(record).game.over
    assert max(table.game.score) >= 32
    assert watch.check_all() > 20


async def test_eight_seats_fill_with_computers_start_and_play_tricks(
    make_harness: MakeHarness,
) -> None:
    server = ServerSettings(rules=HouseRules.preset_rules("bid_euchre_8"))
    bot = build_bot(4, server=server)
    h = await make_harness(bot)
    g = h.guild(members=["alice", "bob"])
    alice, bob = g.member("alice"), g.member("bob")

    table_message = (await h.slash(alice, "euchre new")).message
    lobby = h.message(table_message.id)
    assert "8. " in lobby.text and "Bid Euchre" in lobby.text
    seat_picker = f"euchre:seat:{only_table(bot).id}"
    assert len(lobby.select(custom_id=seat_picker).options) == 7
    # Seat 8, Alice's partner across the table.
    await h.select(bob, lobby, values=["7"], custom_id=seat_picker)
    for _ in range(6):
        await h.click(alice, table_message, label="Add computer")
    full = h.message(table_message.id)
    assert full.button("Add computer").disabled
    await h.click(alice, table_message, label="Start")
    table = only_table(bot)
    game = table.game
    assert game is not None and game.players == 8 and game.hand_size == 6
    assert table.seats[7] is not None and table.seats[7].user_id == bob.id
    names = [seat.name for seat in table.seats if seat is not None]
    assert len(set(names)) == 8, names

    policy = random_policy(4)
    people = {0: alice, 7: bob}
    acted = set()
    while table.status == "playing" and len(game.results) < 3:
        assert game.turn in people, "computers left a turn"
        acted.add(game.turn)
        await act_through_hand(h, bot, people[game.turn], table_message, policy)
    assert acted == {0, 7}
    assert len(game.results) >= 3, "two whole deals of eight seats were played"
    assert game.results[0].result in ("made", "set", "shot", "shot_failed")
    text = h.message(table_message.id).text
    assert "Last deal" in text or "game over" in text
    public = [s for s in h.sent if s.public and s.is_message]
    assert public and all(ACTION_ID not in s.dump() for s in public)


async def test_a_bid_not_above_the_highest_is_refused_with_the_rules_sentence(
    make_harness: MakeHarness,
) -> None:
    server = ServerSettings(rules=HouseRules.preset_rules("bid_euchre"))
    bot = build_bot(2, server=server)
    h = await make_harness(bot)
    people, message = await started(h)
    table = only_table(bot)
    game = table.game
    assert game is not None and game.turn is not None and game.phase == "bid"

    first = people[game.turn]
    hand = (await h.click(first, h.message(message.id), label="Your hand")).message
    four = next(b for b in action_buttons(hand, table.stamp) if code(b) == "bid.4")
    assert four.label == "Bid 4"
    await h.click(first, hand, custom_id=four.custom_id)

    second = people[game.turn]
    hand = (await h.click(second, h.message(message.id), label="Your hand")).message
    offered = [code(b) for b in action_buttons(hand, table.stamp)]
    assert "bid.4" not in offered and "bid.3" not in offered and "bid.5" in offered
    pass_id = next(b.custom_id for b in action_buttons(hand, table.stamp) if code(b) == "pass")
    forged = str(pass_id).replace(":pass", ":bid.4")
    payload = h.build_forged_component(second, hand, forged, custom_id=pass_id)
    before = state(table)
    result = await h.dispatch(payload)
    assert result.reply.ephemeral, result.reply
    assert "4" in result.reply.content and "bid" in result.reply.content.lower()
    assert state(table) == before
    assert not [s for s in result.sent if s.public and s.is_message]
