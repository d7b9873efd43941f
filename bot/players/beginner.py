"""The beginner level: plausible euchre with the mistakes people make while they learn.

A beginner bids by basic's count of the hand, but loosely: it orders up and
names trump on weaker hands (its bar to make trump wobbles around 2.0 where
basic's is 2.5), counts little of what the upcard gives the dealer's side, and
seldom goes alone. In the play it follows suit and takes tricks like basic,
with a learner's slips, each now and then (``Slips``):

- it does not count trumps: as maker it leads side cards instead of drawing
  trump, so opponents' small trumps take its winners;
- it cashes its highest side card (an ace, mostly) late, on a suit that has
  already gone round and may be trumped;
- it sometimes throws off instead of trumping in when it is out of the suit led;
- it overtakes a partner who already has the trick.

The slips are drawn from the player's seed, so a table replayed after a restart
plays the same cards.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot.rules import Action, SeatView

from .basic import BasicPlayer, Tuning
from .cardplay import choose_card
from .tracking import Knowledge

BEGINNER_BIDDING = Tuning(make=2.0, make_six=2.4, upcard_share=0.3, alone=0.6, alone_six=0.7)
"""Basic's count with a learner's bar: trump on weaker hands, loners only on sure ones."""


@dataclass(frozen=True, slots=True)
class Slips:
    """How often the beginner makes each mistake when it has the chance (0 to 1)."""

    make_wobble: float = 0.4
    """The bar to make trump moves by up to this much either way, deal by deal."""
    no_trump_lead: float = 0.6
    """Leads a side card rather than drawing trump as maker."""
    late_ace: float = 0.5
    """Leads its highest side card on a suit already played, which may be trumped."""
    no_trump_in: float = 0.35
    """Throws off rather than trumping in when out of the suit led."""
    overtake: float = 0.3
    """Beats a partner's winning card."""


class BeginnerPlayer:
    """Basic's player with a looser count and a learner's slips in the play."""

    name: str = "beginner"

    def __init__(self, seed: int = 0, slips: Slips | None = None) -> None:
        self.rng = random.Random(seed)
        self.slips = slips or Slips()
        wobble = self.rng.uniform(-self.slips.make_wobble, self.slips.make_wobble)
        tuning = Tuning(
            make=BEGINNER_BIDDING.make + wobble,
            make_six=BEGINNER_BIDDING.make_six + wobble,
            upcard_share=BEGINNER_BIDDING.upcard_share,
            alone=BEGINNER_BIDDING.alone,
            alone_six=BEGINNER_BIDDING.alone_six,
        )
        self.basic = BasicPlayer(seed, tuning)

    def choose(self, view: SeatView) -> Action:
        """The action for the phase in play; always one of ``view.legal``."""
        if view.phase != "play":
            return self.basic.choose(view)
        cards = [a.card for a in view.legal if a.card is not None]
        know = Knowledge.read(view)
        card = self._slip(know, cards)
        if card is None:
            card = choose_card(know, cards)
        return next(a for a in view.legal if a.card == card)

    def _chance(self, p: float) -> bool:
        return self.rng.random() < p

    def _slip(self, know: Knowledge, cards: list[int]) -> int | None:
        """A learner's card in place of basic's, or None to play basic's."""
        if len(set(cards)) == 1:
            return None
        view = know.view
        side = [c for c in cards if not know.is_trump(c)]
        trumps = [c for c in cards if know.is_trump(c)]
        if not view.trick:
            played_suits = {know.suit(t.cards[0]) for t in view.tricks}
            late = [
                c
                for c in side
                if c & 7 == max(s & 7 for s in side) and know.suit(c) in played_suits
            ]
            if late and self._chance(self.slips.late_ace):
                return late[0]
            if (
                view.makers == view.team
                and trumps
                and side
                and self._chance(self.slips.no_trump_lead)
            ):
                return max(side, key=lambda c: (c & 7, c))
            return None
        led = know.suit(view.trick[0][1])
        following = any(know.suit(c) == led for c in cards)
        if not following and trumps and side and self._chance(self.slips.no_trump_in):
            return min(side, key=lambda c: (c & 7, c))
        partner_winning = _winner(know, led) % 2 == view.seat % 2
        if partner_winning and self._chance(self.slips.overtake):
            return max(cards, key=lambda c: know.power(c, led))
        return None


def _winner(know: Knowledge, led: int) -> int:
    """The seat winning the current trick so far."""
    trick = know.view.trick
    best_seat, best = trick[0]
    for seat, card in trick[1:]:
        if know.facts.beats(card, best, know.trump, led):
            best_seat, best = seat, card
    return best_seat
