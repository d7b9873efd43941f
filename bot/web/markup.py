"""The small pieces of markup every page repeats, made in Python rather than as macros.

A Jinja macro call costs tens of microseconds, and a server page draws a few hundred
names; these functions make the same HTML for a fraction of that. Names are drawn in a
``<bdi>``: one written right to left, or holding an override, turns nothing around it.
Every value is escaped (markupsafe's ``escape``), as the templates' autoescaping would.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Final, Protocol

from markupsafe import Markup, escape

if TYPE_CHECKING:
    from bot.league.history import HistoryEntry
    from bot.league.standings import Standing
    from bot.store import ArchivedGame

__all__ = [
    "games_list",
    "history_list",
    "player",
    "seated",
    "standings_rows",
    "team",
    "who",
]

_COMPUTER: Final = ' <span class="cpu">(computer)</span>'
_AND: Final = Markup(" &amp; ")
_CASUAL: Final = '<span class="tag">casual</span>'


class _Member(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def computer(self) -> bool: ...


class _Seat(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def is_computer(self) -> bool: ...


def _num(value: object) -> str:
    """A value as text in the page: an int as its digits (nothing in them to escape)."""
    return str(value) if type(value) is int else escape(value)


def _who(name: str, computer: bool) -> str:
    return f"<bdi>{escape(name)}</bdi>{_COMPUTER if computer else ''}"


def who(name: str, computer: bool = False) -> Markup:
    """A name, marked "(computer)" for a computer player."""
    return Markup(_who(name, computer))


def player(home: str, user_id: int | None, name: str) -> Markup:
    """A person's name linking to their page on the server at ``home`` (no link without id)."""
    return Markup(_player(escape(home), user_id, name))


def _player(home: str, user_id: int | None, name: str) -> str:
    """:func:`player` with ``home`` already escaped."""
    if not user_id:
        return f"<bdi>{escape(name)}</bdi>"
    return f'<a href="{home}/players/{_num(user_id)}"><bdi>{escape(name)}</bdi></a>'


def team(members: Iterable[_Member]) -> Markup:
    """A team's members: "A & B"."""
    return _AND.join(who(p.name, p.computer) for p in members)


def seated(people: Iterable[_Seat]) -> Markup:
    """People of a game's history (partners, opponents): "A & B"."""
    return Markup(_seated(people))


def _seated(people: Iterable[_Seat]) -> str:
    return " &amp; ".join(_who(p.name, p.is_computer) for p in people)


def standings_rows(home: str, rows: Sequence[Standing]) -> Markup:
    """A standings table's rows: place, the player's linked name, rating, won, games."""
    at = escape(home)
    return Markup(
        "".join(
            f"<tr><td>{_num(r.place)}</td><td>{_player(at, r.user_id, r.name)}</td>"
            f"<td>{r.rating:.1f}</td><td>{_num(r.wins)}</td><td>{_num(r.games)}</td></tr>\n"
            for r in rows
        )
    )


def games_list(home: str, games: Sequence[ArchivedGame]) -> Markup:
    """The items of a list of games: link, day, both teams with their scores, "casual".

    A team is its seats in order (even seats, odd seats), a seat nobody was recorded in
    as "?".
    """
    at = escape(home)
    return Markup(
        "".join(
            f'<li><a href="{at}/games/{_num(g.id)}">Game {_num(g.shown_number)}'
            f'</a>\n<span class="when">{g.finished_at.strftime("%-d %b %Y")}</span>\n'
            f'<span class="team team-0">{_teams[0]}</span> '
            f"<strong>{_num(g.score[0])}</strong>\n– <strong>{_num(g.score[1])}</strong> "
            f'<span class="team team-1">{_teams[1]}</span>\n'
            f"{'' if g.ranked else _CASUAL}</li>\n"
            for g in games
            for _teams in (_both_teams(g),)
        )
    )


def _both_teams(game: ArchivedGame) -> tuple[str, str]:
    """Each team of a game as :func:`team` draws it, its seats in order."""
    size = len(game.players)
    by_seat = {p.seat: p for p in game.players}
    drawn: list[list[str]] = [[], []]
    for seat in range(size):
        p = by_seat.get(seat)
        drawn[seat % 2].append(
            _who("?", False) if p is None else _who(p.display_name, p.is_computer)
        )
    return " &amp; ".join(drawn[0]), " &amp; ".join(drawn[1])


def history_list(home: str, history: Sequence[HistoryEntry]) -> Markup:
    """The items of a player's latest games: link, day, outcome and score, who with and against."""
    at = escape(home)
    return Markup(
        "".join(
            f'<li><a href="{at}/games/{_num(h.game_id)}">Game '
            f"{_num(h.number)}</a>\n"
            f'<span class="when">{h.finished_at.strftime("%-d %b %Y")}</span>\n'
            f'<span class="outcome {_outcome}">{_outcome}</span> '
            f"{_num(h.score_for)}–{_num(h.score_against)}\n"
            f"{f'with {_seated(h.partners)} ' if h.partners else ''}"
            f"against {_seated(h.opponents)}\n"
            f"{'' if h.ranked else _CASUAL}</li>\n"
            for h in history
            for _outcome in (escape(h.outcome),)
        )
    )
