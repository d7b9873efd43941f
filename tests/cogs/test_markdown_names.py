"""Names with Markdown in them read as typed, through the real bot, from the lobby to the game's end.

Seven members whose names would format, mention or link (and one of 100 ``*``, escaped to
twice its length) play a one-deal game of eight-hand Bid Euchre with a computer: every
message names them escaped, the harness refuses any payload past Discord's limits, and
the thread's name (plain text) names the host as typed.
"""

from __future__ import annotations

from bot.render.names import shown
from bot.rules import HouseRules
from bot.server.settings import ServerSettings
from tests.cogs.euchre_driver import act_through_hand, build_bot, only_table, random_policy
from tests.conftest import MakeHarness
from tests.kit.harness import MemberSpec
from tests.render.test_names import MARKDOWN_NAMES, read_as_discord

NAMES = MARKDOWN_NAMES


async def test_names_with_markdown_read_as_typed_through_a_whole_game(
    make_harness: MakeHarness,
) -> None:
    rules = HouseRules.preset_rules("bid_euchre_8").with_changes(deals_per_game=1)
    bot = build_bot(3, server=ServerSettings(rules=rules, tables_in_threads=True))
    h = await make_harness(bot)
    g = h.guild(members=[MemberSpec(f"p{i}", nick=name) for i, name in enumerate(NAMES)])
    people = [g.member(f"p{i}") for i in range(len(NAMES))]

    opened = await h.slash(people[0], "euchre new")
    assert opened.message.content.startswith("🃏 \\*Sky\\* opened a euchre table")
    table = only_table(bot)
    assert table.place.thread_id is not None
    threads = [s for s in h.sent if s.path.endswith("/threads")]
    assert threads and threads[0].data["name"] == "Euchre with *Sky*", "a thread's name is plain"
    message = h.last_public_message(table.place.thread_id)
    for person in people[1:]:
        await h.click(person, h.message(message.id), label="Join")
    await h.click(people[0], h.message(message.id), label="Add computer")
    lobby = h.message(message.id)
    seats = lobby.embeds[0]["fields"][0]["value"]
    assert "1. 🔵 \\*Sky\\* (host)" in seats and "2. 🟠 \\_\\_dan\\_\\_" in seats
    assert all(shown(name) in seats for name in NAMES)
    assert "<@" not in seats and "](" not in seats.replace("\\](", "")
    assert not any("\\" in str(b.label) for b in lobby.buttons), "buttons are plain"

    await h.click(people[0], h.message(message.id), label="Start")
    by_id = {p.id: p for p in people}
    policy = random_policy(3)
    while table.status == "playing":
        game = table.game
        assert game is not None and game.turn is not None
        seat = table.seats[game.turn]
        assert seat is not None and seat.user_id is not None
        await act_through_hand(h, bot, by_id[seat.user_id], h.message(message.id), policy)
    final = h.message(message.id)
    assert "game over" in final.text
    for name in NAMES:
        assert shown(name) in final.text, f"{name!r} is shown escaped"
        assert name in read_as_discord(final.text), f"{name!r} reads as typed"
