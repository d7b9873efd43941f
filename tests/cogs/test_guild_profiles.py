"""The bot keeps each server's name and icon for its web pages: on joining, on a change, at start."""

from __future__ import annotations

from typing import cast

import discord

from bot.discord.app import EuchreBot
from bot.discord.guild_profiles import GuildProfiles
from bot.discord.pace.pacing import ChannelLimits
from bot.league import LeagueService
from bot.settings import Settings
from bot.store import Database, GuildProfileRepo
from tests.conftest import MakeHarness
from tests.kit import payloads
from tests.kit.harness.world import FakeGuild
from tests.sqlite_only import db

# The bot's database; the tests ask for it before the harness, so it closes after the bot
# (whose start-up work may still be reading it).
__all__ = ["db"]

PNG = b"\x89PNG\r\n\x1a\nicon"


def _bot(db: Database) -> EuchreBot:
    bot = EuchreBot(Settings(), channel_limits=ChannelLimits.unlimited())
    bot.league = LeagueService(db)
    return bot


def _profiles(bot: discord.Client) -> GuildProfiles:
    """The bot's cog (the extension is loaded afresh for each bot: its own class object)."""
    cog = bot.get_cog("GuildProfiles")  # type: ignore[attr-defined]
    assert cog is not None and type(cog).__name__ == "GuildProfiles"
    return cast(GuildProfiles, cog)


def _update(g: FakeGuild, name: str, icon: str | None) -> None:
    data = payloads.guild(
        g.id, name, owner_id=g.owner_id, roles=g.roles, members=[], channels=[], joined_at=""
    )
    g.harness.gateway("GUILD_UPDATE", {**data, "icon": icon})


async def test_a_server_is_kept_when_the_bot_joins_and_again_when_it_changes(
    db: Database, make_harness: MakeHarness
) -> None:
    h = await make_harness(_bot(db))
    fetched: list[str] = []

    async def fetch(icon: discord.Asset) -> bytes:
        fetched.append(icon.key)
        return PNG

    cog = _profiles(h.bot)
    cog.fetch = fetch
    g = h.guild(name="The Den")
    await h.settle()
    repo = GuildProfileRepo(db)
    profile = await repo.get(g.id)
    assert profile is not None and (profile.name, profile.icon_key) == ("The Den", None)

    _update(g, "The Den ♠", "a1b2")
    await h.settle()
    profile = await repo.get(g.id)
    assert profile is not None and (profile.name, profile.icon_key) == ("The Den ♠", "a1b2")
    assert fetched == ["a1b2"] and await repo.icon(g.id) == PNG

    _update(g, "The Den ♠", "a1b2")  # nothing changed: nothing fetched
    await h.settle()
    assert fetched == ["a1b2"]

    # at start-up: only what changed while the bot was away is kept again, and fetched
    await repo.save(g.id, "An old name", "old")
    await cog.keep_all([g.guild])
    assert fetched == ["a1b2", "a1b2"] and (await repo.get(g.id)).name == "The Den ♠"  # type: ignore[union-attr]
    await cog.keep_all([g.guild])
    assert fetched == ["a1b2", "a1b2"]


async def test_an_icon_that_cannot_be_fetched_leaves_the_name_kept(
    db: Database, make_harness: MakeHarness
) -> None:
    h = await make_harness(_bot(db))

    async def refused(icon: discord.Asset) -> bytes:
        raise discord.DiscordException("the CDN is away")

    cog = _profiles(h.bot)
    cog.fetch = refused
    g = h.guild(name="Den")
    _update(g, "Den", "k1")
    await h.settle()
    profile = await GuildProfileRepo(db).get(g.id)
    assert profile is not None and profile.icon_key == "k1" and not profile.has_icon


async def test_a_bot_without_a_database_keeps_nothing(make_harness: MakeHarness) -> None:
    h = await make_harness(EuchreBot(Settings(), channel_limits=ChannelLimits.unlimited()))
    g = h.guild(name="Den")
    _update(g, "Den 2", "k1")
    await h.settle()  # no league: the listeners do nothing, and fail at nothing
