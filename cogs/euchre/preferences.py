"""``/euchre me ...`` and ``/euchre privacy``: a person's own preferences, a mixin of the cog.

discord.py's ``CogMeta`` collects app commands and groups from every class of a cog's
MRO, so the group and the command here become part of ``/euchre`` in
:class:`~cogs.euchre.cog.Euchre`, which lists this class among its bases. Each command
reads or changes the preferences of whoever uses it, in ``bot.preferences`` (kept per
person, the same on every server), and answers privately with what
:mod:`bot.render.preferences` draws. A bad value is one private sentence, and nothing
changes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.embeds import embed_of
from bot.discord.fields import Choices, value_choices
from bot.discord.replies import send_ephemeral
from bot.render.preferences import (
    preference_change_text,
    preference_value_choice_name,
    preferences_panel,
    privacy_text,
)
from bot.server.fields import PREFERENCE_FIELDS, FieldValues
from bot.server.preference_sources import (
    PreferenceSource,
    change_preference,
    reset_preferences,
    set_preference,
)
from cogs.euchre.field_completion import FieldText, complete_field

if TYPE_CHECKING:
    from bot.discord.app import EuchreBot

__all__ = ["PreferenceCommands"]

PRIVACY_CHOICES = [
    app_commands.Choice(
        name='hide: the web pages show you as "a player", with no page', value="hide"
    ),
    app_commands.Choice(name="show: the web pages show your name and your page", value="show"),
]


async def _preference_values(
    interaction: discord.Interaction[EuchreBot], values: FieldValues, current: str
) -> Choices:
    prefs = await interaction.client.preferences.get(interaction.user.id)
    return value_choices(
        values,
        current,
        getattr(prefs, values.name),
        lambda value, shown: preference_value_choice_name(values.name, value, prefs, shown),
    )


class PreferenceCommands(commands.Cog):
    """A person's preference commands, mixed into the euchre cog (never loaded alone)."""

    bot: EuchreBot

    me_group = app_commands.Group(
        name="me", description="Your own preferences, the same on every server"
    )

    @property
    def _preferences(self) -> PreferenceSource:
        return self.bot.preferences

    @me_group.command(name="show", description="Your preferences and what each does")
    async def me_show(self, interaction: discord.Interaction[EuchreBot]) -> None:
        """Every preference of the person, its value and what it means."""
        prefs = await self._preferences.get(interaction.user.id)
        await send_ephemeral(interaction, embed=embed_of(preferences_panel(prefs)))

    @me_group.command(name="set", description="Change one of your preferences")
    @complete_field(PREFERENCE_FIELDS, "preference", _preference_values)
    async def me_set(
        self, interaction: discord.Interaction[EuchreBot], preference: FieldText, value: FieldText
    ) -> None:
        """Change one preference, checked before it is saved."""
        change = await change_preference(self._preferences, interaction.user.id, preference, value)
        await send_ephemeral(interaction, preference_change_text(change))

    @me_group.command(name="reset", description="All your preferences back to their defaults")
    async def me_reset(self, interaction: discord.Interaction[EuchreBot]) -> None:
        """Every preference of the person back to its default."""
        change = await reset_preferences(self._preferences, interaction.user.id)
        await send_ephemeral(interaction, preference_change_text(change))

    @app_commands.command(
        name="privacy", description="Hide or show your name and page on the league's web pages"
    )
    @app_commands.describe(web="hide or show you on the web pages of every server")
    @app_commands.choices(web=PRIVACY_CHOICES)
    async def privacy(
        self, interaction: discord.Interaction[EuchreBot], web: app_commands.Choice[str]
    ) -> None:
        """The ``hide_from_web`` preference, set in one word."""
        change = await set_preference(
            self._preferences, interaction.user.id, "hide_from_web", web.value == "hide"
        )
        await send_ephemeral(interaction, privacy_text(change))
