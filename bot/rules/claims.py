"""A claim of the remaining tricks, played out as the plays it stands for.

The seat that claims plays its highest legal card each time; every other seat
plays its lowest legal card, or what a chooser (its computer player) picks.
The plays go one by one through the game's checked path, so a claimed deal is
recorded as ordinary plays. Whether a seat may claim is decided from that
seat's view alone, by the computer players' layer (bot/players/claims.py),
which orders the claimer's cards with ``strength`` below.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .actions import PLAY, Action
from .errors import RefusedError
from .game import Game
from .ranking import Ranking
from .state import PLAY_PHASE
from .view import SeatView, seat_view

__all__ = ["Chooser", "claim_plays", "highest_card", "lowest_card", "strength"]

Chooser = Callable[[SeatView], Action | None]
"""Picks a play for a seat that did not claim, from its view; None for its lowest legal card."""


def strength(card: int, trump: int, led: int, ranking: Ranking) -> tuple[int, int, int]:
    """How strong ``card`` is, played to a trick led in ``led`` (-1: leading it).

    Its power in that trick first, then its power were it led, then the card
    number, so that every card has its own place and the order is the same
    on every machine.
    """
    own = ranking.suit[trump][card]
    power = ranking.power[trump]
    return (power[own if led < 0 else led][card], power[own][card], card)


def highest_card(cards: Sequence[int], trump: int, led: int, ranking: Ranking) -> int:
    """The strongest of ``cards`` (see ``strength``)."""
    return max(cards, key=lambda c: strength(c, trump, led, ranking))


def lowest_card(cards: Sequence[int], trump: int, led: int, ranking: Ranking) -> int:
    """The weakest of ``cards`` (see ``strength``)."""
    return min(cards, key=lambda c: strength(c, trump, led, ranking))


def claim_plays(game: Game, seat: int, chooser: Chooser | None = None) -> list[tuple[int, Action]]:
    """The plays, in order, that finish the deal in play when ``seat`` claims the rest.

    ``game`` is not changed: the plays are worked out on a copy, each one
    checked by the rules, and the caller applies them to the game in the same
    order. ``chooser`` picks for the other seats (None: their lowest legal card).
    RefusedError when no deal is being played or ``seat`` sits it out.
    """
    if game.phase != PLAY_PHASE or game.trump is None:
        raise RefusedError("wrong_phase", "You can only claim while the cards are being played.")
    if not 0 <= seat < game.players or game.out[seat]:
        raise RefusedError("not_allowed", "Only a seat playing this deal can claim its tricks.")
    play = game.copy()
    trump = game.trump
    ranking = game.ranking
    hands = play.hands
    left = sum(len(hands[s]) for s in range(play.players) if not play.out[s])
    plays: list[tuple[int, Action]] = []
    for _ in range(left):
        turn = play.turn
        assert turn is not None
        trick = play.trick
        led = ranking.suit[trump][trick[0][1]] if trick else -1
        cards = [a.card for a in play.legal() if a.card is not None]
        chosen = None if turn == seat or chooser is None else chooser(seat_view(play, turn))
        if chosen is None:
            pick = highest_card if turn == seat else lowest_card
            chosen = PLAY[pick(cards, trump, led, ranking)]
        play.apply(turn, chosen)
        plays.append((turn, chosen))
    return plays
