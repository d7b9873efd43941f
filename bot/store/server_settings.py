"""Each server's settings in the database, which its admins may change.

Only a member with Manage Server or the server's rules-admin role may change them, each
change is checked whole before anything is saved, and a table never sees a change (it
copied the settings when it opened).
"""

from __future__ import annotations

from typing import Any

from bot.rules import HouseRules, RulesError
from bot.server.fields import (
    RULE_FIELDS,
    SETTING_FIELDS,
    BadValueError,
    FieldValues,
    ServerObjects,
    find_field,
)
from bot.server.settings import Editor, ServerSettings
from bot.server.sources import RuleChange, SettingChange, SettingsReadOnlyError, SettingsSource

from .database import Database
from .errors import SettingsError
from .guild_settings import GuildSettingsRepo

__all__ = ["StoredSettings", "editable"]


def editable(source: SettingsSource) -> StoredSettings:
    """The settings as something that can change them; SettingsReadOnlyError if not."""
    if isinstance(source, StoredSettings):
        return source
    raise SettingsReadOnlyError(
        "This bot runs without a database, so its house rules and settings can't be "
        "changed; ask its owner."
    )


class StoredSettings:
    """Each server's settings from the database, which its admins may also change.

    A server that never changed one has ``defaults`` (the bot's configuration); its
    first change saves those defaults with it, so none of them moves later.
    """

    def __init__(self, db: Database, defaults: ServerSettings | None = None) -> None:
        """Work on ``db``; a server that changed nothing has ``defaults``."""
        self._db = db
        self._settings = GuildSettingsRepo(db)
        self._defaults = defaults or ServerSettings()

    async def get(self, guild_id: int) -> ServerSettings:
        """The server's rules and settings as its tables get them."""
        stored = await self._settings.get(guild_id)
        return self._defaults if stored.updated_at is None else stored

    async def _check(self, guild_id: int, editor: Editor) -> ServerSettings:
        current = await self.get(guild_id)
        current.check_editor(editor)
        return current

    async def _save_rules(self, guild_id: int, current: ServerSettings, rules: HouseRules) -> None:
        if current.updated_at is None:
            await self._settings.update(guild_id, **current.settings_only())
        await self._settings.set_rules(guild_id, rules)

    async def set_rule(self, guild_id: int, editor: Editor, name: str, typed: str) -> RuleChange:
        """Change one house rule (``preset``: start from another preset, keeping the changes)."""
        values = find_field(RULE_FIELDS, name, "rule")
        async with self._db.transaction():
            current = await self._check(guild_id, editor)
            value = values.parse(typed)
            before = current.rules
            try:
                if values.name == "preset":
                    after = HouseRules.from_spec({**before.to_spec(), "preset": value})
                else:
                    after = before.with_changes(**{values.name: value})
            except RulesError as exc:
                raise BadValueError(
                    f"Can't set {values.name} to {values.text(value)}: it doesn't fit the "
                    f"other rules ({exc}). {values.name} takes {values.allowed()}. "
                    "Nothing was changed."
                ) from None
            if after != before:
                await self._save_rules(guild_id, current, after)
        return RuleChange(before, after, values.name)

    async def use_preset(self, guild_id: int, editor: Editor, preset: str) -> RuleChange:
        """Make the server's house rules one preset's, with no change."""
        rules = HouseRules.preset_rules(RULE_FIELDS["preset"].parse(preset))
        return await self._replace_rules(guild_id, editor, rules)

    async def reset_rules(self, guild_id: int, editor: Editor) -> RuleChange:
        """Back to the bot's default house rules (North American); the settings stay."""
        return await self._replace_rules(guild_id, editor, HouseRules())

    async def _replace_rules(self, guild_id: int, editor: Editor, rules: HouseRules) -> RuleChange:
        async with self._db.transaction():
            current = await self._check(guild_id, editor)
            if rules != current.rules:
                await self._save_rules(guild_id, current, rules)
        return RuleChange(current.rules, rules)

    async def set_setting(
        self,
        guild_id: int,
        editor: Editor,
        name: str,
        typed: str,
        server: ServerObjects | None = None,
    ) -> SettingChange:
        """Change one server setting; ``server``: its roles and channels, as the chat sees them."""
        values = find_field(SETTING_FIELDS, name, "setting")
        async with self._db.transaction():
            before = await self._check(guild_id, editor)
            value = values.parse(typed, server)
            after = await self._update(guild_id, before, {values.name: value}, values)
        return SettingChange(before, after, values.name)

    async def reset_settings(self, guild_id: int, editor: Editor) -> SettingChange:
        """Every setting back to the bot's defaults; the house rules stay."""
        async with self._db.transaction():
            before = await self._check(guild_id, editor)
            after = await self._update(guild_id, before, self._defaults.settings_only(), None)
        return SettingChange(before, after)

    async def _update(
        self,
        guild_id: int,
        current: ServerSettings,
        changes: dict[str, Any],
        values: FieldValues | None,
    ) -> ServerSettings:
        if current.updated_at is None:
            changes = {**current.settings_only(), **changes}
        try:
            return await self._settings.update(guild_id, **changes)
        except SettingsError as exc:
            allowed = f" {values.name} takes {values.allowed()}." if values else ""
            raise BadValueError(
                f"That setting doesn't fit: {exc}.{allowed} Nothing was changed."
            ) from None
