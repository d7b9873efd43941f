"""What an operator sees, against the fake Discord: ``sync``, the start-up line, ``health``."""

from __future__ import annotations

import re

import pytest

from bot.discord.app import BOT_PERMISSIONS
from bot.render.card_images import emoji_pictures
from tests.e2e.conftest import MakeBot
from tests.kit.fake_discord import FakeDiscord
from tests.kit.waiting import BOUND

pytestmark = pytest.mark.slow


async def test_sync_syncs_and_exits_without_serving(fake: FakeDiscord, bots: MakeBot) -> None:
    bot = bots("sync")
    status, out, err = await bot.command("sync", "--guild", str(fake.guild_id))
    assert (status, out) == (0, ""), err
    assert fake.command_syncs == [fake.guild_id]
    assert "euchre" in [c["name"] for c in fake.commands[fake.guild_id]]
    assert f"Synced 1 slash command(s) to guild {fake.guild_id}" in err
    assert fake.gateway_connections == 0
    assert not bot.database_path.exists()

    status, out, err = await bot.command("sync", "--global")
    assert (status, out) == (0, ""), err
    assert fake.command_syncs == [fake.guild_id, None]
    assert "globally (they take up to an hour" in err
    assert fake.gateway_connections == 0
    assert not fake.problems, fake.problems


async def test_sync_to_a_server_without_the_bot_fails_with_a_hint(
    fake: FakeDiscord, bots: MakeBot
) -> None:
    status, _, err = await bots("sync").command("sync", "--guild", str(fake.guild_id + 999))
    assert status == 1
    assert "Could not sync slash commands to guild" in err
    assert "invited with applications.commands" in err
    assert fake.command_syncs == []


async def test_refused_token_is_one_line_before_any_database(
    fake: FakeDiscord, bots: MakeBot
) -> None:
    bot = bots("bad-token")
    status, out, err = await bot.command("run", token="not-the-token")
    assert (status, out) == (2, "")
    assert err.splitlines() == [
        "error: Discord refused the token in DISCORD_TOKEN: copy a fresh one from the "
        "Developer Portal (Bot > Reset Token)"
    ]
    assert not bot.database_path.exists()
    assert fake.gateway_connections == 0


async def test_start_line_then_health(fake: FakeDiscord, bots: MakeBot) -> None:
    bot = bots("serving")
    await bot.start()
    await fake.wait_for(
        lambda: "Logged in as" in bot.log_text(), timeout=BOUND, what="the start-up line", poll=0.1
    )
    line = next(x for x in bot.log_text().splitlines() if "Logged in as" in x)
    assert f"Logged in as EuchreBot (id {fake.bot_user.id}) in 1 server(s)" in line
    assert f"slash commands synced to guild {fake.guild_id}" in line
    invite = re.search(r"invite link: (\S+)", line)
    assert invite is not None
    assert invite[1] == (
        f"https://discord.com/oauth2/authorize?client_id={fake.application_id}"
        f"&scope=bot+applications.commands&permissions={BOT_PERMISSIONS.value}"
    )
    await fake.wait_for(
        lambda: (bot.data_dir / "heartbeat").exists(),
        timeout=BOUND,
        what="the heartbeat file",
        poll=0.1,
    )

    status, out, err = await bot.command("health")
    assert status == 0, out + err
    assert out.startswith("healthy: gateway connected ")
    status, out, _ = await bot.command("health", "--max-age", "0")
    assert status == 1
    assert out.startswith("unhealthy: the gateway has not been connected for ")
    assert await bot.stop() == 0
    assert not bot.faults(), bot.tail()


async def test_card_pictures_are_uploaded_once_and_a_changed_one_replaced(
    fake: FakeDiscord, bots: MakeBot
) -> None:
    pictures = {p.name for p in emoji_pictures()}

    def uploads() -> int:
        return sum(r.route == "POST /applications/{application_id}/emojis" for r in fake.requests)

    def listings() -> int:
        return sum(r.route == "GET /applications/{application_id}/emojis" for r in fake.requests)

    bot = bots("pictures")
    await bot.start()
    await fake.wait_for(lambda: uploads() == len(pictures), timeout=BOUND, what="54 uploads")
    assert {e["name"] for e in fake.app_emojis.values()} == pictures
    assert await bot.stop() == 0

    stale_id, stale = next(iter(fake.app_emojis.items()))
    old_name = stale["name"]
    stale["name"] = old_name.rsplit("_", 1)[0] + "_0000000000"  # as a former picture of the card
    await bot.start()
    await fake.wait_for(lambda: listings() == 2, timeout=BOUND, what="the second listing")
    await fake.wait_for(lambda: uploads() == len(pictures) + 1, timeout=BOUND, what="one upload")
    assert stale_id not in fake.app_emojis
    assert {e["name"] for e in fake.app_emojis.values()} == pictures
    assert await bot.stop() == 0
    assert uploads() == len(pictures) + 1 and not fake.problems, fake.problems
