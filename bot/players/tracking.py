"""What a seat can work out from its view during the play: unseen cards, voids, who may win.

Everything comes from the SeatView: the seat's own hand, discard and
farmer's swap, the tricks played so far, the upcard's fate and the cards this
seat handed to a lone partner. Nothing here looks at another hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.rules import SeatView

from .deck import DeckFacts, deck_facts


@dataclass(slots=True)
class Knowledge:
    """One seat's public knowledge of the deal in play, with trump made."""

    view: SeatView
    facts: DeckFacts
    trump: int
    unseen: dict[int, int]
    """Cards that another seat (or the face-down rest) may hold, with copies (none: absent).

    A plain dict, not a ``Counter``: read for every card the expert's samples replay."""
    voids: tuple[set[int], ...]
    """Per seat, the suits it has shown out of."""
    holder: dict[int, int]
    """Cards known to sit in a given seat's hand: the upcard the dealer took, a card passed."""
    eff: tuple[int, ...] = ()
    """The suit each card follows this deal (``suit`` as a table, for the hot loops)."""
    against: tuple[int, ...] = ()
    """The opponents still in the deal."""

    def __init__(
        self,
        view: SeatView,
        facts: DeckFacts,
        trump: int,
        unseen: dict[int, int],
        voids: tuple[set[int], ...],
        holder: dict[int, int],
        eff: tuple[int, ...] = (),
        against: tuple[int, ...] = (),
    ) -> None:
        # By hand, not dataclass's: compiled by mypyc this one is native code.
        self.view = view
        self.facts = facts
        self.trump = trump
        self.unseen = unseen
        self.voids = voids
        self.holder = holder
        self.eff = eff
        self.against = against

    @classmethod
    def read(cls, view: SeatView) -> Knowledge:
        """Work out what ``view``'s seat knows; trump must be made."""
        assert view.trump is not None
        facts = deck_facts(view.rules)
        trump = view.trump
        # In the pack's order, which the dict of the cards left keeps and sampling uses.
        unseen = dict(facts.copies)
        get = unseen.get
        for card in view.hand:
            unseen[card] = get(card, 0) - 1
        played: list[tuple[int, int]] = []
        for trick in view.tricks:
            played += zip(trick.seats, trick.cards, strict=True)
        played += view.trick
        for _, card in played:
            unseen[card] = get(card, 0) - 1
        holder: dict[int, int] = {}
        if not view.upcard_taken:
            unseen[view.upcard] = get(view.upcard, 0) - 1
        elif view.dealer != view.seat and (view.dealer, view.upcard) not in played:
            holder[view.upcard] = view.dealer
        swapped_out: tuple[int, ...] = ()
        for seat, action in view.history:
            mine = seat == view.seat
            if mine and action.do == "discard" and action.card is not None:
                unseen[action.card] = get(action.card, 0) - 1
            elif mine and action.do == "give" and action.card is not None:
                receiver = _receiver(view, seat)
                if receiver is not None and (receiver, action.card) not in played:
                    holder[action.card] = receiver
            elif mine and action.do == "swap":
                swapped_out = action.cards or ()
            elif action.do == "swap" and swapped_out:
                # A later farmer's hand takes the cards this seat put under the kitty.
                holder.update((c, seat) for c in swapped_out if (seat, c) not in played)
                swapped_out = ()
        for card in swapped_out:
            unseen[card] = get(card, 0) - 1
        left = {c: n for c, n in unseen.items() if n > 0}
        team = view.seat % 2
        against = tuple(s for s in range(view.players) if s % 2 != team and not view.out[s])
        eff = facts.ranking.suit[trump]
        return cls(view, facts, trump, left, _voids(view, facts, trump), holder, eff, against)

    # ------------------------------------------------------------------ single facts

    def suit(self, card: int) -> int:
        """The suit ``card`` follows this deal."""
        return self.eff[card]

    def is_trump(self, card: int) -> bool:
        """Whether ``card`` is a trump this deal."""
        return self.eff[card] == self.trump

    def power(self, card: int, led: int) -> int:
        """How ``card`` ranks in a trick led in ``led``."""
        return self.facts.ranking.power[self.trump][led][card]

    def could_hold(self, seat: int, card: int) -> bool:
        """Whether ``seat`` may still hold ``card``, as far as this seat can tell."""
        view = self.view
        copies = self.unseen.get(card, 0)
        if view.out[seat] or view.hand_counts[seat] == 0 or copies <= 0:
            return False
        known = self.holder.get(card)
        if known is not None and copies == 1:
            return known == seat
        return self.eff[card] not in self.voids[seat]

    def may_be_void(self, seat: int, suit: int) -> bool:
        """Whether ``seat`` may be out of ``suit``: shown out, or no such card left for it."""
        if suit in self.voids[seat]:
            return True
        eff = self.eff
        return not any(eff[c] == suit and self.could_hold(seat, c) for c in self.unseen)

    # ------------------------------------------------------------------ seats

    def is_partner(self, seat: int) -> bool:
        """Whether ``seat`` is on this seat's side."""
        return seat % 2 == self.view.seat % 2

    def later_seats(self) -> list[int]:
        """Seats still to play to the current trick after this one, in order."""
        view = self.view
        active = view.out.count(False)
        remaining = active - len(view.trick) - 1
        seats: list[int] = []
        seat = view.seat
        while len(seats) < remaining:
            seat = (seat + 1) % view.players
            if not view.out[seat]:
                seats.append(seat)
        return seats

    def opponents(self) -> list[int]:
        """Opponents still in the deal."""
        return list(self.against)

    # ------------------------------------------------------------------ who can win

    def beaten_later(self, card: int, led: int, seats: Sequence[int]) -> bool:
        """Whether one of ``seats``, playing after ``card``, may hold a card that beats it."""
        power = self.facts.ranking.power[self.trump][led]
        mine = power[card]
        later_wins = self.facts.later_equal_wins
        for other in self.unseen:
            p = power[other]
            if p < mine or (p == mine and (p == 0 or not later_wins)):
                continue
            follows = self.eff[other] == led
            for seat in seats:
                if self.could_hold(seat, other) and (follows or self.may_be_void(seat, led)):
                    return True
        return False

    def top_of_suit(self, card: int) -> bool:
        """Whether no unseen card of ``card``'s suit ranks above it (ruffs aside)."""
        eff = self.eff
        led = eff[card]
        power = self.facts.ranking.power[self.trump][led]
        mine = power[card]
        later = self.facts.later_equal_wins
        return not any(
            power[c] > mine or (power[c] == mine and later) for c in self.unseen if eff[c] == led
        )

    def trumps_against(self) -> bool:
        """Whether an opponent still in the deal may hold a trump."""
        eff = self.eff
        trump = self.trump
        against = self.against
        return any(self.could_hold(s, c) for c in self.unseen if eff[c] == trump for s in against)

    def ruff_risk(self, suit: int) -> bool:
        """Whether an opponent may trump a lead of ``suit`` (known out of it, trumps unseen)."""
        eff = self.eff
        trump = self.trump
        return any(
            suit in self.voids[s]
            and any(eff[c] == trump and self.could_hold(s, c) for c in self.unseen)
            for s in self.against
        )


def _receiver(view: SeatView, giver: int) -> int | None:
    """The seat ``giver`` passed a card to: the one on its side playing alone this deal.

    Only a lone player receives cards, from its own partners, and a side has at
    most one: a euchre loner (at four seats its partner's best, where the house
    plays it; at six, from the partner it asks) or a Bid Euchre shooter (a card
    from every partner, at four, six or eight seats).
    """
    return next((s for s in view.alone if s % 2 == giver % 2), None)


def _voids(view: SeatView, facts: DeckFacts, trump: int) -> tuple[set[int], ...]:
    voids: tuple[set[int], ...] = tuple(set() for _ in range(view.players))
    suit = facts.ranking.suit[trump]
    tricks = [(t.seats, t.cards) for t in view.tricks]
    if view.trick:
        tricks.append((tuple(s for s, _ in view.trick), tuple(c for _, c in view.trick)))
    for seats, cards in tricks:
        led = suit[cards[0]]
        for i in range(1, len(cards)):
            if suit[cards[i]] != led:
                voids[seats[i]].add(led)
    return voids
