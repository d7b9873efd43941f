"""A server's name and icon as Discord last showed them to the bot (schema 23).

The bot writes them (it joins a server, starts, or the server changes); the web pages
read them for their titles and link previews. The icon is Discord's icon key and the
picture itself, a small PNG the bot fetched for that key: a new key forgets the old
picture until the bot fetches the new one.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from bot.store._codec import build, row_dict, time_text
from bot.store.database import Database
from bot.store.models import Snowflake

__all__ = ["ICON_BYTES", "GuildProfile", "GuildProfileRepo"]

ICON_BYTES = 512 * 1024
"""The largest icon kept; a bigger file is not kept at all."""


class GuildProfile(BaseModel):
    """A server's name and which icon it has (the picture: :meth:`GuildProfileRepo.icon`)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    guild_id: Snowflake
    name: str = Field(min_length=1, max_length=100)
    icon_key: str | None = None
    """Discord's hash of the server's icon; None: the server has none."""
    has_icon: bool = False
    """Whether the picture of ``icon_key`` is kept."""
    updated_at: datetime


class GuildProfileRepo:
    """Keep servers' names and icons; read them back."""

    def __init__(self, db: Database) -> None:
        """Work on ``db``."""
        self._db = db

    async def save(self, guild_id: int, name: str, icon_key: str | None) -> bool:
        """Keep the server's name and icon key; whether its icon's picture is still wanted.

        The picture is kept while the key stays the same, and forgotten when it changes.
        """
        name = name.strip()[:100] or str(guild_id)
        row = await self._db.fetch_one(
            "INSERT INTO guild_profiles (guild_id, name, icon_key, icon, updated_at) "
            "VALUES (?, ?, ?, NULL, ?) ON CONFLICT (guild_id) DO UPDATE SET "
            "name = excluded.name, icon_key = excluded.icon_key, "
            "icon = CASE WHEN guild_profiles.icon_key = excluded.icon_key "
            "THEN guild_profiles.icon ELSE NULL END, updated_at = excluded.updated_at "
            "RETURNING icon_key, icon IS NULL AS missing",
            (guild_id, name, icon_key, time_text(self._db.now())),
        )
        return row is not None and row["icon_key"] is not None and bool(row["missing"])

    async def save_icon(self, guild_id: int, icon_key: str, png: bytes) -> bool:
        """Keep the picture of ``icon_key``, if that is still the server's icon; whether kept."""
        if not png or len(png) > ICON_BYTES:
            return False
        changed = await self._db.execute(
            "UPDATE guild_profiles SET icon = ? WHERE guild_id = ? AND icon_key = ?",
            (png, guild_id, icon_key),
        )
        return changed > 0

    async def get(self, guild_id: int) -> GuildProfile | None:
        """The server's name and icon key, if the bot has seen it."""
        row = await self._db.fetch_one(
            "SELECT guild_id, name, icon_key, icon IS NOT NULL AS has_icon, updated_at "
            "FROM guild_profiles WHERE guild_id = ?",
            (guild_id,),
        )
        if row is None:
            return None
        fields = row_dict(row)
        fields["has_icon"] = bool(fields["has_icon"])
        return build(GuildProfile, f"guild {guild_id} profile", fields)

    async def icon(self, guild_id: int) -> bytes | None:
        """The picture of the server's icon, if kept."""
        row = await self._db.fetch_one(
            "SELECT icon FROM guild_profiles WHERE guild_id = ?", (guild_id,)
        )
        return None if row is None or row["icon"] is None else bytes(row["icon"])

    async def icon_keys(self, guild_ids: Iterable[int]) -> dict[int, tuple[str, str | None, bool]]:
        """For each of these servers the bot has seen: its name, icon key and whether kept."""
        ids = sorted(set(guild_ids))
        out: dict[int, tuple[str, str | None, bool]] = {}
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            slots = ", ".join("?" for _ in chunk)
            rows = await self._db.fetch_all(
                "SELECT guild_id, name, icon_key, icon IS NOT NULL AS kept "
                f"FROM guild_profiles WHERE guild_id IN ({slots})",
                chunk,
            )
            for row in rows:
                out[int(row["guild_id"])] = (row["name"], row["icon_key"], bool(row["kept"]))
        return out
