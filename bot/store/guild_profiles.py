"""A server's name and icon as Discord last showed them to the bot (schema 23).

The bot writes them (it joins a server, starts, or the server changes); the web pages
read them for their titles and link previews. The icon is Discord's icon key and the
picture itself, a small PNG the bot fetched for that key: a new key forgets the old
picture until the bot fetches the new one.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from pydantic import BaseModel, ConfigDict, Field

from bot.server.settings import ServerSettings
from bot.store._codec import build, row_dict, time_text
from bot.store.league_models import LeagueSettings
from bot.store.models import Snowflake
from bot.store.repository import Repository

__all__ = ["ICON_BYTES", "GuildProfile", "GuildProfileRepo", "PageFacts"]

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


@dataclass(frozen=True, slots=True)
class PageFacts:
    """What every web page of a server reads of it first, read at once."""

    public: bool
    """Its ``web_public`` setting."""
    profile: GuildProfile | None
    """Its name and icon, if the bot has seen it."""
    min_games: int
    """Its league's ``min_games`` setting."""


_PAGE_FACTS: Final = (
    "SELECT s.web_public, l.min_games, p.guild_id, p.name, p.icon_key, "
    "p.icon IS NOT NULL AS has_icon, p.updated_at "
    "FROM (SELECT CAST(? AS BIGINT) AS guild_id) AS g "
    "LEFT JOIN guild_settings s ON s.guild_id = g.guild_id "
    "LEFT JOIN league_settings l ON l.guild_id = g.guild_id "
    "LEFT JOIN guild_profiles p ON p.guild_id = g.guild_id"
)


class GuildProfileRepo(Repository):
    """Keep servers' names and icons; read them back."""

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

    async def page_facts(self, guild_id: int) -> PageFacts:
        """Whether the server's pages are public, its profile and its league's ``min_games``.

        One read of the three rows every page starts from; a row not there reads as the
        defaults.
        """
        row = await self._db.fetch_one(_PAGE_FACTS, (guild_id,))
        assert row is not None  # the FROM row is always there
        public = row["web_public"]
        min_games = row["min_games"]
        profile = None
        if row["guild_id"] is not None:
            fields = {name: row[name] for name in _PROFILE_FIELDS}
            fields["has_icon"] = bool(fields["has_icon"])
            profile = build(GuildProfile, f"guild {guild_id} profile", fields)
        return PageFacts(
            _DEFAULT_PUBLIC if public is None else bool(public),
            profile,
            _DEFAULT_MIN_GAMES if min_games is None else int(min_games),
        )

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


_PROFILE_FIELDS: Final = ("guild_id", "name", "icon_key", "has_icon", "updated_at")
_DEFAULT_PUBLIC: Final = bool(ServerSettings.model_fields["web_public"].default)
_DEFAULT_MIN_GAMES: Final = int(LeagueSettings.model_fields["min_games"].default)
