"""An exact double-dummy solver for the tricks of a deal: every hand face up.

Given all hands, trump, who sits out and the trick so far, it finds how many of
the remaining tricks a team takes when both sides play perfectly. Alpha-beta
search over single cards, a transposition table at the start of each trick
(holding bounds, so alpha-beta windows stay valid), and equivalent-card pruning
(touching cards of one suit in one hand are the same card to the search: only
one of them is tried). The lead restrictions of the house rules (no trump on
the first lead, trump must be broken) are kept.

For speed, a set of cards is also an integer (two bits a card, so a double
pack's copies count): the table's keys are one such number per hand, and with
one pack a mask of the cards still out tells touching cards apart in one step.

The expert player solves many sampled deals with it; it knows nothing of what
any seat may see, so it must only ever be given sampled hands.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from itertools import pairwise

from bot.rules import HouseRules
from bot.rules.play import play_order
from bot.rules.ranking import best_card, build_ranking

CARD_BITS = 2
"""Bits a card takes in a card-set number: room for a double pack's two copies."""


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
        tables = _tables(rules, trump)
        self.trump = trump
        self.eff = tables.eff
        self.power = tables.power
        self.later_equal_wins = tables.later_equal_wins
        self.team = team
        self.hand_size = tables.hand_size
        self.no_first_lead = tables.no_first_lead
        self.must_break = tables.must_break
        self.next_seat = list(play_order(out))
        self.active = len(out) - sum(out)
        self.table: dict[tuple[object, ...], tuple[int, int]] = {}
        self.nodes = 0
        # each card's rank within the suit it follows, to find touching cards
        self.rank_in_suit = tables.rank_in_suit
        self.between = tables.between
        self.weight = _WEIGHT
        self.single_pack = tables.single_pack

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

    def values(self, pos: Position, only: list[int] | None = None) -> dict[int, int]:
        """Each card the seat to play may play, with this team's tricks from here on after it.

        ``only`` limits the cards valued to those given.
        """
        hands = [list(h) for h in pos.hands]
        nums = [self._number(h) for h in hands]
        live = sum(nums) + sum(self.weight[c] for _, c in pos.trick)
        led = self.eff[pos.trick[0][1]] if pos.trick else -1
        seat = pos.turn
        out: dict[int, int] = {}
        for card in dict.fromkeys(self.legal(hands[seat], led, pos.tricks_left, pos.trump_broken)):
            if only is not None and card not in only:
                continue
            hands[seat].remove(card)
            nums[seat] -= self.weight[card]
            trick = [*pos.trick, (seat, card)]
            out[card] = self._after(hands, nums, live, trick, self.next_seat[seat], pos)
            nums[seat] += self.weight[card]
            hands[seat].append(card)
        return out

    def tricks(self, pos: Position) -> int:
        """This team's tricks from here on when both sides play perfectly."""
        hands = [list(h) for h in pos.hands]
        nums = [self._number(h) for h in hands]
        live = sum(nums) + sum(self.weight[c] for _, c in pos.trick)
        if not pos.trick:
            return self._trick(
                hands, nums, live, pos.turn, pos.tricks_left, pos.trump_broken, -1, 99
            )
        return self._after(hands, nums, live, pos.trick, pos.turn, pos)

    def _after(
        self,
        hands: list[list[int]],
        nums: list[int],
        live: int,
        trick: list[tuple[int, int]],
        seat: int,
        pos: Position,
    ) -> int:
        """This team's tricks, searched with the whole window, once ``trick`` is on the table.

        ``live`` holds every card in a hand or on ``trick``; ``seat`` plays next unless
        ``trick`` is complete.
        """
        cards = [c for _, c in trick]
        win_seat, win_power = self._winning(trick)
        left, broken = pos.tricks_left, pos.trump_broken
        if len(cards) < self.active:
            return self._play(
                hands, nums, live, cards, seat, left, broken, -1, 99, win_seat, win_power
            )
        return self._trick_done(hands, nums, live, cards, win_seat, left, broken, -1, 99)

    def _number(self, cards: list[int]) -> int:
        """The card-set number of ``cards``."""
        weight = self.weight
        return sum(weight[c] for c in cards)

    def _winning(self, trick: list[tuple[int, int]]) -> tuple[int, int]:
        """The seat winning a trick so far, and the power of its card."""
        cards = [c for _, c in trick]
        seat, card = trick[self._winner(cards)]
        return seat, self.power[self.eff[cards[0]]][card]

    def _trick_done(
        self,
        hands: list[list[int]],
        nums: list[int],
        live: int,
        cards: list[int],
        winner: int,
        tricks_left: int,
        broken: bool,
        alpha: int,
        beta: int,
    ) -> int:
        """This team's tricks from the end of a trick (its own included) on."""
        won = 1 if winner & 1 == self.team else 0
        if tricks_left == 1:
            return won
        if not broken:
            broken = self.trump in map(self.eff.__getitem__, cards)
        weight = self.weight
        for c in cards:
            live -= weight[c]
        return won + self._trick(
            hands, nums, live, winner, tricks_left - 1, broken, alpha - won, beta - won
        )

    def _last_trick(self, hands: list[list[int]], leader: int) -> int:
        """The last trick plays itself: one card each."""
        self.nodes += 1
        next_seat = self.next_seat
        card = hands[leader][0]
        power = self.power[self.eff[card]]
        later = self.later_equal_wins
        best_seat, best = leader, power[card]
        seat = next_seat[leader]
        for _ in range(self.active - 1):
            p = power[hands[seat][0]]
            if p > best or (later and p == best):
                best_seat, best = seat, p
            seat = next_seat[seat]
        return 1 if best_seat & 1 == self.team else 0

    def _winner(self, cards: list[int]) -> int:
        return best_card(cards, self.power[self.eff[cards[0]]], self.later_equal_wins)

    def _trick(
        self,
        hands: list[list[int]],
        nums: list[int],
        live: int,
        leader: int,
        tricks_left: int,
        broken: bool,
        alpha: int,
        beta: int,
    ) -> int:
        if tricks_left == 1:
            return self._last_trick(hands, leader)
        key = (leader, broken, *nums)
        lo, hi = self.table.get(key, (0, tricks_left))
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        if lo == hi:
            return lo
        a, b = max(alpha, lo), min(beta, hi)
        value = self._play(hands, nums, live, [], leader, tricks_left, broken, a, b, -1, -1)
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
        nums: list[int],
        live: int,
        cards: list[int],
        seat: int,
        tricks_left: int,
        broken: bool,
        alpha: int,
        beta: int,
        win_seat: int,
        win_power: int,
    ) -> int:
        """The value of the position with ``seat`` to play to ``cards``, ``win_seat`` winning."""
        self.nodes += 1
        hand = hands[seat]
        eff = self.eff
        if cards:
            led = eff[cards[0]]
            legal = [c for c in hand if eff[c] == led] or hand[:]
        else:
            led = -1
            legal = self.legal(hand, -1, tricks_left, broken)
        if len(legal) > 1:
            if self.single_pack:
                choices = self._runs(legal, live)
            else:
                choices = self._distinct(legal, hands, seat, cards)
            if cards and len(choices) > 1 and win_seat & 1 == seat & 1:
                choices.reverse()  # partner is winning: try the cheapest card first
        else:
            choices = legal
        maximizing = seat & 1 == self.team
        best = -1 if maximizing else 99
        weight = self.weight
        power = self.power
        later = self.later_equal_wins
        last = len(cards) + 1 == self.active
        follower = self.next_seat[seat]
        for card in choices:
            w = weight[card]
            hand.remove(card)
            nums[seat] -= w
            cards.append(card)
            if led < 0:
                new_seat, new_power = seat, power[eff[card]][card]
            else:
                p = power[led][card]
                if p > win_power or (later and p == win_power):
                    new_seat, new_power = seat, p
                else:
                    new_seat, new_power = win_seat, win_power
            if last:
                value = self._trick_done(
                    hands, nums, live, cards, new_seat, tricks_left, broken, alpha, beta
                )
            else:
                value = self._play(
                    hands,
                    nums,
                    live,
                    cards,
                    follower,
                    tricks_left,
                    broken,
                    alpha,
                    beta,
                    new_seat,
                    new_power,
                )
            cards.pop()
            nums[seat] += w
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

    def _runs(self, legal: list[int], live: int) -> list[int]:
        """``_distinct`` for one pack: the highest card of each run, highest first.

        ``live`` holds every card in a hand or on the current trick; two cards of
        one suit, next to each other among ``legal``, touch when none of those
        lies between them (the seat's own cards between them are all in ``legal``).
        """
        rank = self.rank_in_suit
        between = self.between
        legal = sorted(legal, key=rank.__getitem__, reverse=True)
        kept = [legal[0]]
        for prev, card in pairwise(legal):
            if between[prev][card] < 0 or between[prev][card] & live:
                kept.append(card)
        return kept

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


_WEIGHT = [1 << (CARD_BITS * c) for c in range(64)]
"""Each card's number in a card-set number."""


@dataclass(frozen=True)
class _Tables:
    """What a solver looks up for one rule set and trump suit, built once."""

    eff: tuple[int, ...]
    power: tuple[tuple[int, ...], ...]
    later_equal_wins: bool
    hand_size: int
    no_first_lead: bool
    must_break: bool
    single_pack: bool
    rank_in_suit: list[int]
    """Each card's rank in the suit it follows."""
    between: list[list[int]]
    """``between[a][b]``: the card-set number of the cards of their suit ranking strictly
    between ``b`` and ``a`` (``a`` the higher), or -1 when the two follow different suits."""


@lru_cache(maxsize=64)
def _tables(rules: HouseRules, trump: int) -> _Tables:
    ranking = build_ranking(rules)
    eff = ranking.suit[trump]
    power = ranking.power[trump]
    count = len(eff)
    rank = [max(power[led][c] for led in range(4)) for c in range(count)]
    between = [[-1] * count for _ in range(count)]
    for a in range(count):
        for b in range(count):
            if eff[a] == eff[b] and a != b:
                between[a][b] = sum(
                    1 << (CARD_BITS * o)
                    for o in range(count)
                    if eff[o] == eff[a] and rank[b] < rank[o] < rank[a]
                )
    return _Tables(
        eff,
        power,
        ranking.later_equal_wins,
        rules.hand_size,
        rules.no_trump_lead_first_trick,
        rules.trump_must_be_broken,
        rules.packs == 1,
        rank,
        between,
    )
