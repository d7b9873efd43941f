"""The end of a season links its final standings on the web when the server's pages are on."""

from __future__ import annotations

import pytest

from bot.discord.app import EuchreBot
from bot.discord.pace.pacing import ChannelLimits
from bot.league import LeagueService
from bot.players import make_player
from bot.server.settings import ServerSettings
from bot.server.sources import FixedSettings
from bot.settings import Settings
from bot.store import Database, GameArchiveRepo, GuildSettingsRepo, SeasonRepo, Seat
from bot.tables import MemoryTableStore, TableService
from tests.conftest import MakeHarness
from tests.league.util import RULES, finished_record
from tests.sqlite_only import db

__all__ = ["db"]

BASE = "https://euchre.example.org"


def league_bot(db: Database, public: bool) -> EuchreBot:
    tables = TableService(
        MemoryTableStore(),
        make_player,
        server_settings=FixedSettings(ServerSettings(web_public=public)),
    )
    bot = EuchreBot(
        Settings(web_base_url=BASE), tables=tables, channel_limits=ChannelLimits.unlimited()
    )
    bot.league = LeagueService(db)  # type: ignore[attr-defined]
    return bot


@pytest.mark.parametrize("public", [True, False])
async def test_a_seasons_end_and_the_next_start_carry_the_link_only_when_public(
    make_harness: MakeHarness, db: Database, public: bool
) -> None:
    h = await make_harness(league_bot(db, public))
    g = h.guild(members=[("ada", {"manage_guild": True}), "bob", "cy", "di"])
    ada = g.member("ada")
    await GuildSettingsRepo(db).set_rules(g.id, RULES)
    await h.slash(ada, "euchre season settings", {"min_games": 1})
    players = [
        Seat.person(n, g.member(name).id, name) for n, name in enumerate(["ada", "bob", "cy", "di"])
    ]
    await GameArchiveRepo(db).archive(
        guild_id=g.id, record=finished_record(1), players=players, ranked=True
    )
    started = await h.slash(ada, "euchre season start", {"name": "Spring"})
    (open_play,) = [s for s in await SeasonRepo(db).list_by_guild(g.id) if not s.running]
    link = f"{BASE}/s/{g.id}?season={open_play.id}"
    assert (link in started.content) is public
    ended = await h.slash(ada, "euchre season end")
    spring = await SeasonRepo(db).find(g.id, "Spring")
    assert spring is not None
    description = str(ended.reply.embeds[0].get("description", ""))
    assert (f"{BASE}/s/{g.id}?season={spring.id}" in description) is public
