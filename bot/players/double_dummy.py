"""An exact double-dummy solver for the tricks of a deal: every hand face up.

Given all hands, trump, who sits out and the trick so far, it finds how many of
the remaining tricks a team takes when both sides play perfectly. Alpha-beta
search over single cards, a transposition table at the start of each trick
(holding bounds, so alpha-beta windows stay valid), and equivalent-card pruning
(touching cards of one suit in one hand are the same card to the search: only
one of them is tried). The lead restrictions of the house rules (no trump on
the first lead, trump must be broken) are kept.

The expert player solves many sampled deals with it; it knows nothing of what
any seat may see, so it must only ever be given sampled hands.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import pairwise

from bot.rules import HouseRules
from bot.rules.ranking import build_ranking


@dataclass
class Position:
    """A deal in its play phase with every hand known.

    ``hands`` are the seats' cards (seats sitting out are never asked to play);
    ``trick`` the (seat, card) pairs already played to this trick; ``turn`` the
    seat to play; ``tricks_left`` the tricks still to finish, the current one
    included; ``trump_broken`` whether trump was played to an earlier trick.
    """

    rules: HouseRules
    trump: int
    hands: list[list[int]]
    out: list[bool]
    turn: int
    trick: list[tuple[int, int]] = field(default_factory=list)
    tricks_left: int = 5
    trump_broken: bool = False


class Solver:
    """Solves positions of one rule set, trump suit and set of seats for one team.

    The transposition table is kept between calls, so one solver may serve
    many positions of the same deal (the sampled worlds of one decision).
    """

    def __init__(self, rules: HouseRules, trump: int, out: list[bool], team: int) -> None:
        ranking = build_ranking(rules)
        self.trump = trump
        self.eff = ranking.suit[trump]
        self.power = ranking.power[trump]
        self.later_equal_wins = ranking.later_equal_wins
        self.team = team
        self.hand_size = rules.hand_size
        self.no_first_lead = rules.no_trump_lead_first_trick
        self.must_break = rules.trump_must_be_broken
        n = rules.players
        self.next_seat = []
        for s in range(n):
            t = (s + 1) % n
            while out[t]:
                t = (t + 1) % n
            self.next_seat.append(t)
        self.active = n - sum(out)
        self.table: dict[tuple[object, ...], tuple[int, int]] = {}
        self.nodes = 0
        # each card's rank within the suit it follows, to find touching cards
        self.rank_in_suit = [
            max(self.power[led][c] for led in range(4)) for c in range(len(self.eff))
        ]

    def legal(self, hand: list[int], led: int, tricks_left: int, broken: bool) -> list[int]:
        """The cards of ``hand`` that may be played to a trick led in ``led`` (-1 when leading)."""
        eff = self.eff
        if led >= 0:
            follow = [c for c in hand if eff[c] == led]
            if follow:
                return follow
        elif (self.no_first_lead and tricks_left == self.hand_size) or (
            self.must_break and not broken
        ):
            trump = self.trump
            side = [c for c in hand if eff[c] != trump]
            if side:
                return side
        return list(hand)

    def values(self, pos: Position) -> dict[int, int]:
        """Each card the seat to play may play, with this team's tricks from here on after it."""
        hands = [list(h) for h in pos.hands]
        seats = [s for s, _ in pos.trick]
        cards = [c for _, c in pos.trick]
        led = self.eff[cards[0]] if cards else -1
        seat = pos.turn
        out: dict[int, int] = {}
        for card in dict.fromkeys(self.legal(hands[seat], led, pos.tricks_left, pos.trump_broken)):
            hands[seat].remove(card)
            seats.append(seat)
            cards.append(card)
            out[card] = self._after_play(
                hands, seats, cards, seat, pos.tricks_left, pos.trump_broken, -1, 99
            )
            cards.pop()
            seats.pop()
            hands[seat].append(card)
        return out

    def tricks(self, pos: Position) -> int:
        """This team's tricks from here on when both sides play perfectly."""
        hands = [list(h) for h in pos.hands]
        if not pos.trick:
            return self._trick(hands, pos.turn, pos.tricks_left, pos.trump_broken, -1, 99)
        seats = [s for s, _ in pos.trick]
        cards = [c for _, c in pos.trick]
        return self._play(hands, seats, cards, pos.turn, pos.tricks_left, pos.trump_broken, -1, 99)

    def _after_play(
        self,
        hands: list[list[int]],
        seats: list[int],
        cards: list[int],
        seat: int,
        tricks_left: int,
        broken: bool,
        alpha: int,
        beta: int,
    ) -> int:
        if len(cards) < self.active:
            return self._play(
                hands, seats, cards, self.next_seat[seat], tricks_left, broken, alpha, beta
            )
        winner = seats[self._winner(cards)]
        won = 1 if winner & 1 == self.team else 0
        if tricks_left == 1:
            return won
        if not broken:
            trump, eff = self.trump, self.eff
            broken = any(eff[c] == trump for c in cards)
        return won + self._trick(hands, winner, tricks_left - 1, broken, alpha - won, beta - won)

    def _last_trick(self, hands: list[list[int]], leader: int) -> int:
        """The last trick plays itself: one card each."""
        self.nodes += 1
        seats, cards = [], []
        seat = leader
        for _ in range(self.active):
            seats.append(seat)
            cards.append(hands[seat][0])
            seat = self.next_seat[seat]
        return 1 if seats[self._winner(cards)] & 1 == self.team else 0

    def _winner(self, cards: list[int]) -> int:
        power = self.power[self.eff[cards[0]]]
        best, best_power = 0, power[cards[0]]
        later = self.later_equal_wins
        for i in range(1, len(cards)):
            p = power[cards[i]]
            if p > best_power or (later and p == best_power):
                best, best_power = i, p
        return best

    def _trick(
        self,
        hands: list[list[int]],
        leader: int,
        tricks_left: int,
        broken: bool,
        alpha: int,
        beta: int,
    ) -> int:
        if tricks_left == 1:
            return self._last_trick(hands, leader)
        key = (leader, broken, *(tuple(sorted(h)) for h in hands))
        lo, hi = self.table.get(key, (0, tricks_left))
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        if lo == hi:
            return lo
        a, b = max(alpha, lo), min(beta, hi)
        value = self._play(hands, [], [], leader, tricks_left, broken, a, b)
        if value <= a:
            hi = value
        elif value >= b:
            lo = value
        else:
            lo = hi = value
        self.table[key] = (lo, hi)
        return value

    def _play(
        self,
        hands: list[list[int]],
        seats: list[int],
        cards: list[int],
        seat: int,
        tricks_left: int,
        broken: bool,
        alpha: int,
        beta: int,
    ) -> int:
        self.nodes += 1
        hand = hands[seat]
        led = self.eff[cards[0]] if cards else -1
        choices = self._distinct(self.legal(hand, led, tricks_left, broken), hands, seat, cards)
        if cards and len(choices) > 1 and seats[self._winner(cards)] & 1 == seat & 1:
            choices.reverse()  # partner is winning: try the cheapest card first
        maximizing = seat & 1 == self.team
        best = -1 if maximizing else 99
        for card in choices:
            hand.remove(card)
            seats.append(seat)
            cards.append(card)
            value = self._after_play(hands, seats, cards, seat, tricks_left, broken, alpha, beta)
            cards.pop()
            seats.pop()
            hand.append(card)
            if maximizing:
                if value > best:
                    best = value
                    if best > alpha:
                        alpha = best
            elif value < best:
                best = value
                if best < beta:
                    beta = best
            if alpha >= beta:
                break
        return best

    def _distinct(
        self, legal: list[int], hands: list[list[int]], seat: int, trick: list[int]
    ) -> list[int]:
        """One card of each run of touching cards (same suit, nothing between them elsewhere).

        Cards already on the current trick still separate runs: they can be beaten.
        """
        if len(legal) < 2:
            return legal
        eff = self.eff
        rank = self.rank_in_suit
        legal = sorted(set(legal), key=rank.__getitem__, reverse=True)
        others = [c for s, h in enumerate(hands) if s != seat for c in h]
        others += trick
        kept = [legal[0]]
        for prev, card in pairwise(legal):
            suit = eff[card]
            if eff[prev] == suit and not any(
                eff[o] == suit and rank[card] < rank[o] < rank[prev] for o in others
            ):
                continue
            kept.append(card)
        return kept
