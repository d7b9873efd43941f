"""Pages that belong to their server: its name and icon, its own numbers, names kept apart.

And what each link shows when it is pasted: the server's name, the player's own card,
the season the link names, the game's table.
"""

from __future__ import annotations

import io
import re
from datetime import UTC, datetime
from html.parser import HTMLParser

from aiohttp.test_utils import TestClient
from PIL import Image

from bot.review.repository import AccuracyRepo, GameAccuracy
from bot.store import Database, GuildProfileRepo
from tests.league.util import USERS
from tests.web.test_pages import Page, get_page
from tests.web.util import BASE_URL, EMOJI, LONG, OVERRIDE, League, next_season


def _png(colour: tuple[int, int, int]) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (128, 128), colour).save(out, format="PNG")
    return out.getvalue()


async def test_the_pages_name_their_server_and_show_its_icon(
    client: TestClient, league: League, db: Database
) -> None:
    home = f"/s/{league.guild_id}"
    before = await get_page(client, home)
    assert "A Discord server" in before.words  # not seen by the bot yet
    assert before.meta["og:title"] == "\u2068A Discord server\u2069 · euchre league"
    repo = GuildProfileRepo(db)
    await repo.save(league.guild_id, "The Den", "k1")
    await repo.save_icon(league.guild_id, "k1", _png((200, 40, 40)))
    for path in (
        f"{home}?season=0",  # another address: made afresh
        f"{home}/players/{league.player}",
        f"{home}/games/{league.games[0]}",
    ):
        response = await client.get(path)
        if response.status == 404:
            continue
        page = Page(await response.text())
        assert "The Den" in page.words
        assert "The Den" in page.meta["og:site_name"]
    page = await get_page(client, f"{home}/players/{league.player}")
    assert page.meta["og:title"] == "\u2068Ada\u2069 · \u2068The Den\u2069"
    icon = await client.get(f"{home}/icon.png?v=k1")
    assert icon.status == 200 and icon.headers["Content-Type"] == "image/png"
    assert (await client.get(f"/s/{league.private_game}/icon.png")).status == 404


async def test_games_and_tables_are_numbered_as_their_server_counts_them(
    client: TestClient, league: League
) -> None:
    page = await get_page(client, f"/s/{league.guild_id}")
    shown = [int(n) for n in re.findall(r"Game (\d+)", page.words)]
    assert sorted(shown) == list(range(1, len(league.games) + 2))  # and the names game
    first = await get_page(client, f"/s/{league.guild_id}/games/{league.games[0]}")
    assert "Game 1" in first.words and "Game 1 ·" in first.meta["og:title"]


class _Names(HTMLParser):
    """Every piece of text holding a name, and whether it sits in a <bdi>."""

    def __init__(self, names: tuple[str, ...]) -> None:
        super().__init__()
        self.names = names
        self.open: list[str] = []
        self.outside: list[tuple[str, str]] = []
        self.inside = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in ("br", "img", "meta", "link", "input"):
            self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        while self.open and self.open.pop() != tag:
            pass

    def handle_data(self, data: str) -> None:
        for name in self.names:
            if name in data:
                if "bdi" in self.open:
                    self.inside += 1
                elif "title" not in self.open:
                    self.outside.append((name, "/".join(self.open)))


async def test_every_name_sits_in_a_bdi_and_titles_isolate_it(
    client: TestClient, league: League
) -> None:
    home = f"/s/{league.guild_id}"
    names = (OVERRIDE, LONG, EMOJI, "Ada")
    for path in (
        home,
        f"{home}/games/{league.names_game}",
        f"{home}/games/{league.names_game}?step=2",
        f"{home}/players/{USERS['Ada']}",
    ):
        html = await (await client.get(path)).text()
        found = _Names(names)
        found.feed(html)
        assert found.inside and found.outside == [], (path, found.outside)
        for meta in re.findall(
            r'<(?:title|meta property="og:[a-z]+" content=)[^>]*>?([^<]*)', html
        ):
            assert "\u202e" not in meta, "an override in a title or preview text"


async def test_a_players_link_shows_their_own_card(client: TestClient, league: League) -> None:
    page = await get_page(client, f"/s/{league.guild_id}/players/{league.player}")
    image = page.meta["og:image"]
    assert image == f"{BASE_URL}/s/{league.guild_id}/players/{league.player}/card.png"
    assert "place" in page.meta["og:description"] and "rating" in page.meta["og:description"]
    mine = await (await client.get(image.removeprefix(BASE_URL))).read()
    theirs = await (
        await client.get(f"/s/{league.guild_id}/players/{USERS['Bob']}/card.png")
    ).read()
    assert mine != theirs
    with Image.open(io.BytesIO(mine)) as picture:
        assert picture.size == (1200, 630)


async def test_a_seasons_link_shows_that_seasons_own_figures(
    client: TestClient, league: League, db: Database
) -> None:
    ended = await next_season(db, league.guild_id)
    old = await get_page(client, f"/s/{league.guild_id}?season={ended.id}")
    assert old.meta["og:image"] == f"{BASE_URL}/s/{league.guild_id}/card.png?season={ended.id}"
    assert ended.name in old.meta["og:title"]
    now = await get_page(client, f"/s/{league.guild_id}")
    assert now.meta["og:image"] == f"{BASE_URL}/s/{league.guild_id}/card.png"
    pictures = [
        await (await client.get(url.removeprefix(BASE_URL))).read()
        for url in (old.meta["og:image"], now.meta["og:image"])
    ]
    assert pictures[0] != pictures[1]  # the old season's leaders, not the new empty one


async def test_a_games_link_shows_its_table_at_the_final_deal(
    client: TestClient, league: League
) -> None:
    base = f"/s/{league.guild_id}/games/{league.games[0]}"
    page = await get_page(client, base)
    assert page.meta["og:image"] == f"{BASE_URL}{base}/card.png"
    assert page.meta["og:image:alt"].startswith("The table at the final deal")
    final = await (await client.get(f"{base}/card.png")).read()
    last_step = int(re.search(r"Step (\d+) of", page.words).group(1))  # type: ignore[union-attr]
    step = await (await client.get(f"{base}/card.png?step={last_step}")).read()
    assert final != step, "the final deal as dealt, not the last trick's empty hands"
    assert (await client.get(f"{base}/card.png?step={last_step + 1}")).status == 404


async def test_the_player_page_shows_the_accuracy_the_league_reviewed(
    client: TestClient, league: League, db: Database
) -> None:
    path = f"/s/{league.guild_id}/players/{league.player}"
    assert "Accuracy" not in (await get_page(client, path)).words
    repo = AccuracyRepo(db)
    for game_id, accuracy in zip(league.games[:2], (80.0, 90.0), strict=True):
        await repo.save(
            GameAccuracy(
                game_id=game_id,
                user_id=league.player,
                seat=0,
                accuracy=accuracy,
                decisions=10,
                flagged=2,
                points_lost=0.4,
                reviewed_at=datetime(2026, 5, 1, tzinfo=UTC),
            )
        )
    page = await get_page(client, f"{path}?again")  # a new address: made afresh
    assert "Accuracy 85.0% over 2 reviewed games" in page.words
    assert "80.0% · 2 of 10 decisions flagged" in page.words
    assert f"/s/{league.guild_id}/games/{league.games[1]}" in page.links


async def test_every_step_of_a_replay_comes_as_data_for_the_pages_script(
    client: TestClient, league: League
) -> None:
    base = f"/s/{league.guild_id}/games/{league.names_game}"
    response = await client.get(f"{base}/steps.json")
    assert response.status == 200 and response.content_type == "application/json"
    data = await response.json()
    page = await get_page(client, f"{base}?step=2")
    count = int(re.search(r"Step 2 of (\d+)", page.words).group(1))  # type: ignore[union-attr]
    assert len(data["steps"]) == count
    assert [p["name"] for p in data["players"]] == ["Ada", OVERRIDE, LONG, EMOJI]
    second = data["steps"][1]
    shown = [i["src"].split("#")[1] for i in page.images if "#" in (i["src"] or "")]
    drawn = [label for hand in second["hands"] for label in hand] + [
        label for _, label in second["played"]
    ]
    assert sorted(shown) == sorted(drawn)
    assert all(label in data["words"] for label in drawn)
    assert (
        await client.get(f"/s/{league.guild_id}/games/{league.private_game}/steps.json")
    ).status == 404


async def test_the_deals_are_listed_to_jump_to(client: TestClient, league: League) -> None:
    base = f"/s/{league.guild_id}/games/{league.games[0]}"
    html = await (await client.get(f"{base}?step=1")).text()
    deals = int(re.search(r"Deal 1 of (\d+)", html).group(1))  # type: ignore[union-attr]
    firsts = [int(n) for n in re.findall(r'\?step=(\d+)" data-step="\d+" class="deal"', html)]
    assert len(firsts) == deals and firsts[0] == 1 and firsts == sorted(firsts)
    assert html.count('aria-current="step"') == 1
    for number, first in enumerate(firsts, start=1):
        words = (await get_page(client, f"{base}?step={first}")).words
        assert f"Deal {number} of {deals} · bidding" in words
