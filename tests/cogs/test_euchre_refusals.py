"""Every wrong move is refused with a private sentence and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from bot.rules import Game, HouseRules
from bot.rules.ranking import build_ranking, top_rank_word
from tests.cogs.euchre_driver import action_buttons, build_bot, only_table, state
from tests.conftest import MakeHarness
from tests.kit.harness import FakeMember, Harness, Result, StoredMessage

NAMES = ["alice", "bob", "carol", "dave"]


def assert_refused(result: Result, *words: str) -> None:
    """The click got one private answer containing ``words``, and nothing public moved."""
    assert result.reply.ephemeral, result.reply
    for word in words:
        assert word in result.reply.content, result.reply.content
    assert not [s for s in result.sent if s.public and s.is_message], result.sent


async def full_table(
    make_harness: MakeHarness, seed: int = 1
) -> tuple[Harness, Any, list[FakeMember], StoredMessage]:
    bot = build_bot(seed)
    h = await make_harness(bot)
    g = h.guild(members=[*NAMES, "erin"])
    people = [g.member(n) for n in NAMES]
    message = (await h.slash(people[0], "euchre new")).message
    for person in people[1:]:
        await h.click(person, message, label="Join")
    return h, bot, people, h.message(message.id)


async def test_joining_a_full_table_is_refused(make_harness: MakeHarness) -> None:
    h, bot, people, message = await full_table(make_harness)
    erin = people[0].guild.member("erin")
    before = state(only_table(bot))
    assert message.button("Join").disabled
    result = await h.click(erin, message, label="Join", force=True)
    assert_refused(result, "The table is full.")
    assert state(only_table(bot)) == before


async def alices_new_table(
    make_harness: MakeHarness,
) -> tuple[Harness, Any, FakeMember, FakeMember, StoredMessage]:
    """A table Alice has just opened, alone at it, with Bob in the channel."""
    bot = build_bot(1)
    h = await make_harness(bot)
    g = h.guild(members=NAMES)
    alice, bob = g.member("alice"), g.member("bob")
    message = (await h.slash(alice, "euchre new")).message
    return h, bot, alice, bob, message


async def test_taking_a_persons_seat_is_refused(make_harness: MakeHarness) -> None:
    h, bot, alice, bob, message = await alices_new_table(make_harness)
    await h.select(bob, message, ["2"], custom_id="euchre:seat:1")
    table = only_table(bot)
    assert table.seat_of(bob.id) == 2
    payload = h.build_component(
        alice, h.message(message.id), custom_id="euchre:seat:1", values=["1"]
    )
    payload["data"]["values"] = ["2"]
    before = state(table)
    assert_refused(await h.dispatch(payload), "Seat 3 is taken by Bob.")
    assert state(table) == before


async def test_starting_without_enough_players_is_refused(make_harness: MakeHarness) -> None:
    h, bot, alice, bob, message = await alices_new_table(make_harness)
    await h.click(bob, message, label="Join")
    message = h.message(message.id)
    assert message.button("Start").disabled
    before = state(only_table(bot))
    result = await h.click(alice, message, label="Start", force=True)
    assert_refused(result, "Seats 3 and 4 are still empty", "Add computer")
    assert state(only_table(bot)) == before


async def test_only_the_host_starts_or_adds_computers(make_harness: MakeHarness) -> None:
    h, bot, people, message = await full_table(make_harness)
    before = state(only_table(bot))
    assert_refused(await h.click(people[1], message, label="Start"), "Only the host, Alice")
    await h.click(people[3], message, label="Leave")
    message = h.message(message.id)
    assert_refused(await h.click(people[2], message, label="Add computer"), "Only the host, Alice")
    assert only_table(bot).status == "lobby"
    assert before[0] == "lobby"


async def started(
    make_harness: MakeHarness, seed: int
) -> tuple[Harness, Any, list[FakeMember], StoredMessage]:
    h, bot, people, message = await full_table(make_harness, seed)
    await h.click(people[0], message, label="Start")
    return h, bot, people, h.message(message.id)


async def open_hand(h: Harness, member: FakeMember, message: StoredMessage) -> StoredMessage:
    return (await h.click(member, message, label="Your hand")).message


async def test_someone_elses_hand_is_refused(make_harness: MakeHarness) -> None:
    h, bot, people, message = await started(make_harness, 1)
    table = only_table(bot)
    assert table.game is not None and table.game.turn is not None
    owner = people[table.game.turn]
    intruder = next(p for p in people if p is not owner)
    hand = await open_hand(h, owner, message)
    button = action_buttons(hand)[0]
    payload = h.build_component(owner, hand, custom_id=button.custom_id)
    payload["member"] = intruder.member_payload(permissions=True)
    before = state(table)
    result = await h.dispatch(payload)
    assert_refused(result, f"That hand is {owner.name.title()}'s")
    assert state(table) == before


async def test_acting_out_of_turn_is_refused(make_harness: MakeHarness) -> None:
    h, bot, people, message = await started(make_harness, 1)
    table = only_table(bot)
    assert table.game is not None and table.game.turn is not None
    waiting = people[(table.game.turn + 1) % 4]
    hand = await open_hand(h, waiting, message)
    assert not action_buttons(hand), "someone waiting gets no action button"
    card = next(b for b in hand.buttons if b.custom_id and b.custom_id.startswith("euchre:a:"))
    before = state(table)
    result = await h.click(waiting, hand, custom_id=card.custom_id, force=True)
    turn_name = people[table.game.turn].name.title()
    assert_refused(result, "It's not your turn", f"{turn_name} is to bid")
    assert state(table) == before


def left_bower_deal() -> tuple[int, int, int, int]:
    """A seed where the first bidder, once trump is the upcard's suit, holds trump to lead
    and the next seat holds the left bower as its only trump.

    Returns (seed, leader, follower, left bower card).
    """
    rules = HouseRules.preset_rules("north_american")
    for seed in range(5000):
        game = Game(rules, seed=seed)
        trump = game.upcard >> 3
        eff = build_ranking(rules).suit[trump]
        leader, follower = (game.dealer + 1) % 4, (game.dealer + 2) % 4
        trumps = [c for c in game.hands[follower] if eff[c] == trump]
        if (
            len(trumps) == 1
            and top_rank_word(trumps[0], trump) == "the left bower"
            and any(eff[c] == trump for c in game.hands[leader])
        ):
            return seed, leader, follower, trumps[0]
    raise AssertionError("no seed found")


async def test_not_following_suit_is_refused_naming_the_left_bower(
    make_harness: MakeHarness,
) -> None:
    seed, leader, follower, bower = left_bower_deal()
    h, bot, people, message = await started(make_harness, seed)
    table = only_table(bot)
    game = table.game
    assert game is not None and game.turn == leader
    trump = game.upcard >> 3

    async def click(seat: int, pick: Any) -> None:
        hand = await open_hand(h, people[seat], h.message(message.id))
        button = pick(action_buttons(hand, table.stamp))
        await h.click(people[seat], hand, custom_id=button.custom_id)

    await click(
        leader,
        lambda bs: next(b for b in bs if b.label.startswith("Order up") and "alone" not in b.label),
    )
    await click(game.dealer, lambda bs: bs[0])  # the dealer discards
    assert game.phase == "play" and game.turn == leader
    eff = build_ranking(table.rules).suit[trump]
    lead = next(c for c in game.hands[leader] if eff[c] == trump)
    from bot.render import card_text
    from bot.rules.cards import card_label

    def code(button: Any) -> str:  # a card button may show the card's picture, not its text
        return str(button.custom_id).split(":")[6]

    await click(leader, lambda bs: next(b for b in bs if code(b) == f"play.{card_label(lead)}"))
    assert game.turn == follower

    hand = await open_hand(h, people[follower], h.message(message.id))
    playable = action_buttons(hand, table.stamp)
    assert [code(b) for b in playable] == [f"play.{card_label(bower)}"]
    assert playable[0].label in ("left", f"{card_text(bower)} left")
    other = next(
        b
        for b in hand.buttons
        if b.disabled and b.custom_id and b.custom_id.startswith("euchre:a:")
    )
    before = state(table)
    result = await h.click(people[follower], hand, custom_id=other.custom_id, force=True)
    suit = ["clubs", "diamonds", "hearts", "spades"][trump]
    assert_refused(result, f"You must follow {suit}", "the left bower", "jack of")
    assert state(table) == before


async def test_a_stale_button_refreshes_the_hand_and_changes_nothing(
    make_harness: MakeHarness,
) -> None:
    h, bot, people, message = await started(make_harness, 1)
    table = only_table(bot)
    assert table.game is not None and table.game.turn is not None
    seat = table.game.turn
    hand = await open_hand(h, people[seat], message)
    old = action_buttons(hand)[0]
    payload = h.build_component(people[seat], hand, custom_id=old.custom_id)
    await h.click(people[seat], hand, custom_id=old.custom_id)
    before = state(table)
    result = await h.dispatch(payload)  # the same click again: a double click
    assert result.reply.ephemeral
    assert "out of date" in result.reply.content
    assert state(table) == before


@pytest.mark.parametrize(
    "custom_id",
    [
        "euchre:a:1:0:1:0:play.ZZ",
        "euchre:a:999:0:1:0:pass",
        "euchre:t:999:join",
    ],
)
async def test_forged_or_unknown_ids_are_refused(make_harness: MakeHarness, custom_id: str) -> None:
    h, bot, people, message = await started(make_harness, 1)
    table = only_table(bot)
    payload = h.build_component(people[0], message, label="Your hand")
    payload["data"]["custom_id"] = custom_id
    payload["message"]["components"][0]["components"][0]["custom_id"] = custom_id
    before = state(table)
    result = await h.dispatch(payload)
    assert result.reply.ephemeral
    assert state(table) == before
