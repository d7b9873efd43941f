"""Sampled Bid Euchre deals that explain the bidding: the expert's worlds.

Bid Euchre's bids say a lot: a seat that bids four expects its side to take
four tricks, a seat that passes does not, and the winner of the bidding names
the trump its hand is longest in. A sampled deal is replayed through this
deal's bidding with the basic player (``bid_basic``) as the model of every
other seat, and each bid or declaration the model would not have made in it
is a surprise; a world is kept with ``inference.BID_SURPRISE`` per surprise,
and of ``inference.TRIES`` draws the least surprising is kept when none
passes, exactly as the euchre expert reads the table.

The euchre ``Reader`` does the same through a seat view for every action; here
the model is asked straight from the replayed game's hands and legal actions,
which is what makes a few hundred worlds fit in a decision's budget.

During the bidding the whole deal is remade around this seat's hand
(``sampling.sample_deal``); during the play the other hands are drawn fitting
the suits each seat has shown out of (``sampling.draw_hands``) and the deal
they imply is read the same way. Only the view is read, never a hidden card.
"""

from __future__ import annotations

import random

from bot.rules import Game, RulesError, SeatView, new_game
from bot.rules.dealing import Deal

from . import bid_basic
from .effort import Effort, Work
from .inference import BID_SURPRISE, TRIES
from .sampling import draw_hands, sample_deal
from .tracking import Knowledge

_BIDDING = frozenset({"pass", "bid", "shoot"})


def dealt_hand(view: SeatView) -> list[int] | None:
    """This seat's hand as dealt: what it holds and what it played; None after a shoot's gifts."""
    if any(a.do in ("give", "discard") for _, a in view.history):
        return None
    me = view.seat
    played = [c for t in view.tricks for s, c in zip(t.seats, t.cards, strict=True) if s == me]
    played += [c for s, c in view.trick if s == me]
    return list(view.hand) + played


def surprises(view: SeatView, deal: Deal) -> tuple[Game, int] | None:
    """``deal`` replayed through this deal's bidding, and the model's surprises at it.

    The game returned stands after the last bidding action of the history (the
    declaration included); None when the deal cannot produce the history.
    """
    rules = view.rules
    game = new_game(rules, dealer=view.dealer, deals=[deal])
    count = 0
    try:
        for seat, action in view.history:
            do = action.do
            if do not in _BIDDING and do != "declare":
                break
            if seat != view.seat:
                hand = game.hands[seat]
                if do == "declare":
                    count += bid_basic.declare_choice(hand, rules) != action.trump
                else:
                    count += bid_basic.bid_action(hand, rules, game.legal()) != action
            game.apply(seat, action)
    except RulesError:
        return None
    return game, count


def bidding_world(view: SeatView, rng: random.Random, effort: Effort | None = None) -> Game | None:
    """A whole deal around this seat's hand, replayed to now (the bidding or the declaration).

    ``effort`` counts the deals drawn and the bids replayed on them.
    """
    best: tuple[float, Game] | None = None
    mine = list(view.hand)
    for _ in range(TRIES):
        if effort is not None:
            effort.count(Work(draws=1, replayed=len(view.history)))
        read = surprises(view, sample_deal(view, mine, rng))
        if read is None or read[0].turn != view.seat:
            continue
        game, count = read
        weight = BID_SURPRISE**count
        if rng.random() < weight:
            return game
        if best is None or weight > best[0]:
            best = (weight, game)
    return None if best is None else best[1]


def play_hands(
    view: SeatView, know: Knowledge, rng: random.Random, effort: Effort | None = None
) -> list[list[int]]:
    """Every seat's hand now, for the play: the least surprising of up to ``TRIES`` draws.

    ``effort`` counts the hands drawn and the bids replayed on them.
    """
    mine = dealt_hand(view)
    hands = draw_hands(know, rng)
    if effort is not None:
        effort.count(Work(draws=1))
    if mine is None:
        return hands  # a shoot: the gifts hide what was dealt, so the bids are not read
    best: tuple[float, list[list[int]]] | None = None
    for tried in range(TRIES):
        if effort is not None:
            effort.count(Work(draws=1 if tried else 0, replayed=len(view.history)))
        read = surprises(view, _as_dealt(view, hands, mine))
        weight = -1.0 if read is None else BID_SURPRISE ** read[1]
        if rng.random() < weight:
            return hands
        if best is None or weight > best[0]:
            best = (weight, hands)
        hands = draw_hands(know, rng)
    assert best is not None
    return best[1]


def _as_dealt(view: SeatView, hands: list[list[int]], mine: list[int]) -> Deal:
    """The deal as dealt, were ``hands`` the hands now: each with the cards it played."""
    dealt = [list(h) for h in hands]
    dealt[view.seat] = list(mine)
    for trick in view.tricks:
        for seat, card in zip(trick.seats, trick.cards, strict=True):
            if seat != view.seat:
                dealt[seat].append(card)
    for seat, card in view.trick:
        if seat != view.seat:
            dealt[seat].append(card)
    return Deal(tuple(tuple(h) for h in dealt), view.upcard, ())
