"""Each server's name and icon, kept for its web pages: at start-up, on joining, on a change.

The web pages (``bot.web``) name a server and draw its icon in link previews, but never
call Discord: the bot keeps what Discord shows it (``GuildProfileRepo``, in the league's
database). The icon's picture is fetched from Discord's CDN only when its key is new,
one server at a time, in the background; a fetch that fails is logged and tried again at
the next start or change. Without a database (no league) there is nothing to keep.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from bot.store import StoreError

if TYPE_CHECKING:
    from bot.discord.app import EuchreBot

__all__ = ["ICON_SIZE", "GuildProfiles", "fetch_icon"]

log = logging.getLogger(__name__)

ICON_SIZE = 128
"""The icon's side in pixels, as kept."""


async def fetch_icon(icon: discord.Asset) -> bytes:
    """The icon as a PNG of :data:`ICON_SIZE` pixels, from Discord's CDN."""
    return await icon.replace(size=ICON_SIZE, format="png").read()


class GuildProfiles(commands.Cog):
    """Keeps the servers' names and icons as Discord shows them to the bot."""

    def __init__(
        self, bot: EuchreBot, fetch: Callable[[discord.Asset], Awaitable[bytes]] = fetch_icon
    ) -> None:
        """Keep them for ``bot``, fetching icons with ``fetch``."""
        self.bot = bot
        self.fetch = fetch
        self.task: asyncio.Task[None] | None = None

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Once connected, keep every server's, in the background."""
        if self.task is None:
            self.task = asyncio.create_task(self.keep_all(list(self.bot.guilds)), name="profiles")

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        """A server that adds the bot."""
        await self.keep(guild)

    @commands.Cog.listener()
    async def on_guild_available(self, guild: discord.Guild) -> None:
        """A server that comes back after an outage, or whose shard connected after ready."""
        await self.keep(guild)

    @commands.Cog.listener()
    async def on_guild_update(self, before: discord.Guild, after: discord.Guild) -> None:
        """A server renamed, or with another icon."""
        if (before.name, _key(before)) != (after.name, _key(after)):
            await self.keep(after)

    async def cog_unload(self) -> None:
        """Stop keeping them."""
        if self.task is not None:
            self.task.cancel()

    async def keep_all(self, guilds: Sequence[discord.Guild]) -> None:
        """Keep each server's name and icon; those already kept as they are are skipped."""
        league = self.bot.league
        if league is None or not guilds:
            return
        try:
            known = await league.guild_profiles.icon_keys(g.id for g in guilds)
        except StoreError as exc:
            log.warning("Could not read the servers' names and icons: %s", exc)
            return
        kept = 0
        for guild in guilds:
            name, key, has_icon = known.get(guild.id, (None, None, False))
            if (name, key) == (guild.name, _key(guild)) and (has_icon or key is None):
                continue
            await self.keep(guild)
            kept += 1
        if kept:
            log.info("Kept the names and icons of %d server(s) for the web pages", kept)

    async def keep(self, guild: discord.Guild) -> None:
        """Keep the server's name and icon key, and its icon's picture if it is new."""
        league = self.bot.league
        if league is None:
            return
        repo = league.guild_profiles
        icon = guild.icon
        try:
            wanted = await repo.save(guild.id, guild.name, None if icon is None else icon.key)
            if not wanted or icon is None:
                return
            try:
                png = await self.fetch(icon)
            except (discord.DiscordException, OSError, TimeoutError) as exc:
                log.warning("Could not fetch server %d's icon for the web pages: %s", guild.id, exc)
                return
            await repo.save_icon(guild.id, icon.key, png)
        except StoreError as exc:
            log.warning("Could not keep server %d's name and icon: %s", guild.id, exc)


def _key(guild: discord.Guild) -> str | None:
    return None if guild.icon is None else guild.icon.key
