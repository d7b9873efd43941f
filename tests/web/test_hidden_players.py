"""A player who hides from the web pages: "a player" everywhere, no page, no id in a link."""

from __future__ import annotations

from collections.abc import Callable

from aiohttp.test_utils import TestClient

from bot.server.preferences import HIDDEN_NAME
from bot.store import Database, PreferenceRepo
from tests.league.util import USERS
from tests.web.conftest import Clock
from tests.web.util import League

ADA = USERS["Ada"]


async def page(client: TestClient, path: str) -> str:
    response = await client.get(path)
    assert response.status == 200, (path, response.status)
    return await response.text()


def assert_hidden(html: str) -> None:
    assert "Ada" not in html
    assert str(ADA) not in html  # no link, no id anywhere
    assert HIDDEN_NAME in html


async def test_a_hidden_player_is_a_player_everywhere_and_has_no_page(
    db: Database, league: League, client: TestClient
) -> None:
    await PreferenceRepo(db).update(ADA, hide_from_web=True)
    home = f"/s/{league.guild_id}"
    server = await page(client, home)
    assert_hidden(server)
    assert f"{home}/players/" in server  # the others keep their links
    missing = await client.get(f"{home}/players/{ADA}")
    assert missing.status == 404 and "Ada" not in await missing.text()
    bob = await page(client, f"{home}/players/{USERS['Bob']}")
    assert_hidden(bob)
    assert "Bob" in bob
    for game in league.games:
        replay = await page(client, f"{home}/games/{game}")
        assert_hidden(replay)
        assert "Cy" in replay


async def test_hiding_reaches_cached_pages_within_their_time(
    db: Database, league: League, make_client: Callable[..., object], clock: Clock
) -> None:
    client: TestClient = await make_client()  # type: ignore[misc]
    home = f"/s/{league.guild_id}"
    game = f"{home}/games/{league.games[0]}"
    assert "Ada" in await page(client, home) and "Ada" in await page(client, game)
    assert (await client.get(f"{home}/players/{ADA}")).status == 200
    await PreferenceRepo(db).update(ADA, hide_from_web=True)
    clock.now += 301  # past a page's time and a game's
    assert_hidden(await page(client, home))
    assert_hidden(await page(client, game))
    assert (await client.get(f"{home}/players/{ADA}")).status == 404


async def test_showing_again_brings_the_name_and_page_back(
    db: Database, league: League, client: TestClient
) -> None:
    repo = PreferenceRepo(db)
    await repo.update(ADA, hide_from_web=True)
    await repo.update(ADA, hide_from_web=False)
    home = f"/s/{league.guild_id}"
    assert f"{home}/players/{ADA}" in await page(client, home)
    assert "Ada" in await page(client, f"{home}/players/{ADA}")
