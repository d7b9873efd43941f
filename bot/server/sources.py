"""Where the table service finds each server's settings, and what a change of them says.

:class:`SettingsSource` is what the service reads; :class:`FixedSettings` gives every
server the same settings (a bot without a database). The stored ones, which admins
change, are :class:`bot.store.server_settings.StoredSettings`, above this package.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from bot.errors import UserFacingError
from bot.rules import HouseRules

from .settings import FieldsChange, ServerSettings

__all__ = [
    "FixedSettings",
    "RuleChange",
    "SettingChange",
    "SettingsReadOnlyError",
    "SettingsSource",
]


class SettingsReadOnlyError(UserFacingError):
    """This bot keeps no server settings (it runs without a database)."""


class SettingsSource(Protocol):
    """Where the table service finds a server's settings."""

    async def get(self, guild_id: int) -> ServerSettings:
        """The settings of guild ``guild_id`` (the defaults if it set none)."""
        ...


class FixedSettings:
    """The same settings for every server."""

    def __init__(self, settings: ServerSettings | None = None) -> None:
        """Answer ``settings`` (default: the model's defaults) for every guild."""
        self.settings = settings or ServerSettings()

    async def get(self, guild_id: int) -> ServerSettings:
        """The same settings, whatever the guild."""
        return self.settings


@dataclass(frozen=True, slots=True)
class RuleChange:
    """The server's house rules before and after a change; ``field`` None for a whole set."""

    before: HouseRules
    after: HouseRules
    field: str | None = None

    @property
    def changed(self) -> bool:
        """Whether anything is different."""
        return self.before != self.after


class SettingChange(FieldsChange[ServerSettings]):
    """The server's settings before and after a change (``name`` None: every setting reset)."""

    __slots__ = ()
