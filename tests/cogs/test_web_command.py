"""``/euchre web``: the server's link for everyone, or one private sentence saying why not."""

from __future__ import annotations

from bot.discord.app import EuchreBot
from bot.discord.pace.pacing import ChannelLimits
from bot.players import make_player
from bot.server.settings import ServerSettings
from bot.server.sources import FixedSettings
from bot.settings import Settings
from bot.tables import MemoryTableStore, TableService
from tests.conftest import MakeHarness


def web_bot(base_url: str, public: bool) -> EuchreBot:
    tables = TableService(
        MemoryTableStore(),
        make_player,
        server_settings=FixedSettings(ServerSettings(web_public=public)),
    )
    return EuchreBot(
        Settings(web_base_url=base_url), tables=tables, channel_limits=ChannelLimits.unlimited()
    )


async def test_a_public_server_gets_its_link_for_everyone(make_harness: MakeHarness) -> None:
    h = await make_harness(web_bot("https://euchre.example.org/", public=True))
    g = h.guild(members=["ada"])
    result = await h.slash(g.member("ada"), "euchre web")
    assert not result.ephemeral
    assert result.text == f"This server's league on the web: https://euchre.example.org/s/{g.id}"


async def test_a_private_server_is_told_how_to_turn_the_pages_on(
    make_harness: MakeHarness,
) -> None:
    h = await make_harness(web_bot("https://euchre.example.org", public=False))
    g = h.guild(members=["ada"])
    result = await h.slash(g.member("ada"), "euchre web")
    assert result.ephemeral and "web_public value:yes" in result.text


async def test_a_bot_without_an_address_says_so(make_harness: MakeHarness) -> None:
    h = await make_harness(web_bot("", public=True))
    g = h.guild(members=["ada"])
    result = await h.slash(g.member("ada"), "euchre web")
    assert result.ephemeral and "web_base_url" in result.text
