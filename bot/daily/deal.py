"""The daily deal: one seeded deal a server and day, played alone with computer experts.

Which deal and which seat come from the day and the server (a BLAKE2b digest), so every
process deals the same one. A person's play is the list of their actions: the deal is
replayed from the seed with the computers' moves, so a restart resumes it where it was.
The result is the points the person's side scored in the deal less the other side's;
par is the same figure with the expert in the person's seat.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from bot.players.protocol import Player, make_player
from bot.rules import Action, HouseRules, SeatView, new_game, seat_view
from bot.rules.game import Game

__all__ = [
    "DailyDeal",
    "Experts",
    "daily_day",
    "daily_seed",
    "deal_result",
    "par_of",
    "play_to_person",
]

Experts = Callable[[int, int], Player]
"""The computer of a seat, given the seat and a seed (default: the expert)."""


def _expert(seat: int, seed: int) -> Player:
    return make_player("expert", seed)


def daily_day(now: datetime, hour: int) -> date:
    """The server's day at ``now``: it turns over at ``hour`` o'clock UTC."""
    return (now.astimezone(UTC) - timedelta(hours=hour)).date()


def daily_seed(guild_id: int, day: date) -> tuple[int, int]:
    """The day's deal seed and the person's seat, the same for the whole server."""
    digest = hashlib.blake2b(f"daily:{guild_id}:{day.isoformat()}".encode(), digest_size=8)
    value = int.from_bytes(digest.digest(), "big")
    return value >> 3, value & 3


@dataclass(frozen=True, slots=True)
class DailyDeal:
    """The day's deal of a server: the rules, the seed and the person's seat."""

    rules: HouseRules
    seed: int
    seat: int

    def start(self) -> Game:
        """The game as dealt (one deal is played of it)."""
        return new_game(self.rules, seed=self.seed, dealer=(self.seat + 3) % 4)


def _over(game: Game) -> bool:
    return game.over or bool(game.results and game.results[0].result != "in_play")


def play_to_person(
    deal: DailyDeal, actions: Sequence[Action], experts: Experts = _expert
) -> tuple[Game, SeatView | None]:
    """The deal after ``actions`` of the person, the computers playing between them.

    The view is the person's when it is their turn; None once the deal is over.
    ValueError for an action the rules refuse (a stale or forged button).
    """
    game = deal.start()
    players = {s: experts(s, deal.seed + s) for s in range(4) if s != deal.seat}
    left = list(actions)
    while not _over(game):
        turn = game.turn
        assert turn is not None
        if turn == deal.seat:
            view = seat_view(game, turn)
            if not left:
                return game, view
            action = left.pop(0)
            if action not in view.legal:
                raise ValueError(f"{action} is not a legal action now")
            game.apply(turn, action)
        else:
            game.apply(turn, players[turn].choose(seat_view(game, turn)))
    if left:
        raise ValueError("the deal is over")
    return game, None


def deal_result(game: Game, seat: int) -> int:
    """The points ``seat``'s side scored in the first deal less the other side's."""
    points = game.results[0].points
    team = seat % 2
    return points[team] - points[1 - team]


def par_of(deal: DailyDeal, experts: Experts = _expert) -> int:
    """The expert's result from the person's seat, the same computers around it."""
    game = deal.start()
    players = {s: experts(s, deal.seed + s) for s in range(4)}
    while not _over(game):
        turn = game.turn
        assert turn is not None
        game.apply(turn, players[turn].choose(seat_view(game, turn)))
    return deal_result(game, deal.seat)
