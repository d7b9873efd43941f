"""Helpers of the tests that play a table's first deal to its end through the harness."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.discord.app import EuchreBot
from bot.tables import Table
from bot.tables.turn_timers import person_to_act
from tests.cogs.euchre_driver import act_through_hand, only_table, random_policy, started
from tests.kit.harness import FakeMember, Harness, StoredMessage


async def seated(
    h: Harness, bot: EuchreBot, names: Sequence[str], watcher: str = "wendy"
) -> tuple[list[FakeMember], FakeMember, StoredMessage, Table]:
    """``names`` at a four-seat table, computers in the other seats; a watcher in the guild."""
    people, message = await started(h, names, 4 - len(names), others=[watcher])
    return people, people[0].guild.member(watcher), message, only_table(bot)


def between_deals(table: Table) -> bool:
    game = table.game
    assert game is not None
    return game.deal_number > 1 and all(deal != game.deal_number for deal, _ in table.actors)


async def play_first_deal(
    h: Harness, bot: EuchreBot, people: Sequence[FakeMember], message: StoredMessage
) -> Table:
    """Play on through the people's hands until the first deal has ended."""
    table = only_table(bot)
    policy = random_policy(7)
    while table.status == "playing" and not between_deals(table):
        to_act = person_to_act(table)
        assert to_act is not None, "the computers play on by themselves"
        person = next(p for p in people if p.id == to_act)
        await act_through_hand(h, bot, person, message, policy)
    return table


async def forged_click(
    h: Harness, user: FakeMember, message: StoredMessage, table: Table, forged: str = ""
) -> Any:
    """A click on ``forged`` (default: "Hands of the last deal") where the message shows
    none: an old button, or a forged id. Nothing at the table changes."""
    rules = f"euchre:t:{table.id}:rules"
    forged = forged or f"euchre:t:{table.id}:hands"
    payload = h.build_forged_component(user, message, forged, custom_id=rules)
    before = (table.stamp, len(table.actors), table.status)
    result = await h.dispatch(payload)
    assert (table.stamp, len(table.actors), table.status) == before
    return result.reply
