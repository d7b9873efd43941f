"""Serving the pages: alone (``python -m bot web``) or beside the bot (``web_port``).

The pages need their public address (``web_base_url``): every link in them and in their
previews starts with it, never with what a request's Host header claims, so they refuse
to start without it. aiohttp's request handler logs to :class:`~.guard.RequestErrorLog`,
which says once a minute per address that a request could not be read.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import socket
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Final

from aiohttp import web

from bot.settings import TOKEN_ENV, WEB_ADDRESS_NEEDED, ConfigError, Settings
from bot.store import Database

from .activity import Activity, ActivityOptions
from .app import make_app
from .guard import RequestErrorLog
from .options import WebOptions
from .shared_rates import SharedRates

if TYPE_CHECKING:
    from bot.tables import TableService

__all__ = [
    "DEFAULT_PORT",
    "activity_options_of",
    "options_of",
    "processes_of",
    "serve_forever",
    "start_site",
]

log = logging.getLogger(__name__)

DEFAULT_PORT = 8080
"""``python -m bot web``'s port when ``web_port`` is 0."""
_RESTART_PAUSE: Final = 1.0
"""Seconds before a page process ended by a signal is started again."""
_WATCH_EVERY: Final = 1.0
"""Seconds between a page process's looks at whether its parent is still there."""
_STOP_SIGNALS: Final = (signal.SIGINT, signal.SIGTERM)


def options_of(settings: Settings) -> WebOptions:
    """The app's options from the process's settings; ConfigError without ``web_base_url``."""
    if not settings.web_base_url:
        raise ConfigError(WEB_ADDRESS_NEEDED)
    return WebOptions(
        base_url=settings.web_base_url,
        requests_per_minute=settings.web_requests_per_minute,
        trust_forwarded=settings.web_trust_forwarded,
        readers=settings.web_readers,
    )


def activity_options_of(settings: Settings) -> ActivityOptions | None:
    """The Activity's options (None: ``activity_client_id`` is 0); ConfigError without secrets."""
    secret = settings.require_activity_secret()
    if secret is None:
        return None
    if settings.discord_token is None:
        raise ConfigError(f"the Activity checks its instances with the bot's {TOKEN_ENV}")
    return ActivityOptions(
        client_id=settings.activity_client_id,
        client_secret=secret.get_secret_value(),
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


def processes_of(settings: Settings) -> int:
    """How many processes ``python -m bot web`` serves from (``web_processes``; 0: a core each)."""
    return settings.web_processes or os.cpu_count() or 1


def serve_forever(settings: Settings, host: str, port: int) -> None:
    """Serve the pages until SIGINT or SIGTERM, from ``web_processes`` processes.

    The socket is bound here, so a port that cannot be had fails at once. With more
    than one process, the page processes are forked from this one, which made the
    rates they share; it stops them on SIGINT or SIGTERM and starts again one that died.
    """
    options = options_of(settings)
    family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
    sock = socket.create_server((host, port), family=family, backlog=1024)
    processes = processes_of(settings)
    if processes == 1:
        _serve(settings, options, sock, host, port)
        return
    asyncio.run(_migrated(settings))  # once, here: the page processes open it side by side
    options = replace(options, rates=SharedRates.make(options.requests_per_minute))
    workers = _Workers(lambda: _serve(settings, options, sock, host, port, watch_parent=True))
    if not workers.run(processes):
        raise ConfigError("a web page process could not serve (its error is logged above)")


async def _migrated(settings: Settings) -> None:
    """Open the store once (bringing its schema up to date) and close it."""
    db = await Database.open(settings.database_url, timeout=settings.database_timeout)
    await db.close()


def _serve(
    settings: Settings,
    options: WebOptions,
    sock: socket.socket,
    host: str,
    port: int,
    *,
    watch_parent: bool = False,
) -> None:
    """Serve the pages on ``sock`` in this process until SIGINT or SIGTERM.

    The first of them stops it and it ignores the rest, so its clean-up runs to the end:
    a page process in a terminal's or a service's process group hears the group's signal
    and its parent's too.
    """
    parent = os.getppid()

    async def serve() -> None:
        stopped = _first_stop()
        db = await Database.open(settings.database_url, timeout=settings.database_timeout)
        try:
            application = make_app(db, options)
            if watch_parent:
                application.cleanup_ctx.append(_orphan_watch(parent))
            runner = web.AppRunner(application, access_log=None, logger=RequestErrorLog())
            await runner.setup()
            try:
                await web.SockSite(runner, sock).start()
                log.info(
                    "%s the web pages of %s on http://%s:%d as %s",
                    f"Page process {os.getpid()} serving" if watch_parent else "Serving",
                    settings.database_shown,
                    host,
                    port,
                    settings.web_base_url,
                )
                await stopped.wait()
            finally:
                await runner.cleanup()
        finally:
            await db.close()

    asyncio.run(serve())


def _first_stop() -> asyncio.Event:
    """Set by the first SIGINT or SIGTERM; from then on the process ignores both.

    A page process is forked with them blocked: one sent before now is taken here.
    """
    loop = asyncio.get_running_loop()
    stopped = asyncio.Event()

    def stop() -> None:
        for signum in _STOP_SIGNALS:
            loop.remove_signal_handler(signum)
            signal.signal(signum, signal.SIG_IGN)
        stopped.set()

    for signum in _STOP_SIGNALS:
        loop.add_signal_handler(signum, stop)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)
    return stopped


def _orphan_watch(parent: int) -> Callable[[web.Application], AsyncIterator[None]]:
    """A page process stops itself once its parent is gone (killed without a word)."""

    async def watch() -> None:
        while os.getppid() == parent:
            await asyncio.sleep(_WATCH_EVERY)
        os.kill(os.getpid(), signal.SIGTERM)

    async def context(_: web.Application) -> AsyncIterator[None]:
        task = asyncio.create_task(watch())
        yield
        task.cancel()

    return context


class _Workers:
    """Forked page processes, kept at their number until SIGINT or SIGTERM stops them."""

    def __init__(self, serve: Callable[[], None]) -> None:
        self._serve = serve
        self._stopping = False
        self._children: set[int] = set()

    def run(self, processes: int) -> bool:
        """Fork ``processes`` of them; once they are all stopped, whether all went well.

        One killed by a signal is started again; one that failed by itself (its store
        unreachable, say) stops them all.
        """
        for signum in _STOP_SIGNALS:
            signal.signal(signum, self._stop)
        for _ in range(processes):
            self._fork()
        ok = True
        while self._children:
            try:
                pid, status = os.wait()
            except ChildProcessError:
                break
            self._children.discard(pid)
            if self._stopping:
                continue
            if os.WIFSIGNALED(status):
                log.error(
                    "A web page process was ended by signal %d; starting another",
                    os.WTERMSIG(status),
                )
                time.sleep(_RESTART_PAUSE)
                if not self._stopping:  # a stop during the pause
                    self._fork()
            else:
                ok = os.waitstatus_to_exitcode(status) == 0
                self._stop(signal.SIGTERM, None)
        return ok

    def _fork(self) -> None:
        # Blocked: a stop that comes meanwhile waits until the new process is known (here)
        # and can take it (there, in _first_stop).
        signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
        pid = os.fork()
        if pid:
            self._children.add(pid)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)
            return
        code = 1
        try:
            for signum in _STOP_SIGNALS:
                signal.signal(signum, signal.SIG_DFL)
            self._serve()
            code = 0
        except BaseException:
            log.exception("A web page process failed")
        finally:
            logging.shutdown()
            os._exit(code)

    def _stop(self, signum: int, _: object) -> None:
        """Pass the first stop on to the page processes; ignore those after it."""
        if self._stopping:
            return
        self._stopping = True
        for each in _STOP_SIGNALS:
            signal.signal(each, signal.SIG_IGN)
        for pid in self._children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signum)
