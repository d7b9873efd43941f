"""The champion role on Discord's side: giving and taking it back, and saying why it can't be.

:class:`DiscordRoleHands` gives a finished event's champions their role and takes it
back for :class:`~bot.tournaments.champion_roles.ChampionRoles`. The bot can only manage a
role below its own highest role, and only with the Manage Roles permission (not in the
invite link: a server that wants a champion role grants it). :func:`role_problem`
says in one sentence why a role can't be managed, so ``/euchre tournament new`` refuses
such a role at once (:func:`check_champion_role`), and the end of an event tells the
channel instead of failing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

import discord

from bot.errors import UserFacingError
from bot.render.names import shown
from bot.tournaments.champion_roles import RoleRefusedError
from bot.tournaments.model import ChampionRole

if TYPE_CHECKING:
    from bot.discord.app import EuchreBot

__all__ = ["DiscordRoleHands", "check_champion_role", "role_problem"]

UNKNOWN_ROLE: Final = 10011
UNKNOWN_MEMBER: Final = 10007
UNKNOWN_GUILD: Final = 10004


def role_problem(guild: discord.Guild, role: discord.Role | None) -> str | None:
    """Why the bot can't give ``role`` in ``guild`` (None: it can)."""
    if role is None:
        return "the champion role no longer exists"
    if role.is_default() or role.managed:
        return f"**{shown(role.name)}** is not a role that can be given"
    me = guild.me
    if me is None or not me.guild_permissions.manage_roles:
        return f"I need the Manage Roles permission to give **{shown(role.name)}**"
    if role >= me.top_role:
        return (
            f"**{shown(role.name)}** is above my highest role: move my role above it "
            "in Server Settings > Roles"
        )
    return None


def check_champion_role(guild: discord.Guild, role: discord.Role | None, hours: int | None) -> None:
    """Refuse a champion role the bot could not give, and hours without a role."""
    if role is None:
        if hours is not None:
            raise UserFacingError("Choose a champion_role for the champions to hold that long.")
        return
    problem = role_problem(guild, role)
    if problem is not None:
        raise UserFacingError(f"I can't give that role to the champions: {problem}.")


class DiscordRoleHands:
    """Gives and takes back champion roles with the bot's own requests."""

    def __init__(self, bot: EuchreBot) -> None:
        """Work as ``bot``."""
        self.bot = bot

    async def give(self, role: ChampionRole) -> None:
        """Give the role; RoleRefusedError with the sentence for the event's channel."""
        who = f"<@{role.user_id}>"
        self._check(role, f"I couldn't give the champion role to {who}")
        try:
            await self.bot.http.add_role(
                role.guild_id, role.user_id, role.role_id, reason="Tournament champion"
            )
        except discord.HTTPException as exc:
            if exc.status >= 500:
                raise  # Discord's trouble: tried again later
            raise RoleRefusedError(
                f"I couldn't give the champion role to {who}: {_why(exc, 'they have left')}."
            ) from None

    async def take(self, role: ChampionRole) -> None:
        """Take the role back (nothing to do when the member or the role is gone)."""
        who = f"<@{role.user_id}>"
        guild = self.bot.get_guild(role.guild_id)
        if guild is None or guild.get_role(role.role_id) is None:
            return
        self._check(role, f"I couldn't take the champion role back from {who}")
        try:
            await self.bot.http.remove_role(
                role.guild_id, role.user_id, role.role_id, reason="Champion's time is up"
            )
        except discord.HTTPException as exc:
            if exc.code in (UNKNOWN_ROLE, UNKNOWN_MEMBER, UNKNOWN_GUILD):
                return
            if exc.status >= 500:
                raise
            raise RoleRefusedError(
                f"I couldn't take the champion role back from {who}: "
                f"{_why(exc, 'they have left')}; remove it by hand."
            ) from None

    def _check(self, role: ChampionRole, what: str) -> None:
        guild = self.bot.get_guild(role.guild_id)
        if guild is None:
            raise RoleRefusedError(f"{what}: I am no longer in this server.")
        problem = role_problem(guild, guild.get_role(role.role_id))
        if problem is not None:
            raise RoleRefusedError(f"{what}: {problem}.")


def _why(exc: discord.HTTPException, left: str) -> str:
    if exc.code == UNKNOWN_ROLE:
        return "the champion role no longer exists"
    if exc.code == UNKNOWN_MEMBER:
        return left
    if isinstance(exc, discord.Forbidden):
        return "I lack the Manage Roles permission, or the role is above my highest role"
    return f"Discord answered {exc.status} ({exc.text or 'no reason given'})"
