"""A reviewed decision as the reasons read it: its view, its two actions, the cards' tables.

``Moment`` answers the questions the patterns of ``reasons`` and ``card_reasons``
ask of a decision (who sits where, what a card follows and beats, what is still out,
how the trick went on) from the seat's view and, for what the finished deal showed
afterwards (``Hindsight``), the cards that were played.
"""

from __future__ import annotations

from collections import Counter

from bot.players.review import ReviewedDecision
from bot.rules import Action
from bot.rules.house_rules import deck_cards
from bot.rules.ranking import build_ranking

from .cards import card_text

__all__ = ["NUMBERS", "Moment", "name"]

NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")
"""Small counts in words."""


class Moment:
    """A decision's view, its two actions and the card tables of its trump, for the patterns."""

    def __init__(self, decision: ReviewedDecision) -> None:
        self.view = view = decision.view
        self.done = decision.done
        self.best = decision.best
        self.hindsight = decision.hindsight
        self.trump = view.trump
        self.ranking = build_ranking(view.rules)

    # ------------------------------------------------------------------ seats

    def partner(self, seat: int) -> bool:
        """Whether ``seat`` is on this seat's side (this seat included)."""
        return seat % 2 == self.view.seat % 2

    def who(self, seat: int) -> str:
        """Another seat as this seat sees it: "your partner", "the player on your left"."""
        view = self.view
        if self.partner(seat):
            return "your partner"
        if view.players == 4:
            left = (view.seat + 1) % 4 == seat
            return f"the player on your {'left' if left else 'right'}"
        return "an opponent"

    # ------------------------------------------------------------------ cards

    def suit(self, card: int) -> int:
        """The suit ``card`` follows under the trump in play."""
        assert self.trump is not None
        return self.ranking.suit[self.trump][card]

    def is_trump(self, card: int) -> bool:
        """Whether ``card`` is a trump."""
        return self.suit(card) == self.trump

    def power(self, card: int, led: int) -> int:
        """How ``card`` ranks in a trick led in ``led`` (0: it cannot win)."""
        assert self.trump is not None
        return self.ranking.power[self.trump][led][card]

    def led(self) -> int | None:
        """The suit the current trick was led in (None: this seat leads)."""
        trick = self.view.trick
        return self.suit(trick[0][1]) if trick else None

    def winning(self) -> tuple[int, int] | None:
        """The (seat, card) winning the current trick so far."""
        led = self.led()
        if led is None:
            return None
        return max(self.view.trick, key=lambda sc: self.power(sc[1], led))

    def beats(self, card: int, other: int) -> bool:
        """Whether ``card`` played now beats ``other`` in the current trick."""
        led = self.led()
        assert led is not None
        return self.power(card, led) > self.power(other, led)

    def best_left(self, card: int) -> bool:
        """Whether no card that beats ``card`` in its suit is out, besides this hand's."""
        suit = self.suit(card)
        higher = Counter(
            c
            for c in deck_cards(self.view.rules)
            if self.suit(c) == suit and self.power(c, suit) > self.power(card, suit)
        )
        higher.subtract(self.view.hand)
        for trick in self.view.tricks:
            higher.subtract(trick.cards)
        higher.subtract(c for _, c in self.view.trick)
        return all(n <= 0 for n in higher.values())

    def shown_out(self, seat: int, suit: int) -> bool:
        """Whether ``seat`` has not followed ``suit`` when it was led, this deal."""
        for trick in self.view.tricks:
            if self.suit(trick.cards[0]) != suit:
                continue
            for s, c in zip(trick.seats, trick.cards, strict=True):
                if s == seat and self.suit(c) != suit:
                    return True
        return False

    def unseen_trumps(self) -> int:
        """Trumps this seat has not seen: not in its hand, not played, not the upcard taken."""
        view = self.view
        pack = [c for c in deck_cards(view.rules) if self.is_trump(c)]
        seen = Counter(view.hand)
        if view.upcard_taken:
            seen[view.upcard] += 1
        for trick in self.view.tricks:
            seen.update(trick.cards)
        seen.update(c for _, c in self.view.trick)
        left = Counter(pack)
        left.subtract(seen)
        return sum(n for n in left.values() if n > 0)

    # ------------------------------------------------------------------ the deal afterwards

    def active(self) -> int:
        """Seats that play to each trick: everyone, less a lone hand's partner.

        Before the bidding is over the view cannot know who sits out: the seats that
        played cards in the rest of the deal tell.
        """
        view = self.view
        if view.phase == "play" or self.hindsight is None:
            return view.players - sum(view.out)
        playing = {s for s, a in self.hindsight.later if a.do == "play"}
        return len(playing) or view.players

    def trick_after(self) -> list[tuple[int, int]]:
        """The current trick as it was finished after the action done: (seat, card) in order."""
        trick = [*self.view.trick, (self.view.seat, self.card(self.done))]
        if self.hindsight is None:
            return trick
        active = self.active()
        for seat, action in self.hindsight.later:
            if len(trick) >= active:
                break
            if action.do == "play" and action.card is not None:
                trick.append((seat, action.card))
        return trick

    def hand_then(self, seat: int) -> tuple[int, ...] | None:
        """``seat``'s hand at the moment of the decision, from the finished deal."""
        if self.hindsight is None or seat >= len(self.hindsight.hands):
            return None
        return self.hindsight.hands[seat]

    @staticmethod
    def card(action: Action) -> int:
        """The card an action plays or discards."""
        assert action.card is not None
        return action.card


def name(card: int) -> str:
    """A card as the reasons name it: "A♠️"."""
    return card_text(card)
