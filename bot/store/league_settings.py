"""Per-server league settings (the ``league_settings`` table)."""

from __future__ import annotations

from typing import Any, Final

from bot.store._codec import build, changed, check_names, row_dict, time_text
from bot.store.league_models import LEAGUE_SETTING_NAMES, LeagueSettings
from bot.store.repository import Repository

__all__ = ["LeagueSettingsRepo"]

_SETTINGS: Final = ", ".join(LEAGUE_SETTING_NAMES)


class LeagueSettingsRepo(Repository):
    """Read and change a server's league settings."""

    async def get(self, guild_id: int) -> LeagueSettings:
        """The server's league settings; the defaults when it never changed any."""
        row = await self._db.fetch_one(
            f"SELECT guild_id, {_SETTINGS}, updated_at FROM league_settings WHERE guild_id = ?",
            (guild_id,),
        )
        if row is None:
            return LeagueSettings(guild_id=guild_id)
        return build(LeagueSettings, f"guild {guild_id} league settings", row_dict(row))

    async def update(self, guild_id: int, /, **changes: Any) -> LeagueSettings:
        """Change some settings by name (``LEAGUE_SETTING_NAMES``); the others stay.

        Raises SettingsError naming the setting for an unknown name or a bad value.
        """
        check_names(changes, LEAGUE_SETTING_NAMES, "a league setting", "the league settings")
        async with self._db.transaction():
            current = (await self.get(guild_id)).model_dump()
            now = self._db.now()
            fields = {**current, **changes, "guild_id": guild_id, "updated_at": now}
            wanted = changed(LeagueSettings, fields)
            slots = ", ".join("?" for _ in LEAGUE_SETTING_NAMES)
            assignments = ", ".join(f"{name} = excluded.{name}" for name in LEAGUE_SETTING_NAMES)
            await self._db.execute(
                f"INSERT INTO league_settings (guild_id, {_SETTINGS}, updated_at) "
                f"VALUES (?, {slots}, ?) ON CONFLICT (guild_id) DO UPDATE SET {assignments}, "
                "updated_at = excluded.updated_at",
                (
                    guild_id,
                    *(getattr(wanted, name) for name in LEAGUE_SETTING_NAMES),
                    time_text(now),
                ),
            )
        return wanted
