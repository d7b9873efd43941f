"""The store: one database behind repositories that return pydantic models.

SQLite by default (one file, no server); PostgreSQL for several bot processes
(``database_url = "postgresql://..."``). Every SQL statement of the project lives in
this package, written once for both.

    db = await Database.open(settings.database_url)   # creates, migrates
    settings = await GuildSettingsRepo(db).get(guild_id)
    table = await TableRepo(db).create(guild_id=..., channel_id=..., host_id=...,
                                       rules=settings.rules, seed=seed)
    ...
    await db.close()

The league's repositories: ``SeasonRepo``, ``RatingRepo``, ``LeagueSettingsRepo``
(and the league queries of ``GameArchiveRepo``). A feature's own rows are kept by the
repository of its package (``bot.tournaments.repository``, ``bot.daily.repository``,
``bot.review.repository``), on this package's :class:`Database`.
"""

from bot.store.database import Clock, Database, add_dialect, connect, migrate, utc_now
from bot.store.errors import (
    ActionIndexError,
    AlreadyArchivedError,
    ConnectionLostError,
    ConstraintError,
    CorruptDataError,
    DuplicateActionError,
    InvalidRecordError,
    MigrationError,
    NotFoundError,
    OpenEventExistsError,
    OpenTableExistsError,
    SchemaTooNewError,
    SeasonStateError,
    SettingsError,
    StoreBusyError,
    StoreError,
    TableStateError,
)
from bot.store.games import GameArchiveRepo
from bot.store.guild_profiles import GuildProfile, GuildProfileRepo
from bot.store.guild_settings import GuildSettingsRepo
from bot.store.health import check_writable
from bot.store.league_models import (
    DEFAULT_FAMILY,
    LEAGUE_SETTING_NAMES,
    SEASON_NAME_LENGTH,
    FrozenStanding,
    LeagueSettings,
    PlayerRating,
    RatingPoint,
    Season,
)
from bot.store.league_settings import LeagueSettingsRepo
from bot.store.migrations import latest_version
from bot.store.models import (
    OPEN_STATUSES,
    ArchivedGame,
    ComputerLevel,
    GamePlayer,
    Seat,
    StoredAction,
    StoredTable,
    TableStatus,
    shown_number,
)
from bot.store.preferences import PreferenceRepo
from bot.store.ratings import RatingRepo
from bot.store.seasons import SeasonRepo
from bot.store.sqlite import SqliteDatabase
from bot.store.tables import TableRepo
from bot.store.urls import StoreUrl


async def _postgresql(url: StoreUrl, clock: Clock, timeout: float | None) -> Database:
    from bot.store.postgres import PostgresDatabase  # asyncpg only when used

    return await PostgresDatabase.connect(url, clock, timeout)


async def _sqlite(url: StoreUrl, clock: Clock, timeout: float | None) -> Database:
    return await SqliteDatabase.connect(url, clock)


add_dialect("postgresql", _postgresql)
add_dialect("sqlite", _sqlite, SqliteDatabase.existing_version)

__all__ = [
    "DEFAULT_FAMILY",
    "LEAGUE_SETTING_NAMES",
    "OPEN_STATUSES",
    "SEASON_NAME_LENGTH",
    "ActionIndexError",
    "AlreadyArchivedError",
    "ArchivedGame",
    "ComputerLevel",
    "ConnectionLostError",
    "ConstraintError",
    "CorruptDataError",
    "Database",
    "DuplicateActionError",
    "FrozenStanding",
    "GameArchiveRepo",
    "GamePlayer",
    "GuildProfile",
    "GuildProfileRepo",
    "GuildSettingsRepo",
    "InvalidRecordError",
    "LeagueSettings",
    "LeagueSettingsRepo",
    "MigrationError",
    "NotFoundError",
    "OpenEventExistsError",
    "OpenTableExistsError",
    "PlayerRating",
    "PreferenceRepo",
    "RatingPoint",
    "RatingRepo",
    "SchemaTooNewError",
    "Season",
    "SeasonRepo",
    "SeasonStateError",
    "Seat",
    "SettingsError",
    "StoreBusyError",
    "StoreError",
    "StoredAction",
    "StoredTable",
    "TableRepo",
    "TableStateError",
    "TableStatus",
    "check_writable",
    "connect",
    "latest_version",
    "migrate",
    "shown_number",
    "utc_now",
]
