"""``/euchre rules ...`` and ``/euchre settings ...``: a mixin of the euchre cog.

discord.py's ``CogMeta`` collects app commands and groups from every class of a cog's
MRO, so the two groups here become subgroups of ``/euchre`` in
:class:`~cogs.euchre.cog.Euchre`, which lists this class among its bases. Each command reads the
interaction, calls :mod:`bot.server` and answers with what
:mod:`bot.render.server_config` draws. Everyone may read; a change needs Manage Server
or the server's rules-admin role, and a refusal is one private sentence. Discord's
limits on autocomplete (:data:`LIMITS`) and its role mentions are handed to
:mod:`bot.server` from here.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserFacingError
from bot.render.server_config import (
    choice_name,
    preset_choice_name,
    role_mention,
    rule_change_text,
    rule_value_choice_name,
    rules_replaced_text,
    server_rules_embeds,
    setting_change_text,
    setting_value_choice_name,
    settings_embed,
    shown_value,
    table_rules_embed,
)
from bot.replies import send_ephemeral
from bot.rules import HouseRules
from bot.server.fields import (
    RULE_FIELDS,
    SETTING_FIELDS,
    FieldValues,
    UnknownFieldError,
    find_field,
    match_fields,
)
from bot.server.overrides import TableRules, complete_changes, table_rules
from bot.server.settings import Editor
from bot.store.server_settings import editable
from bot.tables import TableService

if TYPE_CHECKING:
    from bot.app import EuchreBot

__all__ = [
    "LIMITS",
    "PRESET_CHOICES",
    "ChoiceLimits",
    "Choices",
    "HouseRulesCommands",
    "editor_of",
    "field_named",
    "name_choices",
]

Choices = list[app_commands.Choice[str]]


@dataclass(frozen=True, slots=True)
class ChoiceLimits:
    """What Discord allows an autocomplete answer: how many choices, how long each."""

    choices: int = 25
    length: int = 100


LIMITS: Final = ChoiceLimits()
"""Discord's limits, passed to :mod:`bot.server` wherever it lists choices."""

_MENTION: Final = re.compile(r"<@&(\d{1,20})>")

PRESET_CHOICES: Final = [
    app_commands.Choice(name=preset_choice_name(name), value=name)
    for name in RULE_FIELDS["preset"].choices
]
"""Every preset as a slash-command choice, described."""


class HouseRulesCommands(commands.Cog):
    """The house-rules and settings commands, mixed into the euchre cog (never loaded alone)."""

    bot: EuchreBot
    service: TableService

    rules_group = app_commands.Group(
        name="rules", description="This server's house rules: read them, or change them (admins)"
    )
    settings_group = app_commands.Group(
        name="settings", description="This server's table settings: read them, or change them"
    )

    # ------------------------------------------------------------------ /euchre rules

    @rules_group.command(name="show", description="The house rules in plain words")
    async def rules_show(self, interaction: discord.Interaction[EuchreBot]) -> None:
        """The server's house rules; also the table's here when it plays other rules."""
        settings = await self.service.settings_of(_guild_id(interaction))
        table = self.service.at(interaction.channel_id) if interaction.channel_id else None
        embeds = server_rules_embeds(
            settings.rules,
            table_id=None if table is None else table.id,
            table_rules=None if table is None else table.rules,
            table_overridden=table is not None and table.rules_overridden,
        )
        await send_ephemeral(interaction, embeds=embeds)

    @rules_group.command(name="preset", description="Play a preset's rules (admins)")
    @app_commands.describe(
        preset="The rules to start from; single rules change with /euchre rules set"
    )
    @app_commands.choices(preset=PRESET_CHOICES)
    async def rules_preset(
        self, interaction: discord.Interaction[EuchreBot], preset: app_commands.Choice[str]
    ) -> None:
        """Make the house rules a preset's, dropping earlier changes."""
        change = await editable(self.service.server_settings).use_preset(
            _guild_id(interaction), editor_of(interaction), preset.value
        )
        await send_ephemeral(interaction, rules_replaced_text(change, reset=False))

    @rules_group.command(name="set", description="Change one house rule (admins)")
    @app_commands.describe(rule="The rule to change (type to search)", value="Its new value")
    async def rules_set(
        self,
        interaction: discord.Interaction[EuchreBot],
        rule: app_commands.Range[str, 1, 100],
        value: app_commands.Range[str, 1, 100],
    ) -> None:
        """Change one rule: checked with all the others before it is saved."""
        change = await editable(self.service.server_settings).set_rule(
            _guild_id(interaction), editor_of(interaction), rule, value
        )
        before, after = _shown(RULE_FIELDS[change.field or "preset"], change.before, change.after)
        await send_ephemeral(interaction, rule_change_text(change, before, after))

    @rules_set.autocomplete("rule")
    async def _rule_names(
        self, interaction: discord.Interaction[EuchreBot], current: str
    ) -> Choices:
        return name_choices(RULE_FIELDS, current)

    @rules_set.autocomplete("value")
    async def _rule_values(
        self, interaction: discord.Interaction[EuchreBot], current: str
    ) -> Choices:
        values = field_named(RULE_FIELDS, interaction.namespace.rule, "rule")
        if values is None:
            return []
        rules = (await self.service.settings_of(_guild_id(interaction))).rules
        preset = getattr(HouseRules.preset_rules(rules.preset), values.name)
        choices = []
        now = getattr(rules, values.name)
        for value in values.suggestions(current, LIMITS.choices, now, preset):
            shown = values.text(value)
            name = rule_value_choice_name(values.name, value, rules, shown)
            choices.append(app_commands.Choice(name=name, value=shown))
        return choices

    @rules_group.command(name="reset", description="Back to the default rules (admins)")
    async def rules_reset(self, interaction: discord.Interaction[EuchreBot]) -> None:
        """Back to the North American rules; the settings stay."""
        change = await editable(self.service.server_settings).reset_rules(
            _guild_id(interaction), editor_of(interaction)
        )
        await send_ephemeral(interaction, rules_replaced_text(change, reset=True))

    # ------------------------------------------------------------------ /euchre settings

    @settings_group.command(name="show", description="This server's table settings")
    async def settings_show(self, interaction: discord.Interaction[EuchreBot]) -> None:
        """Every setting, its value and what it means."""
        settings = await self.service.settings_of(_guild_id(interaction))
        embed = settings_embed(settings, self._default_delay)
        await send_ephemeral(interaction, embed=embed)

    @settings_group.command(name="set", description="Change one setting (admins)")
    @app_commands.describe(setting="The setting to change (type to search)", value="Its value")
    async def settings_set(
        self,
        interaction: discord.Interaction[EuchreBot],
        setting: app_commands.Range[str, 1, 100],
        value: app_commands.Range[str, 1, 100],
    ) -> None:
        """Change one setting, checked before it is saved."""
        change = await editable(self.service.server_settings).set_setting(
            _guild_id(interaction),
            editor_of(interaction),
            setting,
            _role_id(value),
            _roles(interaction),
        )
        before, after = _shown(SETTING_FIELDS[change.name or ""], change.before, change.after)
        text = setting_change_text(change, before, after, self._default_delay)
        await send_ephemeral(interaction, text)

    @settings_set.autocomplete("setting")
    async def _setting_names(
        self, interaction: discord.Interaction[EuchreBot], current: str
    ) -> Choices:
        return name_choices(SETTING_FIELDS, current)

    @settings_set.autocomplete("value")
    async def _setting_values(
        self, interaction: discord.Interaction[EuchreBot], current: str
    ) -> Choices:
        values = field_named(SETTING_FIELDS, interaction.namespace.setting, "setting")
        if values is None:
            return []
        settings = await self.service.settings_of(_guild_id(interaction))
        now = getattr(settings, values.name)
        if values.kind == "role":
            return _role_choices(interaction, current, now)
        choices = []
        for value in values.suggestions(current, LIMITS.choices, now):
            shown = values.text(value)
            name = setting_value_choice_name(
                values.name, value, settings, shown, self._default_delay
            )
            choices.append(app_commands.Choice(name=name, value=shown))
        return choices

    @settings_group.command(name="reset", description="Every setting back to its default (admins)")
    async def settings_reset(self, interaction: discord.Interaction[EuchreBot]) -> None:
        """Every setting back to the bot's defaults; the house rules stay."""
        change = await editable(self.service.server_settings).reset_settings(
            _guild_id(interaction), editor_of(interaction)
        )
        await send_ephemeral(interaction, setting_change_text(change, "", "", self._default_delay))

    # ------------------------------------------------------------------ used by the cog

    @property
    def _default_delay(self) -> float:
        return self.service.computer_move_delay

    async def host_rules(
        self, interaction: discord.Interaction[EuchreBot], preset: str | None, changes: str | None
    ) -> TableRules:
        """The rules a host asks for at ``/euchre new``, where the server allows it."""
        settings = await self.service.settings_of(_guild_id(interaction))
        return table_rules(settings, preset, changes)

    async def new_rules_autocomplete(
        self, interaction: discord.Interaction[EuchreBot], current: str
    ) -> Choices:
        """Completes the ``rules`` option of ``/euchre new``: rule names, then values."""
        rules = (await self.service.settings_of(_guild_id(interaction))).rules
        preset = interaction.namespace.preset
        if isinstance(preset, str) and preset in RULE_FIELDS["preset"].choices:
            rules = HouseRules.preset_rules(preset)
        options = complete_changes(current, rules, limit=LIMITS.choices, length=LIMITS.length)
        return [app_commands.Choice(name=o, value=o) for o in options]

    async def show_table_rules(
        self, interaction: discord.Interaction[EuchreBot], table_id: int
    ) -> None:
        """The Rules button of a table: its full rules, privately."""
        table = await self.service.fetch(table_id, closed=True)
        server = await self.service.settings_of(table.place.guild_id)
        embed = table_rules_embed(
            table.id, table.rules, overridden=table.rules_overridden, server_rules=server.rules
        )
        await send_ephemeral(interaction, embed=embed)


def _guild_id(interaction: discord.Interaction[EuchreBot]) -> int:
    if interaction.guild_id is None:
        raise UserFacingError("House rules belong to a server: use this in a server channel.")
    return interaction.guild_id


def editor_of(interaction: discord.Interaction[EuchreBot]) -> Editor:
    """Who asks for a change: whether they may manage the server, and their roles."""
    user = interaction.user
    roles = frozenset(r.id for r in user.roles) if isinstance(user, discord.Member) else frozenset()
    return Editor(interaction.permissions.manage_guild, roles, shown_role=role_mention)


def _role_id(typed: str) -> str:
    """A role's mention (``<@&id>``) as its id; any other text as it is."""
    match = _MENTION.fullmatch(typed.strip())
    return typed if match is None else match[1]


def _roles(interaction: discord.Interaction[EuchreBot]) -> dict[int, str]:
    guild = interaction.guild
    if guild is None:
        return {}
    return {r.id: r.name for r in guild.roles if not r.is_default()}


def _role_choices(
    interaction: discord.Interaction[EuchreBot], current: str, now: int | None
) -> Choices:
    typed = current.strip().lower().lstrip("@")
    choices = []
    for role_id, name in _roles(interaction).items():
        if typed and typed not in name.lower() and typed != str(role_id):
            continue
        mark = " (now)" if role_id == now else ""
        label = choice_name(f"@{name}{mark}: may change the rules and settings")
        choices.append(app_commands.Choice(name=label, value=str(role_id)))
    if not typed or "none".startswith(typed):
        mark = " (now)" if now is None else ""
        choices.append(app_commands.Choice(name=f"none{mark}: Manage Server only", value="none"))
    return choices[: LIMITS.choices]


def _shown(values: FieldValues, before: object, after: object) -> tuple[str, str]:
    """A changed field's value before and after the change, as a message shows them."""
    name = values.name
    return shown_value(values, getattr(before, name)), shown_value(values, getattr(after, name))


def field_named(fields: Mapping[str, FieldValues], typed: object, what: str) -> FieldValues | None:
    """The field a command's other option names, while it is typed (None: no such field)."""
    try:
        return find_field(fields, str(typed or ""), what)
    except UnknownFieldError:
        return None


def name_choices(fields: Mapping[str, FieldValues], current: str) -> Choices:
    """Autocomplete for a rule or setting name: each with what it means."""
    return [
        app_commands.Choice(name=choice_name(f"{f.name}: {f.description}"), value=f.name)
        for f in match_fields(fields, current, LIMITS.choices)
    ]
