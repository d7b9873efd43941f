"""What the app makes of requests as visitors and attackers send them.

Numbers are ASCII digits or no page; ``If-None-Match: *`` is a 304; static files have
hashed names kept for good; text goes compressed to who asks; the rate counts pages and
files apart; a forwarded address is believed only as many hops back as configured; a
request aiohttp cannot read is logged once a minute per address.
"""

from __future__ import annotations

import asyncio
import gzip
import logging
import re
from collections.abc import AsyncIterator, Callable

import pytest
from aiohttp import web
from aiohttp.http_exceptions import LineTooLong
from aiohttp.test_utils import TestClient

from bot.store import Database
from bot.web import WebOptions, make_app
from bot.web.guard import RequestErrorLog
from tests.web.conftest import Clock
from tests.web.util import BASE_URL, League


@pytest.mark.parametrize(
    "path",
    [
        "/s/{g}/games/{game}?step=²",
        "/s/{g}/games/{game}?step=١",
        "/s/{g}/games/{game}?step=-1",
        "/s/{g}/games/{game}?step=1e3",
        "/s/{g}/games/{game}?step=+2",
        "/s/{g}/games/{game}?step=%202",
        "/s/{g}/games/{game}?step=",
        "/s/{g}?season=٣",
        "/s/{g}/card.png?season=²",
        "/s/{g}/games/{game}/card.png?step=³",
        "/s/１{g}",
        "/s/{g}/players/٥",
        "/s/{g}/games/{game}٣",
        "/s/{g}/events/١",
    ],
)
async def test_only_ascii_digits_are_numbers(
    client: TestClient, league: League, path: str, caplog: pytest.LogCaptureFixture
) -> None:
    url = path.format(g=league.guild_id, game=league.games[0])
    response = await client.get(url)
    assert response.status == 404, url
    assert "There is no such page" in await response.text()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_any_copy_the_client_holds_is_current_for_if_none_match_star(
    client: TestClient, league: League
) -> None:
    for path in (f"/s/{league.guild_id}", f"/s/{league.guild_id}/games/{league.games[0]}", "/"):
        response = await client.get(path, headers={"If-None-Match": "*"})
        assert response.status == 304 and await response.read() == b"", path
    missing = await client.get("/s/1", headers={"If-None-Match": "*"})
    assert missing.status == 404


async def test_static_files_have_hashed_names_and_are_kept_for_good(
    client: TestClient, league: League
) -> None:
    html = await (await client.get(f"/s/{league.guild_id}/games/{league.games[0]}")).text()
    files = re.findall(r'"(/static/[a-z]+\.[0-9a-f]{10}\.(?:css|js|svg))', html)
    assert {f.split(".")[0] for f in files} >= {"/static/style", "/static/replay", "/static/cards"}
    for url in set(files):
        response = await client.get(url)
        assert response.status == 200, url
        assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        stem, _, ext = url.rsplit(".", 2)
        stale = await client.get(f"{stem}.0000000000.{ext}")
        assert stale.status == 200 and stale.headers["Cache-Control"] == "no-cache"
        assert await stale.read() == await response.read()
    for missing in ("/static/style.css", "/static/nothing.0000000000.css", "/static/x"):
        assert (await client.get(missing)).status == 404
    robots = await client.get("/robots.txt")
    assert robots.status == 200 and (await robots.text()).startswith("User-agent: *")


async def test_text_goes_compressed_to_a_client_that_asks(
    client: TestClient, league: League
) -> None:
    path = f"/s/{league.guild_id}"
    plain = await client.get(path, headers={"Accept-Encoding": "identity"})
    packed = await client.get(path, headers={"Accept-Encoding": "gzip, br"}, auto_decompress=False)
    body = await packed.read()
    assert packed.headers["Content-Encoding"] == "gzip" and "Content-Encoding" not in plain.headers
    assert gzip.decompress(body) == await plain.read() and len(body) < len(await plain.read()) / 2
    assert packed.headers["Vary"] == "Accept-Encoding"
    assert packed.headers["ETag"] != plain.headers["ETag"]
    for tag in (packed.headers["ETag"], plain.headers["ETag"]):
        assert (await client.get(path, headers={"If-None-Match": tag})).status == 304
    refused = await client.get(path, headers={"Accept-Encoding": "gzip;q=0"})
    assert "Content-Encoding" not in refused.headers


async def test_a_visit_spends_pages_not_files(
    make_client: Callable[..., object], league: League, clock: Clock
) -> None:
    client: TestClient = await make_client(requests_per_minute=60)  # type: ignore[misc]
    html = await (await client.get(f"/s/{league.guild_id}/games/{league.games[0]}")).text()
    files = sorted(set(re.findall(r'"(/static/[^"#]+)', html)))
    for _ in range(10):  # ten visits' files: far within the file bucket (60 at once)
        for url in files:
            assert (await client.get(url)).status == 200, url
    pages = [(await client.get(f"/s/{league.guild_id}")).status for _ in range(6)]
    assert pages == [200] * 5 + [429]  # the first page took one of the six
    assert (await client.get(files[0])).status == 200, "files count apart"
    clock.now += 1
    assert (await client.get(f"/s/{league.guild_id}")).status == 200


@pytest.mark.parametrize(
    ("hops", "forwarded", "counted"),
    [
        (0, "203.0.113.7", "peer"),
        (1, "203.0.113.7", "203.0.113.7"),
        (1, "198.51.100.1, 203.0.113.7", "203.0.113.7"),
        (2, "198.51.100.1, 203.0.113.7", "198.51.100.1"),
        (2, "203.0.113.7", "peer"),  # fewer entries than proxies: not believed
        (1, "not-an-address", "peer"),
        (1, "", "peer"),
    ],
)
async def test_a_forwarded_address_is_believed_as_many_hops_back_as_there_are_proxies(
    make_client: Callable[..., object], league: League, hops: int, forwarded: str, counted: str
) -> None:
    # ten pages a minute: a burst of one, so each address's second request is refused
    client: TestClient = await make_client(requests_per_minute=10, trust_forwarded=hops)  # type: ignore[misc]
    headers = {"X-Forwarded-For": forwarded} if forwarded else {}
    assert (await client.get("/", headers=headers)).status == 200
    assert (await client.get("/", headers=headers)).status == 429
    peer = await client.get("/")  # no header: the peer's own bucket
    assert peer.status == (429 if counted == "peer" else 200)


async def test_every_address_in_a_page_starts_with_the_base_url_whatever_the_host_says(
    client: TestClient, league: League
) -> None:
    for path in (
        f"/s/{league.guild_id}",
        f"/s/{league.guild_id}/players/{league.player}",
        f"/s/{league.guild_id}/games/{league.games[0]}",
    ):
        html = await (await client.get(path, headers={"Host": "evil.example"})).text()
        assert "evil.example" not in html
        for url in re.findall(r'content="(https?://[^"]*)"|href="(https?://[^"]*)"', html):
            assert (url[0] or url[1]).startswith(BASE_URL + "/"), url


def test_the_app_refuses_to_start_without_its_public_address() -> None:
    for bad in ("", "euchre.example.org", "https://euchre.example.org/"):
        with pytest.raises(ValueError, match="the pages' public address"):
            WebOptions(base_url=bad)


# ---------------------------------------------------------------------- unreadable requests


def test_an_unreadable_request_is_logged_once_a_minute_per_address(
    caplog: pytest.LogCaptureFixture,
) -> None:
    clock = Clock()
    log = RequestErrorLog(clock=clock)
    oversized = LineTooLong(b"GET /" + b"a" * 40, 8190, 9000)
    with caplog.at_level(logging.DEBUG, logger="bot.web"):
        for _ in range(5):
            log.exception("Error handling request from %s", "203.0.113.7", exc_info=oversized)
        log.exception("Error handling request from %s", "198.51.100.1", exc_info=oversized)
        clock.now += 61
        log.exception("Error handling request from %s", "203.0.113.7", exc_info=oversized)
    lines = [r for r in caplog.records if r.name == "bot.web.requests"]
    assert [r.levelno for r in lines] == [logging.WARNING] * 3
    assert all(r.exc_info is None for r in lines), "no traceback"
    assert "203.0.113.7" in lines[0].getMessage() and "more since" not in lines[0].getMessage()
    assert "198.51.100.1" in lines[1].getMessage()
    assert "(4 more since the last line)" in lines[2].getMessage()


@pytest.fixture
async def served(db: Database, league: League) -> AsyncIterator[tuple[int, Clock]]:
    clock = Clock()
    runner = web.AppRunner(
        make_app(db, WebOptions(base_url=BASE_URL)),
        access_log=None,
        logger=RequestErrorLog(clock=clock),
    )
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        yield runner.addresses[0][1], clock
    finally:
        await runner.cleanup()


async def test_oversized_requests_are_refused_and_logged_without_a_traceback(
    served: tuple[int, Clock], caplog: pytest.LogCaptureFixture
) -> None:
    port, _ = served

    async def oversized() -> bytes:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
        await writer.drain()
        answer = await reader.read(200)
        writer.close()
        return answer

    with caplog.at_level(logging.DEBUG):
        answers = [await oversized() for _ in range(20)]
    assert all(a.startswith((b"HTTP/1.0 400", b"HTTP/1.1 400")) for a in answers)
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    warnings = [r for r in caplog.records if r.name == "bot.web.requests"]
    assert errors == [] and len(warnings) == 1
