"""Helpers for player tests: positions from readable hands and actions, played out by basic."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from bot.players import make_player
from bot.players.protocol import Player
from bot.rules import Deal, Game, HouseRules, SeatView, action_from_json, parse_card, seat_view
from bot.rules.house_rules import deck_cards


def position(
    spec: dict[str, Any],
    hands: list[str],
    upcard: str,
    actions: list[dict[str, Any]] | None = None,
    dealer: int = 0,
) -> Game:
    """A game from explicit hands (space-separated names), the kitty being the rest, after ``actions``."""
    rules = HouseRules.from_spec(spec)
    parsed = [tuple(parse_card(c) for c in h.split()) for h in hands]
    up = parse_card(upcard)
    rest = Counter(deck_cards(rules))
    for hand in parsed:
        rest.subtract(hand)
    rest[up] -= 1
    assert all(n >= 0 for n in rest.values()), "a card is dealt twice"
    game = Game(
        rules, dealer=dealer, deals=[Deal(tuple(parsed), up, tuple(sorted(rest.elements())))]
    )
    for obj in actions or []:
        seat, action = action_from_json(obj)
        assert seat is not None
        game.apply(seat, action)
    return game


def view_to_act(game: Game) -> SeatView:
    """The view of the seat whose turn it is."""
    assert game.turn is not None
    return seat_view(game, game.turn)


def played_out(game: Game) -> Game:
    """``game`` with its current deal played to its end by basic at every seat."""
    players = [make_player("basic", s) for s in range(game.rules.players)]
    deal = game.deal_number
    while game.deal_number == deal and not game.over:
        seat = game.turn
        assert seat is not None
        game.step(players[seat].choose(seat_view(game, seat)))
    return game


def play_checked(game: Game, players: Sequence[Player], deals: int) -> Game:
    """``game`` played to its end by ``players``, each choice legal, within ``deals`` deals."""
    while not game.over:
        assert game.deal_number < deals, "the game did not end"
        seat = game.turn
        assert seat is not None
        view = seat_view(game, seat)
        action = players[seat].choose(view)
        assert action in view.legal, (view.phase, action)
        game.apply(seat, action)
    return game
