"""The Hint button: casual games only, answered privately from the expert's own figures."""

from __future__ import annotations

from bot.server.settings import ServerSettings
from tests.cogs.euchre_driver import build_bot, only_table, started
from tests.conftest import MakeHarness

HINT = "💡 Hint"


async def test_a_casual_game_offers_hints_and_says_one_was_used(
    make_harness: MakeHarness,
) -> None:
    bot = build_bot(3)
    h = await make_harness(bot)
    (alice,), table_message = await started(h, ["alice"], computers=3)
    table = only_table(bot)
    assert table.game is not None and table.game.turn == 0
    hand = (await h.click(alice, h.message(table_message.id), label="Your hand")).message
    assert hand.button(HINT)
    assert "hint was used" not in h.message(table_message.id).text
    answer = await h.click(alice, hand, label=HINT)
    assert answer.ephemeral
    text = answer.text
    # the bot's expert draws a fixed number of samples here (COUNTED_PLAYERS): one wording
    assert text.startswith("Pass: in clubs you hold the left bower"), text
    assert "passing is worth about +0.5 points against ordering up" in text, text
    assert text.endswith("(6 deals sampled)."), text
    assert table.hinted
    assert "a hint was used (casual)" in h.message(table_message.id).text
    assert table.game.turn == 0, "a hint makes no move"


async def test_ranked_games_and_servers_without_hints_show_none(
    make_harness: MakeHarness,
) -> None:
    bot = build_bot(3)
    h = await make_harness(bot)
    people, table_message = await started(h)
    table = only_table(bot)
    assert table.game is not None and table.game.turn is not None
    turn = people[table.game.turn]
    hand = (await h.click(turn, h.message(table_message.id), label="Your hand")).message
    assert hand.button("↻ Refresh")
    assert all(b.label != HINT for b in hand.buttons), "ranked: no hint"
    assert not table.hinted


async def test_a_server_may_turn_hints_off(make_harness: MakeHarness) -> None:
    bot = build_bot(3, server=ServerSettings(allow_hints=False))
    h = await make_harness(bot)
    (alice,), table_message = await started(h, ["alice"], computers=3)
    hand = (await h.click(alice, h.message(table_message.id), label="Your hand")).message
    assert hand.button("↻ Refresh")
    assert all(b.label != HINT for b in hand.buttons)
