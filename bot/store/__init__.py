"""The store: one SQLite database behind repositories that return pydantic models.

Every SQL statement of the project lives in this package, so the store can move
to another database (PostgreSQL, past one machine) behind the same repositories.

    db = await Database.open(settings.database_path)   # creates, migrates
    settings = await GuildSettingsRepo(db).get(guild_id)
    table = await TableRepo(db).create(guild_id=..., channel_id=..., host_id=...,
                                       rules=settings.rules, seed=seed)
    ...
    await db.close()
"""

from bot.store.database import Database, migrate, utc_now
from bot.store.errors import (
    ActionIndexError,
    AlreadyArchivedError,
    ConstraintError,
    CorruptDataError,
    DuplicateActionError,
    InvalidRecordError,
    MigrationError,
    NotFoundError,
    OpenTableExistsError,
    SchemaTooNewError,
    SettingsError,
    StoreBusyError,
    StoreError,
    TableStateError,
)
from bot.store.games import GameArchiveRepo
from bot.store.guild_settings import GuildSettingsRepo
from bot.store.migrations import latest_version
from bot.store.models import (
    OPEN_STATUSES,
    SETTING_NAMES,
    ArchivedGame,
    ComputerLevel,
    GamePlayer,
    GuildSettings,
    Seat,
    StoredAction,
    StoredTable,
    TableStatus,
)
from bot.store.tables import TableRepo

__all__ = [
    "OPEN_STATUSES",
    "SETTING_NAMES",
    "ActionIndexError",
    "AlreadyArchivedError",
    "ArchivedGame",
    "ComputerLevel",
    "ConstraintError",
    "CorruptDataError",
    "Database",
    "DuplicateActionError",
    "GameArchiveRepo",
    "GamePlayer",
    "GuildSettings",
    "GuildSettingsRepo",
    "InvalidRecordError",
    "MigrationError",
    "NotFoundError",
    "OpenTableExistsError",
    "SchemaTooNewError",
    "Seat",
    "SettingsError",
    "StoreBusyError",
    "StoreError",
    "StoredAction",
    "StoredTable",
    "TableRepo",
    "TableStateError",
    "TableStatus",
    "latest_version",
    "migrate",
    "utc_now",
]
