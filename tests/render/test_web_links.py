"""The links to the web pages that the end-of-game and end-of-season posts carry."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.discord.embeds import embed_of
from bot.discord.tables.embeds import table_embed
from bot.league import RatingModel, SeasonChange, Standings, rank_players
from bot.render.league import season_ended_panel, season_started_text
from bot.render.web_links import public_base, season_page, table_page
from bot.store import PlayerRating, Season
from tests.render.games import steps

GUILD = 1_000_000_000_000_001
BASE = "https://euchre.example.org"
WHEN = datetime(2025, 3, 1, tzinfo=UTC)
ENDED = Season(id=3, guild_id=GUILD, name="Spring", started_at=WHEN, ended_at=WHEN)


def test_the_pages_have_an_address_only_with_a_base_url_and_public_pages() -> None:
    assert public_base(BASE + "/", True) == BASE
    assert public_base(BASE, False) == "" and public_base("", True) == ""
    assert season_page(BASE, GUILD, 3) == f"{BASE}/s/{GUILD}?season=3"
    assert table_page(BASE, GUILD, 9) == f"{BASE}/s/{GUILD}/tables/9"


def _finals() -> list[Standings]:
    row = PlayerRating(
        season_id=3,
        guild_id=GUILD,
        user_id=7,
        display_name="Ada",
        mu=30,
        sigma=2,
        games=4,
        wins=3,
        last_game_id=1,
    )
    return [Standings(ENDED, tuple(rank_players(RatingModel(), [row], 1)), 1, "euchre4")]


def test_a_seasons_end_links_its_standings_when_the_pages_are_public() -> None:
    linked = embed_of(season_ended_panel(ENDED, _finals(), web=BASE))
    assert f"🌐 Every place on the web: {BASE}/s/{GUILD}?season=3" in str(linked.description)
    plain = embed_of(season_ended_panel(ENDED, _finals()))
    assert "on the web" not in str(plain.description)
    assert plain.fields == linked.fields


def test_a_new_season_links_the_frozen_standings_of_the_one_it_ended() -> None:
    started = Season(id=4, guild_id=GUILD, name="Summer", started_at=WHEN)
    text = season_started_text(SeasonChange(started, ENDED), BASE)
    assert text.endswith(f"🌐 Spring's final standings on the web: {BASE}/s/{GUILD}?season=3")
    assert "on the web" not in season_started_text(SeasonChange(started, ENDED))
    assert "on the web" not in season_started_text(SeasonChange(started, None), BASE)


def test_the_end_of_a_game_links_its_replay_and_nothing_before() -> None:
    shown = []
    for table in steps({"preset": "north_american"}, 8, limit=5000):
        assert table.game is not None
        shown.append((table.game.over, str(table_embed(table.public(), web=BASE).description)))
    link = f"🌐 The replay on the web: {BASE}/s/{table.place.guild_id}/tables/{table.id}"
    assert shown[-1] == (True, shown[-1][1]) and link in shown[-1][1]
    assert not any("on the web" in text for over, text in shown if not over)
    assert "on the web" not in str(table_embed(table.public()).description)
