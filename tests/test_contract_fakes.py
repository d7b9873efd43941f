"""Both fakes of Discord refuse an oversized payload as Discord does, and fail the test.

The interaction harness answers the bot 400 (code 50035, the path in ``errors``), so
the bot's own handling of the refusal runs, and the interaction fails the test with a
:class:`ContractError` naming the path and the limit. The e2e fake answers the same
over HTTP, records it, and fails the test when it closes unless the test took the
violations in hand.
"""

from __future__ import annotations

from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.kit.contract import ContractError
from tests.kit.fake_discord import FakeDiscord
from tests.kit.harness import Harness
from tests.test_contract import FIELD_TOO_LONG


class Oversized(commands.Bot):
    """A bot whose only command answers with a field one character too long."""

    def __init__(self) -> None:
        super().__init__(
            command_prefix="!",
            intents=discord.Intents(guilds=True),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.refusals: list[discord.HTTPException] = []

    async def setup_hook(self) -> None:
        @self.tree.command(name="standings", description="Too long a field")
        async def standings(interaction: discord.Interaction[Any]) -> None:
            embed = discord.Embed(title="Standings").add_field(name="All", value="x" * 1025)
            try:
                await interaction.response.send_message(embed=embed)
            except discord.HTTPException as exc:
                self.refusals.append(exc)
                await interaction.response.send_message("Too many to show.", ephemeral=True)


async def test_the_harness_refuses_an_oversized_field_and_fails_the_interaction() -> None:
    bot = Oversized()
    async with Harness(bot) as h:
        g = h.guild(members=["alice"])
        with pytest.raises(ContractError) as failed:
            await h.slash(g.member("alice"), "standings", channel=g.channel)
        message = str(failed.value)
        assert "/interactions/{webhook_id}/{webhook_token}/callback" in message
        assert "data.embeds.0.fields.0.value: 1025 characters" in message
        assert "1 to 1024 characters" in message
        (refusal,) = bot.refusals
        assert (refusal.status, refusal.code) == (400, 50035)
        assert "In data.embeds.0.fields.0.value" in str(refusal), "discord.py read Discord's path"
        answers = [s.status for s in h.sent if s.path.endswith("/callback")]
        assert answers == [400, 200], "refused, then the bot's own answer"
        assert [v.where for _, v in h.violations] == ["data.embeds.0.fields.0.value"]


async def test_the_harness_checks_commands_when_the_bot_syncs_them() -> None:
    bot = Oversized()

    @bot.tree.command(name="more", description="d" * 101)
    async def more(interaction: discord.Interaction[Any]) -> None:
        """Never run."""

    with pytest.raises(ContractError, match=r"0\.description: 101 characters"):
        async with Harness(bot) as h:
            with pytest.raises(app_commands.CommandSyncFailure, match="between 1 and 100"):
                await bot.tree.sync()
            assert [v.where for _, v in h.violations] == ["0.description"]


async def test_the_e2e_fake_answers_50035_and_fails_the_test_on_leaving() -> None:
    with pytest.raises(ContractError, match=r"embeds\.0\.fields\.0\.value: 1025 characters"):
        async with FakeDiscord() as fake:
            url = f"{fake.api_base}/channels/{fake.channel_id}/messages"
            body = {"embeds": [{"fields": [{"name": "All", "value": "x" * 1025}]}]}
            headers = {"Authorization": f"Bot {fake.token}"}
            async with (
                aiohttp.ClientSession() as session,
                session.post(url, json=body, headers=headers) as answer,
            ):
                assert answer.status == 400
                assert answer.headers["Content-Type"] == "application/json"
                refusal = await answer.json()
            assert refusal == {
                "code": 50035,
                "errors": FIELD_TOO_LONG,
                "message": "Invalid Form Body",
            }
            assert fake.public_messages() == [], "nothing was posted"
            assert [v.where for _, v in fake.violations] == ["embeds.0.fields.0.value"]
            assert any("breaks Discord's contract" in p for p in fake.problems)


async def test_the_e2e_fake_refuses_a_file_over_the_upload_limit() -> None:
    async with FakeDiscord() as fake:
        url = f"{fake.api_base}/channels/{fake.channel_id}/messages"
        form = aiohttp.FormData()
        form.add_field("payload_json", '{"content": "", "attachments": [{"id": 0}]}')
        form.add_field("files[0]", b"\0" * (10 * 1024 * 1024 + 1), filename="big.png")
        headers = {"Authorization": f"Bot {fake.token}"}
        async with (
            aiohttp.ClientSession() as session,
            session.post(url, data=form, headers=headers) as answer,
        ):
            assert answer.status == 413
            assert (await answer.json())["code"] == 40005
        assert [v.where for _, v in fake.violations] == ["files[0]"]
        fake.violations.clear()  # seen: the fake leaves quietly
