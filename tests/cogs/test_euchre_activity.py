"""The table message offers the Discord Activity where the bot serves it: "Open the table".

Its click is answered with Discord's launch-activity response, which opens the Activity
for the clicker in that channel. Without the Activity served, no such button shows, and
an old one gets a sentence; where Discord refuses to launch (the application has no
Activities), the clicker is told to use the buttons.
"""

from __future__ import annotations

from tests.cogs.deal_end import forged_click, seated
from tests.cogs.euchre_driver import build_bot, only_table
from tests.conftest import MakeHarness
from tests.kit.harness import StoredMessage

OPEN = "Open the table"


def labels(message: StoredMessage) -> list[str]:
    return [b.label for b in message.buttons]


async def test_the_lobby_and_the_game_offer_the_activity_and_launch_it(
    make_harness: MakeHarness,
) -> None:
    bot = build_bot(activity=True)
    h = await make_harness(bot)
    h.turn_on_activities()
    g = h.guild(members=["alice", "bob"])
    alice, bob = g.member("alice"), g.member("bob")
    lobby = (await h.slash(alice, "euchre new")).message
    assert OPEN in labels(lobby)
    launched = await h.click(bob, lobby, label=OPEN)
    assert [s.kind for s in launched.sent] == ["launch_activity"]
    await h.click(bob, h.message(lobby.id), label="Join")
    for _ in range(2):
        await h.click(alice, h.message(lobby.id), label="Add computer")
    await h.click(alice, h.message(lobby.id), label="Start")
    table = only_table(bot)
    message = h.message(lobby.id)
    assert table.status == "playing" and OPEN in labels(message)
    before = (table.stamp, table.status)
    launched = await h.click(bob, message, label=OPEN)
    assert [s.kind for s in launched.sent] == ["launch_activity"]
    assert (table.stamp, table.status) == before


async def test_without_the_activity_no_button_and_an_old_one_is_answered(
    make_harness: MakeHarness,
) -> None:
    bot = build_bot()
    h = await make_harness(bot)
    _, watcher, message, table = await seated(h, bot, ["alice"])
    assert OPEN not in labels(message)
    answer = await forged_click(h, watcher, message, table, f"euchre:t:{table.id}:activity")
    assert answer.ephemeral and "doesn't serve the table as an Activity" in answer.content


async def test_a_launch_discord_refuses_is_told_plainly(make_harness: MakeHarness) -> None:
    bot = build_bot(activity=True)
    h = await make_harness(bot)  # the application has no Activities: Discord refuses
    g = h.guild(members=["alice"])
    lobby = (await h.slash(g.member("alice"), "euchre new")).message
    answer = await h.click(g.member("alice"), lobby, label=OPEN, allow_errors=True)
    assert answer.ephemeral and "use the buttons" in answer.content
    assert h.take_errors("launching the Activity")
