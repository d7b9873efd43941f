"""The /euchre commands and the table's other buttons, through the real bot."""

from __future__ import annotations

from typing import Any

from bot.server.settings import ServerSettings
from tests.cogs.euchre_driver import (
    HiddenCardWatch,
    act_through_hand,
    build_bot,
    only_table,
    random_policy,
    state,
)
from tests.conftest import MakeHarness
from tests.kit.harness import FakeMember, Harness, StoredMessage


async def lobby(
    make_harness: MakeHarness, *members: Any, seed: int = 1, server: ServerSettings | None = None
) -> tuple[Harness, Any, list[FakeMember], StoredMessage]:
    bot = build_bot(seed, server=server)
    h = await make_harness(bot)
    g = h.guild(members=members or ["alice", "bob"], channels=("table", "other"))
    people = list(g.members.values())
    message = (await h.slash(people[0], "euchre new")).message
    return h, bot, people, message


async def test_help_and_rules_are_private(make_harness: MakeHarness) -> None:
    bot = build_bot()
    h = await make_harness(bot)
    alice = h.guild(members=["alice"]).member("alice")
    helped = await h.slash(alice, "euchre help")
    assert helped.ephemeral and "Your hand" in helped.text
    rules = await h.slash(alice, "euchre rules show")
    assert rules.ephemeral
    assert "This server's house rules" in rules.text and "Stick the dealer" not in rules.text
    for group in ("Pack", "Bidding", "Going alone", "Play", "Scoring", "Game length"):
        assert group in rules.text


async def test_a_channel_has_one_open_table(make_harness: MakeHarness) -> None:
    h, bot, (alice, bob), _ = await lobby(make_harness)
    again = await h.slash(bob, "euchre new")
    assert again.ephemeral and "already a table here" in again.content
    table = only_table(bot)
    link = f"https://discord.com/channels/{alice.guild.id}/{table.place.id}/{table.message_id}"
    assert again.content.endswith(f"It's here: {link}")
    other = alice.guild.channels["other"]
    elsewhere = await h.slash(bob, "euchre new", channel=other)
    assert not elsewhere.ephemeral
    await h.click(alice, elsewhere.message, label="Join")
    assert len(bot.tables.tables_of(alice.id)) == 2


async def test_rules_button_and_command_show_the_tables_rules(make_harness: MakeHarness) -> None:
    h, bot, (_, bob), message = await lobby(make_harness)
    clicked = await h.click(bob, message, label="Rules")
    assert clicked.ephemeral and f"Rules of table {only_table(bot).id}" in clicked.text
    typed = await h.slash(bob, "euchre rules show")
    assert typed.ephemeral and f"Table {only_table(bot).id} here plays these rules" in typed.text


async def test_seats_can_be_chosen_to_partner_up(make_harness: MakeHarness) -> None:
    h, bot, (alice, bob, carol), message = await lobby(make_harness, "alice", "bob", "carol")
    await h.select(bob, message, ["2"], custom_id="euchre:seat:1")
    table = only_table(bot)
    assert table.seat_of(bob.id) == 2, "bob sits opposite alice"
    await h.click(alice, h.message(message.id), label="Add computer")
    assert table.seats[1] is not None and table.seats[1].is_computer
    await h.select(carol, h.message(message.id), ["1"], custom_id="euchre:seat:1")
    assert table.seat_of(carol.id) == 1, "a person may take a computer's seat"
    text = h.message(message.id).text
    assert "Partners" in text and "seats 1 & 3" in text


async def test_leaving_the_lobby_frees_the_seat_and_passes_the_host(
    make_harness: MakeHarness,
) -> None:
    h, bot, (alice, bob), message = await lobby(make_harness)
    await h.click(bob, message, label="Join")
    left = await h.click(alice, h.message(message.id), label="Leave")
    assert not left.reply.ephemeral
    table = only_table(bot)
    assert table.host_id == bob.id and table.seat_of(alice.id) is None
    assert "Bob (host)" in h.message(message.id).text
    await h.slash(bob, "euchre leave")
    assert not bot.tables.open_tables
    assert "closed" in h.message(message.id).text


async def test_leaving_a_game_gives_the_seat_to_a_computer(make_harness: MakeHarness) -> None:
    h, bot, (alice, bob), message = await lobby(make_harness, seed=4)
    await h.click(bob, message, label="Join")
    for _ in range(2):
        await h.click(alice, h.message(message.id), label="Add computer")
    await h.click(alice, h.message(message.id), label="Start")
    table = only_table(bot)
    left = await h.slash(bob, "euchre leave")
    assert left.ephemeral and "A computer plays your seat" in left.content
    seat = table.seats[1]
    assert seat is not None and seat.is_computer
    policy = random_policy(2)
    while table.status == "playing":
        assert table.game is not None and table.game.turn == 0
        await act_through_hand(h, bot, alice, message, policy)
    assert "game over" in h.message(message.id).text


async def test_abort_is_for_the_host_or_a_server_manager(make_harness: MakeHarness) -> None:
    bot = build_bot()
    h = await make_harness(bot)
    g = h.guild(members=["alice", "bob", ("mod", {"manage_guild": True})])
    alice, bob, mod = g.member("alice"), g.member("bob"), g.member("mod")
    message = (await h.slash(alice, "euchre new")).message
    await h.click(bob, message, label="Join")
    before = state(only_table(bot))
    refused = await h.slash(bob, "euchre abort")
    assert refused.ephemeral and "Only the host, Alice" in refused.content
    assert state(only_table(bot)) == before
    closed = await h.slash(mod, "euchre abort")
    assert not closed.ephemeral and "closed table" in closed.content
    assert not bot.tables.open_tables
    final = h.message(message.id)
    assert "closed" in final.text and not final.buttons
    stale = await h.slash(alice, "euchre hand")
    assert stale.ephemeral and "no table here" in stale.content


async def test_hand_before_the_game_and_for_strangers(make_harness: MakeHarness) -> None:
    h, _, (alice, bob), message = await lobby(make_harness)
    early = await h.slash(alice, "euchre hand")
    assert early.ephemeral and "hasn't started" in early.content
    stranger = await h.click(bob, message, label="Leave")
    assert stranger.reply.ephemeral and "not seated" in stranger.reply.content


async def test_play_again_reopens_the_table_with_the_same_seats_and_rules(
    make_harness: MakeHarness,
) -> None:
    h, bot, (alice, bob), message = await lobby(make_harness, seed=9)
    for _ in range(3):
        await h.click(alice, h.message(message.id), label="Add computer")
    await h.click(alice, h.message(message.id), label="Start")
    first = only_table(bot)
    policy = random_policy(9)
    while first.status == "playing":
        await act_through_hand(h, bot, alice, message, policy)
    refused = await h.click(bob, h.message(message.id), label="Play again")
    assert refused.reply.ephemeral and "Only this game's players" in refused.reply.content
    again = await h.click(alice, h.message(message.id), label="Play again")
    assert not again.reply.ephemeral
    second = only_table(bot)
    assert second.id != first.id and second.status == "lobby"
    assert second.seats == first.seats and second.rules == first.rules
    assert "Play again" not in [b.label for b in h.message(message.id).buttons]
    await h.click(alice, again.message, label="Start")
    assert second.status == "playing"


async def test_tables_in_threads(make_harness: MakeHarness) -> None:
    bot = build_bot(2, server=ServerSettings(tables_in_threads=True))
    h = await make_harness(bot)
    watch = HiddenCardWatch(h)
    watch.listen(bot.tables)
    g = h.guild(members=["alice", "bob"])
    alice, bob = g.member("alice"), g.member("bob")
    opened = await h.slash(alice, "euchre new")
    assert "thread" in opened.content
    table = only_table(bot)
    assert table.place.thread_id is not None and table.place.channel_id == g.channel.id
    message = h.last_public_message(table.place.thread_id)
    assert "lobby" in message.text
    second = await h.slash(bob, "euchre new")
    assert not second.ephemeral, "another table opens in another thread"
    assert len(bot.tables.open_tables) == 2
    hand = await h.slash(alice, "euchre hand", channel=table.place.thread_id)
    assert hand.ephemeral and "hasn't started" in hand.content


async def test_without_thread_permission_the_table_opens_in_the_channel(
    make_harness: MakeHarness,
) -> None:
    bot = build_bot(2, server=ServerSettings(tables_in_threads=True))
    h = await make_harness(bot)
    g = h.guild(members=["alice", "bob"])
    alice, bob = g.member("alice"), g.member("bob")
    h.fail_http("POST", "/channels/{channel_id}/messages/{message_id}/threads", times=2)
    opened = await h.slash(alice, "euchre new")
    table = only_table(bot)
    assert table.place.thread_id is None and table.message_id == opened.reply.message_id
    assert "lobby" in opened.message.text
    refused = await h.slash(bob, "euchre new")
    assert refused.followups and refused.followups[0].ephemeral
    assert "already a table here" in refused.followups[0].content
    assert h.message(refused.reply.message_id or 0).deleted


async def test_the_host_chooses_how_well_the_computers_play(make_harness: MakeHarness) -> None:
    server = ServerSettings(computer_default_level="beginner")
    h, bot, (alice, bob), message = await lobby(make_harness, server=server)
    await h.click(alice, message, label="Add computer")
    table = only_table(bot)
    assert table.seats[1] is not None and table.seats[1].level == "beginner"
    assert "(Beginner)" in h.message(message.id).text, "the table shows each computer's level"
    refused = await h.select(bob, h.message(message.id), ["expert"], custom_id="euchre:lvl:1")
    assert refused.ephemeral and "Only the host" in refused.text
    assert table.seats[1].level == "beginner"
    await h.select(alice, h.message(message.id), ["expert"], custom_id="euchre:lvl:1")
    assert table.seats[1] is not None and table.seats[1].level == "expert"
    await h.click(alice, h.message(message.id), label="Add computer")
    assert table.seats[2] is not None and table.seats[2].level == "expert"
    text = h.message(message.id).text
    assert "Computer players: **Expert**" in text and text.count("(Expert)") == 2
    forged = h.build_component(
        alice, h.message(message.id), custom_id="euchre:lvl:1", values=["basic"]
    )
    forged["data"]["values"] = ["genius"]
    bad = await h.dispatch(forged)
    assert bad.ephemeral and "not a computer level" in bad.text
    assert table.computer_level == "expert"
