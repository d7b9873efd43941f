"""Reading the other seats' hands from what they did: samples weighed by how well they explain it.

A sampled world is a guess at every hidden card. Replaying the deal's actions
on it, a model of how people bid and play (the basic player) says what each
other seat would have done holding those cards. A world in which a seat passed
a hand the model would have ordered up with, or named trump on two small cards,
or followed low while holding the ace it would have played, explains the table
badly. Worlds are drawn, their surprises counted, and a world is kept with
probability ``BID_SURPRISE`` per surprising bid times ``PLAY_SURPRISE`` per
surprising card: so a seat's bids and plays count as evidence, strong but
never certain, since the people at a table do not bid exactly by the model.
A seat that the game's earlier deals showed bidding or playing unlike the
model is read more loosely (``table_reading``): its surprising bids and cards
keep a world more often; one that bids and plays just like it, more strictly.

Everything here starts from one seat's view and the samples drawn from it;
the real hidden cards are never looked at.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from bot.rules import Action, Game, RulesError, SeatView, new_game, seat_view
from bot.rules.dealing import Deal

from .basic import BasicPlayer
from .protocol import Player
from .sampling import dealt_hand, draw_hands
from .tracking import Knowledge

BID_SURPRISE = 0.1
"""The chance of keeping a world for each bid in it the model would not have made."""
PLAY_SURPRISE = 0.5
"""The same for each card an opponent played that the model would not have played."""
TRIES = 12
"""Worlds drawn at most for one sample; the least surprising is kept when none passes."""

_BIDS = frozenset({"pass", "order_up", "call", "alone"})


@dataclass(slots=True)
class Surprise:
    """How badly a world explains the deal so far: actions the model would not have taken."""

    bids: int = 0
    plays: int = 0
    kept: float = 1.0
    """The chance of keeping the world: the seat's leniency for each surprising bid or card."""

    def weight(self) -> float:
        """The chance of keeping the world."""
        return self.kept


def _differs(a: Action, b: Action) -> bool:
    """``a != b``, field by field.

    Compiled, this is native code where ``Action``'s own dataclass comparison is
    not, and it runs for every bid and play a sampled world replays.
    """
    return (
        a.do != b.do
        or a.card != b.card
        or a.suit != b.suit
        or a.alone != b.alone
        or a.partner != b.partner
        or a.cards != b.cards
        or a.tricks != b.tricks
        or a.trump != b.trump
    )


class Reader:
    """Draws worlds for one seat's decision, weighed by the model's reading of the table.

    ``model`` reads the other side's cards. ``bidders`` reads each seat's bids
    (``model`` for every seat when not given), asked at the deal's score;
    ``leniency`` is each seat's chance of keeping a world per bid in it its
    bidder would not have made, ``BID_SURPRISE`` for every seat when not given,
    and ``play_leniency`` the same per card ``model`` would not have played,
    ``PLAY_SURPRISE`` when not given (``table_reading`` reads all three from
    the game's earlier deals).
    """

    def __init__(
        self,
        view: SeatView,
        rng: random.Random,
        model: BasicPlayer,
        leniency: tuple[float, ...] | None = None,
        bidders: tuple[Player, ...] | None = None,
        play_leniency: tuple[float, ...] | None = None,
    ) -> None:
        self.view = view
        self.rng = rng
        self.model = model
        self.mine = dealt_hand(view)
        self.leniency = leniency or (BID_SURPRISE,) * view.players
        self.bidders: tuple[Player, ...] = bidders or (model,) * view.players
        self.play_leniency = play_leniency or (PLAY_SURPRISE,) * view.players
        self.draws = 0
        """Worlds drawn so far (the work of reading the table, ``effort``)."""
        self.replayed = 0
        """Actions replayed on them so far."""
        self.asked = 0
        """Of those, the ones another seat took that the basic model was asked about."""
        self.learnt = 0
        """And the bids a learnt bidder was asked about (dearer than basic's count)."""

    def replay(self, deal: Deal, discard: int | None = None) -> tuple[Game, Surprise] | None:
        """``deal`` replayed through this deal's history, counting the surprises.

        A discard hidden from this seat is the sampled ``discard``, or the
        model's when none is given. None when the world cannot produce the
        history (a sample that breaks a rule).
        """
        view = self.view
        model = self.model
        self.draws += 1
        self.replayed += len(view.history)
        game = new_game(view.rules, dealer=view.dealer, deals=[deal])
        surprise = Surprise()
        try:
            for seat, action in view.history:
                hidden = action.card is None and not action.cards
                if seat == view.seat:
                    pass
                elif action.do in _BIDS:
                    bidder = self.bidders[seat]
                    if isinstance(bidder, BasicPlayer):
                        self.asked += 1
                    else:
                        self.learnt += 1
                    seen = seat_view(game, seat)
                    # basic counts the hand alone; the learnt bidders weigh the score
                    if not isinstance(bidder, BasicPlayer) and seen.score != view.score:
                        seen = replace(seen, score=view.score)
                    if _differs(bidder.choose(seen), action):
                        surprise.bids += 1
                        surprise.kept *= self.leniency[seat]
                elif action.do == "play" and seat % 2 != view.team:
                    self.asked += 1
                    if _differs(model.choose(seat_view(game, seat)), action):
                        surprise.plays += 1
                        surprise.kept *= self.play_leniency[seat]
                elif action.do in ("discard", "give", "swap") and hidden:
                    if action.do == "discard" and discard is not None:
                        action = Action.discard(discard)
                    else:
                        self.asked += 1
                        action = model.choose(seat_view(game, seat))
                game.apply(seat, action)
        except RulesError:
            return None
        return game, surprise

    def hands(self, know: Knowledge) -> list[list[int]]:
        """Every seat's hand now, for the play: the least surprising of up to ``TRIES`` draws."""
        return self.world(know)[0]

    def world(self, know: Knowledge) -> tuple[list[list[int]], Game | None]:
        """Every seat's hand now and, when it could be rebuilt, the deal replayed to now."""
        best: tuple[float, list[list[int]], Game | None] | None = None
        for _ in range(TRIES):
            hands = draw_hands(know, self.rng)
            deal, discard = self.dealt(know, hands)
            if deal is None:
                self.draws += 1
            replayed = None if deal is None else self.replay(deal, discard)
            if replayed is None:
                if best is None:
                    best = (-1.0, hands, None)
                continue
            game, surprise = replayed
            weight = surprise.weight()
            if self.rng.random() < weight:
                return hands, game
            if best is None or weight > best[0]:
                best = (weight, hands, game)
        assert best is not None
        return best[1], best[2]

    def dealt(self, know: Knowledge, hands: list[list[int]]) -> tuple[Deal | None, int | None]:
        """The deal as it was dealt, were ``hands`` the hands now; the dealer's discard."""
        view = self.view
        rules = view.rules
        size = rules.hand_size
        if self.mine is None or rules.players != len(hands):
            return None, None
        played: list[list[int]] = [[] for _ in range(view.players)]
        for trick in view.tricks:
            for seat, card in zip(trick.seats, trick.cards, strict=True):
                played[seat].append(card)
        for seat, card in view.trick:
            played[seat].append(card)
        rest = dict(know.unseen)
        for seat, hand in enumerate(hands):
            if seat != view.seat:
                for card in hand:
                    rest[card] = rest.get(card, 0) - 1
        leftover = [card for card, copies in rest.items() for _ in range(copies)]
        self.rng.shuffle(leftover)
        dealt: list[tuple[int, ...]] = []
        discard: int | None = None
        for seat in range(view.players):
            if seat == view.seat:
                dealt.append(tuple(self.mine))
                continue
            if view.out[seat] and not hands[seat] and not played[seat]:
                if len(leftover) < size:
                    return None, None
                dealt.append(tuple(leftover[:size]))
                del leftover[:size]
                continue
            hand = hands[seat] + played[seat]
            if seat == view.dealer and view.upcard_taken:
                if view.upcard not in hand or not leftover:
                    return None, None
                hand.remove(view.upcard)
                discard = leftover.pop()
                hand.append(discard)
            if len(hand) != size:
                return None, None
            dealt.append(tuple(hand))
        return Deal(tuple(dealt), view.upcard, tuple(leftover)), discard
