"""Discord's contract for application commands (tests/kit/commands.py), checked at sync time.

Each limit at its edge passes and one past it fails; the euchre bot's own tree, as
discord.py syncs it, keeps every one of them.
"""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord import app_commands

from bot.discord.app import EuchreBot
from tests.cogs.euchre_driver import build_bot
from tests.kit.commands import check_commands, valid_name
from tests.kit.contract import check_request

JSON = dict[str, Any]


def command(name: str = "play", description: str = "Play", **extra: Any) -> JSON:
    return {"type": 1, "name": name, "description": description, **extra}


def option(name: str = "o", kind: int = 3, **extra: Any) -> JSON:
    return {"type": kind, "name": name, "description": "An option", **extra}


def wheres(commands: list[JSON]) -> list[str]:
    return [v.where for v in check_commands(commands)]


@pytest.mark.parametrize(
    ("name", "valid"),
    [
        ("euchre", True),
        ("x" * 32, True),
        ("x" * 33, False),
        ("", False),
        ("Euchre", False),
        ("house-rules_2", True),
        ("it's", True),
        ("two words", False),
        ("ставка", True),
        ("ΣΤΑΣΗ", False),
        ("日本", True),
        ("हिंदी", True),
        ("ไทย", True),
        ("emoji🃏", False),
    ],
)
def test_names_are_one_to_32_lower_case_letters_numbers_and_marks(name: str, valid: bool) -> None:
    assert valid_name(name) is valid


def test_descriptions_are_one_to_100_characters() -> None:
    assert wheres([command(description="d" * 100)]) == []
    assert wheres([command(description="d" * 101), command("x", "")]) == [
        "0.description",
        "1.description",
    ]


def test_25_options_choices_and_subcommands_at_most() -> None:
    options = [option(f"o{i}") for i in range(25)]
    choices = [{"name": f"c{i}", "value": f"{i}"} for i in range(25)]
    subcommands = [option(f"s{i}", 1) for i in range(25)]
    fine = [
        command(options=options),
        command("pick", options=[option(choices=choices)]),
        command("group", options=[option("g", 2, options=subcommands)]),
    ]
    assert wheres(fine) == []
    past = [
        command(options=[*options, option("o25")]),
        command("pick", options=[option(choices=[*choices, {"name": "c", "value": "c"}])]),
        command("group", options=[option("g", 2, options=[*subcommands, option("s25", 1)])]),
    ]
    assert wheres(past) == ["0.options", "1.options.0.choices", "2.options.0.options"]


def test_choices_have_names_of_100_and_string_values_of_100_at_most() -> None:
    choices = [{"name": "n" * 101, "value": "v" * 101}, {"name": "n", "value": 10**6}]
    assert wheres([command(options=[option(choices=choices)])]) == [
        "0.options.0.choices.0.name",
        "0.options.0.choices.0.value",
    ]


def test_options_and_commands_are_named_once_and_required_ones_come_first() -> None:
    options = [option("a", required=False), option("b", required=True), option("a")]
    found = check_commands([command(options=options), command()])
    codes = sorted(v.code for v in found)
    assert codes == [
        "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
        "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
    ]


def test_a_command_is_8000_characters_at_most_and_a_scope_100_commands() -> None:
    many = [
        option(f"o{i}", choices=[{"name": "n" * 100, "value": "v" * 100}] * 25) for i in range(2)
    ]
    (big,) = check_commands([command(options=many)])
    assert (big.where, big.code) == ("0", "APPLICATION_COMMAND_TOO_LARGE")
    assert wheres([command(f"c{i}") for i in range(100)]) == []
    assert wheres([command(f"c{i}") for i in range(101)]) == ["(body)"]


def test_a_string_options_lengths_stay_within_6000() -> None:
    found = wheres([command(options=[option(min_length=6001, max_length=0)])])
    assert found == ["0.options.0.min_length", "0.options.0.max_length"]


def test_user_and_message_commands_may_have_spaces_and_capitals() -> None:
    assert wheres([{"type": 2, "name": "Invite to table", "description": ""}]) == []


def test_discord_py_commands_are_checked_as_discord_py_syncs_them() -> None:
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    many = [app_commands.Choice(name=f"c{i}", value=i) for i in range(26)]

    @tree.command(name="pick", description="x" * 101)
    @app_commands.choices(count=many)
    async def pick(interaction: discord.Interaction[Any], count: int) -> None:
        """Never run."""

    payload = [c.to_dict(tree) for c in tree.get_commands()]
    found = check_request("PUT", "/applications/1/guilds/2/commands", payload)
    assert [v.where for v in found] == ["0.description", "0.options.0.choices"]


async def test_the_euchre_bots_commands_keep_discords_contract() -> None:
    bot: EuchreBot = build_bot()
    async with bot:
        await bot.load_extension("cogs.euchre")
        payload = [c.to_dict(bot.tree) for c in bot.tree.get_commands()]
    assert payload, "the euchre commands are loaded"
    assert check_commands(payload) == []
