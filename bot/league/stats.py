"""A player's statistics over a set of archived games.

Counted per deal from the player's seat (:mod:`bot.store.figures` says what each figure
counts, and keeps them per seat as each game is archived): marches, euchres made and
suffered, loners tried and made, lone defences and those that euchred the makers.
Partners are the other people on the player's team; computers are nobody's partner here.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from bot.store import ArchivedGame
from bot.store.figures import FIGURES, Mate, PlayedGame, SeatFigures, seat_figures

from .facts import GameFacts

__all__ = ["PartnerRecord", "PlayerStats", "played_stats", "player_stats"]


@dataclass(frozen=True, slots=True)
class PartnerRecord:
    """Games played on the same team as one partner, and how many of them were won."""

    user_id: int
    name: str
    games: int
    wins: int

    @property
    def win_rate(self) -> float:
        """Wins per game together."""
        return self.wins / self.games


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerStats(SeatFigures):
    """Everything ``/euchre stats`` counts for one player (their seats' figures, summed)."""

    user_id: int
    name: str
    games: int = 0
    ranked_games: int = 0
    wins: int = 0
    ties: int = 0
    points_for: int = 0
    points_against: int = 0
    partners: tuple[PartnerRecord, ...] = ()

    @property
    def losses(self) -> int:
        """Games neither won nor tied."""
        return self.games - self.wins - self.ties

    @property
    def win_rate(self) -> float | None:
        """Wins per game; None before the first game."""
        return self.wins / self.games if self.games else None

    @property
    def best_partner(self) -> PartnerRecord | None:
        """The partner with the best win rate (more games together break a tie)."""
        ranked = sorted(self.partners, key=_best_first)
        return ranked[0] if ranked else None

    @property
    def worst_partner(self) -> PartnerRecord | None:
        """The partner with the worst win rate, when there are two partners or more."""
        if len(self.partners) < 2:
            return None
        return sorted(self.partners, key=_worst_first)[0]


def _best_first(p: PartnerRecord) -> tuple[float, int, str, int]:
    return (-p.win_rate, -p.games, p.name.casefold(), p.user_id)


def _worst_first(p: PartnerRecord) -> tuple[float, int, str, int]:
    return (p.win_rate, -p.games, p.name.casefold(), p.user_id)


def player_stats(
    user_id: int, name: str, games: Iterable[tuple[ArchivedGame, GameFacts]]
) -> PlayerStats:
    """The statistics of ``user_id`` over ``games`` (games they did not play are skipped)."""
    return played_stats(user_id, name, _played(user_id, games))


def _played(user_id: int, games: Iterable[tuple[ArchivedGame, GameFacts]]) -> Iterator[PlayedGame]:
    for game, facts in games:
        me = next((p for p in game.players if p.user_id == user_id), None)
        if me is None:
            continue
        yield PlayedGame(
            game_id=game.id,
            ranked=game.ranked,
            winner=facts.winner,
            score=facts.score,
            seat=me.seat,
            team=me.team,
            figures=seat_figures(facts.deals, me.seat, me.team),
            others=tuple(
                Mate(p.seat, p.team, p.user_id, p.is_computer, p.display_name)
                for p in game.players
                if p.seat != me.seat
            ),
        )


def played_stats(user_id: int, name: str, games: Iterable[PlayedGame]) -> PlayerStats:
    """The statistics of ``user_id`` over their ``games``, each read from their seat.

    Every game's figures must be there (``PlayedGame.figures``): count a game kept
    without them from its record first.
    """
    count = dict.fromkeys(("games", "ranked_games", "wins", "ties"), 0)
    count |= dict.fromkeys(("points_for", "points_against", *FIGURES), 0)
    partners: dict[int, list[int]] = {}
    names: dict[int, str] = {}
    for game in games:
        if game.figures is None:
            raise ValueError(f"game {game.game_id} is not counted: count it from its record")
        team = game.team
        won = game.winner == team
        count["games"] += 1
        count["ranked_games"] += game.ranked
        count["wins"] += won
        count["ties"] += game.winner is None
        count["points_for"] += game.score[team]
        count["points_against"] += game.score[1 - team]
        for figure in FIGURES:
            count[figure] += getattr(game.figures, figure)
        for p in game.others:
            if p.team != team or p.user_id is None or p.user_id == user_id or p.is_computer:
                continue
            record = partners.setdefault(p.user_id, [0, 0])
            record[0] += 1
            record[1] += won
            names[p.user_id] = p.display_name
    return PlayerStats(
        user_id=user_id,
        name=name,
        partners=tuple(
            PartnerRecord(uid, names[uid], games_together, wins)
            for uid, (games_together, wins) in sorted(partners.items())
        ),
        **count,
    )
