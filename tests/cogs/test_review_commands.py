"""``/euchre review`` through the real bot: a finished deal reviewed, stepped, and the refusals.

Games are archived from the rules core as the table service archives them; the
review runs the expert at a small fixed budget (the same figures every run), and
what the bot shows is checked against ``review_deal`` called here directly.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.discord.app import STOPPING
from bot.league import LeagueService
from bot.players.review import Budget, review_deal, review_game, summarize
from bot.render.review import deal_review_text
from bot.review.deal import finished_deals
from bot.review.repository import AccuracyRepo
from bot.review.service import Reviewer
from bot.store import ArchivedGame, Database, GameArchiveRepo, GuildSettingsRepo, Seat
from tests.cogs.euchre_driver import build_bot
from tests.conftest import MakeHarness
from tests.kit.harness import FakeGuild, Harness
from tests.league.util import RULES, archive_elsewhere, finished_record
from tests.sqlite_only import db

__all__ = ["db"]

SMALL = Budget(choose=None, counted=6, worlds=6, rollouts=12)
PEOPLE = ["ada", "bob", "cy", "di", "eve"]


async def review_harness(make_harness: MakeHarness, db: Database) -> tuple[Harness, FakeGuild]:
    bot = build_bot()
    bot.league = LeagueService(db, reviewer=Reviewer(db, budget=SMALL))  # type: ignore[attr-defined]
    h = await make_harness(bot)
    g = h.guild(members=PEOPLE)
    await GuildSettingsRepo(db).set_rules(g.id, RULES)
    await archive_elsewhere(db, g.id)
    return h, g


async def archive(
    db: Database, g: FakeGuild, seed: int, names: list[str]
) -> tuple[ArchivedGame, dict[str, Any]]:
    record = finished_record(seed)
    game = await GameArchiveRepo(db).archive(
        guild_id=g.id,
        record=record,
        players=[Seat.person(n, g.member(name).id, name) for n, name in enumerate(names)],
        ranked=True,
    )
    assert game.number is not None and game.number != game.id
    return game, record


async def test_the_last_deal_is_reviewed_and_the_buttons_step_through_the_game(
    make_harness: MakeHarness, db: Database
) -> None:
    h, g = await review_harness(make_harness, db)
    game, record = await archive(db, g, 5, ["ada", "bob", "cy", "di"])
    number = game.number
    assert number is not None
    deals = finished_deals(record)
    assert deals >= 2

    shown = await h.slash(g.member("bob"), "euchre review")
    assert shown.deferred and shown.ephemeral
    expected = review_deal(record, 1, deals, SMALL)
    assert shown.reply.content == deal_review_text(number, deals, expected)
    assert f"Review of game #{number}**, deal {deals} of {deals}" in shown.reply.content
    message = shown.message
    assert message.button("Next deal ▶").disabled
    assert not message.button("◀ Previous deal").disabled

    back = await h.click(g.member("bob"), message, label="◀ Previous deal")
    assert back.deferred
    now = h.message(message.id)
    assert now.content == deal_review_text(number, deals, review_deal(record, 1, deals - 1, SMALL))

    chosen = await h.slash(g.member("cy"), "euchre review", {"game": number, "deal": 1})
    assert chosen.reply.content == deal_review_text(number, deals, review_deal(record, 2, 1, SMALL))


async def test_refusals_change_nothing(make_harness: MakeHarness, db: Database) -> None:
    h, g = await review_harness(make_harness, db)
    game, record = await archive(db, g, 6, ["ada", "bob", "cy", "di"])
    game_id, number = game.id, game.number
    deals = finished_deals(record)

    none = await h.slash(g.member("eve"), "euchre review", allow_errors=True)
    assert none.ephemeral and "no finished game on this server" in none.content

    stranger = await h.slash(g.member("eve"), "euchre review", {"game": number})
    assert stranger.ephemeral
    assert stranger.last_reply.content == (
        f"You didn't play in game #{number}: a review goes through your own decisions."
    )
    far = await h.slash(g.member("ada"), "euchre review", {"game": number, "deal": 99})
    assert far.last_reply.content == f"Game #{number} has deals 1 to {deals}: there is no deal 99."
    missing = await h.slash(g.member("ada"), "euchre review", {"game": game_id})
    assert missing.last_reply.content == f"There is no finished game #{game_id} on this server."

    shown = await h.slash(g.member("ada"), "euchre review")
    message = shown.message
    before = message.content
    # A review button's id names a game, not a person: whoever clicks is reviewed. Eve's
    # button changed to ada's game asks for a deal of a game she did not play in.
    await archive(db, g, 9, ["eve", "bob", "cy", "di"])
    hers = await h.slash(g.member("eve"), "euchre review")
    payload = h.build_forged_component(
        g.member("eve"), hers.message, f"euchre:rv:{game_id}:1:p", label="◀ Previous deal"
    )
    refused = await h.dispatch(payload)
    assert refused.last_reply.ephemeral
    assert refused.last_reply.content.startswith(f"You didn't play in game #{number}")
    assert h.message(message.id).content == before

    forged = h.build_forged_component(
        g.member("ada"), message, f"euchre:rv:{game_id}:0:p", label="◀ Previous deal"
    )
    zero = await h.dispatch(forged)
    assert zero.last_reply.content == f"Game #{number} has deals 1 to {deals}: there is no deal 0."
    garbled = h.build_forged_component(
        g.member("ada"), message, f"euchre:rv:{game_id}:x:p", label="◀ Previous deal"
    )
    out_of_use = await h.dispatch(garbled)
    assert out_of_use.ephemeral and "doesn't work any more" in out_of_use.content
    assert h.message(message.id).content == before

    h.bot.stopping = True
    try:
        late = await h.slash(g.member("ada"), "euchre review")
        assert late.ephemeral and late.content == STOPPING
        click = await h.click(g.member("ada"), message, label="◀ Previous deal")
        assert click.ephemeral and click.content == STOPPING
    finally:
        h.bot.stopping = False
    assert h.message(message.id).content == before


async def test_accuracy_is_kept_once_a_game_ends_and_stats_show_it(
    make_harness: MakeHarness, db: Database
) -> None:
    h, g = await review_harness(make_harness, db)
    game, record = await archive(db, g, 8, ["ada", "bob", "cy", "di"])
    game_id = game.id
    reviewer = Reviewer(db, budget=SMALL)
    assert await reviewer.keep_accuracy(game_id) == 4
    summary = summarize(review_game(record, 0, SMALL))
    assert summary is not None
    kept = await AccuracyRepo(db).get(game_id, g.member("ada").id)
    assert kept is not None and kept.accuracy == pytest.approx(summary.accuracy)

    stats = await h.slash(g.member("ada"), "euchre stats")
    fields = {f["name"]: f["value"] for f in stats.embeds[0]["fields"]}
    assert fields["Accuracy"].startswith(f"**{summary.accuracy:.0f}** over 1 reviewed game")
    assert "Rating" in fields and "Games" in fields
