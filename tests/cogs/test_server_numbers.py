"""Two servers: Discord shows each table and finished game by its server's own number, as the
web pages do, and the commands that take a game's number find the game by it.

The first server plays first, so the second server's games and tables have ids that are
not their numbers; what Discord shows is checked against the web pages of the same store.
"""

from __future__ import annotations

import json
import re
from typing import Any

from aiohttp.test_utils import TestClient, TestServer

from bot.discord.app import EuchreBot
from bot.discord.pace.pacing import ChannelLimits
from bot.league import LeagueService
from bot.players import make_player
from bot.players.review import review_deal
from bot.render.review import deal_review_text
from bot.review.deal import finished_deals
from bot.review.service import Reviewer
from bot.settings import Settings
from bot.store import ArchivedGame, Database, GameArchiveRepo, GuildSettingsRepo, Seat
from bot.store.server_settings import StoredSettings
from bot.tables import TableService
from bot.tables.database import DatabaseTableStore
from bot.web import WebOptions, make_app
from bot.web.activity.shapes import public_json
from tests.cogs.test_review_commands import SMALL
from tests.conftest import MakeHarness
from tests.kit.harness import FakeGuild, FakeMember, Harness
from tests.league.util import RULES, finished_record
from tests.sqlite_only import db
from tests.web.test_pages import Page
from tests.web.util import BASE_URL

__all__ = ["db"]

FIRST = ["ann", "art", "amy", "abe"]
SECOND = ["ben", "bea", "bo", "bud"]


async def two_servers(
    make_harness: MakeHarness, db: Database
) -> tuple[Harness, FakeGuild, FakeGuild]:
    """The bot on ``db`` (tables, league, reviews), and two servers whose pages are public."""
    tables = TableService(
        DatabaseTableStore(db), make_player, server_settings=StoredSettings(db), seeds=lambda: 5
    )
    bot = EuchreBot(
        Settings(computer_move_delay=0), tables=tables, channel_limits=ChannelLimits.unlimited()
    )
    bot.league = LeagueService(db, reviewer=Reviewer(db, budget=SMALL))  # type: ignore[attr-defined]
    h = await make_harness(bot)
    first = h.guild(members=FIRST, channels=("one", "two"))
    second = h.guild(members=SECOND)
    for g in (first, second):
        await GuildSettingsRepo(db).set_rules(g.id, RULES)
        await GuildSettingsRepo(db).update(g.id, web_public=True)
    return h, first, second


async def archive(db: Database, g: FakeGuild, seed: int, names: list[str]) -> ArchivedGame:
    return await GameArchiveRepo(db).archive(
        guild_id=g.id,
        record=finished_record(seed),
        players=[Seat.person(n, g.member(name).id, name) for n, name in enumerate(names)],
        ranked=True,
    )


async def served(db: Database, path: str) -> str:
    """The page at ``path`` as the web app on ``db`` serves it now."""
    client = TestClient(TestServer(make_app(db, WebOptions(base_url=BASE_URL))))
    await client.start_server()
    try:
        response = await client.get(path)
        assert response.status == 200, path
        return await response.text()
    finally:
        await client.close()


async def web_numbers(db: Database, g: FakeGuild) -> dict[int, int]:
    """The number the server's page shows for each game it links to, by the game's id."""
    found = re.findall(rf'/s/{g.id}/games/(\d+)">Game (\d+)</a>', await served(db, f"/s/{g.id}"))
    return {int(game_id): int(number) for game_id, number in found}


async def three_then_two(
    db: Database, first: FakeGuild, second: FakeGuild
) -> tuple[ArchivedGame, ArchivedGame]:
    """Three games archived on the first server, then two on the second."""
    for seed in (1, 2, 3):
        await archive(db, first, seed, FIRST)
    return (
        await archive(db, second, 4, SECOND),
        await archive(db, second, 5, [SECOND[1], SECOND[0], SECOND[3], SECOND[2]]),
    )


async def history_numbers(h: Harness, member: FakeMember) -> list[str]:
    """The game numbers ``/euchre history`` shows, newest first."""
    history = await h.slash(member, "euchre history")
    lines = str(history.reply.embeds[0]["description"]).split("\n")
    return [line.split(" · ")[0] for line in lines]


def title(result: Any) -> str:
    return str(result.reply.embeds[0]["title"])


async def test_a_second_servers_games_have_the_web_pages_numbers_in_discord(
    make_harness: MakeHarness, db: Database
) -> None:
    h, first, second = await two_servers(make_harness, db)
    games = await three_then_two(db, first, second)
    assert [g.id for g in games] == [4, 5]  # ids that are not the second server's numbers
    web = await web_numbers(db, second)
    assert web == {4: 1, 5: 2}
    bea = second.member("bea")
    assert await history_numbers(h, bea) == ["**#2**", "**#1**"]

    choices = await h.autocomplete(bea, "euchre replay", {"game": ""}, focused="game")
    assert [c["value"] for c in choices.choices] == [2, 1]
    assert [c["name"].split(" · ")[0] for c in choices.choices] == ["#2", "#1"]

    for game in games:
        number = web[game.id]
        page = Page(await served(db, f"/s/{second.id}/games/{game.id}"))
        assert f"Game {number}" in page.words
        replayed = await h.slash(bea, "euchre replay", {"game": number})
        assert title(replayed).startswith(f"🔁 Game #{number} · deal 1 of")
        names = " ".join(p.display_name for p in game.players)
        assert all(p.display_name in replayed.text for p in game.players), names
        # its buttons still carry the game's id, and step through the same game
        stepped = await h.click(bea, replayed.message, label="Next trick ▶")
        assert str(stepped.reply.embeds[0]["title"]).startswith(f"🔁 Game #{number} ·")

        exported = await h.slash(bea, "euchre export", {"game": number})
        assert f"The record of game #{number}:" in exported.content
        assert f"/euchre replay game:{number}`" in exported.content
        ((name, data),) = exported.reply.files
        assert name == f"euchre-game-{number}.json"
        assert json.loads(data) == await GameArchiveRepo(db).record(game.id)

    # The second server's first game's id names no game of its own.
    for command in ("euchre replay", "euchre export", "euchre review"):
        refused = await h.slash(bea, command, {"game": games[0].id})
        assert refused.last_reply.content == (
            f"There is no finished game #{games[0].id} on this server."
        )


async def test_a_game_stored_without_a_number_goes_by_its_id_in_discord_and_on_the_web(
    make_harness: MakeHarness, db: Database
) -> None:
    h, first, second = await two_servers(make_harness, db)
    old, newer = await three_then_two(db, first, second)
    await db.execute("UPDATE games SET number = NULL WHERE id = ?", (old.id,))
    assert await web_numbers(db, second) == {old.id: 4, newer.id: 2}
    ben = second.member("ben")
    assert await history_numbers(h, ben) == ["**#2**", "**#4**"]
    for game, number in ((old, 4), (newer, 2)):
        replayed = await h.slash(ben, "euchre replay", {"game": number})
        assert title(replayed).startswith(f"🔁 Game #{number} · deal 1 of")
        ((_, data),) = (await h.slash(ben, "euchre export", {"game": number})).reply.files
        assert json.loads(data) == await GameArchiveRepo(db).record(game.id)
    refused = await h.slash(ben, "euchre replay", {"game": 1})
    assert refused.content == "There is no finished game #1 on this server."


async def test_a_review_asked_by_the_number_shown_reviews_that_game(
    make_harness: MakeHarness, db: Database
) -> None:
    h, first, second = await two_servers(make_harness, db)
    await archive(db, first, 1, FIRST)
    game = await archive(db, second, 6, SECOND)
    assert (game.id, game.number) == (2, 1)
    record = await GameArchiveRepo(db).record(game.id)
    deals = finished_deals(record)
    bo = second.member("bo")  # seat 2

    shown = await h.slash(bo, "euchre review", {"game": 1})
    assert shown.reply.content == deal_review_text(1, deals, review_deal(record, 2, deals, SMALL))
    assert shown.reply.content.startswith(f"🔍 **Review of game #1**, deal {deals} of {deals}")
    back = await h.click(bo, shown.message, label="◀ Previous deal")  # a button by the id
    assert back.deferred
    assert h.message(shown.message.id).content == deal_review_text(
        1, deals, review_deal(record, 2, deals - 1, SMALL)
    )
    # On the first server, 2 is the second server's game's id: no number of its own.
    other = await h.slash(first.member("ann"), "euchre review", {"game": 2})
    assert other.last_reply.content == "There is no finished game #2 on this server."


async def test_a_second_servers_table_has_the_web_pages_number_in_discord(
    make_harness: MakeHarness, db: Database
) -> None:
    h, first, second = await two_servers(make_harness, db)
    ann, ben = first.member("ann"), second.member("ben")
    for channel in ("one", "two"):
        await h.slash(ann, "euchre new", channel=first.channels[channel])
    opened = await h.slash(ben, "euchre new")
    assert title(opened).endswith(" · table 1 · lobby")
    table = h.bot.tables.at(second.channel.id)  # type: ignore[attr-defined]
    assert table is not None and table.id == 3
    page = Page(await served(db, f"/s/{second.id}"))
    assert "Table 1 · Four-hand euchre" in page.words and "Table 3" not in page.words
    public = (await table.snapshot()).public
    assert public_json(public)["number"] == 1 and public_json(public)["table"] == 3

    again = await h.slash(second.member("bea"), "euchre new", allow_errors=True)
    assert "There's already a table here (table 1)" in again.content
    rules = await h.slash(ben, "euchre rules show")
    assert "Table 1 here plays these rules." in str(rules.reply.embeds[0]["description"])

    message = opened.message
    for _ in range(3):
        await h.click(ben, h.message(message.id), label="Add computer")
    await h.click(ben, h.message(message.id), label="Start")
    assert str(h.message(message.id).embeds[0]["title"]).endswith(" · table 1 · deal 1")
    hand = await h.click(ben, h.message(message.id), label="Your hand")
    assert str(hand.message.embeds[0]["title"]) == "Your hand · table 1, deal 1"
    button = hand.message.buttons[0]
    await h.click(ben, h.message(message.id), label="Your hand")  # the newest: redrawn at the end

    closed = await h.slash(ben, "euchre abort")
    assert closed.content.endswith(" closed table 1.")
    late = await h.click(ben, hand.message, custom_id=button.custom_id)
    assert late.reply.content == "Table 1 was closed: start a new one with /euchre new."
