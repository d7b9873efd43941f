"""The bot's command tree: the app-command error funnel, a sync keeping the Entry Point."""

from __future__ import annotations

import logging
from typing import Any, Final, Protocol, cast

import discord
from discord import app_commands

from bot.discord.refusals import log_refusal
from bot.discord.replies import report_error, send_ephemeral

__all__ = ["CHECK_FAILED", "ENTRY_POINT", "STALE_COMMAND", "EuchreTree"]

log = logging.getLogger(__name__)

STALE_COMMAND = "This command has changed. Wait a minute for Discord to update it, then retry."
CHECK_FAILED = "You can't use this command here."

# discord.py's own check failures whose messages are written for users.
_USER_READABLE_CHECKS = (
    app_commands.NoPrivateMessage,
    app_commands.MissingRole,
    app_commands.MissingAnyRole,
    app_commands.MissingPermissions,
    app_commands.BotMissingPermissions,
    app_commands.CommandOnCooldown,
)


ENTRY_POINT: Final = 4
"""The application command type of an Activity's Entry Point (PRIMARY_ENTRY_POINT)."""


class EuchreTree(app_commands.CommandTree[discord.Client]):
    """The command tree, whose ``on_error`` is the funnel for every app-command error."""

    async def interaction_check(self, interaction: discord.Interaction[discord.Client], /) -> bool:
        """Refuse commands while the bot stops; keep track of the ones it runs."""
        return await cast(_Taker, interaction.client).take(interaction)

    async def sync(
        self, *, guild: discord.abc.Snowflake | None = None
    ) -> list[app_commands.AppCommand]:
        """Sync as discord.py does, keeping the application's Entry Point command globally.

        An application with Activities on has an Entry Point command (type 4, the App
        Launcher's "Launch"), which discord.py does not know: a global overwrite without
        it is refused (50240), so it is read first and sent back as it is.
        """
        application_id = self.client.application_id
        if guild is not None or application_id is None:
            return await super().sync(guild=guild)
        http = self.client.http
        found = await http.get_global_commands(application_id)
        kept = [dict(c) for c in found if dict(c).get("type") == ENTRY_POINT]
        if not kept:
            return await super().sync()
        payload = [command.to_dict(self) for command in self.get_commands()]
        data = await http.bulk_upsert_global_commands(application_id, payload=[*payload, *kept])
        return [app_commands.AppCommand(data=d, state=self._state) for d in data]

    async def on_error(
        self,
        interaction: discord.Interaction[discord.Client],
        error: app_commands.AppCommandError,
        /,
    ) -> None:
        """Answer the user ephemerally; log what is not their doing."""
        if isinstance(error, app_commands.CommandInvokeError):
            name = error.command.qualified_name
            await report_error(interaction, error.original, context=f"command /{name}")
            return
        if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
            log.warning("Stale command used: %s", error)
            content = STALE_COMMAND
        elif isinstance(error, _USER_READABLE_CHECKS):
            content = str(error)
        elif isinstance(error, app_commands.CheckFailure):
            content = CHECK_FAILED
        else:
            command = interaction.command
            context = f"command /{command.qualified_name}" if command else "command tree"
            await report_error(interaction, error, context=context)
            return
        try:
            await send_ephemeral(interaction, content)
        except discord.HTTPException as exc:
            log_refusal(log, exc, f"answering user {interaction.user.id}")


class _Taker(Protocol):
    """The bot, as the tree sees it: it takes a command in, or refuses it while stopping."""

    async def take(self, interaction: discord.Interaction[Any]) -> bool: ...
