"""The markup drawn in Python is the markup the pages' earlier, plainer code drew."""

from __future__ import annotations

from datetime import UTC, datetime

from markupsafe import Markup, escape

from bot.league.history import history_entry
from bot.store import ArchivedGame, GamePlayer
from bot.web import markup
from bot.web.replay_view import team_members
from tests.web.util import HOSTILE, OVERRIDE

HOME = '/s/1?a="b"&c'


def _game(game_id: int, seats: dict[int, tuple[str, bool]]) -> ArchivedGame:
    players = [
        GamePlayer(
            seat=seat,
            team=seat % 2,
            user_id=None if computer else 100 + seat,
            is_computer=computer,
            display_name=name,
        )
        for seat, (name, computer) in seats.items()
    ]
    return ArchivedGame(
        id=game_id,
        guild_id=1,
        number=None if game_id % 2 else game_id // 2,
        ranked=bool(game_id % 3),
        winner=game_id % 2,
        score=(10, game_id % 10),
        finished_at=datetime(2026, 3, game_id % 28 + 1, tzinfo=UTC),
        players=tuple(players),
    )


GAMES = [
    _game(1, {0: (HOSTILE, False), 1: ("Bot", True), 2: (OVERRIDE, False), 3: ("Di", False)}),
    _game(2, {0: ("Ada", False), 1: ("Bob", False), 3: ("&amp;", True)}),  # seat 2 missing
    _game(3, {s: (f"P{s}", s % 3 == 0) for s in range(6)}),
]


def test_the_latest_games_are_drawn_as_team_members_drew_them() -> None:
    def before(g: ArchivedGame) -> str:
        return (
            f'<li><a href="{escape(HOME)}/games/{escape(g.id)}">Game {escape(g.number or g.id)}'
            f'</a>\n<span class="when">{g.finished_at.strftime("%-d %b %Y")}</span>\n'
            f'<span class="team team-0">{markup.team(team_members(g, 0))}</span> '
            f"<strong>{escape(g.score[0])}</strong>\n– <strong>{escape(g.score[1])}</strong> "
            f'<span class="team team-1">{markup.team(team_members(g, 1))}</span>\n'
            f"{'' if g.ranked else markup._CASUAL}</li>\n"
        )

    drawn = markup.games_list(HOME, GAMES)
    assert isinstance(drawn, Markup)
    assert drawn == "".join(before(g) for g in GAMES)
    assert HOSTILE not in drawn and "?" in drawn


def test_standings_rows_and_history_escape_what_they_always_did() -> None:
    history = [history_entry(100, g) for g in GAMES if any(p.user_id == 100 for p in g.players)]
    numbers = {g.id: g.number or g.id for g in GAMES}
    drawn = markup.history_list(HOME, history)
    for h in history:
        assert f'<a href="{escape(HOME)}/games/{h.game_id}">Game {numbers[h.game_id]}</a>' in drawn
        assert f"against {markup.seated(h.opponents)}\n" in drawn
        assert f'<span class="outcome {escape(h.outcome)}">' in drawn
    assert HOSTILE not in drawn
    assert markup.player(HOME, 5, HOSTILE) == (
        f'<a href="{escape(HOME)}/players/5"><bdi>{escape(HOSTILE)}</bdi></a>'
    )
    assert markup.player(HOME, None, "Ada") == "<bdi>Ada</bdi>"
