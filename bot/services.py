"""How the process's services are built from its settings: the search pool and the tables.

``bot/__main__.py`` builds them once and passes them in (to the bot, the league and
the tables); nothing here is a singleton.
"""

from __future__ import annotations

from typing import Final

from bot.players import make_player
from bot.players.claims import can_claim
from bot.search_pool import SearchPool, default_workers
from bot.server.settings import ServerSettings
from bot.server.sources import FixedSettings
from bot.settings import Settings
from bot.store import Database
from bot.store.server_settings import StoredSettings
from bot.tables import MemoryTableStore, TableService
from bot.tables.database import DatabaseTableStore
from bot.tables.ownership import GuildLockSource, Ownership

__all__ = ["SEARCH_MODULES", "database_tables", "default_tables", "search_pool"]

SEARCH_MODULES: Final = (
    "bot.players",
    "bot.players.review",
    "bot.daily.deal",
    "bot.lesson.deal",
)
"""What the search pool's workers import once, before their first job."""


def _server_defaults(settings: Settings) -> ServerSettings:
    return ServerSettings(tables_in_threads=settings.tables_in_threads)


def default_tables(settings: Settings, pool: SearchPool | None = None) -> TableService:
    """Tables kept in memory only, with the configured defaults for every server.

    The computers search in ``pool`` (default: threads of this process).
    """
    servers = FixedSettings(_server_defaults(settings))
    return TableService(
        MemoryTableStore(),
        make_player,
        server_settings=servers,
        claims=can_claim,
        computer_move_delay=settings.computer_move_delay,
        pool=pool,
        search_grace=settings.search_grace,
    )


def database_tables(
    settings: Settings,
    db: Database,
    locks: GuildLockSource | None = None,
    pool: SearchPool | None = None,
) -> TableService:
    """Tables saved in ``db``, each server's settings read from it (and changed there).

    Only the servers of this process's shards are restored, each under its guild lock
    from ``locks`` (none: no other process to wait for). The computers search in
    ``pool`` (default: threads of this process).
    """
    servers = StoredSettings(db, _server_defaults(settings))
    ownership = Ownership.of(settings.shard_count, settings.shard_ids, locks)
    return TableService(
        DatabaseTableStore(db),
        make_player,
        server_settings=servers,
        claims=can_claim,
        ownership=ownership,
        computer_move_delay=settings.computer_move_delay,
        pool=pool,
        search_grace=settings.search_grace,
    )


def search_pool(settings: Settings) -> SearchPool:
    """The process's search pool, as the settings size it (not started: ``await pool.start()``)."""
    return SearchPool(
        default_workers(settings.search_workers),
        review_queue=settings.review_queue,
        preload=SEARCH_MODULES,
    )
