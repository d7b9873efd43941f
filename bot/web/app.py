"""The web app: a server's league, its players and finished games, read-only.

    app = make_app(db, WebOptions(base_url="https://euchre.example.org"))
    web.run_app(app)

Pages (each server's exist only while its ``web_public`` setting is on; else 404):

- ``/s/{server}``: the current season's standings per family, the latest games and the
  seasons (``?season=N`` shows another);
- ``/s/{server}/players/{user}``: a player's rating over time, record and games;
- ``/s/{server}/games/{game}``: a finished game's replay, one step per link
  (``?step=N``);
- ``/s/{server}/tables/{table}``: the link an end-of-game post carries: to the table's
  game once archived, to the server's live tables while it plays;
- ``.../card.png`` beside each: the picture a pasted link shows (Open Graph).

Pages are made from the store on the first request and kept a short while
(:class:`~bot.web.cache.TimedCache`); a finished game's replay and picture a little
longer (``game_seconds``), with an ETag that is the same in every process (304). They
are not kept for ever: a player who hides from the pages (``/euchre privacy``) leaves
them within that time.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from importlib.resources import files
from typing import Any, Final

from aiohttp import web
from jinja2 import Environment, PackageLoader, StrictUndefined

from bot.render.card_images import card_picture
from bot.render.league import FAMILY_NAMES
from bot.rules import CardError, parse_card
from bot.store import Database

from . import og
from .cache import TimedCache
from .charts import rating_svg
from .guard import RateLimiter, client_address, security_headers
from .reading import (
    PageNotFound,
    read_game,
    read_player,
    read_server,
    read_table_game,
    server_is_public,
)
from .replay_view import TEAM_NAMES, step_view, team_of

__all__ = ["STATIC_FILES", "WebOptions", "make_app"]

log = logging.getLogger(__name__)

STATIC_FILES: Final = {
    "style.css": "text/css",
    "replay.js": "text/javascript",
    "icon.svg": "image/svg+xml",
}
_DAY: Final = 86_400
_SERVER: Final = r"{guild:\d{1,20}}"


@dataclass(frozen=True, slots=True)
class WebOptions:
    """How the app serves: its public address, the rate per address, how long pages keep."""

    base_url: str = ""
    """The pages' public address without a trailing slash; empty: each request's Host."""
    requests_per_minute: int = 120
    trust_forwarded: bool = False
    page_seconds: float = 30.0
    """How long a server's or player's page is kept before it is made again."""
    public_seconds: float = 10.0
    """How long a server's ``web_public`` setting is trusted before it is read again."""
    game_seconds: float = 300.0
    """How long a finished game's page and picture are kept (here and in browsers)."""
    clock: Callable[[], float] = time.monotonic


@dataclass(frozen=True, slots=True)
class _Answer:
    body: bytes
    content_type: str
    etag: str
    cache_control: str


def _etag(body: bytes) -> str:
    return '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


def _answer(body: bytes, content_type: str, cache_control: str) -> _Answer:
    return _Answer(body, content_type, _etag(body), cache_control)


def _static() -> dict[str, _Answer]:
    folder = files("bot.web").joinpath("static")
    return {
        name: _answer(
            folder.joinpath(name).read_bytes(), kind, f"public, max-age={_DAY}, immutable"
        )
        for name, kind in STATIC_FILES.items()
    }


def _number(request: web.Request, name: str) -> int:
    return int(request.match_info[name])


def _query_number(request: web.Request, name: str) -> int | None:
    text = request.query.get(name)
    if text is None:
        return None
    if not text.isdigit() or len(text) > 9:
        raise PageNotFound(f"{name}={text!r} is not a number")
    return int(text)


class _Site:
    """The handlers, over one database, with their caches."""

    def __init__(self, db: Database, options: WebOptions) -> None:
        self.db = db
        self.options = options
        self.pages: TimedCache[_Answer] = TimedCache(2_000, clock=options.clock)
        self.making: dict[tuple[str, str], asyncio.Future[_Answer]] = {}
        self.public: TimedCache[bool] = TimedCache(10_000, clock=options.clock)
        self.limiter = RateLimiter(options.requests_per_minute, clock=options.clock)
        self.static = _static()
        self.env = Environment(
            loader=PackageLoader("bot.web", "templates"),
            autoescape=True,
            undefined=StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
        )
        self.env.globals.update(
            family_names=FAMILY_NAMES,
            team_names=TEAM_NAMES,
            asset=lambda name: f"/static/{name}?v={self.static[name].etag.strip(chr(34))[:10]}",
        )
        self.env.globals["team_of"] = team_of
        self.env.filters["chart"] = rating_svg

    # ------------------------------------------------------------------ plumbing

    def base(self, request: web.Request) -> str:
        return self.options.base_url or f"{request.scheme}://{request.host}"

    def render(self, request: web.Request, template: str, **values: Any) -> bytes:
        values.setdefault("base", self.base(request))
        values.setdefault("url", values["base"] + request.path_qs)
        return self.env.get_template(template).render(**values).encode()

    async def require_public(self, guild_id: int) -> None:
        public = self.public.get(guild_id)
        if public is None:
            public = 0 < guild_id < 2**63 and await server_is_public(self.db, guild_id)
            self.public.put(guild_id, public, self.options.public_seconds)
        if not public:
            raise PageNotFound(f"server {guild_id} has no public pages")

    async def cached(
        self,
        request: web.Request,
        make: Callable[[], Awaitable[_Answer]],
        *,
        seconds: float | None = None,
    ) -> web.Response:
        await self.require_public(_number(request, "guild"))
        key = (self.base(request), request.path_qs)
        answer = self.pages.get(key)
        if answer is None:
            answer = await asyncio.shield(self._making(key, make, seconds))
        return respond(request, answer)

    def _making(
        self, key: tuple[str, str], make: Callable[[], Awaitable[_Answer]], seconds: float | None
    ) -> asyncio.Future[_Answer]:
        """The page being made for ``key``: requests that come meanwhile wait for the same one.

        A page that expires under load is made once, not once per waiting request; it is
        finished and kept even if the request that started it goes away.
        """
        pending = self.making.get(key)
        if pending is None:

            async def build() -> _Answer:
                answer = await make()
                keep = self.options.page_seconds if seconds is None else seconds
                self.pages.put(key, answer, keep)
                return answer

            pending = self.making[key] = asyncio.ensure_future(build())

            def done(task: asyncio.Future[_Answer]) -> None:
                self.making.pop(key, None)
                if not task.cancelled():
                    task.exception()  # retrieved: each waiting request raises it on its own

            pending.add_done_callback(done)
        return pending

    @property
    def game_cache_control(self) -> str:
        return f"public, max-age={int(self.options.game_seconds)}"

    # ------------------------------------------------------------------ pages

    async def home(self, request: web.Request) -> web.Response:
        body = self.render(request, "home.html", title="Euchre for Discord")
        return respond(request, _answer(body, "text/html", "public, max-age=300"))

    async def server(self, request: web.Request) -> web.Response:
        guild_id = _number(request, "guild")
        season_id = _query_number(request, "season")

        async def make() -> _Answer:
            page = await read_server(self.db, guild_id, season_id)
            body = self.render(request, "server.html", page=page, title="Euchre league")
            return _answer(body, "text/html", "public, max-age=30")

        return await self.cached(request, make)

    async def player(self, request: web.Request) -> web.Response:
        guild_id, user_id = _number(request, "guild"), _number(request, "user")

        async def make() -> _Answer:
            page = await read_player(self.db, guild_id, user_id)
            body = self.render(request, "player.html", page=page, title=page.name)
            return _answer(body, "text/html", "public, max-age=30")

        return await self.cached(request, make)

    async def game(self, request: web.Request) -> web.Response:
        guild_id, game_id = _number(request, "guild"), _number(request, "game")
        wanted = _query_number(request, "step")

        async def make() -> _Answer:
            page = await read_game(self.db, guild_id, game_id)
            count = len(page.book.steps)
            number = count if wanted is None else wanted
            if not 1 <= number <= count:
                raise PageNotFound(f"game {game_id} has no step {number}")
            step = step_view(page.game, page.book, number - 1)
            body = self.render(
                request, "game.html", game=page.game, step=step, title=f"Game #{game_id}"
            )
            return _answer(body, "text/html", self.game_cache_control)

        return await self.cached(request, make, seconds=self.options.game_seconds)

    async def table(self, request: web.Request) -> web.Response:
        """A table's link (the end-of-game post's): its game's replay, or the live tables."""
        guild_id, table_id = _number(request, "guild"), _number(request, "table")
        await self.require_public(guild_id)
        game_id = await read_table_game(self.db, guild_id, table_id)
        if game_id is None:
            where, keep = f"/s/{guild_id}#live", "no-store"
        else:
            where, keep = f"/s/{guild_id}/games/{game_id}", f"public, max-age={_DAY}"
        return web.Response(status=302, headers={"Location": where, "Cache-Control": keep})

    async def server_card(self, request: web.Request) -> web.Response:
        guild_id = _number(request, "guild")

        async def make() -> _Answer:
            page = await read_server(self.db, guild_id)
            first = page.standings[0] if page.standings else None
            title = "Euchre league"
            if first is not None:
                title += f" · {FAMILY_NAMES[first.family]}"
            png = og.standings_card(title, first.rows if first is not None else ())
            return _answer(png, "image/png", "public, max-age=300")

        return await self.cached(request, make)

    async def game_card(self, request: web.Request) -> web.Response:
        guild_id, game_id = _number(request, "guild"), _number(request, "game")
        wanted = _query_number(request, "step")

        async def make() -> _Answer:
            page = await read_game(self.db, guild_id, game_id)
            count = len(page.book.steps)
            number = 1 if wanted is None else wanted
            if not 1 <= number <= count:
                raise PageNotFound(f"game {game_id} has no step {number}")
            step = step_view(page.game, page.book, number - 1)
            png = og.deal_card(f"Game #{game_id} · deal {step.deal} of {step.deals}", step)
            return _answer(png, "image/png", self.game_cache_control)

        return await self.cached(request, make, seconds=self.options.game_seconds)

    async def static_file(self, request: web.Request) -> web.Response:
        answer = self.static.get(request.match_info["name"])
        if answer is None:
            raise PageNotFound(request.path)
        return respond(request, answer)

    async def favicon(self, request: web.Request) -> web.Response:
        return respond(request, self.static["icon.svg"])

    async def card_picture(self, request: web.Request) -> web.Response:
        try:
            card = parse_card(request.match_info["label"])
        except CardError:
            raise PageNotFound(request.path) from None
        answer = _card_answer(card)
        return respond(request, answer)

    # ------------------------------------------------------------------ the guard

    @web.middleware
    async def guard(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        response: web.StreamResponse
        address = client_address(request, trust_forwarded=self.options.trust_forwarded)
        if request.method not in ("GET", "HEAD"):
            response = self.error(request, 405, "These pages can only be read.")
            response.headers["Allow"] = "GET, HEAD"
        elif not self.limiter.allow(address):
            response = self.error(request, 429, "Too many requests: wait a moment and try again.")
            response.headers["Retry-After"] = str(self.limiter.retry_after())
        else:
            try:
                response = await handler(request)
            except PageNotFound:
                response = self.error(request, 404, "There is no such page.")
            except web.HTTPException as exc:  # aiohttp's own: no such route, say
                response = self.error(request, exc.status, exc.reason)
            except Exception:
                log.exception("web page %s failed", request.path_qs)
                response = self.error(request, 500, "Something went wrong on our side.")
        security_headers(response)
        return response

    def error(self, request: web.Request, status: int, message: str) -> web.Response:
        body = self.render(request, "error.html", status=status, message=message, title=message)
        return web.Response(
            body=body,
            status=status,
            content_type="text/html",
            charset="utf-8",
            headers={"Cache-Control": "no-store"},
        )


_CARD_ANSWERS: dict[int, _Answer] = {}


def _card_answer(card: int) -> _Answer:
    answer = _CARD_ANSWERS.get(card)
    if answer is None:
        png = card_picture(card).png
        answer = _CARD_ANSWERS[card] = _answer(png, "image/png", f"public, max-age={_DAY}")
    return answer


def respond(request: web.Request, answer: _Answer) -> web.Response:
    """The answer, or 304 when the client's copy (If-None-Match) is this one."""
    headers = {"ETag": answer.etag, "Cache-Control": answer.cache_control}
    wanted = request.headers.get("If-None-Match", "")
    if answer.etag in (tag.strip().removeprefix("W/") for tag in wanted.split(",")):
        return web.Response(status=304, headers=headers)
    charset = "utf-8" if answer.content_type.startswith(("text/", "image/svg")) else None
    return web.Response(
        body=answer.body, content_type=answer.content_type, charset=charset, headers=headers
    )


def make_app(db: Database, options: WebOptions | None = None) -> web.Application:
    """The pages over ``db`` (opened and closed by the caller), GET and HEAD only."""
    site = _Site(db, options or WebOptions())
    app = web.Application(middlewares=[site.guard])
    app.router.add_get("/", site.home)
    app.router.add_get(f"/s/{_SERVER}", site.server)
    app.router.add_get(f"/s/{_SERVER}/card.png", site.server_card)
    app.router.add_get(f"/s/{_SERVER}/players/{{user:\\d{{1,20}}}}", site.player)
    app.router.add_get(f"/s/{_SERVER}/games/{{game:\\d{{1,20}}}}", site.game)
    app.router.add_get(f"/s/{_SERVER}/tables/{{table:\\d{{1,20}}}}", site.table)
    app.router.add_get(f"/s/{_SERVER}/games/{{game:\\d{{1,20}}}}/card.png", site.game_card)
    app.router.add_get("/static/{name}", site.static_file)
    app.router.add_get("/favicon.ico", site.favicon)
    app.router.add_get("/cards/{label}.png", site.card_picture)
    return app
