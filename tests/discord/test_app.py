"""The Bot class offline: construction, extensions, command sync and the error funnel."""

from __future__ import annotations

import logging
import re
import textwrap
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import discord
import pytest
from discord import app_commands

from bot import about
from bot.discord.app import (
    BOT_PERMISSIONS,
    EXTENSIONS,
    SYNC_HINT,
    EuchreBot,
    intents,
    invite_url,
)
from bot.discord.command_tree import CHECK_FAILED, STALE_COMMAND, EuchreTree
from bot.discord.replies import APOLOGY
from bot.errors import UserFacingError
from bot.heartbeat import Heartbeat
from bot.settings import Settings
from tests.kit.harness import DEFAULT_BOT_PERMISSIONS, Harness


def make_settings(**values: Any) -> Settings:
    return Settings(computer_move_delay=0, **values)


class Recorder:
    """Stands in for ``CommandTree.sync``: records the guild of each call."""

    def __init__(self, fail: bool = False) -> None:
        self.guilds: list[int | None] = []
        self.fail = fail

    async def __call__(self, *, guild: discord.abc.Snowflake | None = None) -> list[Any]:
        self.guilds.append(guild.id if guild else None)
        if self.fail:
            response = SimpleNamespace(status=403, reason="Forbidden")
            raise discord.Forbidden(response, {"code": 50001, "message": "Missing Access"})
        return []


@pytest.fixture
def extension(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """An extension module that adds a global slash command ``/ping``."""
    (tmp_path / "ping_extension.py").write_text(
        textwrap.dedent(
            '''
            """Test extension."""
            from discord import app_commands
            from discord.ext import commands


            class Ping(commands.Cog):
                @app_commands.command(description="Ping")
                async def ping(self, interaction):
                    await interaction.response.send_message("pong")


            async def setup(bot):
                await bot.add_cog(Ping())
            '''
        ),
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    return "ping_extension"


async def test_bot_is_built_and_entered_offline() -> None:
    settings = make_settings(owner_ids=[5])
    async with EuchreBot(settings) as bot:
        assert bot.settings is settings
        assert isinstance(bot.tree, EuchreTree)
        assert bot.owner_ids == {5}
        assert bot.extension_names == EXTENSIONS
        assert not bot.is_closed()
    assert bot.is_closed()


def test_intents_are_minimal_and_not_privileged() -> None:
    wanted = intents()
    assert wanted.guilds
    assert wanted.value == discord.Intents(guilds=True).value
    assert not (wanted.members or wanted.presences or wanted.message_content)


async def test_setup_hook_loads_extensions_and_syncs_dev_guilds(extension: str) -> None:
    async with EuchreBot(make_settings(dev_guild_ids=[11, 22]), extensions=[extension]) as bot:
        sync = Recorder()
        bot.tree.sync = sync  # type: ignore[method-assign]
        await bot.setup_hook()
        assert extension in bot.extensions
        assert sync.guilds == [11, 22]
        for guild_id in (11, 22):
            names = [c.name for c in bot.tree.get_commands(guild=discord.Object(guild_id))]
            assert names == ["ping"]


async def test_no_sync_by_default_and_global_only_when_asked() -> None:
    async with EuchreBot(make_settings()) as bot:
        sync = Recorder()
        bot.tree.sync = sync  # type: ignore[method-assign]
        await bot.setup_hook()
        assert sync.guilds == []
    async with EuchreBot(make_settings(dev_guild_ids=[3], sync_global=True)) as bot:
        sync = Recorder()
        bot.tree.sync = sync  # type: ignore[method-assign]
        await bot.setup_hook()
        assert sync.guilds == [3, None]


async def test_failed_sync_is_logged_not_raised(caplog: pytest.LogCaptureFixture) -> None:
    async with EuchreBot(make_settings(dev_guild_ids=[3, 4], sync_global=True)) as bot:
        sync = Recorder(fail=True)
        bot.tree.sync = sync  # type: ignore[method-assign]
        await bot.setup_hook()
    assert sync.guilds == [3, 4, None]
    errors = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 3
    assert "guild 3" in errors[0]
    assert "applications.commands" in errors[0]


class FakeResponse:
    def __init__(self, done: bool) -> None:
        self.done = done
        self.sent: list[dict[str, Any]] = []

    def is_done(self) -> bool:
        return self.done

    async def send_message(self, content: Any = None, **kwargs: Any) -> SimpleNamespace:
        self.sent.append({"content": content, **kwargs})
        self.done = True
        return SimpleNamespace(message_id=None)


class FakeFollowup:
    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send(self, content: Any = None, **kwargs: Any) -> SimpleNamespace:
        self.sent.append({"content": content, **kwargs})
        return SimpleNamespace(id=len(self.sent))


class FakeInteraction:
    """The part of ``discord.Interaction`` the error funnel touches."""

    def __init__(self, *, done: bool = False) -> None:
        self.response = FakeResponse(done)
        self.followup = FakeFollowup()
        self.guild_id = 1
        self.channel_id = 2
        self.user = SimpleNamespace(id=3)
        self.command = None
        self.extras: dict[str, Any] = {}

    def as_interaction(self) -> discord.Interaction[EuchreBot]:
        return cast("discord.Interaction[EuchreBot]", self)

    def answers(self) -> list[tuple[str, Any, bool]]:
        return [
            (where, sent["content"], sent["ephemeral"])
            for where, sent in [("response", s) for s in self.response.sent]
            + [("followup", s) for s in self.followup.sent]
        ]


async def _noop(interaction: discord.Interaction) -> None:
    pass


COMMAND: app_commands.Command[Any, ..., None] = app_commands.Command(
    name="deal", description="Deal", callback=_noop
)


async def funnel(error: app_commands.AppCommandError, *, done: bool = False) -> FakeInteraction:
    fake = FakeInteraction(done=done)
    async with EuchreBot(make_settings()) as bot:
        assert isinstance(bot.tree, EuchreTree)
        await bot.tree.on_error(fake.as_interaction(), error)
    return fake


async def test_user_facing_error_is_answered_ephemerally() -> None:
    fake = await funnel(app_commands.CommandInvokeError(COMMAND, UserFacingError("Not your turn.")))
    assert fake.answers() == [("response", "Not your turn.", True)]


async def test_user_facing_error_after_defer_is_a_followup() -> None:
    error = app_commands.CommandInvokeError(COMMAND, UserFacingError("Table is full."))
    fake = await funnel(error, done=True)
    assert fake.answers() == [("followup", "Table is full.", True)]


async def test_unexpected_error_is_logged_and_apologised_for(
    caplog: pytest.LogCaptureFixture,
) -> None:
    boom = RuntimeError("boom")
    fake = await funnel(app_commands.CommandInvokeError(COMMAND, boom))
    assert fake.answers() == [("response", APOLOGY, True)]
    [record] = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert "/deal" in record.getMessage()
    assert record.exc_info is not None
    assert record.exc_info[1] is boom


@pytest.mark.parametrize(
    ("error", "content"),
    [
        (app_commands.CheckFailure("The check functions for command 'deal' failed."), CHECK_FAILED),
        (app_commands.NoPrivateMessage(), "This command cannot be used in direct messages."),
        (app_commands.CommandNotFound("deal", []), STALE_COMMAND),
        (app_commands.CommandSignatureMismatch(COMMAND), STALE_COMMAND),
    ],
)
async def test_discord_errors_get_a_sentence(
    error: app_commands.AppCommandError, content: str
) -> None:
    fake = await funnel(error)
    assert fake.answers() == [("response", content, True)]


async def test_a_failing_reply_is_logged_not_raised(caplog: pytest.LogCaptureFixture) -> None:
    fake = FakeInteraction()

    async def expired(content: Any = None, **kwargs: Any) -> None:
        response = SimpleNamespace(status=404, reason="Not Found")
        raise discord.NotFound(response, {"code": 10062, "message": "Unknown interaction"})

    fake.response.send_message = expired  # type: ignore[method-assign]
    async with EuchreBot(make_settings()) as bot:
        await bot.tree.on_error(fake.as_interaction(), app_commands.NoPrivateMessage())
    assert any("Unknown interaction" in r.getMessage() for r in caplog.records)


# ---------------------------------------------------------------- start-up line, invite


async def start_lines(bot: EuchreBot, caplog: pytest.LogCaptureFixture) -> list[str]:
    with caplog.at_level(logging.INFO, logger="bot.discord.app"):
        async with Harness(bot):
            pass
    return [r.getMessage() for r in caplog.records if "Logged in as" in r.getMessage()]


async def test_start_line_says_who_where_the_commands_went_and_the_invite(
    caplog: pytest.LogCaptureFixture,
) -> None:
    bot = EuchreBot(make_settings(dev_guild_ids=[11, 22]))
    [line] = await start_lines(bot, caplog)
    assert bot.user is not None and bot.application_id is not None
    assert line == (
        f"Logged in as EuchreBot (id {bot.user.id}) in 0 server(s) ({about()}); slash "
        f"commands synced to guild 11, to guild 22; invite link: {invite_url(bot.application_id)}"
    )


async def test_start_line_without_a_sync_says_how_to_sync(
    caplog: pytest.LogCaptureFixture,
) -> None:
    [line] = await start_lines(EuchreBot(make_settings()), caplog)
    assert "slash commands not synced at start-up (no dev_guild_ids): run " in line
    assert "`python -m bot sync --global` once" in line
    assert SYNC_HINT in line


def test_invite_url_has_both_scopes_and_the_permissions() -> None:
    assert invite_url(42) == (
        "https://discord.com/oauth2/authorize?client_id=42"
        f"&scope=bot+applications.commands&permissions={BOT_PERMISSIONS.value}"
    )
    granted = {name for name, on in BOT_PERMISSIONS if on}
    assert granted == {
        "read_messages",  # discord.py's name for View Channels
        "send_messages",
        "send_messages_in_threads",
        "create_public_threads",
        "embed_links",
        "attach_files",
        "create_events",  # Discord's own reminder of a timed tournament
    }
    assert not BOT_PERMISSIONS.manage_events and not BOT_PERMISSIONS.manage_roles


def test_the_fakes_bot_has_what_the_invite_grants() -> None:
    assert DEFAULT_BOT_PERMISSIONS >= BOT_PERMISSIONS


def test_readme_shows_the_same_invite_link() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"https://discord\.com/oauth2/authorize\?\S+", readme)
    assert links, "README gives the invite link"
    for link in links:
        assert link.rstrip("`).") == (
            "https://discord.com/oauth2/authorize?client_id=YOUR_APPLICATION_ID"
            f"&scope=bot+applications.commands&permissions={BOT_PERMISSIONS.value}"
        )
    text = " ".join(readme.split())
    for words in (
        "View Channels",
        "Send Messages in Threads",
        "Create Public Threads",
        "Create Events",
    ):
        assert words in text


async def test_sync_at_start_off_leaves_commands_alone_and_sync_commands_reports() -> None:
    async with EuchreBot(make_settings(dev_guild_ids=[3]), sync_at_start=False) as bot:
        sync = Recorder()
        bot.tree.sync = sync  # type: ignore[method-assign]
        await bot.setup_hook()
        assert sync.guilds == []
        assert await bot.sync_commands([5], globally=True) is True
        assert sync.guilds == [5, None]
        assert bot.synced == ["to guild 5", "globally"]
        bot.tree.sync = Recorder(fail=True)  # type: ignore[method-assign]
        assert await bot.sync_commands([], globally=True) is False
        assert bot.sync_failed == ["globally"]


async def test_a_global_sync_keeps_the_entry_point_of_an_application_with_activities() -> None:
    async with Harness(EuchreBot(make_settings())) as h:
        bot = h.bot
        assert await bot.sync_commands([], globally=True)
        assert {c["type"] for c in h.synced_commands[None]} == {1}
        h.turn_on_activities()
        with pytest.raises(discord.HTTPException, match="Entry Point"):
            await app_commands.CommandTree.sync(bot.tree)  # discord.py's own sync drops it
        assert await bot.sync_commands([], globally=True)
        synced = h.synced_commands[None]
        assert [c["name"] for c in synced if c["type"] == 4] == ["launch"]
        assert "euchre" in {c["name"] for c in synced if c["type"] == 1}


async def test_ready_touches_the_heartbeat(tmp_path: Path) -> None:
    heartbeat = Heartbeat(tmp_path / "beat", interval=3600)
    bot = EuchreBot(make_settings(), heartbeat=heartbeat)
    async with Harness(bot):
        assert heartbeat.age() is not None
        assert not bot.gateway_connected(), "the harness opens no gateway connection"
    assert bot._beating is not None and bot._beating.cancelled()


def test_shard_settings_reach_the_auto_sharded_bot() -> None:
    split = Settings(database_url="postgresql://bot@db/euchre", shard_count=4, shard_ids=(1, 3))
    bot = EuchreBot(split, extensions=())
    assert (bot.shard_count, bot.shard_ids) == (4, [1, 3])
    every = EuchreBot(Settings(), extensions=())
    assert (every.shard_count, every.shard_ids) == (None, None)  # Discord's recommendation
