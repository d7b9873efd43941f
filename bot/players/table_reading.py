"""Each seat read by the earlier deals: whose bidding it follows, how closely it bids and plays.

The expert reads the other seats' hands from their bids and cards
(``inference``): a model of how people bid and play says what a seat would
have done holding a sampled hand, and a world in which the seat did otherwise
is kept with ``BID_SURPRISE`` for each such bid and ``PLAY_SURPRISE`` for each
such card. That is right for a seat that bids and plays about as the model
does. A seat that orders up on two small trumps now and then, or passes hands
the model would order, is read too strictly: the expert then sees strong hands
behind its bids that are not there. A seat that never plays a card the model
would not is read too loosely: a world in which it would have played the ace
it is holding stays in half the time. And the expert's own partner, when it
is an expert too, bids by the learnt models, not by basic's count.

The deals already played tell which bidding a seat follows and how closely.
Once a deal is over, every hand that played it out is known, but for the
dealer's discard (``SeatView.earlier``). Each bid another seat made in those
deals is asked again of each bidding style (``bid_styles``: basic's count, and
the expert's learnt bidder with a partner like basic and with a partner like
itself), with that seat's hand as dealt and at the score of the time; where
the dealer's discard is hidden, a bid counts as a style's if the style makes
it with some card the dealer may have discarded. Each card it played is asked
again of basic, the model the cards are read by, where the seat had a choice.

A seat is read by the style it missed least (basic's on a tie, and before any
evidence). With ``misses`` of its ``bids`` unlike that style, it is taken to bid
unlike it with the chance ``(misses + PRIOR * MISS_RATE) / (bids + PRIOR)``,
and a world in which it bid unlike the style is kept with the odds of that
chance, never less than ``LENIENCY_FLOOR``. Before any evidence that is
``BID_SURPRISE``; a seat whose every bid so far followed its style is read
more strictly with each bid, down to the floor. Its cards are read the same
way (``play_leniency``), from ``PLAY_SURPRISE`` before any evidence.

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

from bot.rules import Action, HouseRules, PastDeal, RulesError, SeatView, new_game, seat_view
from bot.rules.dealing import Deal

from .basic import BasicPlayer
from .deck import deck_facts
from .inference import BID_SURPRISE, PLAY_SURPRISE
from .learnt_bidder import expert_bidder
from .protocol import Player

MISS_RATE = BID_SURPRISE / (1 + BID_SURPRISE)
"""The chance of a bid unlike the model that ``BID_SURPRISE`` stands for (its odds)."""
PLAY_MISS_RATE = PLAY_SURPRISE / (1 + PLAY_SURPRISE)
"""The same for a card unlike the model, ``PLAY_SURPRISE``."""
PRIOR = 4.0
"""How many bids' (or cards') worth of belief a seat starts with that it misses at that rate."""
LENIENCY_FLOOR = 0.02
"""The least chance of keeping a world per surprising bid or card, however closely a seat has bid.

A seat with no misses reaches it after about 14 bids (two to three deals), or
64 cards where it had a choice (some twenty deals). The people at a table are
never read as certain to bid or play by a model; basic itself, the arena's
opponent, never misses.
"""

_BIDS = frozenset({"pass", "order_up", "call", "alone"})


@dataclass(frozen=True, slots=True)
class TableReading:
    """Per seat: the bidding style its bids are read by, and its leniency (see the module)."""

    bidders: tuple[Player, ...]
    leniency: tuple[float, ...]
    experts: tuple[bool, ...]
    """Whether the seat's bids so far are no further from an expert's than from basic's."""
    play_leniency: tuple[float, ...]
    """The chance of keeping a world per card in it basic would not have played, by seat."""


@dataclass(frozen=True, slots=True)
class SeatCount:
    """One seat's actions read in a finished deal, and how many each model would not have taken."""

    bids: int
    misses: tuple[int, ...]
    """Per bidding style (``bid_styles``), the bids it would not have made."""
    plays: int = 0
    """The cards it played where it had a choice."""
    play_misses: int = 0
    """Of those, the cards basic would not have played."""


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
    """How to read each seat's bids and cards, from the deals this game has finished."""
    n = view.players
    styles = bid_styles(view.rules)
    bids = [0] * n
    misses = [[0] * len(styles) for _ in range(n)]
    plays = [0] * n
    play_misses = [0] * n
    for past in view.earlier:
        for seat, count in enumerate(deal_misses(view.rules, view.seat, past)):
            bids[seat] += count.bids
            for k, m in enumerate(count.misses):
                misses[seat][k] += m
            plays[seat] += count.plays
            play_misses[seat] += count.play_misses
    chosen = [min(range(len(styles)), key=lambda k: (misses[seat][k], k)) for seat in range(n)]
    return TableReading(
        tuple(styles[k] for k in chosen),
        tuple(leniency(bids[seat], misses[seat][k]) for seat, k in enumerate(chosen)),
        tuple(min(missed[1:]) <= missed[0] for missed in misses),
        tuple(leniency(plays[s], play_misses[s], PLAY_MISS_RATE) for s in range(n)),
    )


def leniency(actions: int, misses: int, rate: float = MISS_RATE) -> float:
    """The chance of keeping a world per surprise of a seat with ``misses`` of ``actions``.

    ``rate`` is the chance of a miss believed before any evidence (``MISS_RATE``
    for bids, ``PLAY_MISS_RATE`` for cards).
    """
    chance = (misses + PRIOR * rate) / (actions + PRIOR)
    if chance >= 0.5:
        return 1.0
    return max(LENIENCY_FLOOR, chance / (1.0 - chance))


@lru_cache(maxsize=4096)
def deal_misses(rules: HouseRules, viewer: int, past: PastDeal) -> tuple[SeatCount, ...]:
    """Per seat, the bids and cards read in a finished deal and how many each model would not have.

    A seat is read when its whole hand as dealt is known from its plays (not a
    loner's partner, nor any seat of a deal with cards passed or swapped);
    never the viewer's own. Where the dealer's discard is hidden, each count is
    the least over the cards it may have been.
    """
    n = rules.players
    size = rules.hand_size
    styles = len(bid_styles(rules))
    none = (SeatCount(0, (0,) * styles),) * n
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
    best: list[SeatCount] | None = None
    for candidate in candidates:
        read = _replay(rules, viewer, past, played, known, pool, candidate)
        if read is None:
            continue
        if best is None:
            best = read
        else:
            best = [
                SeatCount(
                    x.bids,
                    tuple(min(a, b) for a, b in zip(x.misses, y.misses, strict=True)),
                    x.plays,
                    min(x.play_misses, y.play_misses),
                )
                for x, y in zip(best, read, strict=True)
            ]
    if best is None:
        return none
    return tuple(best)


def _replay(
    rules: HouseRules,
    viewer: int,
    past: PastDeal,
    played: list[list[int]],
    known: list[bool],
    pool: list[int],
    hidden: int | None,
) -> list[SeatCount] | None:
    """The deal replayed, the dealer's discard ``hidden`` where not seen: each seat's count."""
    n = rules.players
    size = rules.hand_size
    styles = bid_styles(rules)
    model = styles[0]
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
    plays = [0] * n
    play_misses = [0] * n
    try:
        deal = Deal(tuple(tuple(h) for h in hands), past.upcard, tuple(rest))
        game = new_game(rules, dealer=dealer, deals=[deal])
        for seat, action in past.history:
            if seat != viewer and known[seat]:
                if action.do in _BIDS:
                    bids[seat] += 1
                    seen = replace(seat_view(game, seat), score=past.score)
                    for k, style in enumerate(styles):
                        misses[seat][k] += style.choose(seen) != action
                elif action.do == "play":
                    seen = seat_view(game, seat)
                    if len(set(seen.legal)) > 1:
                        plays[seat] += 1
                        play_misses[seat] += model.choose(seen) != action
            if action.do == "discard" and action.card is None:
                action = Action.discard(hands[dealer][-1])
            game.apply(seat, action)
    except (RulesError, ValueError):
        return None
    return [SeatCount(bids[s], tuple(misses[s]), plays[s], play_misses[s]) for s in range(n)]
