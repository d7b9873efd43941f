"""What each seat of an archived game came to (schema 27), and a player's games by them.

Counted once, when the game is archived, from its deals as the rules core scored them,
from each seat's side of the table: a march is a deal the seat's side made trump and
took every trick (a partner's loner too); a euchre made, one the side defended and
euchred the makers; a euchre suffered, one the side made trump and was euchred. Loners
count the seat's own: tried (went alone on the makers' side), made (not euchred), and
defended alone (with how many of those euchred the makers). Only deals where trump was
made and played out count. A player's statistics are the sums of their seats' rows.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from typing import Final, Protocol

from bot.store.database import Row
from bot.store.repository import Repository

__all__ = ["FiguresRepo", "Mate", "PlayedGame", "SeatFigures", "seat_figures"]


class _Deal(Protocol):
    """A scored deal as the rules core and the league's facts both have it."""

    @property
    def maker(self) -> int | None: ...
    @property
    def alone(self) -> Sequence[int]: ...
    @property
    def result(self) -> str: ...


@dataclass(frozen=True, slots=True)
class SeatFigures:
    """What one seat's deals came to in one game (the module's docstring says how)."""

    marches: int = 0
    euchres_made: int = 0
    euchres_suffered: int = 0
    loners_tried: int = 0
    loners_made: int = 0
    defended_alone: int = 0
    lone_defence_euchres: int = 0


FIGURES: Final = tuple(f.name for f in fields(SeatFigures))
"""The counted figures, in the order of their columns."""

_PLAYED_OUT: Final = ("made", "march", "euchred")


def seat_figures(deals: Iterable[_Deal], seat: int, team: int) -> SeatFigures:
    """The figures of the seat ``seat`` of team ``team`` over a game's scored ``deals``."""
    count = dict.fromkeys(FIGURES, 0)
    for deal in deals:
        if deal.maker is None or deal.result not in _PLAYED_OUT:
            continue
        making = deal.maker % 2 == team
        euchred = deal.result == "euchred"
        count["marches"] += making and deal.result == "march"
        count["euchres_made"] += not making and euchred
        count["euchres_suffered"] += making and euchred
        if seat in deal.alone:
            if making:
                count["loners_tried"] += 1
                count["loners_made"] += not euchred
            else:
                count["defended_alone"] += 1
                count["lone_defence_euchres"] += euchred
    return SeatFigures(**count)


@dataclass(frozen=True, slots=True)
class Mate:
    """Another seat at a player's game: who sat there and on which team."""

    seat: int
    team: int
    user_id: int | None
    is_computer: bool
    display_name: str


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """One game from a player's seat: its result, their figures and who else sat in it."""

    game_id: int
    ranked: bool
    winner: int | None
    score: tuple[int, int]
    seat: int
    team: int
    figures: SeatFigures | None
    """None for a game archived without its deal outcomes (before schema 17)."""
    others: tuple[Mate, ...]


class FiguresRepo(Repository):
    """The seats' figures of archived games: written with the game, read for a player."""

    async def write(self, game_id: int, figures: Sequence[tuple[int, SeatFigures]]) -> None:
        """Keep each ``(seat, figures)`` of a game (inside the transaction archiving it)."""
        await self._db.execute_many(
            f"INSERT INTO seat_figures (game_id, seat, {', '.join(FIGURES)}) "
            f"VALUES (?, ?, {', '.join('?' for _ in FIGURES)})",
            [(game_id, seat, *(getattr(f, name) for name in FIGURES)) for seat, f in figures],
        )

    async def season_games(self, guild_id: int, user_id: int, season_id: int) -> list[PlayedGame]:
        """A person's games of a season on a server, oldest first, each from their seat."""
        figures = ", ".join(f"f.{name}" for name in FIGURES)
        rows = await self._db.fetch_all(
            "SELECT g.id, g.ranked, g.winner, g.score_0, g.score_1, me.seat AS mine, "
            "me.team AS my_team, p.seat, p.team, p.user_id, p.is_computer, p.display_name, "
            f"f.game_id AS counted, {figures} "
            "FROM game_players me "
            "JOIN games g ON g.id = me.game_id "
            "JOIN game_players p ON p.game_id = me.game_id AND p.seat <> me.seat "
            "LEFT JOIN seat_figures f ON f.game_id = me.game_id AND f.seat = me.seat "
            "WHERE me.user_id = ? AND g.guild_id = ? AND g.season_id = ? "
            "ORDER BY g.id, me.seat, p.seat",
            (user_id, guild_id, season_id),
        )
        out: list[PlayedGame] = []
        others: list[Mate] = []
        first: Row | None = None
        for row in rows:
            if first is None or row[0] != first[0]:
                if first is not None:
                    out.append(_played(first, others))
                first, others = row, []
            elif row[5] != first[5]:
                continue  # a second seat of the same person: the first one speaks
            others.append(Mate(row[7], row[8], row[9], bool(row[10]), row[11]))
        if first is not None:
            out.append(_played(first, others))
        return out


def _played(row: Row, others: list[Mate]) -> PlayedGame:
    """A game from the first of its rows (by position: the columns of ``season_games``)."""
    counted = row[12] is not None
    return PlayedGame(
        game_id=row[0],
        ranked=bool(row[1]),
        winner=row[2],
        score=(row[3], row[4]),
        seat=row[5],
        team=row[6],
        figures=SeatFigures(*(row[13 + i] for i in range(len(FIGURES)))) if counted else None,
        others=tuple(others),
    )
