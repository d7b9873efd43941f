"""Slash commands and autocomplete, built from the bot's real command tree.

Options (members, channels, roles, choices) are encoded as Discord does, and what
Discord would refuse is refused: a missing or out-of-range option, a command hidden
by ``default_permissions``.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Any

import discord
from discord import app_commands

from tests.kit.harness.records import HarnessError, Result, _snowflake_str
from tests.kit.harness.world import FakeMember
from tests.kit.payloads import JSON, clone


class _Commands:
    """Build and run slash commands and autocomplete requests."""

    def _find_command(
        self, command: str, guild_id: int
    ) -> tuple[list[str], app_commands.Command[Any, ..., Any], bool]:
        if self._tree is None:
            raise HarnessError("the bot has no command tree; pass Harness(bot, tree=...)")
        names = command.strip().lstrip("/").split()
        if not names:
            raise ValueError("empty command name")
        found: Any = self._tree.get_command(names[0], guild=discord.Object(guild_id))
        is_guild = found is not None
        if found is None:
            found = self._tree.get_command(names[0])
        for name in names[1:]:
            if not isinstance(found, app_commands.Group):
                found = None
                break
            found = found.get_command(name)
        if not isinstance(found, app_commands.Command):
            available = sorted(
                c.qualified_name for c in self._tree.walk_commands(guild=discord.Object(guild_id))
            ) + sorted(c.qualified_name for c in self._tree.walk_commands())
            raise LookupError(f"no slash command /{' '.join(names)}; known: {available}")
        return names, found, is_guild

    def _encode_option(
        self,
        param: app_commands.Parameter,
        value: Any,
        user: FakeMember,
        resolved: JSON,
    ) -> Any:
        kind = param.type
        if isinstance(value, app_commands.Choice | enum.Enum):
            value = value.value
        t = discord.AppCommandOptionType
        if kind is t.string:
            return str(value)
        if kind is t.integer:
            return int(value)
        if kind is t.number:
            return float(value)
        if kind is t.boolean:
            return bool(value)
        if kind in (t.user, t.mentionable) and not isinstance(value, discord.Role):
            target = self._resolve_user(value)
            resolved.setdefault("users", {})[str(target.id)] = target.user_payload()
            if target.guild is user.guild:
                resolved.setdefault("members", {})[str(target.id)] = target.member_payload(
                    permissions=True, user=False
                )
            return str(target.id)
        if kind is t.channel:
            cid = int(_snowflake_str(value))
            channel = clone(self._channels[cid])
            channel["permissions"] = str(user.permissions.value)
            resolved.setdefault("channels", {})[str(cid)] = channel
            return str(cid)
        if kind in (t.role, t.mentionable):
            rid = int(_snowflake_str(value))
            for role in user.guild.roles:
                if int(role["id"]) == rid:
                    resolved.setdefault("roles", {})[str(rid)] = role
                    return str(rid)
            raise LookupError(f"no role {rid} in {user.guild!r}")
        if kind is t.attachment:
            if not isinstance(value, Mapping) or "id" not in value:
                raise TypeError("attachment options take an attachment payload dict with an id")
            resolved.setdefault("attachments", {})[str(value["id"])] = dict(value)
            return str(value["id"])
        raise TypeError(f"unsupported option type {kind!r}")

    @staticmethod
    def _check_range(param: app_commands.Parameter, value: Any) -> None:
        """Discord (not discord.py) enforces min/max values and lengths: so does the harness."""
        low, high = param.min_value, param.max_value
        measured = len(value) if isinstance(value, str) else value
        if not isinstance(measured, int | float) or isinstance(measured, bool):
            return
        if (low is not None and measured < low) or (high is not None and measured > high):
            what = "length" if isinstance(value, str) else "value"
            raise ValueError(
                f"option {param.display_name!r}: {what} {measured} is not between "
                f"{low} and {high}; Discord would refuse it"
            )

    def build_slash(
        self,
        user: FakeMember,
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        channel: Any = None,
        focused: str | None = None,
        locale: str = "en-US",
        check_permissions: bool = True,
    ) -> JSON:
        """The INTERACTION_CREATE payload Discord sends for ``/command`` (type 2, or 4 if focused)."""
        user = self._resolve_user(user)
        cid = self._resolve_channel(user, channel)
        names, cmd, is_guild = self._find_command(command, user.guild.id)
        root: Any = cmd
        while root.parent is not None:
            root = root.parent
        if check_permissions and focused is None:
            required = root.default_permissions
            if required is not None and not user.permissions >= required:
                raise HarnessError(
                    f"Discord does not show /{' '.join(names)} to {user.name}: it needs "
                    f"default permissions {required!r}"
                )
        given = dict(options or {})
        by_name = {p.display_name: p for p in cmd.parameters}
        by_name.update({p.name: p for p in cmd.parameters})
        unknown = set(given) - set(by_name)
        if unknown:
            raise LookupError(
                f"/{' '.join(names)} has no option(s) {sorted(unknown)}; "
                f"options: {[p.display_name for p in cmd.parameters]}"
            )
        resolved: JSON = {}
        encoded: list[JSON] = []
        for param in cmd.parameters:
            key = param.display_name if param.display_name in given else param.name
            if key not in given:
                if param.required and focused is None:
                    raise ValueError(f"/{' '.join(names)} requires option {param.display_name!r}")
                continue
            value = given[key]
            if focused is not None:
                opt: JSON = {"name": param.display_name, "type": param.type.value}
                if param.display_name == focused or param.name == focused:
                    opt["value"] = str(value)
                    opt["focused"] = True
                else:
                    opt["value"] = self._encode_option(param, value, user, resolved)
            else:
                opt = {
                    "name": param.display_name,
                    "type": param.type.value,
                    "value": self._encode_option(param, value, user, resolved),
                }
                self._check_range(param, opt["value"])
                if param.choices and not param.autocomplete:
                    allowed = [c.value for c in param.choices]
                    if opt["value"] not in allowed:
                        raise ValueError(
                            f"option {param.display_name!r} must be one of {allowed}, "
                            f"not {opt['value']!r}"
                        )
            encoded.append(opt)
        if focused is not None and not any(o.get("focused") for o in encoded):
            raise ValueError(f"focused option {focused!r} must be given a (partial) value")
        nested: list[JSON] = encoded
        chain: Any = cmd
        while chain.parent is not None:
            nested = [
                {
                    "name": chain.name,
                    "type": 1 if isinstance(chain, app_commands.Command) else 2,
                    "options": nested,
                }
            ]
            chain = chain.parent
        data: JSON = {
            "id": str(
                self._command_ids.setdefault(
                    (user.guild.id if is_guild else None, names[0]), self.next_id()
                )
            ),
            "name": names[0],
            "type": 1,
            "options": nested,
        }
        if is_guild:
            data["guild_id"] = str(user.guild.id)
        if resolved:
            data["resolved"] = resolved
        return self._interaction_payload(4 if focused else 2, user, cid, data, locale=locale)

    async def slash(
        self,
        user: FakeMember,
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        channel: Any = None,
        allow_errors: bool = False,
        expect_response: bool = True,
        locale: str = "en-US",
    ) -> Result:
        """Run ``/command`` (e.g. ``"euchre new"``, subcommands and groups by spaces) as ``user``.

        ``options`` maps option names to values: members (``FakeMember``), channels,
        roles, enums and ``Choice`` objects are encoded (and resolved) as Discord does.
        ``channel`` defaults to the first channel of the user's guild.
        """
        payload = self.build_slash(user, command, options, channel=channel, locale=locale)
        return await self.dispatch(
            payload, allow_errors=allow_errors, expect_response=expect_response
        )

    async def autocomplete(
        self,
        user: FakeMember,
        command: str,
        options: Mapping[str, Any],
        *,
        focused: str,
        channel: Any = None,
        allow_errors: bool = False,
    ) -> Result:
        """Ask for autocomplete of option ``focused`` (its partial text in ``options``).

        The answer is in ``result.choices`` (a list of ``{"name", "value"}``).
        """
        payload = self.build_slash(user, command, options, channel=channel, focused=focused)
        return await self.dispatch(payload, allow_errors=allow_errors)
