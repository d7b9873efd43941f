"""The two options of ``/euchre rules set``, ``/euchre settings set`` and ``/euchre me set``.

Each of the three commands takes a field's name (``rule``, ``setting``, ``preference``)
and its ``value``, each a :data:`FieldText`. :func:`complete_field` describes both and,
while a person types, offers the names of the command's fields and then, once the name
is one of them, the values worth choosing for that field: what is offered for the value
is each command's own ``choices``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

import discord
from discord import app_commands

from bot.discord.fields import Choices, field_named, name_choices
from bot.server.fields import FieldValues

if TYPE_CHECKING:
    from bot.discord.app import EuchreBot

__all__ = ["FieldText", "ValueChoices", "complete_field"]

FieldText = app_commands.Range[str, 1, 100]
"""A field's name or value as a person types it."""

ValueChoices = Callable[[discord.Interaction["EuchreBot"], FieldValues, str], Awaitable[Choices]]
"""The choices for a field's value, given the field and what is typed so far."""

T = TypeVar("T")


def complete_field(
    fields: Mapping[str, FieldValues],
    option: str,
    choices: ValueChoices,
    value_help: str = "Its new value",
) -> Callable[[T], T]:
    """A set command's options: ``option`` names one of ``fields``, ``value`` its value.

    Both are described (``option`` as "The <option> to change (type to search)") and
    completed while a person types.
    """

    async def names(interaction: discord.Interaction[EuchreBot], current: str) -> Choices:
        return name_choices(fields, current)

    async def values(interaction: discord.Interaction[EuchreBot], current: str) -> Choices:
        named = field_named(fields, getattr(interaction.namespace, option), option)
        return [] if named is None else await choices(interaction, named, current)

    completers: dict[str, Any] = {option: names, "value": values}
    described: dict[str, Any] = {option: f"The {option} to change (type to search)"}
    complete = app_commands.autocomplete(**completers)
    describe = app_commands.describe(**described, value=value_help)

    def decorate(command: T) -> T:
        return describe(complete(command))

    return decorate
