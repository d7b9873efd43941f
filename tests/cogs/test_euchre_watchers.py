"""A watcher's view: every hand of the deal that has just ended, privately, for anyone.

The public table message offers "Hands of the last deal" in a casual game between deals
and after the game, where the server allows it; a click is answered privately with the
four hands as dealt. During a deal, in a ranked game, or with the setting off, a click
(an old button, a forged id) gets one sentence, and nothing changes.
"""

from __future__ import annotations

from bot.render import hand_text
from bot.rules import HouseRules, game_record, parse_card
from bot.server.settings import ServerSettings
from bot.tables import Table
from bot.tables.turn_timers import person_to_act
from tests.cogs.deal_end import between_deals, forged_click, play_first_deal, seated
from tests.cogs.euchre_driver import act_through_hand, build_bot, random_policy
from tests.conftest import MakeHarness
from tests.kit.harness import StoredMessage

HANDS = "Hands of the last deal"


def labels(message: StoredMessage) -> list[str]:
    return [b.label for b in message.buttons]


def dealt(table: Table, deal: int) -> list[list[str]]:
    """The hands of deal ``deal`` as its record has them."""
    assert table.game is not None
    return list(game_record(table.game, with_deals=True)["deals"][deal - 1]["hands"])


async def test_a_watcher_sees_every_hand_of_a_casual_game_s_deal_between_deals(
    make_harness: MakeHarness,
) -> None:
    # seed 2: the first bidder of deal 2 is a person, so the table waits between deals
    bot = build_bot(2)
    h = await make_harness(bot)
    people, wendy, message, table = await seated(h, bot, ["alice", "bob"])
    assert HANDS not in labels(h.message(message.id)), "a deal is in play"
    refused = await forged_click(h, wendy, h.message(message.id), table)
    assert refused.ephemeral and "A deal is in play" in refused.content

    await play_first_deal(h, bot, people, message)
    assert table.status == "playing" and between_deals(table)
    shown = h.message(message.id)
    assert HANDS in labels(shown)
    before = (table.stamp, len(table.actors))
    assert table.game is not None
    number = len(table.game.results) - 1
    trump = table.game.results[number - 1].trump
    for asker in (wendy, people[0]):
        answer = await h.click(asker, shown, label=HANDS)
        assert answer.ephemeral
        text = answer.text
        assert f"Table {table.number}: the hands of deal {number}" in text
        for hand in dealt(table, number):
            assert hand_text([parse_card(c) for c in hand], trump) in text
        assert "Alice" in text and "Bob" in text and "(dealer)" in text
    assert (table.stamp, len(table.actors)) == before, "showing hands changes nothing"

    to_act = person_to_act(table)
    person = next(p for p in people if p.id == to_act)
    await act_through_hand(h, bot, person, h.message(message.id), random_policy(1))
    assert HANDS not in labels(h.message(message.id)), "the next deal is in play"
    late = await forged_click(h, wendy, h.message(message.id), table)
    assert late.ephemeral and "A deal is in play" in late.content


async def test_after_the_game_the_last_deal_s_hands_may_be_seen(
    make_harness: MakeHarness,
) -> None:
    bot = build_bot(2, server=ServerSettings(rules=HouseRules(target_score=1)))
    h = await make_harness(bot)
    people, wendy, message, table = await seated(h, bot, ["alice"])
    await play_first_deal(h, bot, people, message)
    assert table.status == "finished"
    shown = h.message(message.id)
    assert HANDS in labels(shown) and "Play again" in labels(shown)
    answer = await h.click(wendy, shown, label=HANDS)
    assert table.game is not None
    number = len(table.game.results)
    assert answer.ephemeral and f"the hands of deal {number}" in answer.text


async def test_ranked_games_never_show_the_hands(make_harness: MakeHarness) -> None:
    bot = build_bot(2)
    h = await make_harness(bot)
    people, wendy, message, table = await seated(h, bot, ["alice", "bob", "carol", "dave"])
    await play_first_deal(h, bot, people, message)
    assert not table.casual and between_deals(table)
    assert HANDS not in labels(h.message(message.id))
    refused = await forged_click(h, wendy, h.message(message.id), table)
    assert refused.ephemeral and "only in casual games" in refused.content


async def test_a_server_may_turn_the_watchers_view_off(make_harness: MakeHarness) -> None:
    bot = build_bot(2, server=ServerSettings(watchers_see_hands=False))
    h = await make_harness(bot)
    people, wendy, message, table = await seated(h, bot, ["alice", "bob"])
    await play_first_deal(h, bot, people, message)
    assert table.casual and between_deals(table)
    assert HANDS not in labels(h.message(message.id))
    refused = await forged_click(h, wendy, h.message(message.id), table)
    assert refused.ephemeral and "doesn't show the hands" in refused.content
