"""A game is reviewed for who wants it: their preference, or their asking; a dropped review says so."""

from __future__ import annotations

import asyncio

import pytest

from bot.errors import UserFacingError
from bot.players.review import Budget, review_game, summarize
from bot.review.deal import REVIEW_DROPPED
from bot.review.repository import AccuracyRepo
from bot.review.service import Reviewer
from bot.search_pool import Priority, SearchPool
from bot.store import Database, GameArchiveRepo, TableRepo
from bot.store.preferences import PreferenceRepo
from tests.league.util import GUILD, RULES, USERS, finished_record, seats
from tests.search_pool.fakes import HeldSlot

SMALL = Budget(worlds=6, rollouts=12)


async def archived(db: Database) -> tuple[int, int, dict[str, object]]:
    """A finished table's game of Ada, Bob, Cy and a computer: table, game, record."""
    table = await TableRepo(db).create(
        guild_id=GUILD, channel_id=7, host_id=USERS["Ada"], rules=RULES, seed=8
    )
    record = finished_record(8)
    game = await GameArchiveRepo(db).archive(
        guild_id=GUILD,
        record=record,
        players=seats("Ada", "Bob", "Cy", None),
        ranked=False,
        table_id=table.id,
    )
    return table.id, game.id, record


async def kept(db: Database, game_id: int) -> set[str]:
    repo = AccuracyRepo(db)
    return {name for name, user in USERS.items() if await repo.get(game_id, user) is not None}


async def test_a_finished_game_is_reviewed_only_for_who_wants_it(db: Database) -> None:
    table_id, game_id, record = await archived(db)
    await PreferenceRepo(db).update(USERS["Bob"], review_games=True)
    reviewer = Reviewer(db, budget=SMALL)
    asked = await reviewer.review(record, 2, 1)  # Cy's Review of deal 1, during the game
    reviewer.asked(GUILD, table_id, USERS["Cy"], 2, asked, playing=True)
    assert await kept(db, game_id) == set(), "kept once the game is archived and ends"
    assert await reviewer.keep_table(GUILD, table_id) == 2
    assert await kept(db, game_id) == {"Bob", "Cy"}, "Ada neither turned it on nor asked"
    accuracy = AccuracyRepo(db)
    whole = summarize(review_game(record, 1, SMALL))
    bob = await accuracy.get(game_id, USERS["Bob"])
    assert whole is not None and bob is not None
    assert (bob.decisions, bob.accuracy) == (whole.decisions, pytest.approx(whole.accuracy))
    one = summarize((asked,))
    cy = await accuracy.get(game_id, USERS["Cy"])
    assert one is not None and cy is not None and cy.decisions == one.decisions, "one deal"

    later = await reviewer.review(record, 0, 1)  # Ada's Review once the game ended
    reviewer.asked(GUILD, table_id, USERS["Ada"], 0, later, playing=False)
    await reviewer.settle()
    assert await kept(db, game_id) == {"Ada", "Bob", "Cy"}


async def test_nobody_wanting_a_review_makes_none(db: Database) -> None:
    table_id, game_id, _ = await archived(db)
    reviewer = Reviewer(db, budget=SMALL)
    assert await reviewer.keep_table(GUILD, table_id) == 0
    assert await kept(db, game_id) == set()


async def test_a_review_dropped_from_a_full_queue_is_told_in_one_sentence(db: Database) -> None:
    _, _, record = await archived(db)
    slot = HeldSlot()
    reviewer = Reviewer(db, budget=SMALL, pool=SearchPool(0, review_queue=1, slots=[slot]))
    reviewer.pool.submit(Priority.MOVE, str, "the worker is busy")
    older = asyncio.ensure_future(reviewer.review(record, 0, 1))
    await asyncio.sleep(0)
    newer = asyncio.ensure_future(reviewer.review(record, 0, 2))
    with pytest.raises(UserFacingError) as dropped:
        await older
    assert str(dropped.value) == REVIEW_DROPPED
    assert not newer.done()
    slot.finish(0)
    await asyncio.sleep(0)
    slot.finish()
    assert (await newer).deal == 2
