"""The world the fake Discord holds: guilds, their channels and members.

:meth:`_World.guild` builds a guild and announces it to the bot with GUILD_CREATE;
the payloads come from :mod:`tests.kit.payloads`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeAlias, cast

import discord

from tests.kit import payloads
from tests.kit.harness.records import HarnessError
from tests.kit.payloads import (
    DEFAULT_BOT_PERMISSIONS,
    DEFAULT_EVERYONE_PERMISSIONS,
    JSON,
    now_iso,
)


class _GuildHost(Protocol):
    """What a fake guild asks of the harness that made it."""

    @property
    def bot(self) -> discord.Client: ...

    @property
    def _state(self) -> Any: ...

    def next_id(self) -> int: ...

    def gateway(self, event: str, data: JSON) -> None: ...

    def _make_member(
        self, guild: FakeGuild, spec: MemberLike, *, register: bool = True
    ) -> FakeMember: ...

    def _make_channel(self, guild: FakeGuild, name: str, cid: int | None = None) -> JSON: ...


@dataclass(frozen=True)
class MemberSpec:
    """How to create a member: name, extra permissions (on top of @everyone), optional id."""

    name: str
    permissions: Mapping[str, bool] | discord.Permissions | None = None
    id: int | None = None
    bot: bool = False
    nick: str | None = None


MemberLike: TypeAlias = (
    str | MemberSpec | tuple[str, Mapping[str, bool] | discord.Permissions | None]
)


@dataclass(eq=False)
class FakeMember:
    """A member of a :class:`FakeGuild`, known to the fake Discord."""

    id: int
    name: str
    guild: FakeGuild
    role_ids: list[int]
    bot: bool = False
    nick: str | None = None
    joined_at: str = ""

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    @property
    def display_name(self) -> str:
        return self.nick or self.name

    @property
    def permissions(self) -> discord.Permissions:
        """Guild-level permissions: owner and administrator get everything."""
        return self.guild.permissions_for(self)

    def user_payload(self) -> JSON:
        return payloads.user(self.id, self.name, bot=self.bot)

    def member_payload(self, *, permissions: bool = False, user: bool = True) -> JSON:
        return payloads.member(
            self.user_payload() if user else None,
            roles=self.role_ids,
            joined_at=self.joined_at,
            nick=self.nick,
            permissions=self.permissions.value if permissions else None,
        )

    def discord_member(self) -> discord.Member:
        """A real ``discord.Member`` bound to the bot's guild object."""
        guild = self.guild.guild
        cached = guild.get_member(self.id)
        if cached is not None:
            return cached
        state = self.guild.harness._state
        return discord.Member(data=cast(Any, self.member_payload()), guild=guild, state=state)

    def __repr__(self) -> str:
        return f"<FakeMember {self.name} id={self.id} guild={self.guild.name!r}>"


@dataclass(eq=False)
class FakeGuild:
    """A guild the harness created (and announced to the bot with GUILD_CREATE)."""

    harness: _GuildHost
    id: int
    name: str
    owner_id: int
    everyone: discord.Permissions
    roles: list[JSON] = field(default_factory=list)
    channel_ids: dict[str, int] = field(default_factory=dict)
    members: dict[str, FakeMember] = field(default_factory=dict)
    me: FakeMember | None = None

    @property
    def guild(self) -> discord.Guild:
        """The bot's real ``discord.Guild`` object."""
        guild = self.harness.bot.get_guild(self.id)
        if guild is None:
            raise HarnessError(f"the bot does not know guild {self.id}")
        return guild

    @property
    def channels(self) -> dict[str, discord.TextChannel]:
        """The bot's real text channels, by name."""
        return {name: self._text_channel(cid) for name, cid in self.channel_ids.items()}

    @property
    def channel(self) -> discord.TextChannel:
        """The first text channel."""
        return self._text_channel(next(iter(self.channel_ids.values())))

    def _text_channel(self, channel_id: int) -> discord.TextChannel:
        channel = self.guild.get_channel(channel_id)
        if not isinstance(channel, discord.TextChannel):
            raise HarnessError(f"channel {channel_id} is not a text channel the bot knows")
        return channel

    def member(self, name: str) -> FakeMember:
        try:
            return self.members[name]
        except KeyError:
            raise LookupError(f"no member {name!r}; members: {sorted(self.members)}") from None

    def role_permissions(self, role_id: int) -> int:
        for role in self.roles:
            if int(role["id"]) == role_id:
                return int(role["permissions"])
        return 0

    def permissions_for(self, member: FakeMember) -> discord.Permissions:
        if member.id == self.owner_id:
            return discord.Permissions.all()
        value = self.everyone.value
        for rid in member.role_ids:
            value |= self.role_permissions(rid)
        perms = discord.Permissions(value)
        return discord.Permissions.all() if perms.administrator else perms

    def add_member(self, spec: MemberLike) -> FakeMember:
        """Add a member and feed GUILD_MEMBER_ADD to the bot."""
        member = self.harness._make_member(self, spec)
        payload = member.member_payload()
        payload["guild_id"] = str(self.id)
        self.harness.gateway("GUILD_MEMBER_ADD", payload)
        return member

    def add_role(
        self, name: str, *, above_bot: bool = False, permissions: int = 0, id: int | None = None
    ) -> int:
        """Create a role (GUILD_ROLE_CREATE); its id (``id``: a known one, after a restart).

        It goes just below the bot's highest role, which moves up one (GUILD_ROLE_UPDATE),
        as when a server's admin drags it there; ``above_bot``: at the top instead.
        """
        role_id = id if id is not None else self.harness.next_id()
        top = max(int(r["position"]) for r in self.roles)
        position = top + 1
        if not above_bot:
            position = self.top_position(self.me) if self.me is not None else top + 1
            for role in self.roles:
                if int(role["position"]) >= position:
                    role["position"] = int(role["position"]) + 1
                    self.harness.gateway(
                        "GUILD_ROLE_UPDATE", {"guild_id": str(self.id), "role": role}
                    )
        role = payloads.role(role_id, name, permissions, position=position)
        self.roles.append(role)
        self.harness.gateway("GUILD_ROLE_CREATE", {"guild_id": str(self.id), "role": role})
        return role_id

    def delete_role(self, role_id: int) -> None:
        """Delete a role (GUILD_ROLE_DELETE): every member loses it."""
        self.roles[:] = [r for r in self.roles if int(r["id"]) != role_id]
        for member in [*self.members.values(), *([self.me] if self.me else [])]:
            if role_id in member.role_ids:
                member.role_ids.remove(role_id)
        self.harness.gateway(
            "GUILD_ROLE_DELETE", {"guild_id": str(self.id), "role_id": str(role_id)}
        )

    def take_from_bot(self, *names: str) -> None:
        """An admin takes permissions (``"send_messages"``...) from the bot.

        From @everyone and the bot's roles, as Discord announces it (GUILD_ROLE_UPDATE).
        """
        taken = discord.Permissions(**dict.fromkeys(names, True)).value
        me = self.me
        changed = [self.id, *(me.role_ids if me is not None else [])]
        for role in self.roles:
            if int(role["id"]) in changed:
                role["permissions"] = str(int(role["permissions"]) & ~taken)
                self.harness.gateway("GUILD_ROLE_UPDATE", {"guild_id": str(self.id), "role": role})
        self.everyone = discord.Permissions(self.everyone.value & ~taken)

    def role(self, role_id: int) -> JSON | None:
        """The role's payload, if the guild has it."""
        return next((r for r in self.roles if int(r["id"]) == role_id), None)

    def top_position(self, member: FakeMember) -> int:
        """The position of the member's highest role (0: only @everyone)."""
        return max(
            (int(r["position"]) for r in self.roles if int(r["id"]) in member.role_ids), default=0
        )

    def has_member(self, user_id: int) -> bool:
        """Whether the user is in the guild now (the bot too)."""
        return any(
            m.id == user_id for m in [*self.members.values(), *([self.me] if self.me else [])]
        )

    def remove_member(self, name: str) -> FakeMember:
        """The member leaves the guild (GUILD_MEMBER_REMOVE)."""
        member = self.members.pop(name)
        member.role_ids.clear()
        self.harness.gateway(
            "GUILD_MEMBER_REMOVE", {"guild_id": str(self.id), "user": member.user_payload()}
        )
        return member

    def add_channel(self, name: str) -> discord.TextChannel:
        """Add a text channel and feed CHANNEL_CREATE to the bot."""
        payload = self.harness._make_channel(self, name)
        self.harness.gateway("CHANNEL_CREATE", payload)
        return self._text_channel(int(payload["id"]))

    def __repr__(self) -> str:
        return f"<FakeGuild {self.name!r} id={self.id} members={sorted(self.members)}>"


class _World:
    """Ids, the bot and its owner, guilds, channels and members."""

    def next_id(self) -> int:
        """A fresh snowflake (monotonic, near the current time)."""
        self._last_snowflake = payloads.next_snowflake(self._last_snowflake)
        return self._last_snowflake

    def bot_user_payload(self) -> JSON:
        return payloads.user(self.bot_id, self.bot_name, bot=True)

    def _owner_payload(self) -> JSON:
        return payloads.user(self.owner_id, "app-owner", global_name="App Owner")

    def guild(
        self,
        members: Iterable[MemberLike] = (),
        *,
        name: str = "Test Guild",
        channels: Sequence[str] = ("table",),
        owner: str | None = None,
        everyone: discord.Permissions | Mapping[str, bool] | None = None,
        bot_permissions: discord.Permissions | Mapping[str, bool] | None = None,
        id: int | None = None,
        channel_ids: Mapping[str, int] | None = None,
    ) -> FakeGuild:
        """Create a guild with text channels and members, and feed its GUILD_CREATE.

        ``members``: names, ``(name, {"manage_guild": True})`` pairs or :class:`MemberSpec`;
        permissions are granted through a role on top of ``everyone`` (default
        :data:`DEFAULT_EVERYONE_PERMISSIONS`). ``owner`` names the member who owns the
        guild (all permissions); by default nobody listed does. ``channel_ids`` gives
        some channels known ids (the same guild in a second harness, after a restart).
        """
        if not channels:
            raise ValueError("a guild needs at least one channel")
        gid = id if id is not None else self.next_id()
        everyone_perms = self._perms(everyone, DEFAULT_EVERYONE_PERMISSIONS)
        fake = FakeGuild(self, gid, name, owner_id=self.next_id(), everyone=everyone_perms)
        fake.roles.append(payloads.role(gid, "@everyone", everyone_perms.value, position=0))
        bot_perms = self._perms(bot_permissions, DEFAULT_BOT_PERMISSIONS)
        fake.me = self._make_member(
            fake, MemberSpec(self.bot_name, bot_perms, id=self.bot_id, bot=True), register=False
        )
        for member in members:
            self._make_member(fake, member)
        if owner is not None:
            fake.owner_id = fake.member(owner).id
        for channel_name in channels:
            self._make_channel(fake, channel_name, (channel_ids or {}).get(channel_name))
        self.guilds[gid] = fake
        all_members = [*fake.members.values(), fake.me]
        payload = payloads.guild(
            gid,
            name,
            owner_id=fake.owner_id,
            roles=fake.roles,
            members=[m.member_payload() for m in all_members],
            channels=[self._channels[cid] for cid in fake.channel_ids.values()],
            joined_at=now_iso(),
        )
        self.gateway("GUILD_CREATE", payload)
        return fake

    @staticmethod
    def _perms(
        value: discord.Permissions | Mapping[str, bool] | None, default: discord.Permissions
    ) -> discord.Permissions:
        if value is None:
            return discord.Permissions(default.value)
        if isinstance(value, discord.Permissions):
            return value
        if not all(value.values()):
            raise ValueError(
                "permissions are granted through roles and cannot deny @everyone's; "
                "pass everyone=... to change the base"
            )
        return discord.Permissions(**value)

    def _make_member(
        self, guild: FakeGuild, spec: MemberLike, *, register: bool = True
    ) -> FakeMember:
        if isinstance(spec, str):
            spec = MemberSpec(spec)
        elif isinstance(spec, tuple):
            spec = MemberSpec(spec[0], spec[1])
        if spec.name in guild.members:
            raise ValueError(f"member {spec.name!r} already exists in {guild.name!r}")
        member_id = spec.id if spec.id is not None else self.next_id()
        role_ids: list[int] = []
        if spec.permissions is not None:
            perms = self._perms(spec.permissions, discord.Permissions.none())
            if perms.value:
                role_id = self.next_id()
                guild.roles.append(
                    payloads.role(  # a bot's own role is its integration's: managed
                        role_id,
                        f"{spec.name}-role",
                        perms.value,
                        position=len(guild.roles),
                        managed=spec.bot,
                    )
                )
                role_ids.append(role_id)
        member = FakeMember(
            member_id,
            spec.name,
            guild,
            role_ids,
            bot=spec.bot,
            nick=spec.nick,
            joined_at=now_iso(),
        )
        if register:
            guild.members[spec.name] = member
        self._users[member_id] = member
        return member

    def _make_channel(self, guild: FakeGuild, name: str, cid: int | None = None) -> JSON:
        if name in guild.channel_ids:
            raise ValueError(f"channel {name!r} already exists in {guild.name!r}")
        cid = cid if cid is not None else self.next_id()
        payload = payloads.text_channel(cid, guild.id, name, position=len(guild.channel_ids))
        guild.channel_ids[name] = cid
        self._channels[cid] = payload
        self._channel_guild[cid] = guild
        return payload
