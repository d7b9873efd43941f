"""Each seat read from the game's earlier deals: whose bidding it follows, and how closely.

The expert reads the other seats' hands from their bids (``inference``): a
model of how people bid says what a seat would have bid holding a sampled
hand, and a world in which the seat bid otherwise is kept with
``BID_SURPRISE`` for each such bid. That is right for a seat that bids about
as the model does. A seat that orders up on two small trumps now and then, or
passes hands the model would order, is read too strictly: the expert then sees
strong hands behind its bids that are not there. And the expert's own partner,
when it is an expert too, bids by the learnt models, not by basic's count.

The deals already played tell which bidding a seat follows and how closely.
Once a deal is over, every hand that played it out is known, but for the
dealer's discard (``SeatView.earlier``). Each bid another seat made in those
deals is asked again of each bidding style (``bid_styles``: basic's count, and
the expert's learnt bidder with a partner like basic and with a partner like
itself), with that seat's hand as dealt and at the score of the time; where
the dealer's discard is hidden, a bid counts as a style's if the style makes
it with some card the dealer may have discarded.

A seat is read by the style it missed least (basic's on a tie, and before any
evidence). With ``misses`` of its ``bids`` unlike that style, it is taken to bid
unlike it with the chance ``(misses + PRIOR * MISS_RATE) / (bids + PRIOR)``,
and a world in which it bid unlike the style is kept with the odds of that
chance, never less than ``LENIENCY_FLOOR``. Before any evidence that is
``BID_SURPRISE``; a seat whose every bid so far followed its style is read
more strictly with each bid, down to the floor.

Whether a seat bids like an expert is asked apart (``experts``): yes until it
has missed the expert's styles more often than basic's, for a computer's
partner at a table is most often a computer of the same level. The expert makes
trump or passes by the model learnt with an expert partner while its partners
read so.

Only the view is read: the hands come from the cards played in finished deals.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

from bot.rules import Action, HouseRules, PastDeal, RuleError, SeatView, make_game, seat_view
from bot.rules.dealing import Deal

from .basic import BasicPlayer
from .deck import deck_facts
from .inference import BID_SURPRISE
from .learnt_bidder import expert_bidder
from .protocol import Player

MISS_RATE = BID_SURPRISE / (1 + BID_SURPRISE)
"""The chance of a bid unlike the model that ``BID_SURPRISE`` stands for (its odds)."""
PRIOR = 4.0
"""How many bids' worth of belief a seat starts with that it bids with ``MISS_RATE``."""
LENIENCY_FLOOR = 0.02
"""The least chance of keeping a world per surprising bid, however closely a seat has bid.

A seat with no misses reaches it after about 14 bids (two to three deals). The
people at a table are never read as certain to bid by a model; basic itself,
the arena's opponent, never misses.
"""

_BIDS = frozenset({"pass", "order_up", "call", "alone"})


@dataclass(frozen=True, slots=True)
class TableReading:
    """Per seat: the bidding style its bids are read by, and its leniency (see the module)."""

    bidders: tuple[Player, ...]
    leniency: tuple[float, ...]
    experts: tuple[bool, ...]
    """Whether the seat's bids so far are no further from an expert's than from basic's."""


@lru_cache(maxsize=16)
def bid_styles(rules: HouseRules) -> tuple[Player, ...]:
    """The ways of bidding a seat is read by: basic's count first, then the expert's bidders.

    The expert's bidder with a partner like basic, then with a partner like itself.
    """
    return (
        BasicPlayer(0),
        expert_bidder(0, rules.preset),
        expert_bidder(0, rules.preset, expert_partner=True),
    )


def read_table(view: SeatView) -> TableReading:
    """How to read each seat's bids, from the deals this game has finished."""
    n = view.players
    styles = bid_styles(view.rules)
    bids = [0] * n
    misses = [[0] * len(styles) for _ in range(n)]
    for past in view.earlier:
        for seat, (count, missed) in enumerate(bid_misses(view.rules, view.seat, past)):
            bids[seat] += count
            for k, m in enumerate(missed):
                misses[seat][k] += m
    chosen = [min(range(len(styles)), key=lambda k: (misses[seat][k], k)) for seat in range(n)]
    return TableReading(
        tuple(styles[k] for k in chosen),
        tuple(leniency(bids[seat], misses[seat][k]) for seat, k in enumerate(chosen)),
        tuple(min(missed[1:]) <= missed[0] for missed in misses),
    )


def leniency(bids: int, misses: int) -> float:
    """The chance of keeping a world per surprising bid of a seat with ``misses`` of ``bids``."""
    chance = (misses + PRIOR * MISS_RATE) / (bids + PRIOR)
    if chance >= 0.5:
        return 1.0
    return max(LENIENCY_FLOOR, chance / (1.0 - chance))


@lru_cache(maxsize=4096)
def bid_misses(
    rules: HouseRules, viewer: int, past: PastDeal
) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Per seat, the bids read in a finished deal and how many each style would not have made.

    A seat's bids are read when its whole hand as dealt is known from its plays
    (not a loner's partner, nor any seat of a deal with cards passed or
    swapped); never the viewer's own.
    """
    n = rules.players
    size = rules.hand_size
    styles = len(bid_styles(rules))
    none: tuple[tuple[int, tuple[int, ...]], ...] = ((0, (0,) * styles),) * n
    if any(a.do in ("give", "swap", "ask") for _, a in past.history):
        return none
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
        return none
    rest = dict(deck_facts(rules).copies)
    for card in (c for cards in played for c in cards):
        rest[card] = rest.get(card, 0) - 1
    if not discarded:
        rest[past.upcard] = rest.get(past.upcard, 0) - 1
    pool = sorted(card for card, copies in rest.items() for _ in range(copies))
    candidates: list[int | None] = [None]
    if discarded and discard is None:
        candidates = [card for card in sorted(set(pool))]
    best: list[list[int]] | None = None
    bids: list[int] = [0] * n
    for candidate in candidates:
        read = _replay(rules, viewer, past, played, known, pool, candidate)
        if read is None:
            continue
        bids, missed = read
        if best is None:
            best = missed
        else:
            best = [
                [min(a, b) for a, b in zip(x, y, strict=True)]
                for x, y in zip(best, missed, strict=True)
            ]
    if best is None:
        return none
    return tuple((bids[s], tuple(best[s])) for s in range(n))


def _replay(
    rules: HouseRules,
    viewer: int,
    past: PastDeal,
    played: list[list[int]],
    known: list[bool],
    pool: list[int],
    hidden: int | None,
) -> tuple[list[int], list[list[int]]] | None:
    """The deal's bidding replayed, the dealer's discard ``hidden`` where not seen: bids, misses."""
    n = rules.players
    size = rules.hand_size
    styles = bid_styles(rules)
    rest = list(pool)
    hands = [list(cards) for cards in played]
    dealer = past.dealer
    discard = next((a for _, a in past.history if a.do == "discard"), None)
    if discard is not None:
        card = discard.card if discard.card is not None else hidden
        if card is None or past.upcard not in hands[dealer] or card not in rest:
            return None
        hands[dealer].remove(past.upcard)
        hands[dealer].append(card)
        rest.remove(card)
    for seat in range(n):
        if not known[seat]:
            hands[seat] = rest[:size]
            del rest[:size]
    bids = [0] * n
    misses = [[0] * len(styles) for _ in range(n)]
    try:
        deal = Deal(tuple(tuple(h) for h in hands), past.upcard, tuple(rest))
        game = make_game(rules, dealer=dealer, deals=[deal])
        for seat, action in past.history:
            if action.do == "play":
                break
            if action.do in _BIDS and seat != viewer and known[seat]:
                bids[seat] += 1
                seen = replace(seat_view(game, seat), score=past.score)
                for k, style in enumerate(styles):
                    misses[seat][k] += style.choose(seen) != action
            if action.do == "discard" and action.card is None:
                action = Action.discard(hands[dealer][-1])
            game.apply(seat, action)
    except (RuleError, ValueError):
        return None
    return bids, misses
