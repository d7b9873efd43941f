"""Actions in words, for the bidding line of the table.

Each action is named after whoever made it, which is not always who sits in the
seat now (a member may have taken over a computer's seat since).
"""

from __future__ import annotations

from bot.rules import Action
from bot.tables import PublicTable, Seat

from .action_words import bid_words
from .cards import card_text
from .teams import player

__all__ = ["bidding_line", "bidding_log", "describe"]


def describe(
    table: PublicTable,
    seat: int,
    action: Action,
    *,
    trump_made: bool,
    then: Seat | None = None,
) -> str:
    """One action in words, as the table saw it: "Bob ordered up", "Alice turned it down".

    ``then``: who made it, when not whoever sits in ``seat`` now.
    """
    game = table.game
    assert game is not None
    who = player(table, seat, then=then)
    do = action.do
    if do == "pass":
        if not trump_made:
            return f"{who} passed"
        if seat in game.view.alone:
            return f"{who} asked for no card"
        maker_side = game.view.makers is not None and seat % 2 == game.view.makers
        return f"{who} plays with partner" if maker_side else f"{who} defends with partner"
    said = bid_words(
        who,
        action,
        dealer=seat == game.view.dealer,
        name_of=lambda partner: player(table, partner),
    )
    if said is not None:
        return said
    if do == "shoot":
        return f"{who} shoots"
    if do == "discard":
        return f"{who} discarded"
    if do == "alone":
        maker_side = game.view.makers is not None and seat % 2 == game.view.makers
        return f"{who} goes alone" if maker_side else f"{who} defends alone"
    if do == "give":
        return f"{who} passed a card"
    if do == "swap":
        return f"{who} swapped with the kitty"
    assert action.card is not None
    return f"{who} played {card_text(action.card)}"


def _bids(table: PublicTable) -> list[tuple[str, str]]:
    """Who bid what in the deal in play, up to making trump: (name, words) pairs."""
    game = table.game
    assert game is not None
    out: list[tuple[str, str]] = []
    trump_made = False
    first_round_passes = 0
    for index, (seat, action) in enumerate(game.view.history):
        if action.do == "play" or trump_made:
            break
        then = game.actor(index)
        who = player(table, seat, then=then)
        if action.do == "pass" and not trump_made:
            first_round_passes += 1
            # The dealer's pass that closes the first round turns the upcard down.
            closes_first = first_round_passes == len(table.seats) and seat == game.view.dealer
            out.append((who, "turned it down" if closes_first else "passed"))
            continue
        words = describe(table, seat, action, trump_made=trump_made, then=then)
        out.append((who, words.removeprefix(who).strip()))
        if action.do in ("order_up", "call", "declare"):
            trump_made = True
    return out


def bidding_log(table: PublicTable) -> list[str]:
    """The bids of the deal in play, up to making trump, in words."""
    return [f"{who} {words}" for who, words in _bids(table)]


def bidding_line(table: PublicTable) -> str:
    """The bidding so far on one line, runs of passes joined: "Bob, Carol passed · ..."."""
    parts: list[str] = []
    run: list[str] = []
    for who, words in _bids(table):
        if words == "passed":
            run.append(who)
            continue
        if run:
            parts.append(f"{', '.join(run)} passed")
            run = []
        parts.append(f"{who} {words}")
    if run:
        parts.append(f"{', '.join(run)} passed")
    return " · ".join(parts)
