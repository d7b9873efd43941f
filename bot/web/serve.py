"""Serving the pages: alone (``python -m bot web``) or beside the bot (``web_port``).

The pages need their public address (``web_base_url``): every link in them and in their
previews starts with it, never with what a request's Host header claims, so they refuse
to start without it. aiohttp's request handler logs to :class:`~.guard.RequestErrorLog`,
which says once a minute per address that a request could not be read.
"""

from __future__ import annotations

import logging

from aiohttp import web

from bot.settings import WEB_ADDRESS_NEEDED, ConfigError, Settings
from bot.store import Database

from .app import WebOptions, make_app
from .guard import RequestErrorLog

__all__ = ["DEFAULT_PORT", "options_of", "serve_forever", "start_site"]

log = logging.getLogger(__name__)

DEFAULT_PORT = 8080
"""``python -m bot web``'s port when ``web_port`` is 0."""


def options_of(settings: Settings) -> WebOptions:
    """The app's options from the process's settings; ConfigError without ``web_base_url``."""
    if not settings.web_base_url:
        raise ConfigError(WEB_ADDRESS_NEEDED)
    return WebOptions(
        base_url=settings.web_base_url,
        requests_per_minute=settings.web_requests_per_minute,
        trust_forwarded=settings.web_trust_forwarded,
    )


async def start_site(db: Database, settings: Settings, host: str, port: int) -> web.AppRunner:
    """Start serving the pages over ``db``; the caller cleans the runner up before closing it."""
    runner = web.AppRunner(
        make_app(db, options_of(settings)), access_log=None, logger=RequestErrorLog()
    )
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    log.info("Serving the web pages on http://%s:%d as %s", host, port, settings.web_base_url)
    return runner


def serve_forever(settings: Settings, host: str, port: int) -> None:
    """Serve the pages until SIGINT or SIGTERM; the store opens first and closes last."""
    options = options_of(settings)

    async def app() -> web.Application:
        db = await Database.open(settings.database_url, timeout=settings.database_timeout)
        application = make_app(db, options)

        async def close(_: web.Application) -> None:
            await db.close()

        application.on_cleanup.append(close)
        log.info(
            "Serving the web pages of %s on http://%s:%d as %s",
            settings.database_shown,
            host,
            port,
            settings.web_base_url,
        )
        return application

    web.run_app(app(), host=host, port=port, print=None, access_log=None, logger=RequestErrorLog())
