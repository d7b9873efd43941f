"""Player statistics from game facts, and standings order and pages."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.league import (
    DealFacts,
    GameFacts,
    RatingModel,
    Standings,
    history_entry,
    player_stats,
    rank_players,
)
from bot.store import ArchivedGame, GamePlayer, PlayerRating

from .util import GUILD

ME = 100


def game(game_id: int, users: list[int | None], winner: int | None) -> ArchivedGame:
    players = tuple(
        GamePlayer(seat=s, team=s % 2, user_id=u, display_name=f"U{u}")
        if u is not None
        else GamePlayer(
            seat=s, team=s % 2, is_computer=True, computer_level="basic", display_name="CPU"
        )
        for s, u in enumerate(users)
    )
    return ArchivedGame(
        id=game_id,
        guild_id=GUILD,
        ranked=None not in users,
        winner=winner,
        score=(10, 7),
        finished_at=datetime(2025, 1, game_id, tzinfo=UTC),
        players=players,
    )


def deal(maker: int, result: str, alone: tuple[int, ...] = ()) -> DealFacts:
    return DealFacts(maker, alone, result, (3, 2), (1, 0))  # type: ignore[arg-type]


def test_deals_are_counted_from_the_players_side() -> None:
    facts = GameFacts(
        (10, 7),
        0,
        (
            deal(0, "march", alone=(0,)),  # my loner marched
            deal(2, "march"),  # partner's march: my side's
            deal(1, "euchred"),  # we euchred them
            deal(3, "euchred", alone=(3, 0)),  # I defended alone and euchred a loner
            deal(2, "euchred", alone=(2,)),  # partner's loner euchred: suffered, not my loner
            deal(1, "made", alone=(0,)),  # I defended alone and lost
            DealFacts(None, (), "passed", (0, 0), (0, 0)),
        ),
    )
    s = player_stats(ME, "Me", [(game(1, [ME, 200, 300, 400], 0), facts)])
    assert (s.games, s.wins, s.ties, s.losses, s.points_for, s.points_against) == (
        1,
        1,
        0,
        0,
        10,
        7,
    )
    assert (s.marches, s.euchres_made, s.euchres_suffered) == (2, 2, 1)
    assert (s.loners_tried, s.loners_made) == (1, 1)
    assert (s.defended_alone, s.lone_defence_euchres) == (2, 1)
    assert s.win_rate == 1.0


def test_best_and_worst_partners_are_people_only() -> None:
    plain = GameFacts((10, 7), 0, ())
    lost = GameFacts((7, 10), 1, ())
    tie = GameFacts((5, 5), None, ())
    games = [
        (game(1, [ME, 2, 300, 4], 0), plain),
        (game(2, [ME, 2, 300, 4], 0), plain),
        (game(3, [ME, 2, 400, 4], 1), lost),
        (game(4, [ME, 2, None, 4], 0), plain),
        (game(5, [7, ME, 8, 500], None), tie),
        (game(6, [7, 8, 9, 10], 0), plain),  # not mine
    ]
    s = player_stats(ME, "Me", games)
    assert (s.games, s.ranked_games, s.wins, s.ties) == (5, 4, 3, 1)
    assert {p.user_id: (p.games, p.wins) for p in s.partners} == {
        300: (2, 2),
        400: (1, 0),
        500: (1, 0),
    }
    assert s.best_partner is not None and s.best_partner.user_id == 300
    assert s.worst_partner is not None and s.worst_partner.user_id == 400  # ties: more games
    alone = player_stats(ME, "Me", games[:2])
    assert alone.best_partner is not None and alone.worst_partner is None
    nobody = player_stats(ME, "Me", [])
    assert nobody.best_partner is None and nobody.win_rate is None


def test_history_lines_name_partners_and_opponents() -> None:
    entry = history_entry(300, game(3, [ME, 2, 300, None], 1))
    assert (entry.outcome, entry.score_for, entry.score_against) == ("lost", 10, 7)
    assert [p.name for p in entry.partners] == [f"U{ME}"]
    assert [(p.name, p.is_computer) for p in entry.opponents] == [("U2", False), ("CPU", True)]
    assert history_entry(ME, game(5, [ME, 2, 3, 4], None)).outcome == "tied"


def rating(user: int, mu: float, sigma: float, games: int, wins: int, name: str) -> PlayerRating:
    return PlayerRating(
        season_id=1,
        guild_id=GUILD,
        user_id=user,
        display_name=name,
        mu=mu,
        sigma=sigma,
        games=games,
        wins=wins,
        last_game_id=1,
    )


def test_standings_order_by_conservative_rating_then_games_wins_and_name() -> None:
    model = RatingModel()
    rows = rank_players(
        model,
        [
            rating(1, 30.0, 5.0, 4, 3, "bea"),  # 15
            rating(2, 40.0, 8.0, 9, 6, "Al"),  # 16
            rating(3, 27.0, 4.0, 4, 3, "Abe"),  # 15, same games and wins as bea: by name
            rating(4, 27.0, 4.0, 6, 3, "Zed"),  # 15, more games
            rating(5, 99.0, 1.0, 1, 1, "New"),  # best rating, too few games
        ],
        min_games=2,
    )
    assert [(r.place, r.name) for r in rows] == [
        (1, "Al"),
        (2, "Zed"),
        (3, "Abe"),
        (4, "bea"),
        (None, "New"),
    ]
    assert rows[0].rating == 40.0 - 3 * 8.0 and rows[0].win_rate == 6 / 9


def test_pages_of_ten() -> None:
    model = RatingModel()
    ratings = [rating(u, 25.0 + u, 2.0, 3, 1, f"P{u:02d}") for u in range(1, 24)]
    standings = Standings(None, tuple(rank_players(model, ratings, 0)), 0)
    pages = [standings.page(n) for n in range(3)]
    assert [len(p.rows) for p in pages] == [10, 10, 3]
    assert pages[0].rows[0].name == "P23" and pages[2].rows[-1].name == "P01"
    assert all(p.pages == 3 for p in pages)
    assert standings.page(7).page == 2 and standings.page(-1).page == 0
    assert Standings(None, (), 5).page(0).pages == 1
