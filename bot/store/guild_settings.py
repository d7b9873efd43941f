"""Per-server house rules and settings (the ``guild_settings`` table).

A row holds :class:`~bot.server.settings.ServerSettings`: its rules as JSON and one
column per setting, named as the model's fields (``SETTING_NAMES``).
"""

from __future__ import annotations

from typing import Any, Final

from bot.rules import HouseRules
from bot.server.settings import SETTING_NAMES, ServerSettings
from bot.store._codec import (
    build,
    changed,
    check_names,
    load_rules,
    row_dict,
    rules_text,
    time_text,
)
from bot.store.database import Row
from bot.store.repository import Repository

__all__ = ["GuildSettingsRepo"]

_SETTINGS: Final = ", ".join(SETTING_NAMES)
_SETTING_SLOTS: Final = ", ".join("?" for _ in SETTING_NAMES)
_INSERT: Final = (
    f"INSERT INTO guild_settings (guild_id, rules, {_SETTINGS}, created_at, updated_at) "
    f"VALUES (?, ?, {_SETTING_SLOTS}, ?, ?) "
)


class GuildSettingsRepo(Repository):
    """Read and change a server's house rules and settings."""

    async def get(self, guild_id: int) -> ServerSettings:
        """The server's settings; the defaults when it never changed any.

        Raises CorruptDataError when its stored rules no longer validate.
        """
        row = await self._row(guild_id)
        if row is None:
            return ServerSettings()
        where = f"guild {guild_id} settings"
        fields = self._settings_of(row, where)
        fields["rules"] = load_rules(row["rules"], where)
        return build(ServerSettings, where, fields)

    async def set_rules(self, guild_id: int, rules: HouseRules) -> ServerSettings:
        """Make ``rules`` the server's house rules (tables already open keep theirs)."""
        now = time_text(self._db.now())
        defaults = ServerSettings()
        await self._db.execute(
            f"{_INSERT}ON CONFLICT (guild_id) DO UPDATE SET "
            "rules = excluded.rules, updated_at = excluded.updated_at",
            (guild_id, rules_text(rules), *_setting_values(defaults), now, now),
        )
        return await self.get(guild_id)

    async def update(self, guild_id: int, /, **changes: Any) -> ServerSettings:
        """Change some settings by name (see ``SETTING_NAMES``); the others keep their values.

        Raises SettingsError naming the setting for an unknown name or a bad value,
        CorruptDataError when the stored rules no longer validate; nothing is
        changed then.
        """
        hint = " (house rules change with set_rules)" if "rules" in changes else ""
        check_names(changes, SETTING_NAMES, "a server setting", "the settings", hint)
        async with self._db.transaction():
            row = await self._row(guild_id)
            where = f"guild {guild_id} settings"
            current: dict[str, Any] = {}
            if row is not None:
                current = self._settings_of(row, where)
                current["rules"] = load_rules(row["rules"], where)
            now = self._db.now()
            wanted = changed(ServerSettings, {**current, **changes, "updated_at": now})
            assignments = ", ".join(f"{name} = excluded.{name}" for name in SETTING_NAMES)
            stamp = time_text(now)
            await self._db.execute(
                f"{_INSERT}ON CONFLICT (guild_id) DO UPDATE SET {assignments}, "
                "updated_at = excluded.updated_at",
                (guild_id, rules_text(wanted.rules), *_setting_values(wanted), stamp, stamp),
            )
        return wanted

    async def reset(self, guild_id: int) -> None:
        """Forget the server's rules and settings: it is back on the defaults."""
        await self._db.execute("DELETE FROM guild_settings WHERE guild_id = ?", (guild_id,))

    async def _row(self, guild_id: int) -> Row | None:
        return await self._db.fetch_one(
            f"SELECT rules, {_SETTINGS}, updated_at FROM guild_settings WHERE guild_id = ?",
            (guild_id,),
        )

    @staticmethod
    def _settings_of(row: Row, where: str) -> dict[str, Any]:
        """The setting columns of a row, checked, without the rules."""
        fields = row_dict(row)
        del fields["rules"]
        build(ServerSettings, where, fields)
        return fields


def _setting_values(settings: ServerSettings) -> tuple[Any, ...]:
    return tuple(getattr(settings, name) for name in SETTING_NAMES)
