"""A private hand's Review button: a finished deal of the table, reviewed by the expert.

In a casual game each person's hand offers the review of the last finished deal once it
has ended; in a ranked game, only once the game is over. The review runs on the table's
own record, at a small fixed budget here, and what the bot shows is checked against
``review_deal`` called directly. Someone else's deal, or a deal not open to review, is
refused privately, and nothing changes.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.app import EuchreBot
from bot.league import LeagueService, Reviewer
from bot.players.review import Budget, review_deal
from bot.render.review import table_review_text
from bot.rules import HouseRules
from bot.server.settings import ServerSettings
from bot.store import Database
from bot.tables import Table
from tests.cogs.deal_end import forged_click, play_first_deal, seated
from tests.cogs.euchre_driver import build_bot
from tests.conftest import MakeHarness
from tests.harness import FakeMember, Harness, StoredMessage

SMALL = Budget(worlds=6, rollouts=12)


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(tmp_path / "review.sqlite3")
    try:
        yield database
    finally:
        await database.close()


def reviewing(bot: EuchreBot, db: Database) -> EuchreBot:
    bot.league = LeagueService(db, reviewer=Reviewer(db, budget=SMALL))  # type: ignore[attr-defined]
    return bot


def review_label(message: StoredMessage) -> list[str]:
    return [b.label for b in message.buttons if "Review" in (b.label or "")]


async def hand_of(h: Harness, person: FakeMember, message: StoredMessage) -> StoredMessage:
    return (await h.click(person, h.message(message.id), label="Your hand")).message


def expected(table: Table, seat: int, deal: int, deals: int) -> str:
    review = review_deal(table.record(), seat, deal, SMALL)
    return table_review_text(table.id, deals, review)


async def test_a_casual_game_offers_the_review_of_each_finished_deal(
    make_harness: MakeHarness, db: Database
) -> None:
    bot = reviewing(build_bot(2), db)
    h = await make_harness(bot)
    people, _, message, table = await seated(h, bot, ["alice", "bob"])
    alice, bob = people
    assert review_label(await hand_of(h, alice, message)) == [], "no deal has ended yet"

    await play_first_deal(h, bot, people, message)
    assert table.game is not None and table.status == "playing"
    deals = len(table.game.results) - 1
    hand = await hand_of(h, alice, message)
    assert review_label(hand) == [f"🔍 Review deal {deals}"]
    before = (table.stamp, len(table.actors))
    answer = await h.click(alice, hand, label=f"🔍 Review deal {deals}")
    assert answer.ephemeral
    assert answer.content == expected(table, 0, deals, deals)
    if deals > 1:
        shown = answer.message
        stepped = await h.click(alice, shown, label="◀ Previous deal")
        assert stepped.deferred
        assert h.message(shown.id).content == expected(table, 0, deals - 1, deals)
    assert (table.stamp, len(table.actors)) == before, "a review changes nothing"

    refused = await forged_click(
        h, bob, h.message(message.id), table, f"euchre:tr:{table.id}:0:{deals}"
    )
    assert refused.ephemeral and "another player's deal" in refused.content
    too_far = await forged_click(
        h, alice, h.message(message.id), table, f"euchre:tr:{table.id}:0:{deals + 1}"
    )
    assert too_far.ephemeral and "can't be reviewed now" in too_far.content


async def test_a_ranked_game_offers_reviews_only_once_it_has_ended(
    make_harness: MakeHarness, db: Database
) -> None:
    server = ServerSettings(rules=HouseRules(target_score=1))
    bot = reviewing(build_bot(2, server=server), db)
    h = await make_harness(bot)
    people, _, message, table = await seated(h, bot, ["alice", "bob", "carol", "dave"])
    assert not table.casual
    refused = await forged_click(
        h, people[0], h.message(message.id), table, f"euchre:tr:{table.id}:0:1"
    )
    assert refused.ephemeral and "can't be reviewed now" in refused.content

    await play_first_deal(h, bot, people, message)
    assert table.status == "finished" and table.game is not None
    deals = len(table.game.results)
    for person in people:
        hand = h.last_ephemeral(person)
        assert review_label(hand) == [f"🔍 Review deal {deals}"], hand.buttons
    answer = await h.click(people[2], h.last_ephemeral(people[2]), label=f"🔍 Review deal {deals}")
    assert answer.ephemeral and answer.content == expected(table, 2, deals, deals)
