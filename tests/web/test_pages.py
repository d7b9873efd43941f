"""Every kind of page over a real store: what it shows, 404s, escaping, headers, caching."""

from __future__ import annotations

import re
from collections.abc import Callable
from html.parser import HTMLParser

import pytest
from aiohttp.test_utils import TestClient

from bot.render.web_links import server_page
from bot.store import Database, GuildSettingsRepo
from tests.league.util import USERS
from tests.web.conftest import Clock
from tests.web.util import BASE_URL, HOSTILE, League, next_season

CARD = r"/static/cards\.[0-9a-f]{10}\.svg#[0-9A-Z]{2,3}"
"""A card's picture: a view of the card sprite."""


class Page(HTMLParser):
    """A page's text, links, pictures, scripts and meta tags, as a browser would read them."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.text: list[str] = []
        self.links: list[str] = []
        self.images: list[dict[str, str | None]] = []
        self.scripts: list[dict[str, str | None]] = []
        self.styles: list[str] = []
        self.meta: dict[str, str] = {}
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "a" and a.get("href"):
            self.links.append(a["href"] or "")
        elif tag == "img":
            self.images.append(a)
        elif tag == "script":
            self.scripts.append(a)
        elif tag == "link" and a.get("rel") in ("stylesheet", "icon"):
            self.styles.append(a.get("href") or "")
        elif tag == "meta" and a.get("property"):
            self.meta[a["property"] or ""] = a.get("content") or ""

    def handle_data(self, data: str) -> None:
        self.text.append(data)

    @property
    def words(self) -> str:
        return " ".join(" ".join(self.text).split())


async def get_page(client: TestClient, path: str, status: int = 200) -> Page:
    response = await client.get(path)
    body = await response.text()
    assert response.status == status, body[:300]
    return Page(body)


async def test_the_server_page_shows_the_standings_and_the_latest_games(
    client: TestClient, league: League
) -> None:
    page = await get_page(client, f"/s/{league.guild_id}")
    assert "Four-hand euchre" in page.words
    assert "Ada" in page.words and HOSTILE in page.words
    for game_id in league.games:
        assert f"/s/{league.guild_id}/games/{game_id}" in page.links
    assert f"/s/{league.guild_id}/players/{USERS['Ada']}" in page.links
    assert page.meta["og:image"].endswith(f"/s/{league.guild_id}/card.png")
    assert page.meta["og:title"] and page.meta["og:url"].endswith(f"/s/{league.guild_id}")


async def test_the_player_page_shows_a_rating_chart_the_record_and_games(
    client: TestClient, league: League
) -> None:
    response = await client.get(f"/s/{league.guild_id}/players/{league.player}")
    html = await response.text()
    page = Page(html)
    assert response.status == 200
    assert "A Discord server Ada Season" in page.words
    assert re.search(r"\d+ games, \d+ won, \d+ lost", page.words)
    assert "<svg" in html and "<polyline" in html and "rating after each rated game" in html
    assert sum(f"/games/{g}" in link for link in page.links for g in league.games) >= 1
    assert "Toughest opponents" in page.words


async def test_the_game_page_steps_through_every_deal_and_trick(
    client: TestClient, league: League
) -> None:
    base = f"/s/{league.guild_id}/games/{league.games[0]}"
    first = await get_page(client, f"{base}?step=1")
    assert "Step 1 of" in first.words and "Deal 1 of" in first.words and "bidding" in first.words
    assert f"{base}?step=2" in first.links
    # every hand as dealt (a lone player's partner sits out: no cards), and the upcard
    cards = [i for i in first.images if re.fullmatch(CARD, i["src"] or "")]
    assert len(cards) >= 16 and "turned up" in first.words
    assert all(i.get("alt") for i in first.images)
    count = int(re.search(r"Step 1 of (\d+)", first.words).group(1))  # type: ignore[union-attr]
    second = await get_page(client, f"{base}?step=2")
    assert "trick 1 of" in second.words and "took the trick" in second.words
    played = [i for i in second.images if ", played by " in (i.get("alt") or "")]
    assert 3 <= len(played) <= 4
    last = await get_page(client, f"{base}?step={count}")
    assert re.search(r"(Blue|Orange) won, \d+ to \d+|A tie", last.words)
    assert (await get_page(client, base)).words == last.words
    assert [s["src"] for s in first.scripts] == [s["src"] for s in last.scripts]
    assert all(
        re.fullmatch(r"/static/replay\.[0-9a-f]{10}\.js", s["src"] or "") for s in first.scripts
    )
    assert first.meta["og:image"] == f"{BASE_URL}{base}/card.png?step=1"
    assert (await get_page(client, base)).meta["og:image"] == f"{BASE_URL}{base}/card.png"


@pytest.mark.parametrize(
    "path",
    [
        "/s/{g}/games/{other}",  # another server's game
        "/s/{g}/games/999999",
        "/s/{g}/games/{game}?step=0",
        "/s/{g}/games/{game}?step=100000",
        "/s/{g}/games/{game}?step=abc",
        "/s/{g}/players/42",
        "/s/{g}/players/99999999999999999999",
        "/s/{g}?season=77",
        "/s/{private}",  # a server that never turned its pages on
        "/s/{private}/games/{other}",
        "/s/123",
        "/s/0",
        "/static/../bot/settings.py",
        "/static/nothing.js",
        "/static/style.css",
        "/static/cards.0123456789.png",
        "/nothing/here",
    ],
)
async def test_unknown_pages_are_a_plain_404(client: TestClient, league: League, path: str) -> None:
    url = path.format(
        g=league.guild_id, other=league.private_game, game=league.games[0], private=10**18 + 2
    )
    response = await client.get(url)
    body = await response.text()
    assert response.status == 404, url
    assert "There is no such page" in body or "Not Found" in body
    assert "Traceback" not in body and response.headers["Content-Type"].startswith("text/html")


async def test_a_server_turning_its_pages_off_is_404_once_the_setting_is_read_again(
    client: TestClient, league: League, db: Database, clock: Clock
) -> None:
    assert (await client.get(f"/s/{league.guild_id}")).status == 200
    await GuildSettingsRepo(db).update(league.guild_id, web_public=False)
    clock.now += 60
    for path in ("", f"/games/{league.games[0]}", f"/players/{league.player}", "/card.png"):
        assert (await client.get(f"/s/{league.guild_id}{path}")).status == 404


async def test_hostile_names_are_text_everywhere(client: TestClient, league: League) -> None:
    paths = [
        f"/s/{league.guild_id}",
        f"/s/{league.guild_id}/players/{league.hostile}",
        f"/s/{league.guild_id}/games/{league.games[1]}?step=1",
    ]
    for path in paths:
        html = await (await client.get(path)).text()
        page = Page(html)
        assert HOSTILE in page.words, path
        assert "<script>alert" not in html and "<img src=x" not in html
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
        assert not any(i.get("onerror") for i in page.images)
        assert all((s.get("src") or "").startswith("/static/") for s in page.scripts)


async def test_every_answer_carries_the_security_headers(
    client: TestClient, league: League
) -> None:
    for path in ("/", f"/s/{league.guild_id}", "/s/1", "/static/style.css", "/favicon.ico"):
        response = await client.get(path)
        csp = response.headers["Content-Security-Policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp
        assert "default-src 'none'" in csp
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["Referrer-Policy"] == "strict-origin-when-cross-origin"


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH"])
async def test_nothing_can_be_written(client: TestClient, league: League, method: str) -> None:
    response = await client.request(method, f"/s/{league.guild_id}")
    assert response.status == 405 and response.headers["Allow"] == "GET, HEAD"


async def test_head_answers_without_a_body(client: TestClient, league: League) -> None:
    response = await client.head(f"/s/{league.guild_id}/games/{league.games[0]}")
    assert response.status == 200 and await response.read() == b""


async def test_a_finished_game_is_kept_with_an_etag_and_304(
    client: TestClient, league: League
) -> None:
    path = f"/s/{league.guild_id}/games/{league.games[0]}?step=3"
    first = await client.get(path)
    etag = first.headers["ETag"]
    assert first.headers["Cache-Control"] == "public, max-age=300"  # a player may hide
    again = await client.get(path, headers={"If-None-Match": etag})
    assert again.status == 304 and await again.read() == b""
    other = await client.get(path, headers={"If-None-Match": '"something-else"'})
    assert other.status == 200 and other.headers["ETag"] == etag


async def test_the_same_page_from_a_fresh_process_has_the_same_etag(
    make_client: Callable[..., object], league: League
) -> None:
    path = f"/s/{league.guild_id}/games/{league.games[2]}?step=2"
    one = await make_client(base_url="https://euchre.example.org")  # type: ignore[misc]
    two = await make_client(base_url="https://euchre.example.org")  # type: ignore[misc]
    assert (await one.get(path)).headers["ETag"] == (await two.get(path)).headers["ETag"]


async def test_an_address_over_its_rate_gets_429_until_time_passes(
    make_client: Callable[..., object], league: League, clock: Clock
) -> None:
    client = await make_client(requests_per_minute=60)  # type: ignore[misc]
    statuses = [(await client.get("/")).status for _ in range(8)]
    assert statuses == [200] * 6 + [429] * 2  # a burst of a tenth of a minute's requests
    refused = await client.get("/")
    assert refused.headers["Retry-After"] == "1"
    assert "Too many requests" in await refused.text()
    clock.now += 1
    assert (await client.get("/")).status == 200


async def test_a_forwarded_address_counts_only_behind_a_trusted_proxy(
    make_client: Callable[..., object], league: League
) -> None:
    trusting = await make_client(requests_per_minute=10, trust_forwarded=True)  # type: ignore[misc]
    for n in range(5):
        headers = {"X-Forwarded-For": f"203.0.113.{n}"}
        assert (await trusting.get("/", headers=headers)).status == 200
    plain = await make_client(requests_per_minute=10)  # type: ignore[misc]
    statuses = [
        (await plain.get("/", headers={"X-Forwarded-For": f"203.0.113.{n}"})).status
        for n in range(3)
    ]
    assert statuses == [200, 429, 429]


async def test_the_link_pictures_are_pngs(client: TestClient, league: League) -> None:
    for path in (
        f"/s/{league.guild_id}/card.png",
        f"/s/{league.guild_id}/players/{league.player}/card.png",
        f"/s/{league.guild_id}/games/{league.games[0]}/card.png",
        f"/s/{league.guild_id}/games/{league.games[0]}/card.png?step=1",
    ):
        response = await client.get(path)
        assert response.status == 200 and response.headers["Content-Type"] == "image/png"
        assert (await response.read()).startswith(b"\x89PNG")


async def test_the_base_url_option_makes_the_links_absolute(
    make_client: Callable[..., object], league: League
) -> None:
    client = await make_client(base_url="https://euchre.example.org")  # type: ignore[misc]
    page = await get_page(client, f"/s/{league.guild_id}")
    assert page.meta["og:url"] == f"https://euchre.example.org/s/{league.guild_id}"
    assert page.meta["og:image"] == f"https://euchre.example.org/s/{league.guild_id}/card.png"


async def test_the_pages_stay_small(client: TestClient, league: League) -> None:
    for path in (
        f"/s/{league.guild_id}",
        f"/s/{league.guild_id}/players/{league.player}",
        f"/s/{league.guild_id}/games/{league.games[0]}?step=2",
    ):
        html = await (await client.get(path)).read()
        page = Page(html.decode())
        files = {(i["src"] or "").split("#")[0] for i in page.images}
        files |= {s["src"] or "" for s in page.scripts} | set(page.styles)
        sizes = [len(await (await client.get(src)).read()) for src in files if src]
        assert len(html) + sum(sizes) < 200_000, path


async def test_the_link_the_bot_shares_is_the_server_page(
    client: TestClient, league: League
) -> None:
    link = server_page("https://euchre.example.org", league.guild_id)
    response = await client.get(link.removeprefix("https://euchre.example.org"))
    assert response.status == 200


@pytest.mark.parametrize("kept", ["NULL", '\'[{"maker": "broken"}]\''])
async def test_a_player_page_is_the_same_from_records_as_from_kept_outcomes(
    make_client: Callable[..., object], league: League, db: Database, kept: str
) -> None:
    path = f"/s/{league.guild_id}/players/{league.player}"
    client: TestClient = await make_client(base_url="https://e.example")  # type: ignore[misc]
    from_kept = await (await client.get(path)).text()
    await db.execute(f"UPDATE games SET deal_outcomes = {kept}")
    fresh: TestClient = await make_client(base_url="https://e.example")  # type: ignore[misc]
    assert await (await fresh.get(path)).text() == from_kept


async def test_past_seasons_are_listed_and_show_their_frozen_standings(
    client: TestClient, league: League, db: Database
) -> None:
    ended = await next_season(db, league.guild_id)
    home = f"/s/{league.guild_id}"
    page = await get_page(client, home)
    assert "Season Summer" in page.words and "Seasons" in page.words
    assert f"{home}?season={ended.id}" in page.links
    past = await get_page(client, f"{home}?season={ended.id}")
    assert f"Season {ended.name}" in past.words and "ended" in past.words
    assert "Ada" in past.words and f"{home}/players/{USERS['Ada']}" in past.links
