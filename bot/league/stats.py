"""A player's statistics over a set of archived games, read from their records.

Counted per deal from the player's side of the table: a march is a deal their side
made trump and took every trick (a partner's loner too); a euchre made is a deal their
side defended and euchred the makers; a euchre suffered, one their side made trump
and was euchred. Loners count the player's own: tried (went alone as maker's side),
made (not euchred), and defending alone (with how many of those euchred the makers).
Partners are the other people on the player's team; computers are nobody's partner here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.store import ArchivedGame

from .facts import GameFacts

__all__ = ["PartnerRecord", "PlayerStats", "player_stats"]


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


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """Everything ``/euchre stats`` counts for one player."""

    user_id: int
    name: str
    games: int = 0
    ranked_games: int = 0
    wins: int = 0
    ties: int = 0
    points_for: int = 0
    points_against: int = 0
    marches: int = 0
    euchres_made: int = 0
    euchres_suffered: int = 0
    loners_tried: int = 0
    loners_made: int = 0
    defended_alone: int = 0
    lone_defence_euchres: int = 0
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
    count = dict.fromkeys(
        (
            "games",
            "ranked_games",
            "wins",
            "ties",
            "points_for",
            "points_against",
            "marches",
            "euchres_made",
            "euchres_suffered",
            "loners_tried",
            "loners_made",
            "defended_alone",
            "lone_defence_euchres",
        ),
        0,
    )
    partners: dict[int, list[int]] = {}
    names: dict[int, str] = {}
    for game, facts in games:
        me = next((p for p in game.players if p.user_id == user_id), None)
        if me is None:
            continue
        team = me.team
        won = facts.winner == team
        count["games"] += 1
        count["ranked_games"] += game.ranked
        count["wins"] += won
        count["ties"] += facts.winner is None
        count["points_for"] += facts.score[team]
        count["points_against"] += facts.score[1 - team]
        for deal in facts.deals:
            if deal.makers is None or deal.result not in ("made", "march", "euchred"):
                continue
            making = deal.makers == team
            euchred = deal.result == "euchred"
            count["marches"] += making and deal.result == "march"
            count["euchres_made"] += not making and euchred
            count["euchres_suffered"] += making and euchred
            if me.seat in deal.alone:
                if making:
                    count["loners_tried"] += 1
                    count["loners_made"] += not euchred
                else:
                    count["defended_alone"] += 1
                    count["lone_defence_euchres"] += euchred
        for p in game.players:
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
