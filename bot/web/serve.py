"""Serving the pages: alone (``python -m bot web``) or beside the bot (``web_port``)."""

from __future__ import annotations

import logging

from aiohttp import web

from bot.settings import Settings
from bot.store import Database

from .app import WebOptions, make_app

__all__ = ["DEFAULT_PORT", "options_of", "serve_forever", "start_site"]

log = logging.getLogger(__name__)

DEFAULT_PORT = 8080
"""``python -m bot web``'s port when ``web_port`` is 0."""


def options_of(settings: Settings) -> WebOptions:
    """The app's options from the process's settings."""
    return WebOptions(
        base_url=settings.web_base_url,
        requests_per_minute=settings.web_requests_per_minute,
        trust_forwarded=settings.web_trust_forwarded,
    )


async def start_site(db: Database, settings: Settings, host: str, port: int) -> web.AppRunner:
    """Start serving the pages over ``db``; the caller cleans the runner up before closing it."""
    runner = web.AppRunner(make_app(db, options_of(settings)), access_log=None)
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    log.info("Serving the web pages on http://%s:%d", host, port)
    return runner


def serve_forever(settings: Settings, host: str, port: int) -> None:
    """Serve the pages until SIGINT or SIGTERM; the store opens first and closes last."""

    async def app() -> web.Application:
        db = await Database.open(settings.database_url, timeout=settings.database_timeout)
        application = make_app(db, options_of(settings))

        async def close(_: web.Application) -> None:
            await db.close()

        application.on_cleanup.append(close)
        log.info("Serving the web pages of %s", settings.database_shown)
        return application

    web.run_app(app(), host=host, port=port, print=None, access_log=None)
