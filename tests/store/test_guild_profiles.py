"""A server's name and icon, as the bot last saw them, for the web pages (schema 23)."""

from __future__ import annotations

from bot.store import Database, GuildProfileRepo, GuildSettingsRepo, LeagueSettingsRepo
from bot.store.guild_profiles import ICON_BYTES, PageFacts

GUILD = 1_000_000_000_000_201
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64


async def test_a_profile_keeps_its_icon_until_the_icon_changes(db: Database) -> None:
    repo = GuildProfileRepo(db)
    assert await repo.get(GUILD) is None and await repo.icon(GUILD) is None
    assert await repo.save(GUILD, "  The Den  ", "a1") is True  # the picture is wanted
    assert await repo.save_icon(GUILD, "a1", PNG)
    profile = await repo.get(GUILD)
    assert profile is not None
    assert (profile.name, profile.icon_key, profile.has_icon) == ("The Den", "a1", True)
    assert await repo.save(GUILD, "The Den 2", "a1") is False  # same icon: kept
    assert await repo.icon(GUILD) == PNG
    assert await repo.save(GUILD, "The Den 2", "b2") is True  # a new icon: the old one goes
    assert await repo.icon(GUILD) is None
    assert not await repo.save_icon(GUILD, "a1", PNG), "an icon that is no longer the server's"
    assert await repo.save(GUILD, "No icon", None) is False
    assert (await repo.get(GUILD)).icon_key is None  # type: ignore[union-attr]


async def test_an_oversized_icon_or_an_empty_name_is_not_kept_as_it_came(db: Database) -> None:
    repo = GuildProfileRepo(db)
    await repo.save(GUILD, "   ", "k")
    assert (await repo.get(GUILD)).name == str(GUILD)  # type: ignore[union-attr]
    assert not await repo.save_icon(GUILD, "k", b"x" * (ICON_BYTES + 1))
    assert not await repo.save_icon(GUILD, "k", b"")
    assert await repo.icon_keys([GUILD, GUILD + 1]) == {GUILD: (str(GUILD), "k", False)}


async def test_a_pages_facts_of_its_server_are_one_read_with_defaults(db: Database) -> None:
    repo = GuildProfileRepo(db)
    assert await repo.page_facts(GUILD) == PageFacts(public=False, profile=None, min_games=5)
    await GuildSettingsRepo(db).update(GUILD, web_public=True)
    await LeagueSettingsRepo(db).update(GUILD, min_games=3)
    await repo.save(GUILD, "The Den", "a1")
    await repo.save_icon(GUILD, "a1", PNG)
    facts = await repo.page_facts(GUILD)
    assert facts == PageFacts(public=True, profile=await repo.get(GUILD), min_games=3)
    assert facts.profile is not None and facts.profile.has_icon
    assert (await repo.page_facts(GUILD + 1)).public is False
