"""``/euchre rules ...`` and ``/euchre settings ...``: a mixin of the euchre cog.

discord.py's ``CogMeta`` collects app commands and groups from every class of a cog's
MRO, so the two groups here become subgroups of ``/euchre`` in
:class:`~cogs.euchre.cog.Euchre`, which lists this class among its bases. Each command reads the
interaction, calls :mod:`bot.server` and answers with what
:mod:`bot.render.server_config` draws. Everyone may read; a change needs Manage Server
or the server's rules-admin role, and a refusal is one private sentence. What these
commands share with ``/euchre me`` (autocomplete, who edits, roles) is
:mod:`bot.discord.fields`', and the set commands' autocomplete
:mod:`cogs.euchre.field_completion`'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.embeds import embed_of
from bot.discord.fields import (
    LIMITS,
    PRESET_CHOICES,
    Choices,
    editor_of,
    mentioned_id,
    object_choices,
    server_objects,
    value_choices,
)
from bot.discord.replies import send_ephemeral
from bot.render.server_config import (
    rule_change_text,
    rule_value_choice_name,
    rules_replaced_text,
    server_rules_panels,
    setting_change_text,
    setting_value_choice_name,
    settings_panel,
    shown_value,
    table_rules_panel,
)
from bot.rules import HouseRules
from bot.server.fields import RULE_FIELDS, SETTING_FIELDS, FieldValues
from bot.server.overrides import TableRules, complete_changes, table_rules
from bot.store.server_settings import editable
from bot.tables import TableService
from cogs.euchre.field_completion import FieldText, complete_field
from cogs.euchre.mixins import server_id

if TYPE_CHECKING:
    from bot.discord.app import EuchreBot

__all__ = ["HouseRulesCommands"]


async def _rule_values(
    interaction: discord.Interaction[EuchreBot], values: FieldValues, current: str
) -> Choices:
    rules = (await interaction.client.tables.server_settings.get(_guild_id(interaction))).rules
    preset = getattr(HouseRules.preset_rules(rules.preset), values.name)
    return value_choices(
        values,
        current,
        getattr(rules, values.name),
        lambda value, shown: rule_value_choice_name(values.name, value, rules, shown),
        preset,
    )


async def _setting_values(
    interaction: discord.Interaction[EuchreBot], values: FieldValues, current: str
) -> Choices:
    tables = interaction.client.tables
    settings = await tables.server_settings.get(_guild_id(interaction))
    now = getattr(settings, values.name)
    if values.kind in ("role", "channel"):
        return object_choices(interaction, values, current, now)
    delay = tables.crew.computer_move_delay
    return value_choices(
        values,
        current,
        now,
        lambda value, shown: setting_value_choice_name(values.name, value, settings, shown, delay),
    )


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
        settings = await self.service.server_settings.get(_guild_id(interaction))
        table = self.service.at(interaction.channel_id) if interaction.channel_id else None
        shown = None if table is None else (await table.snapshot()).public
        panels = server_rules_panels(
            settings.rules,
            table_number=None if shown is None else shown.number,
            table_rules=None if shown is None else shown.rules,
            table_overridden=shown is not None and shown.rules_overridden,
        )
        await send_ephemeral(interaction, embeds=[embed_of(p) for p in panels])

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
    @complete_field(RULE_FIELDS, "rule", _rule_values)
    async def rules_set(
        self, interaction: discord.Interaction[EuchreBot], rule: FieldText, value: FieldText
    ) -> None:
        """Change one rule: checked with all the others before it is saved."""
        change = await editable(self.service.server_settings).set_rule(
            _guild_id(interaction), editor_of(interaction), rule, value
        )
        before, after = _shown(RULE_FIELDS[change.field or "preset"], change.before, change.after)
        await send_ephemeral(interaction, rule_change_text(change, before, after))

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
        settings = await self.service.server_settings.get(_guild_id(interaction))
        embed = embed_of(settings_panel(settings, self._default_delay))
        await send_ephemeral(interaction, embed=embed)

    @settings_group.command(name="set", description="Change one setting (admins)")
    @complete_field(SETTING_FIELDS, "setting", _setting_values, "Its value")
    async def settings_set(
        self, interaction: discord.Interaction[EuchreBot], setting: FieldText, value: FieldText
    ) -> None:
        """Change one setting, checked before it is saved."""
        change = await editable(self.service.server_settings).set_setting(
            _guild_id(interaction),
            editor_of(interaction),
            setting,
            mentioned_id(value),
            server_objects(interaction),
        )
        before, after = _shown(SETTING_FIELDS[change.name or ""], change.before, change.after)
        text = setting_change_text(change, before, after, self._default_delay)
        await send_ephemeral(interaction, text)

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
        return self.service.crew.computer_move_delay

    async def host_rules(
        self, interaction: discord.Interaction[EuchreBot], preset: str | None, changes: str | None
    ) -> TableRules:
        """The rules a host asks for at ``/euchre new``, where the server allows it."""
        settings = await self.service.server_settings.get(_guild_id(interaction))
        return table_rules(settings, preset, changes)

    async def new_rules_autocomplete(
        self, interaction: discord.Interaction[EuchreBot], current: str
    ) -> Choices:
        """Completes the ``rules`` option of ``/euchre new``: rule names, then values."""
        rules = (await self.service.server_settings.get(_guild_id(interaction))).rules
        preset = interaction.namespace.preset
        if isinstance(preset, str) and preset in RULE_FIELDS["preset"].choices:
            rules = HouseRules.preset_rules(preset)
        options = complete_changes(current, rules, limit=LIMITS.choices, length=LIMITS.length)
        return [app_commands.Choice(name=o, value=o) for o in options]

    async def show_table_rules(
        self, interaction: discord.Interaction[EuchreBot], table_id: int
    ) -> None:
        """The Rules button of a table: its full rules, privately."""
        table = (await (await self.service.fetch(table_id, closed=True)).snapshot()).public
        server = await self.service.server_settings.get(table.place.guild_id)
        embed = embed_of(
            table_rules_panel(
                table.number,
                table.rules,
                overridden=table.rules_overridden,
                server_rules=server.rules,
            )
        )
        await send_ephemeral(interaction, embed=embed)


def _guild_id(interaction: discord.Interaction[EuchreBot]) -> int:
    return server_id(interaction, "House rules belong to a server: use this in a server channel.")


def _shown(values: FieldValues, before: object, after: object) -> tuple[str, str]:
    """A changed field's value before and after the change, as a message shows them."""
    name = values.name
    return shown_value(values, getattr(before, name)), shown_value(values, getattr(after, name))
