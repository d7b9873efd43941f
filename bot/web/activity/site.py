"""The Activity's addresses under ``/activity``: its page, its files, the sign-in, the socket.

- ``/activity/``: the page Discord opens (the application's root URL mapping points here);
  it loads the built client, ``static/activity.<hash>.js``, and its style sheet;
- ``/activity/static/<name>``: those files and the card sprites (two colours and four),
  under names that carry their content's hash;
- ``POST /activity/api/sign-in``: Discord's code and the instance in, a ticket out
  (:mod:`.signin`);
- ``/activity/ws``: the table's websocket (:mod:`.sockets`).

Inside Discord the client reaches the last two through Discord's proxy, as
``/.proxy/api/sign-in`` and ``/.proxy/ws``. The page's own files are named relative to
it. :attr:`ActivityOptions.mock_sdk` (the browser tests only) serves the client built
with the SDK's mock, so the page runs outside Discord.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING, Final

from aiohttp import web

from ..answers import answer, respond
from ..assets import Assets
from ..sprite import cards_svg
from .feed import Feed
from .signin import DiscordOAuth, SignInError
from .sockets import Hub

if TYPE_CHECKING:
    from bot.tables import TableService

__all__ = ["ACTIVITY_FILES", "PREFIX", "Activity", "ActivityOptions"]

PREFIX: Final = "/activity"
ACTIVITY_FILES: Final = {
    "activity.js": "text/javascript",
    "activity-mock.js": "text/javascript",
    "activity.css": "text/css",
}
"""The client as built (``client/build.mjs``) and its style sheet, in ``static``."""
_LARGEST_SIGN_IN: Final = 4096


@dataclass(frozen=True, slots=True)
class ActivityOptions:
    """What the Activity needs from the process's settings."""

    client_id: int
    """The application's id: the OAuth2 client the SDK asks Discord's code for."""
    client_secret: str
    """The application's OAuth2 secret: kept here, never sent to a client."""
    bot_token: str
    """The bot's token, to read an instance's guild, channel and people."""
    api_url: str = "https://discord.com/api/v10"
    """Where Discord's HTTP API answers (the tests' fake Discord, in tests)."""
    mock_sdk: bool = False
    """Serve the client built with the SDK's mock (browser tests only)."""


class Activity:
    """The Activity of one bot process, over its table service."""

    def __init__(
        self,
        service: TableService,
        options: ActivityOptions,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        """Serve ``service``'s tables to the Activity's clients."""
        self.options = options
        self.oauth = DiscordOAuth(
            options.api_url, options.client_id, options.client_secret, options.bot_token
        )
        self.feed = Feed(service)
        self.hub = Hub(self.feed, self.oauth.key, clock=clock)
        self.clock = clock
        drawn = {
            "cards.svg": (cards_svg(), "image/svg+xml"),
            "fourcolour.svg": (cards_svg(four_colour=True), "image/svg+xml"),
        }
        self.assets = Assets("bot.web.activity", ACTIVITY_FILES, drawn, prefix="static/")
        script = self.assets.url("activity-mock.js" if options.mock_sdk else "activity.js")
        self.page = answer(_page(self.assets, script, options.client_id), "text/html", "no-cache")

    def add_routes(self, app: web.Application) -> None:
        """Add the Activity's addresses to the web app."""
        app.router.add_get(PREFIX, self.to_page)
        app.router.add_get(f"{PREFIX}/", self.show_page)
        app.router.add_get(f"{PREFIX}/static/{{name}}", self.assets.serve)
        app.router.add_post(f"{PREFIX}/api/sign-in", self.sign_in)
        app.router.add_get(f"{PREFIX}/ws", self.hub.handle)
        app.on_shutdown.append(self._shut)
        app.on_cleanup.append(self._close)

    async def _shut(self, _: web.Application) -> None:
        await self.hub.close_all()

    async def _close(self, _: web.Application) -> None:
        await self.oauth.close()

    async def to_page(self, request: web.Request) -> web.Response:
        """``/activity`` to ``/activity/``, the query kept (Discord's instance and frame)."""
        query = f"?{request.query_string}" if request.query_string else ""
        return web.Response(status=308, headers={"Location": f"{PREFIX}/{query}"})

    async def show_page(self, request: web.Request) -> web.Response:
        """The page Discord opens."""
        return respond(request, self.page)

    async def sign_in(self, request: web.Request) -> web.Response:
        """Discord's code and the instance in, the person's ticket out (or a sentence)."""
        if request.content_length is None or request.content_length > _LARGEST_SIGN_IN:
            return _json({"message": "A sign-in is a small JSON object."}, 400)
        try:
            data = await request.json()
            code, instance = data["code"], data["instance_id"]
            if not isinstance(code, str) or not isinstance(instance, str):
                raise TypeError
        except (ValueError, KeyError, TypeError):
            return _json({"message": "A sign-in needs Discord's code and the instance."}, 400)
        try:
            ticket = await self.oauth.sign_in(code, instance, now=self.clock())
        except SignInError as exc:
            return _json({"message": exc.message}, 403)
        return _json({"ticket": ticket.sign(self.oauth.key), "name": ticket.name}, 200)


def _json(body: dict[str, str], status: int) -> web.Response:
    return web.Response(
        text=json.dumps(body),
        status=status,
        content_type="application/json",
        headers={"Cache-Control": "no-store"},
    )


def _page(assets: Assets, script: str, client_id: int) -> bytes:
    """The Activity's page: nothing but the client, which draws everything."""
    return (
        "<!doctype html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        "<title>Euchre</title>\n"
        '<meta name="theme-color" content="#1d4d33">\n'
        f'<link rel="stylesheet" href="{escape(assets.url("activity.css"))}">\n'
        f'<script type="module" src="{escape(script)}"></script>\n'
        "</head>\n"
        f'<body data-client="{client_id}" data-sprite="{escape(assets.url("cards.svg"))}" '
        f'data-sprite4="{escape(assets.url("fourcolour.svg"))}">\n'
        '<main id="app" aria-live="off"></main>\n'
        "</body>\n</html>\n"
    ).encode()
