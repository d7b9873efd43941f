"""A private hand's Review button: a finished deal of the table, reviewed by the expert.

In a casual game each person's hand offers the review of the last finished deal once it
has ended; in a ranked game, only once the game is over. The review runs on the table's
own record, at a small fixed budget here, and what the bot shows is checked against
``review_deal`` called directly. Someone else's deal, or a deal not open to review, is
refused privately, and nothing changes. Once the table is gone (the bot restarted, or
dropped it from memory), a finished game's Review and its steps come from the game it
archived; a table whose game nothing kept answers with why there is no review.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from bot.discord.app import EuchreBot
from bot.discord.pace.pacing import ChannelLimits
from bot.discord.tables.components import gone_view
from bot.league import LeagueService
from bot.players import make_player
from bot.players.review import Budget, review_deal
from bot.render.review import table_review_text
from bot.review.service import Reviewer
from bot.rules import HouseRules
from bot.server.settings import ServerSettings
from bot.server.sources import FixedSettings
from bot.settings import Settings
from bot.store import Database, GameArchiveRepo
from bot.tables import Table, TableClosedError, TableService
from bot.tables.database import DatabaseTableStore
from tests.cogs.deal_end import forged_click, play_first_deal, seated
from tests.cogs.euchre_driver import (
    act_through_hand,
    build_bot,
    only_table,
    random_policy,
    started,
)
from tests.conftest import MakeHarness
from tests.kit.harness import FakeGuild, FakeMember, Harness, MemberSpec, StoredMessage
from tests.sqlite_only import db

__all__ = ["db"]

SMALL = Budget(choose=None, counted=6, worlds=6, rollouts=12)


def reviewing(bot: EuchreBot, db: Database) -> EuchreBot:
    bot.league = LeagueService(db, reviewer=Reviewer(db, budget=SMALL))  # type: ignore[attr-defined]
    return bot


def review_label(message: StoredMessage) -> list[str]:
    return [b.label for b in message.buttons if "Review" in (b.label or "")]


async def hand_of(h: Harness, person: FakeMember, message: StoredMessage) -> StoredMessage:
    return (await h.click(person, h.message(message.id), label="Your hand")).message


def expected(table: Table, seat: int, deal: int, deals: int) -> str:
    review = review_deal(table.record(), seat, deal, SMALL)
    return table_review_text(table.number, deals, review)


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


NAMES = ["alice", "bob", "carol", "dave"]


def kept_bot(db: Database, rules: HouseRules, *, keep_closed: int = 256) -> EuchreBot:
    """The real bot keeping its tables in ``db``, with a league that archives its games."""
    tables = TableService(
        DatabaseTableStore(db),
        make_player,
        server_settings=FixedSettings(ServerSettings(rules=rules)),
        seeds=lambda: 3,
        keep_closed=keep_closed,
    )
    bot = EuchreBot(
        Settings(computer_move_delay=0), tables=tables, channel_limits=ChannelLimits.unlimited()
    )
    return reviewing(bot, db)


async def finished_game(
    make_harness: MakeHarness,
    db: Database,
    *,
    keep_closed: int = 256,
    kept: dict[str, StoredMessage] | None = None,
) -> tuple[Harness, list[FakeMember], Table]:
    """Four people play a ranked game to its end (a game of a few deals); it is archived.

    ``kept`` gets carol's hand and the table's public message as they were at her first
    turn ("hand", "table"), as someone may still click them after a restart.
    """
    bot = kept_bot(db, HouseRules(target_score=3), keep_closed=keep_closed)
    h = await make_harness(bot)
    people, message = await started(h, NAMES)
    table = only_table(bot)
    policy = random_policy(5)
    while table.status == "playing":
        assert table.game is not None and table.game.turn is not None
        turn = table.game.turn
        if kept is not None and turn == 2 and "hand" not in kept:
            kept["hand"] = copy.deepcopy(await hand_of(h, people[2], message))
            kept["table"] = copy.deepcopy(h.message(message.id))
        await act_through_hand(h, bot, people[turn], message, policy)
    assert table.status == "finished"
    return h, people, table


async def forged(h: Harness, user: FakeMember, hand: StoredMessage, custom_id: str) -> Any:
    """A click on ``custom_id`` put in place of the hand's only button (a forged id)."""
    shown = str(hand.buttons[0].custom_id)
    payload = h.build_forged_component(user, hand, custom_id, custom_id=shown)
    return (await h.dispatch(payload)).reply


async def restarted(
    make_harness: MakeHarness, db: Database, people: list[FakeMember]
) -> tuple[Harness, FakeGuild]:
    """A new bot on the same database, with the guild, channel and people as before."""
    h2 = await make_harness(kept_bot(db, HouseRules(target_score=3)))
    g = people[0].guild
    members = [MemberSpec(p.name, id=p.id) for p in people]
    return h2, h2.guild(members=[*members, "wendy"], id=g.id, channel_ids=g.channel_ids)


async def test_a_finished_games_review_works_after_a_restart_and_so_do_its_steps(
    make_harness: MakeHarness, db: Database
) -> None:
    h, people, table = await finished_game(make_harness, db)
    archive = GameArchiveRepo(db)
    game = await archive.find_by_table(table.id)
    assert game is not None and table.game is not None
    record = await archive.record(game.id)
    deals = len(table.game.results)
    assert deals > 1, "a game of a few deals, so the review has steps"
    hand = h.last_ephemeral(people[2])
    assert review_label(hand) == [f"🔍 Review deal {deals}"]

    h2, g2 = await restarted(make_harness, db, people)
    carol = g2.member("carol")
    old_hand = h2.add_message(g2.channel, like=hand)
    answer = await h2.click(carol, old_hand, label=f"🔍 Review deal {deals}")
    assert answer.ephemeral
    assert answer.content == table_review_text(
        table.number, deals, review_deal(record, 2, deals, SMALL)
    )
    shown = answer.message
    stepped = await h2.click(carol, shown, label="◀ Previous deal")
    assert stepped.deferred
    assert h2.message(shown.id).content == table_review_text(
        table.number, deals, review_deal(record, 2, deals - 1, SMALL)
    )
    assert not h2.message(shown.id).button("Next deal ▶").disabled

    for stranger in (g2.member("alice"), g2.member("wendy")):
        refused = await h2.click(stranger, old_hand, label=f"🔍 Review deal {deals}")
        assert refused.ephemeral and "another player's deal" in refused.content
    too_far = await forged(h2, carol, old_hand, f"euchre:tr:{table.id}:2:{deals + 1}")
    assert too_far.ephemeral and f"there is no deal {deals + 1}" in too_far.content


async def test_an_old_hand_of_a_table_the_bot_no_longer_holds_offers_its_review(
    make_harness: MakeHarness, db: Database
) -> None:
    kept: dict[str, StoredMessage] = {}
    _, people, table = await finished_game(make_harness, db, kept=kept)
    assert table.game is not None
    deals = len(table.game.results)
    archive = GameArchiveRepo(db)
    game = await archive.find_by_table(table.id)
    assert game is not None
    expected_text = table_review_text(
        table.number, deals, review_deal(await archive.record(game.id), 2, deals, SMALL)
    )
    h2, g2 = await restarted(make_harness, db, people)
    carol = g2.member("carol")

    # a card on a hand from the middle of the game: the hand shows the end, and its Review
    old_hand = h2.add_message(g2.channel, like=kept["hand"])
    card = next(b for b in old_hand.buttons if "Review" not in (b.label or ""))
    answer = await h2.click(carol, old_hand, custom_id=str(card.custom_id))
    assert answer.ephemeral and f"Table {table.number} has finished" in answer.content
    redrawn = answer.message
    assert review_label(redrawn) == [f"🔍 Review deal {deals}"], redrawn.buttons
    review = await h2.click(carol, redrawn, label=f"🔍 Review deal {deals}")
    assert review.ephemeral and review.content == expected_text

    # "Your hand" on an old message of the table: the end in a private answer, with the Review
    old_table = h2.add_message(g2.channel, like=kept["table"])
    mine = await h2.click(carol, old_table, label="Your hand")
    assert mine.ephemeral and f"Table {table.number} has finished" in mine.content
    assert review_label(mine.message) == [f"🔍 Review deal {deals}"]
    again = await h2.click(carol, mine.message, label=f"🔍 Review deal {deals}")
    assert again.content == expected_text

    # a stranger's click offers no review
    wendy = await h2.click(g2.member("wendy"), old_table, label="Your hand")
    assert wendy.ephemeral and review_label(wendy.message) == []
    # a bot that keeps no games (no league) offers none: nothing could review it
    refusal = TableClosedError.of(table.number, "finished", table.public())
    assert gone_view(None, refusal, carol.id, None) is None
    assert gone_view(None, refusal, carol.id, h2.bot.league) is not None


async def test_a_table_dropped_from_memory_is_reviewed_from_its_archived_game(
    make_harness: MakeHarness, db: Database
) -> None:
    h, people, table = await finished_game(make_harness, db, keep_closed=0)
    assert table.game is not None
    deals = len(table.game.results)
    hand = h.last_ephemeral(people[1])
    answer = await h.click(people[1], hand, custom_id=f"euchre:tr:{table.id}:1:{deals}")
    assert answer.ephemeral and answer.content.startswith(
        f"🔍 **Review at table {table.number}**, deal {deals} of {deals}"
    )


@pytest.mark.parametrize("keep_closed", [256, 0], ids=["kept in memory", "dropped"])
async def test_a_table_whose_game_nothing_kept_says_why_there_is_no_review(
    make_harness: MakeHarness, db: Database, keep_closed: int
) -> None:
    bot = kept_bot(db, HouseRules(), keep_closed=keep_closed)
    h = await make_harness(bot)
    people, _, message, table = await seated(h, bot, ["alice", "bob"])
    await play_first_deal(h, bot, people, message)
    assert table.casual and table.game is not None
    hand = await hand_of(h, people[0], message)
    await hand_of(h, people[0], message)  # the newest: redrawn without buttons at the close
    review = review_label(hand)[0]
    await h.slash(people[0], "euchre abort")
    assert table.status == "aborted"
    refused = await h.click(people[0], hand, label=review)
    assert refused.ephemeral and refused.content == (
        f"Table {table.number} closed before its game ended, so no game was kept to review: "
        "/euchre review goes through the games you have finished."
    )

    casual = build_bot(2)  # no league: the bot keeps no finished game
    h3 = await make_harness(casual)
    g3 = h3.guild(members=["alice"])
    old = h3.add_message(g3.channel, like=hand)
    gone = await h3.click(g3.member("alice"), old, label=review)
    assert gone.ephemeral and gone.content == (  # a bot that never had the table
        "This table is closed and this bot keeps no finished games, so its deals "
        "can't be reviewed any more: review a deal from your hand while its table is open."
    )
