"""The web app: a server's league, its players, games and events, read-only.

    app = make_app(db, WebOptions(base_url="https://euchre.example.org"))
    web.run_app(app)

Pages (each server's exist only while its ``web_public`` setting is on; else 404):

- ``/s/{server}``: the current season's standings per family, the tables in play, the
  tournaments, the latest games and the seasons (``?season=N`` shows another);
- ``/s/{server}/players/{user}``: a player's rating over time, accuracy, record, games;
- ``/s/{server}/games/{game}``: a finished game's replay drawn as the table, one step
  per address (``?step=N``), which the page's script steps through from ``steps.json``
  without loading another page;
- ``/s/{server}/events/{event}``: a tournament's rounds, tables, standings and games;
- ``/s/{server}/tables/{table}``: the link an end-of-game post carries: to the table's
  game once archived, to the server's live tables while it plays;
- ``card.png`` beside a server, player or game, the picture a pasted link shows;
  ``/s/{server}/icon.png``, the server's icon as Discord last showed it.

Pages are made from the store on the first request and kept a short while
(:class:`~bot.web.cache.TimedCache`); a finished game's replay and picture a little
longer (``game_seconds``), with an ETag that is the same in every process (304). They
are not kept for ever: a player who hides from the pages (``/euchre privacy``) leaves
them within that time. Every address in a page, and in what a link shows, starts with
``base_url``, never with what a request's Host header says.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager, nullcontext
from typing import TYPE_CHECKING, Any, Final

from aiohttp import web
from jinja2 import Environment, PackageLoader, StrictUndefined

from bot.render.league import FAMILY_NAMES
from bot.store import Database
from bot.store.readers import Readers

from . import markup, og
from .answers import Answer, PageNotFound, answer, path_number, query_number, respond
from .assets import Assets
from .cache import TimedCache
from .charts import rating_svg
from .guard import FILES_FACTOR, RateLimiter, client_address, security_headers
from .live import PublicViews
from .options import WebOptions

if TYPE_CHECKING:
    from .activity import Activity
from .reading import (
    GamePage,
    read_event,
    read_game,
    read_icon,
    read_player,
    read_server,
    read_table_game,
    server_is_public,
)
from .replay_view import TEAM_NAMES, deal_starts, replay_data, step_view, team_members
from .texts import isolate

__all__ = ["WebOptions", "make_app"]

log = logging.getLogger(__name__)

_DAY: Final = 86_400
_NUMBER: Final = "[0-9]{1,20}"


_ROBOTS: Final = answer(b"User-agent: *\nAllow: /\n", "text/plain", f"public, max-age={_DAY}")
"""Every page may be read by crawlers: they are public, and each is one request."""


def _is_file(path: str) -> bool:
    """Whether a request is for a static file, counted in the address's file bucket."""
    return path.startswith(("/static/", "/activity/static/")) or path in (
        "/favicon.ico",
        "/robots.txt",
    )


_POSTED: Final = frozenset({"/activity/api/sign-in"})
"""The only addresses that take a POST: the Activity's sign-in."""


class _Site:
    """The handlers, over one database, with their caches."""

    def __init__(self, db: Database, options: WebOptions) -> None:
        self.db = db
        self.readers: Readers | None = None
        """Opened when the app starts; until then pages read through ``db``."""
        self.options = options
        self.pages: TimedCache[Answer] = TimedCache(2_000, clock=options.clock)
        self.making: dict[str, asyncio.Future[Answer]] = {}
        self.public: TimedCache[bool] = TimedCache(10_000, clock=options.clock)
        self.views = PublicViews()
        """The open tables' public views, replayed once per count of saved actions."""
        self.limiter, self.file_limiter = (
            (options.rates.pages, options.rates.files)
            if options.rates is not None
            else (
                RateLimiter(options.requests_per_minute, clock=options.clock),
                RateLimiter(options.requests_per_minute * FILES_FACTOR, clock=options.clock),
            )
        )
        self.assets = Assets()
        self.env = Environment(
            loader=PackageLoader("bot.web", "templates"),
            autoescape=True,
            undefined=StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
            auto_reload=False,  # shipped templates never change under a running process
        )
        self.env.globals.update(
            who=markup.who,
            player=markup.player,
            team=markup.team,
            seated=markup.seated,
            standings_rows=markup.standings_rows,
            games_list=markup.games_list,
            history_list=markup.history_list,
            family_names=FAMILY_NAMES,
            team_names=TEAM_NAMES,
            team_members=team_members,
            asset=self.assets.url,
            base=options.base_url,
        )
        self.env.filters["chart"] = rating_svg
        self.env.filters["isolate"] = isolate

    # ------------------------------------------------------------------ plumbing

    def render(self, request: web.Request, template: str, **values: Any) -> bytes:
        values.setdefault("url", self.options.base_url + request.path_qs)
        return self.env.get_template(template).render(**values).encode()

    def html(self, request: web.Request, template: str, keep: str, **values: Any) -> Answer:
        return answer(self.render(request, template, **values), "text/html", keep, level=4)

    def reading(self) -> AbstractAsyncContextManager[Database]:
        """A connection to read a page with (``async with self.reading() as db``)."""
        if self.readers is None:
            return nullcontext(self.db)
        return self.readers.lend()

    async def start(self, _: web.Application) -> None:
        self.readers = await Readers.open(self.db, self.options.readers)

    async def stop(self, _: web.Application) -> None:
        readers, self.readers = self.readers, None
        if readers is not None:
            await readers.close()

    async def require_public(self, guild_id: int) -> None:
        public = self.public.get(guild_id)
        if public is None:
            if 0 < guild_id < 2**63:
                async with self.reading() as db:
                    public = await server_is_public(db, guild_id)
            else:
                public = False
            self.public.put(guild_id, public, self.options.public_seconds)
        if not public:
            raise PageNotFound(f"server {guild_id} has no public pages")

    async def cached(
        self,
        request: web.Request,
        make: Callable[[], Awaitable[Answer]],
        *,
        seconds: float | None = None,
    ) -> web.Response:
        await self.require_public(path_number(request, "guild"))
        key = request.path_qs
        found = self.pages.get(key)
        if found is None:
            found = await asyncio.shield(self._making(key, make, seconds))
        return respond(request, found)

    def _making(
        self, key: str, make: Callable[[], Awaitable[Answer]], seconds: float | None
    ) -> asyncio.Future[Answer]:
        """The page being made for ``key``: requests that come meanwhile wait for the same one.

        A page that expires under load is made once, not once per waiting request; it is
        finished and kept even if the request that started it goes away.
        """
        pending = self.making.get(key)
        if pending is None:

            async def build() -> Answer:
                made = await make()
                keep = self.options.page_seconds if seconds is None else seconds
                self.pages.put(key, made, keep)
                return made

            pending = self.making[key] = asyncio.ensure_future(build())

            def done(task: asyncio.Future[Answer]) -> None:
                self.making.pop(key, None)
                if not task.cancelled():
                    task.exception()  # retrieved: each waiting request raises it on its own

            pending.add_done_callback(done)
        return pending

    @property
    def game_cache_control(self) -> str:
        return f"public, max-age={int(self.options.game_seconds)}"

    # ------------------------------------------------------------------ pages

    async def game_at(self, guild_id: int, game_id: int, step: int | None = None) -> GamePage:
        """A finished game's page; PageNotFound when it has no step ``step`` (1-based)."""
        async with self.reading() as db:
            page = await read_game(db, guild_id, game_id)
        if step is not None and not 1 <= step <= len(page.book.steps):
            raise PageNotFound(f"game {game_id} has no step {step}")
        return page

    async def home(self, request: web.Request) -> web.Response:
        made = self.html(request, "home.html", "public, max-age=300", title="Euchre for Discord")
        return respond(request, made)

    async def read_page(
        self, request: web.Request, template: str, read: Callable[[Database], Awaitable[object]]
    ) -> web.Response:
        """A page of what ``read`` finds in the database, cached for 30 seconds."""

        async def make() -> Answer:
            async with self.reading() as db:
                page = await read(db)
            return self.html(request, template, "public, max-age=30", page=page)

        return await self.cached(request, make)

    async def server(self, request: web.Request) -> web.Response:
        guild_id = path_number(request, "guild")
        season_id = query_number(request, "season")
        return await self.read_page(
            request,
            "server.html",
            lambda db: read_server(db, guild_id, season_id, views=self.views),
        )

    async def player(self, request: web.Request) -> web.Response:
        guild_id, user_id = path_number(request, "guild"), path_number(request, "user")
        return await self.read_page(
            request, "player.html", lambda db: read_player(db, guild_id, user_id)
        )

    async def game(self, request: web.Request) -> web.Response:
        guild_id, game_id = path_number(request, "guild"), path_number(request, "game")
        wanted = query_number(request, "step")

        async def make() -> Answer:
            page = await self.game_at(guild_id, game_id, wanted)
            number = len(page.book.steps) if wanted is None else wanted
            return self.html(
                request,
                "game.html",
                self.game_cache_control,
                page=page,
                step=step_view(page.book, number - 1),
                deals=deal_starts(page.book),
                picture="" if wanted is None else f"?step={number}",
            )

        return await self.cached(request, make, seconds=self.options.game_seconds)

    async def game_steps(self, request: web.Request) -> web.Response:
        """Every step of a game's replay as data, for the game page's script."""
        guild_id, game_id = path_number(request, "guild"), path_number(request, "game")

        async def make() -> Answer:
            page = await self.game_at(guild_id, game_id)
            data = replay_data(page.book)
            data["players"] = [{"name": p.name, "computer": p.computer} for p in page.players]
            body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
            return answer(body, "application/json", self.game_cache_control, level=4)

        return await self.cached(request, make, seconds=self.options.game_seconds)

    async def event(self, request: web.Request) -> web.Response:
        guild_id, event_id = path_number(request, "guild"), path_number(request, "event")
        return await self.read_page(
            request, "event.html", lambda db: read_event(db, guild_id, event_id)
        )

    async def table(self, request: web.Request) -> web.Response:
        """A table's link (the end-of-game post's): its game's replay, or the live tables."""
        guild_id, table_id = path_number(request, "guild"), path_number(request, "table")
        await self.require_public(guild_id)
        async with self.reading() as db:
            game_id = await read_table_game(db, guild_id, table_id)
        if game_id is None:
            where, keep = f"/s/{guild_id}#live", "no-store"
        else:
            where, keep = f"/s/{guild_id}/games/{game_id}", f"public, max-age={_DAY}"
        return web.Response(status=302, headers={"Location": where, "Cache-Control": keep})

    # ------------------------------------------------------------------ pictures

    async def server_card(self, request: web.Request) -> web.Response:
        guild_id = path_number(request, "guild")
        season_id = query_number(request, "season")

        async def make() -> Answer:
            async with self.reading() as db:
                page = await read_server(db, guild_id, season_id, live=False)
                icon = await read_icon(db, guild_id)
            png = og.server_card(page, icon)
            return answer(png, "image/png", "public, max-age=300")

        return await self.cached(request, make)

    async def player_card(self, request: web.Request) -> web.Response:
        guild_id, user_id = path_number(request, "guild"), path_number(request, "user")

        async def make() -> Answer:
            async with self.reading() as db:
                page = await read_player(db, guild_id, user_id)
                icon = await read_icon(db, guild_id)
            png = og.player_card(page, icon)
            return answer(png, "image/png", "public, max-age=300")

        return await self.cached(request, make)

    async def game_card(self, request: web.Request) -> web.Response:
        guild_id, game_id = path_number(request, "guild"), path_number(request, "game")
        wanted = query_number(request, "step")

        async def make() -> Answer:
            page = await self.game_at(guild_id, game_id, wanted)
            png = og.game_card(page, None if wanted is None else wanted - 1)
            return answer(png, "image/png", self.game_cache_control)

        return await self.cached(request, make, seconds=self.options.game_seconds)

    async def server_icon(self, request: web.Request) -> web.Response:
        """The server's icon as the bot last saw it; its address carries its key."""
        guild_id = path_number(request, "guild")

        async def make() -> Answer:
            async with self.reading() as db:
                icon = await read_icon(db, guild_id)
            if icon is None:
                raise PageNotFound(f"server {guild_id} has no icon kept")
            return answer(icon, "image/png", f"public, max-age={_DAY}")

        return await self.cached(request, make)

    # ------------------------------------------------------------------ files

    async def favicon(self, request: web.Request) -> web.Response:
        return respond(request, self.assets.file("icon.svg"))

    async def robots(self, request: web.Request) -> web.Response:
        return respond(request, _ROBOTS)

    # ------------------------------------------------------------------ the guard

    @web.middleware
    async def guard(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        response: web.StreamResponse
        address = client_address(request, hops=self.options.trust_forwarded)
        limiter = self.file_limiter if _is_file(request.path) else self.limiter
        if request.method not in ("GET", "HEAD") and request.path not in _POSTED:
            response = self.error(request, 405, "These pages can only be read.")
            response.headers["Allow"] = "GET, HEAD"
        elif not limiter.allow(address):
            response = self.error(request, 429, "Too many requests: wait a moment and try again.")
            response.headers["Retry-After"] = str(limiter.retry_after())
        else:
            try:
                response = await handler(request)
            except (PageNotFound, web.HTTPNotFound):
                response = self.error(request, 404, "There is no such page.")
            except web.HTTPException as exc:  # aiohttp's own
                response = self.error(request, exc.status, exc.reason)
            except Exception:
                log.exception("web page %s failed", request.path_qs)
                response = self.error(request, 500, "Something went wrong on our side.")
        if not response.prepared:  # a websocket's answer went out when it opened
            security_headers(response, activity=request.path.startswith("/activity"))
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


def make_app(
    db: Database, options: WebOptions, *, activity: Activity | None = None
) -> web.Application:
    """The pages over ``db`` (opened and closed by the caller), GET and HEAD only.

    The app opens ``options.readers`` reading connections to ``db``'s store when it
    starts and closes them when it cleans up; each page being made reads through one.
    With ``activity`` (the bot process, which has the tables), the Discord Activity too.
    """
    site = _Site(db, options)
    app = web.Application(middlewares=[site.guard])
    app.on_startup.append(site.start)
    app.on_cleanup.append(site.stop)
    if activity is not None:
        activity.add_routes(app)
    server = f"/s/{{guild:{_NUMBER}}}"
    routes = {
        "/": site.home,
        server: site.server,
        f"{server}/card.png": site.server_card,
        f"{server}/icon.png": site.server_icon,
        f"{server}/players/{{user:{_NUMBER}}}": site.player,
        f"{server}/players/{{user:{_NUMBER}}}/card.png": site.player_card,
        f"{server}/games/{{game:{_NUMBER}}}": site.game,
        f"{server}/games/{{game:{_NUMBER}}}/steps.json": site.game_steps,
        f"{server}/games/{{game:{_NUMBER}}}/card.png": site.game_card,
        f"{server}/events/{{event:{_NUMBER}}}": site.event,
        f"{server}/tables/{{table:{_NUMBER}}}": site.table,
        "/static/{name}": site.assets.serve,
        "/favicon.ico": site.favicon,
        "/robots.txt": site.robots,
    }
    for path, handler in routes.items():
        app.router.add_get(path, handler)
    return app
