"""How the league looks: the rating picture, standings, stats, history, replay steps, export."""

from __future__ import annotations

import io
import json
import random
from datetime import UTC, datetime

import discord
import pytest
from PIL import Image

from bot.discord.embeds import embed_of
from bot.league import (
    HistoryEntry,
    HistoryPage,
    PlayerReport,
    PlayerStats,
    RatingModel,
    SeatedPlayer,
    Standings,
    rank_players,
    replay_book,
)
from bot.render.league import (
    SEASON_END_TOP,
    export_bytes,
    export_filename,
    history_panel,
    season_ended_panel,
    standings_panel,
    stats_panel,
)
from bot.render.rating_chart import CHART_SIZE, rating_chart
from bot.render.replays import replay_panel
from bot.rules import HouseRules, RecordError, replay
from bot.store import ArchivedGame, GamePlayer, PlayerRating, Season
from tests.league.util import finished_record
from tests.render.games import BID_VARIANTS, VARIANTS

GUILD = 1_000_000_000_000_001
WHEN = datetime(2025, 3, 1, tzinfo=UTC)


def text(embed: discord.Embed) -> str:
    parts = [embed.title or "", embed.description or "", embed.footer.text or ""]
    for field in embed.fields:
        parts += [field.name or "", field.value or ""]
    return "\n".join(parts)


def limits_hold(embed: discord.Embed) -> None:
    assert len(embed) <= 6000 and len(embed.fields) <= 25
    assert len(embed.title or "") <= 256 and len(embed.description or "") <= 4096
    for field in embed.fields:
        assert len(field.name or "") <= 256 and 0 < len(field.value or "") <= 1024


# --------------------------------------------------------------------------- the picture


@pytest.mark.parametrize("games", [0, 1, 2, 300])
def test_the_rating_picture_is_a_png_of_a_sensible_size(games: int) -> None:
    rng = random.Random(games)
    ratings = [0.0]
    for _ in range(games):
        ratings.append(ratings[-1] + rng.uniform(-1.5, 2.0))
    data = rating_chart(ratings if games else [])
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(data))
    image.verify()
    assert image.size == CHART_SIZE
    assert 1_000 < len(data) < 200_000


def test_a_flat_rating_still_draws() -> None:
    assert rating_chart([0.0, 0.0, 0.0]).startswith(b"\x89PNG")
    assert rating_chart([5.0]).startswith(b"\x89PNG")  # before any game only: placeholder


# --------------------------------------------------------------------------- standings


def season(running: bool = True) -> Season:
    return Season(
        id=3,
        guild_id=GUILD,
        name="Spring",
        started_at=WHEN,
        ended_at=None if running else WHEN,
    )


def rating(user: int, mu: float, games: int, wins: int) -> PlayerRating:
    return PlayerRating(
        season_id=3,
        guild_id=GUILD,
        user_id=user,
        display_name=f"Player {user}",
        mu=mu,
        sigma=2.0,
        games=games,
        wins=wins,
        last_game_id=1,
    )


def test_standings_show_place_player_rating_games_wins_and_win_rate() -> None:
    rows = rank_players(
        RatingModel(), [rating(1, 30.0, 4, 3), rating(2, 20.0, 2, 1), rating(3, 40, 1, 1)], 2
    )
    embed = embed_of(standings_panel(Standings(season(), tuple(rows), 2).page(0)))
    shown = text(embed)
    assert "🏆 Standings · Spring" in shown
    assert "🥇 Player 1 — **24.0** · 4 games · 3 wins (75%)" in shown
    assert "🥈 Player 2 — **14.0** · 2 games · 1 win (50%)" in shown
    assert "Player 3" not in shown
    assert "1 more player needs 2 ranked games to be placed." in shown
    assert "Page" not in shown
    limits_hold(embed)


def test_standings_pages_and_empty_standings() -> None:
    rows = rank_players(RatingModel(), [rating(u, 20.0 + u, 3, 1) for u in range(1, 26)], 0)
    page = Standings(season(running=False), tuple(rows), 0).page(2)
    shown = text(embed_of(standings_panel(page)))
    assert "Page 3 of 3" in shown and "**21.**" in shown and "ended" in shown
    empty = text(embed_of(standings_panel(Standings(None, (), 5).page(0))))
    assert "No ranked games yet" in empty


def test_a_seasons_end_shows_the_leaders_of_each_family_played() -> None:
    ended = season(running=False).model_copy(update={"name": "S" * 50, "min_games": 2})
    long_names = [
        rating(u, 20.0 + u, 999, 998).model_copy(update={"display_name": "Ω" * 32})
        for u in range(1, 41)
    ]
    four = Standings(ended, tuple(rank_players(RatingModel(), long_names, 2)), 2, "euchre4")
    bid_rows = [rating(1, 30.0, 4, 3), rating(2, 20.0, 1, 1)]
    bid = Standings(ended, tuple(rank_players(RatingModel(), bid_rows, 2)), 2, "bid_euchre")
    embed = embed_of(season_ended_panel(ended, [four, bid]))
    limits_hold(embed)
    assert embed.title == f"🏁 {'S' * 50} is over · final standings"
    assert [f.name for f in embed.fields] == ["🏆 Four-hand euchre", "🏆 Bid Euchre"]
    four_lines = str(embed.fields[0].value).split("\n")
    assert len(four_lines) == SEASON_END_TOP + 1
    assert four_lines[0] == f"🥇 {'Ω' * 32} — **54.0** · 999 games · 998 wins (100%)"
    assert four_lines[-1] == "…and 35 more placed."
    assert str(embed.fields[1].value).split("\n") == [
        "🥇 Player 1 — **24.0** · 4 games · 3 wins (75%)",
        "1 player had fewer than 2 ranked games, so no place.",
    ]
    # Even far more places than a field holds are cut to Discord's 1024 characters.
    crowded = embed_of(season_ended_panel(ended, [four, four, four], top=40))
    limits_hold(crowded)
    assert str(crowded.fields[0].value).endswith("\n…")


def test_a_season_without_ranked_games_ends_with_a_sentence() -> None:
    embed = embed_of(season_ended_panel(season(running=False), []))
    limits_hold(embed)
    assert embed.fields == []
    assert "no ranked games were played in this season" in str(embed.description)


# --------------------------------------------------------------------------- stats and history


def test_stats_show_every_count_and_the_picture() -> None:
    stats = PlayerStats(
        user_id=1,
        name="Ada",
        games=12,
        ranked_games=9,
        wins=7,
        ties=1,
        points_for=98,
        points_against=76,
        marches=3,
        euchres_made=4,
        euchres_suffered=2,
        loners_tried=5,
        loners_made=3,
        defended_alone=1,
        lone_defence_euchres=1,
    )
    rows = rank_players(RatingModel(), [rating(1, 30.0, 9, 7)], 1)
    report = PlayerReport(stats, season(), rows[0], (0.0, 1.0, 24.0))
    embed = embed_of(stats_panel(report, image="rating.png"))
    shown = text(embed)
    for part in (
        "12 games (9 ranked) · 7 wins · 4 losses · 1 tie · 58% won",
        "98 for · 76 against",
        "3 marches · 4 euchres made · 2 euchres suffered",
        "5 loners tried, 3 made · defended alone 1 time (1 euchre)",
        "No games with a person as partner yet.",
        "**24.0** (skill 30.0 ± 2.0) · 🥇 #1 · 9 ranked games",
    ):
        assert part in shown
    assert embed.image.url == "attachment://rating.png"
    limits_hold(embed)
    fresh = embed_of(stats_panel(PlayerReport(PlayerStats(user_id=2, name="Bo"), None, None, ())))
    assert "No finished games" in text(fresh) and "Not rated yet" in text(fresh)


def test_history_lines() -> None:
    entries = [
        HistoryEntry(
            120,  # its id: the line shows its number on the server
            12,
            WHEN,
            True,
            "won",
            10,
            6,
            (SeatedPlayer("Bob", False),),
            (SeatedPlayer("Cy", False), SeatedPlayer("Computer 4", True)),
        ),
        HistoryEntry(90, 9, WHEN, False, "tied", 5, 5, (), (SeatedPlayer("Di", False),)),
    ]
    shown = text(embed_of(history_panel("Ada", HistoryPage(tuple(entries), 0, 1, 2))))
    stamp = int(WHEN.timestamp())
    assert (
        f"**#12** · ✅ Won 10–6 · with Bob vs Cy & Computer 4 🤖 · ranked · <t:{stamp}:d>" in shown
    )
    assert "**#9** · 🤝 Tied 5–5 · vs Di · casual" in shown
    assert "Page" not in shown
    assert "No finished games" in text(embed_of(history_panel("Ada", HistoryPage((), 0, 1, 0))))
    paged = embed_of(history_panel("Ada", HistoryPage(tuple(entries), 3, 20, 200)))
    assert "Page 4 of 20 · 200 games" in text(paged)


# --------------------------------------------------------------------------- replay and export


def archived(players: int) -> ArchivedGame:
    names = ["Ada", "Bob", "Cy", "Di", "Eve", "Fay", "Gil", "Hal"]
    return ArchivedGame(
        id=7,
        guild_id=GUILD,
        ranked=True,
        winner=0,
        score=(10, 4),
        finished_at=WHEN,
        players=tuple(
            GamePlayer(seat=s, team=s % 2, user_id=100 + s, display_name=names[s])
            for s in range(players)
        ),
    )


@pytest.mark.parametrize("spec", VARIANTS + BID_VARIANTS)
def test_every_replay_step_draws_within_discords_limits(spec: dict[str, object]) -> None:
    rules = HouseRules.from_spec(spec)
    record = finished_record(4, rules)
    book = replay_book(record)
    game = archived(rules.players)
    for index, step in enumerate(book.steps):
        embed = embed_of(replay_panel(game, book, index))
        limits_hold(embed)
        shown = text(embed)
        if step.trick == 0:
            assert "Hands as dealt" in shown and "Bidding" in shown
        elif step.trick_play is not None:
            assert f"Trick {step.trick}" in shown and "took it" in shown
        if step.result is not None:
            assert "Deal over" in shown
    assert "Game over" in text(embed_of(replay_panel(game, book, len(book.steps) - 1)))


def test_export_is_the_record_and_replays_the_same() -> None:
    record = finished_record(2)
    data = export_bytes(record)
    assert json.loads(data) == record
    assert replay(json.loads(data)).to_json() == replay(record).to_json()
    assert export_filename(12) == "euchre-game-12.json"
    with pytest.raises(RecordError):
        replay_book({"format": 1, "rules": {"preset": "nope"}})


def test_a_bid_euchre_replay_names_the_bids_the_contract_and_its_result() -> None:
    rules = HouseRules.from_spec(BID_VARIANTS[0])
    book = replay_book(finished_record(5, rules))
    game = archived(rules.players)
    bidding = text(embed_of(replay_panel(game, book, 0)))
    assert "upcard" not in bidding and (" bid " in bidding or " shot" in bidding)
    end = book.deal_starts[1] - 1
    last = text(embed_of(replay_panel(game, book, end)))
    contract = book.steps[end].contract
    assert contract is not None and book.steps[end].trump is not None
    said = "shot" if contract.shoot else f"bid {contract.tricks}"
    assert f"{game.players[contract.seat].display_name} {said} · trump" in last
    assert "bidders took" in last
