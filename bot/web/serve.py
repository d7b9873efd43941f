"""Serving the pages: alone (``python -m bot web``) or beside the bot (``web_port``).

The pages need their public address (``web_base_url``): every link in them and in their
previews starts with it, never with what a request's Host header claims, so they refuse
to start without it. aiohttp's request handler logs to :class:`~.guard.RequestErrorLog`,
which says once a minute per address that a request could not be read.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from aiohttp import web

from bot.settings import SECRET_ENV, TOKEN_ENV, WEB_ADDRESS_NEEDED, ConfigError, Settings
from bot.store import Database

from .activity import Activity, ActivityOptions
from .app import WebOptions, make_app
from .guard import RequestErrorLog

if TYPE_CHECKING:
    from bot.tables import TableService

__all__ = ["DEFAULT_PORT", "activity_options_of", "options_of", "serve_forever", "start_site"]

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


def activity_options_of(settings: Settings) -> ActivityOptions | None:
    """The Activity's options (None: ``activity_client_id`` is 0); ConfigError without secrets."""
    if not settings.activity_client_id:
        return None
    if settings.discord_client_secret is None:
        raise ConfigError(
            f"activity_client_id is set, so the Activity's sign-in needs the application's "
            f"OAuth2 secret in the {SECRET_ENV} environment variable (docs/activity.md)"
        )
    if settings.discord_token is None:
        raise ConfigError(f"the Activity checks its instances with the bot's {TOKEN_ENV}")
    return ActivityOptions(
        client_id=settings.activity_client_id,
        client_secret=settings.discord_client_secret.get_secret_value(),
        bot_token=settings.discord_token.get_secret_value(),
        api_url=settings.discord_api_url,
    )


async def start_site(
    db: Database,
    settings: Settings,
    host: str,
    port: int,
    *,
    tables: TableService | None = None,
) -> web.AppRunner:
    """Start serving the pages over ``db``; the caller cleans the runner up before closing it.

    With ``tables`` (the bot process) and ``activity_client_id`` set, the Activity too.
    """
    activity_options = activity_options_of(settings) if tables is not None else None
    activity = None
    if tables is not None and activity_options is not None:
        activity = Activity(tables, activity_options)
    app = make_app(db, options_of(settings), activity=activity)
    runner = web.AppRunner(app, access_log=None, logger=RequestErrorLog())
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    log.info(
        "Serving the web pages%s on http://%s:%d as %s",
        "" if activity is None else " and the Activity",
        host,
        port,
        settings.web_base_url,
    )
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
