"""Actions in words, for the bidding log and the private hand's prompts."""

from __future__ import annotations

from bot.rules import Action
from bot.tables import PublicTable

from .cards import card_text, suit_text
from .teams import player

__all__ = ["bidding_log", "describe"]


def describe(table: PublicTable, seat: int, action: Action, *, trump_made: bool) -> str:
    """One action in words, as the table saw it: "Bob ordered up", "Alice turned it down"."""
    game = table.game
    assert game is not None
    who = player(table, seat)
    dealer = seat == game.view.dealer
    alone = " alone" if action.alone else ""
    do = action.do
    if do == "pass":
        if not trump_made:
            return f"{who} passed"
        if seat in game.view.alone:
            return f"{who} asked for no card"
        maker_side = game.view.makers is not None and seat % 2 == game.view.makers
        return f"{who} plays with partner" if maker_side else f"{who} defends with partner"
    if do == "order_up":
        return f"{who} took it up{alone}" if dealer else f"{who} ordered it up{alone}"
    if do == "call":
        assert action.suit is not None
        return f"{who} called {suit_text(action.suit)}{alone}"
    if do == "discard":
        return f"{who} discarded"
    if do == "alone":
        maker_side = game.view.makers is not None and seat % 2 == game.view.makers
        return f"{who} goes alone" if maker_side else f"{who} defends alone"
    if do == "give":
        return f"{who} passed a card"
    if do == "ask":
        assert action.partner is not None
        return f"{who} asked {player(table, action.partner)} for a card"
    if do == "redeal":
        return f"{who} threw in the hand (ace no face)"
    if do == "swap":
        return f"{who} swapped with the kitty"
    assert action.card is not None
    return f"{who} played {card_text(action.card)}"


def bidding_log(table: PublicTable) -> list[str]:
    """The actions of the deal in play before its first card, in words."""
    game = table.game
    assert game is not None
    out: list[str] = []
    trump_made = False
    first_round_passes = 0
    for seat, action in game.view.history:
        if action.do == "play":
            break
        if action.do == "pass" and not trump_made:
            first_round_passes += 1
            # The dealer's pass that closes the first round turns the upcard down.
            closes_first = first_round_passes == len(table.seats) and seat == game.view.dealer
            who = player(table, seat)
            out.append(f"{who} turned it down" if closes_first else f"{who} passed")
            continue
        out.append(describe(table, seat, action, trump_made=trump_made))
        if action.do in ("order_up", "call"):
            trump_made = True
    return out
