"""How far each seat has bid like the model: the table read from the game's earlier deals.

The expert reads the other seats' hands from their bids (``inference``): the
basic player, as the model of how people bid, says what a seat would have bid
holding a sampled hand, and a world in which the seat bid otherwise is kept with
``BID_SURPRISE`` for each such bid. That is right for a seat that bids about as
the model does. A seat that orders up on two small trumps now and then, or
passes hands the model would order, is read too strictly: the expert then sees
strong hands behind its bids that are not there.

The deals already played tell how far each seat bids like the model. Once a
deal is over, every hand that played it out is known, but for the dealer's
discard (``SeatView.earlier``). Each bid another seat made in those deals is
asked of the model again with that seat's hand as dealt; where the dealer's
discard is hidden, a bid counts as the model's if the model makes it with any
card the dealer may have discarded. A seat with ``misses`` bids unlike the
model out of ``bids`` is taken to bid unlike it with the chance
``(misses + PRIOR * MISS_RATE) / (bids + PRIOR)``, and a world in which it bid
unlike the model is kept with the odds of that chance, never less than
``BID_SURPRISE``: a seat that bids just as the model does is read as before.

Only the view is read: the hands come from the cards played in finished deals.
"""

from __future__ import annotations

from functools import lru_cache

from bot.rules import Action, HouseRules, PastDeal, RuleError, SeatView, make_game, seat_view
from bot.rules.dealing import Deal

from .basic import BasicPlayer
from .deck import deck_facts
from .inference import BID_SURPRISE

MISS_RATE = BID_SURPRISE / (1 + BID_SURPRISE)
"""The chance of a bid unlike the model that ``BID_SURPRISE`` stands for (its odds)."""
PRIOR = 4.0
"""How many bids' worth of belief a seat starts with that it bids with ``MISS_RATE``."""

_BIDS = frozenset({"pass", "order_up", "call", "alone"})
_MODEL = BasicPlayer(0)


def bid_leniency(view: SeatView) -> tuple[float, ...]:
    """Each seat's chance of keeping a world per bid in it the model would not have made."""
    bids = [0] * view.players
    misses = [0] * view.players
    for past in view.earlier:
        seen = bid_misses(view.rules, view.seat, past)
        for seat in range(view.players):
            bids[seat] += seen[seat][0]
            misses[seat] += seen[seat][1]
    return tuple(leniency(b, m) for b, m in zip(bids, misses, strict=True))


def leniency(bids: int, misses: int) -> float:
    """The chance of keeping a world per surprising bid of a seat with ``misses`` of ``bids``."""
    chance = (misses + PRIOR * MISS_RATE) / (bids + PRIOR)
    return min(1.0, max(BID_SURPRISE, chance / (1.0 - chance))) if chance < 1.0 else 1.0


@lru_cache(maxsize=4096)
def bid_misses(rules: HouseRules, viewer: int, past: PastDeal) -> tuple[tuple[int, int], ...]:
    """Per seat, the bids read in a finished deal and how many of them the model would not make.

    A seat's bids are read when its whole hand as dealt is known from its plays
    (not a loner's partner, nor any seat of a deal passed in or swapped); never
    the viewer's own.
    """
    n = rules.players
    size = rules.hand_size
    if any(a.do in ("give", "swap", "ask") for _, a in past.history):
        return ((0, 0),) * n
    played: list[list[int]] = [[] for _ in range(n)]
    discard: int | None = None
    discarded = False
    for seat, action in past.history:
        if action.do == "play" and action.card is not None:
            played[seat].append(action.card)
        elif action.do == "discard":
            discarded = True
            discard = action.card
    known = [len(cards) == size for cards in played]
    if not any(known[s] for s in range(n) if s != viewer):
        return ((0, 0),) * n
    rest = dict(deck_facts(rules).copies)
    for card in (c for cards in played for c in cards):
        rest[card] = rest.get(card, 0) - 1
    if not discarded:
        rest[past.upcard] = rest.get(past.upcard, 0) - 1
    pool = sorted(card for card, copies in rest.items() for _ in range(copies))
    candidates: list[int | None] = [None]
    if discarded and discard is None:
        candidates = [card for card in sorted(set(pool))]
    best: list[int] | None = None
    bids: list[int] = [0] * n
    for candidate in candidates:
        read = _replay(rules, viewer, past, played, known, pool, candidate if discarded else None)
        if read is None:
            continue
        bids, misses = read
        best = misses if best is None else [min(a, b) for a, b in zip(best, misses, strict=True)]
    if best is None:
        return ((0, 0),) * n
    return tuple((bids[s], best[s]) for s in range(n))


def _replay(
    rules: HouseRules,
    viewer: int,
    past: PastDeal,
    played: list[list[int]],
    known: list[bool],
    pool: list[int],
    discard: int | None,
) -> tuple[list[int], list[int]] | None:
    """The deal's bidding replayed with the dealer's hidden ``discard``: bids, misses a seat."""
    n = rules.players
    size = rules.hand_size
    rest = list(pool)
    hands = [list(cards) for cards in played]
    dealer = past.dealer
    if discard is not None or any(a.do == "discard" for _, a in past.history):
        own = next(a.card for s, a in past.history if a.do == "discard")
        card = own if own is not None else discard
        if card is None or past.upcard not in hands[dealer]:
            return None
        hands[dealer].remove(past.upcard)
        hands[dealer].append(card)
        rest.remove(card)
    for seat in range(n):
        if not known[seat]:
            hands[seat] = rest[:size]
            del rest[:size]
    try:
        deal = Deal(tuple(tuple(h) for h in hands), past.upcard, tuple(rest))
        game = make_game(rules, dealer=dealer, deals=[deal])
        bids = [0] * n
        misses = [0] * n
        for seat, action in past.history:
            if action.do == "play":
                break
            if action.do in _BIDS and seat != viewer and known[seat]:
                bids[seat] += 1
                misses[seat] += _MODEL.choose(seat_view(game, seat)) != action
            if action.do == "discard" and action.card is None:
                action = Action.discard(hands[dealer][-1])
            game.apply(seat, action)
    except (RuleError, ValueError):
        return None
    return bids, misses
