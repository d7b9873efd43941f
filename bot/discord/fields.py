"""The typed fields of house rules, settings and preferences, on Discord's side.

What ``/euchre rules``, ``/euchre settings`` and ``/euchre me`` share: Discord's limits
on an autocomplete answer (:data:`LIMITS`), a field's name and value choices while a
person types (:func:`name_choices`, :func:`field_named`, :func:`value_choices`), the
presets as slash-command choices, who asks for a change (:func:`editor_of`), and a
server's roles and text channels as a setting's values (:func:`mentioned_id`,
:func:`server_objects`, :func:`object_choices`). The fields
themselves, their checks and suggestions are :mod:`bot.server.fields`'; their words are
:mod:`bot.render.server_config`'s.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

import discord
from discord import app_commands

from bot.render.server_config import choice_name, preset_choice_name, role_mention
from bot.server.fields import (
    RULE_FIELDS,
    FieldValues,
    ServerNames,
    ServerObjects,
    UnknownFieldError,
    find_field,
    match_fields,
)
from bot.server.settings import Editor

if TYPE_CHECKING:
    from bot.discord.app import EuchreBot

__all__ = [
    "LIMITS",
    "OFFERS",
    "PRESET_CHOICES",
    "ChoiceLimits",
    "Choices",
    "editor_of",
    "field_named",
    "mentioned_id",
    "name_choices",
    "object_choices",
    "server_objects",
    "value_choices",
]

Choices = list[app_commands.Choice[str]]


@dataclass(frozen=True, slots=True)
class ChoiceLimits:
    """What Discord allows an autocomplete answer: how many choices, how long each."""

    choices: int = 25
    length: int = 100


LIMITS: Final = ChoiceLimits()
"""Discord's limits, passed to :mod:`bot.server` wherever it lists choices."""

_MENTION: Final = re.compile(r"<(?:@&|#)(\d{1,20})>")
_MARKS: Final = {"role": "@", "channel": "#"}
"""The mark before a role's or a channel's name."""
OFFERS: Final = {
    "rules_admin_role_id": ("may change the rules and settings", "Manage Server only"),
    "tournament_director_role_id": (
        "may direct tournament events",
        "the rules-admins and each event's creator",
    ),
    "daily_channel": ("the week's daily deal leaders are posted here", "not posted"),
}
"""For each role or channel setting's choices: what choosing one does, and what none means."""

PRESET_CHOICES: Final = [
    app_commands.Choice(name=preset_choice_name(name), value=name)
    for name in RULE_FIELDS["preset"].choices
]
"""Every preset as a slash-command choice, described."""


def editor_of(interaction: discord.Interaction[EuchreBot]) -> Editor:
    """Who asks for a change: whether they may manage the server, and their roles."""
    user = interaction.user
    roles = frozenset(r.id for r in user.roles) if isinstance(user, discord.Member) else frozenset()
    return Editor(interaction.permissions.manage_guild, roles, shown_role=role_mention)


def field_named(fields: Mapping[str, FieldValues], typed: object, what: str) -> FieldValues | None:
    """The field a command's other option names, while it is typed (None: no such field)."""
    try:
        return find_field(fields, str(typed or ""), what)
    except UnknownFieldError:
        return None


def name_choices(fields: Mapping[str, FieldValues], current: str) -> Choices:
    """Autocomplete for a rule, setting or preference name: each with what it means."""
    return [
        app_commands.Choice(name=choice_name(f"{f.name}: {f.description}"), value=f.name)
        for f in match_fields(fields, current, LIMITS.choices)
    ]


def value_choices(
    values: FieldValues,
    current: str,
    now: Any,
    name_of: Callable[[Any, str], str],
    preset: Any = None,
) -> Choices:
    """Autocomplete for a field's value: the values worth offering, each named by ``name_of``.

    ``name_of`` gets the value and its typed form (the choice's value) and says it in a
    choice's words; ``now`` is the value it has, ``preset`` the one its preset gives.
    """
    choices = []
    for value in values.suggestions(current, LIMITS.choices, now, preset):
        shown = values.text(value)
        choices.append(app_commands.Choice(name=name_of(value, shown), value=shown))
    return choices


def mentioned_id(typed: str) -> str:
    """A role's or channel's mention (``<@&id>``, ``<#id>``) as its id; other text as it is."""
    match = _MENTION.fullmatch(typed.strip())
    return typed if match is None else match[1]


def server_objects(interaction: discord.Interaction[EuchreBot]) -> ServerObjects:
    """The server's roles and channels as the bot sees them, as a setting may name them.

    A role may be chosen unless it is @everyone or a bot's or an integration's (no member
    can be given one); a channel if it is a text channel (not a thread, voice channel,
    forum or category).
    """
    guild = interaction.guild
    if guild is None:
        return ServerObjects(ServerNames({}), ServerNames({}))
    roles = ServerNames(
        {r.id: r.name for r in guild.roles if not (r.is_default() or r.managed)},
        {r.id: r.name for r in guild.roles if r.is_default() or r.managed},
    )
    text = {c.id: c.name for c in guild.text_channels}
    others = [*guild.channels, *guild.threads]
    channels = ServerNames(text, {c.id: c.name for c in others if c.id not in text})
    return ServerObjects(roles, channels)


def object_choices(
    interaction: discord.Interaction[EuchreBot], values: FieldValues, current: str, now: int | None
) -> Choices:
    """Autocomplete for a role or channel setting: the server's that match, and none."""
    mark = _MARKS[values.kind]
    does, nothing = OFFERS[values.name]
    empty = values.empty or "none"
    names = server_objects(interaction).of(values.kind)
    typed = current.strip().lower().lstrip(mark)
    choices = []
    for found, name in (names.fit if names is not None else {}).items():
        if typed and typed not in name.lower() and typed != str(found):
            continue
        label = choice_name(f"{mark}{name}{' (now)' if found == now else ''}: {does}")
        choices.append(app_commands.Choice(name=label, value=str(found)))
    if not typed or empty.startswith(typed):
        label = f"{empty}{' (now)' if now is None else ''}: {nothing}"
        choices.append(app_commands.Choice(name=label, value=empty))
    return choices[: LIMITS.choices]
