"""Whether a seat's own cards take every remaining trick, whatever the unseen cards are.

Decided from one seat's view only (its hand, the cards played, the upcard's
fate, its own discard: see tracking.py), so offering a claim gives nothing
away. The claim is the play of bot/rules/claims.py: the claimer plays its
highest legal card each time, so its cards are known in advance, trick by
trick, as long as it takes every trick. The claim holds when no other seat
still in the deal (a partner too: its cards must not take a trick from the
claimer's) can hold a card that beats the claimer's card of some trick and
still have it, legally playable, when that trick comes.

Each other seat is searched on its own: for every unseen card ``x`` it may hold
that beats one of the claimer's cards, whether some hand of its size with
``x`` in it, of the cards it may hold, can keep ``x`` through the tricks
before (following suit where it must) and play it then. Only how many cards
of each suit the rest of that hand holds matters to following suit, so the
search runs over those counts. Treating each seat on its own lets it hold
cards another seat may hold too: that only ever finds more threats, so a
claim the search allows is certain.
"""

from __future__ import annotations

from bot.rules import SeatView
from bot.rules.claims import highest_card
from bot.rules.ranking import trick_winner_index

from .deck import deck_facts
from .double_dummy import Solver
from .tracking import Knowledge

__all__ = ["can_claim", "claim_now", "claimed_tricks"]

_SUITS = 4


def claimed_tricks(view: SeatView) -> int:
    """The tricks a claim by the viewing seat would take now: those not finished yet."""
    return view.rules.hand_size - len(view.tricks)


def claim_now(view: SeatView) -> bool:
    """Whether the seat, on its turn, may claim the rest: what a computer asks before it plays."""
    return view.my_turn and can_claim(view)


def can_claim(view: SeatView) -> bool:
    """Whether the viewing seat's own cards take every remaining trick, whatever is unseen.

    The seat must be playing the deal, and either be to play or have played to
    the trick in progress already; its card of that trick must be winning it.
    """
    if view.phase != "play" or view.trump is None or view.seat < 0 or view.out[view.seat]:
        return False
    plan = _plan(view)
    if plan is None:
        return False
    know = Knowledge.read(view)
    played = {s for s, _ in view.trick}
    for seat in know.opponents() + _partners(view):
        if view.hand_counts[seat] == 0:
            continue
        first = 1 if seat in played else 0
        if _can_beat(know, seat, plan, first):
            return False
    return True


def _partners(view: SeatView) -> list[int]:
    """The claimer's partners still in the deal: their cards must not beat its cards either."""
    team = view.seat % 2
    return [s for s in range(view.players) if s != view.seat and s % 2 == team and not view.out[s]]


def _plan(view: SeatView) -> list[tuple[int, int]] | None:
    """The claimer's card and the suit led, for each trick left; None when it cannot claim now.

    The first entry is the trick in progress (or the one the claimer leads).
    """
    assert view.trump is not None
    trump = view.trump
    ranking = deck_facts(view.rules).ranking
    eff = ranking.suit[trump]
    hand = list(view.hand)
    cards = [c for _, c in view.trick]
    seats = [s for s, _ in view.trick]
    broken = any(eff[c] == trump for t in view.tricks for c in t.cards)
    plan: list[tuple[int, int]] = []
    if view.seat in seats:
        mine = seats.index(view.seat)
        if trick_winner_index(cards, trump, ranking) != mine:
            return None
        plan.append((cards[mine], eff[cards[0]]))
    elif view.my_turn:
        legal = [a.card for a in view.legal if a.card is not None]
        led = eff[cards[0]] if cards else -1
        card = highest_card(legal, trump, led, ranking)
        if cards and trick_winner_index([*cards, card], trump, ranking) != len(cards):
            return None
        plan.append((card, eff[card] if led < 0 else led))
        hand.remove(card)
    else:
        return None
    broken = broken or any(eff[c] == trump for c in cards) or eff[plan[0][0]] == trump
    solver = Solver(view.rules, trump, list(view.out), view.team)
    while hand:
        legal = solver.legal(hand, -1, len(hand), broken)
        card = highest_card(legal, trump, -1, ranking)
        plan.append((card, eff[card]))
        hand.remove(card)
        broken = broken or eff[card] == trump
    return plan


def _can_beat(know: Knowledge, seat: int, plan: list[tuple[int, int]], first: int) -> bool:
    """Whether ``seat``, playing to tricks ``first`` on of ``plan``, may take one from the claimer.

    ``seat`` plays after the claimer in each of those tricks (the claimer
    leads all but the first, and of the first only seats still to play count).
    """
    power = know.facts.ranking.power[know.trump]
    later = know.facts.later_equal_wins
    eff = know.eff
    size = know.view.hand_counts[seat]
    holdable = [c for c in know.unseen if know.could_hold(seat, c)]
    for x in holdable:
        threats = [
            k for k in range(first, len(plan)) if _beats(power[plan[k][1]], x, plan[k][0], later)
        ]
        if not threats:
            continue
        caps = [0] * _SUITS
        for c in holdable:
            caps[eff[c]] += know.unseen[c] - (1 if c == x else 0)
        if sum(caps) < size - 1:
            continue
        search = _Keeping(plan, eff[x], frozenset(threats), first + size)
        if any(search.fires(first, rest) for rest in _splits(caps, size - 1)):
            return True
    return False


def _beats(power: tuple[int, ...], card: int, best: int, later_equal_wins: bool) -> bool:
    """Whether ``card``, played after ``best`` to a trick with these powers, takes it."""
    return power[card] > power[best] or (
        later_equal_wins and power[card] == power[best] and power[card] != 0
    )


def _splits(caps: list[int], total: int) -> list[tuple[int, ...]]:
    """Every way to hold ``total`` cards, so many of each suit, at most ``caps`` of each."""
    found: list[tuple[int, ...]] = []

    def build(suit: int, left: int, acc: tuple[int, ...]) -> None:
        if suit == _SUITS - 1:
            if left <= caps[suit]:
                found.append((*acc, left))
            return
        for n in range(min(left, caps[suit]) + 1):
            build(suit + 1, left - n, (*acc, n))

    build(0, total, ())
    return found


class _Keeping:
    """One seat keeping one card ``x`` (of suit ``suit``) back for a trick where it wins.

    The rest of the hand is its count of cards of each suit. ``fires`` tells
    whether some legal way of playing the tricks from ``k`` on keeps ``x`` to a
    trick in ``threats`` where ``x`` may be played (its suit was led, or the
    seat holds none of the suit led).
    """

    def __init__(
        self, plan: list[tuple[int, int]], suit: int, threats: frozenset[int], end: int
    ) -> None:
        self.led = [led for _, led in plan]
        self.suit = suit
        self.threats = threats
        self.end = min(end, len(plan))
        self.seen: set[tuple[int, tuple[int, ...]]] = set()

    def fires(self, k: int, rest: tuple[int, ...]) -> bool:
        """Whether, holding ``x`` and ``rest`` before trick ``k``, the seat may beat the claimer."""
        if k >= self.end or (k, rest) in self.seen:
            return False
        self.seen.add((k, rest))
        led = self.led[k]
        if k in self.threats and (self.suit == led or rest[led] == 0):
            return True
        if rest[led] > 0:
            return self.fires(k + 1, _less(rest, led))
        if self.suit == led:
            return False
        return any(self.fires(k + 1, _less(rest, s)) for s in range(_SUITS) if rest[s] > 0)


def _less(rest: tuple[int, ...], suit: int) -> tuple[int, ...]:
    """``rest`` with one card of ``suit`` played."""
    return tuple(n - 1 if s == suit else n for s, n in enumerate(rest))
