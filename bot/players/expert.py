"""The expert level: decisions by search over sampled deals, solved double dummy.

Card play samples the unseen cards consistently with everything public (who
showed out of which suit, the upcard the dealer took, a passed card), solves
each sample exactly with ``double_dummy.Solver`` for every legal card, turns
the tricks into the points the deal would score, and plays the card with the
best average.

Bidding, discarding and going alone try each option on sampled deals: the
option is applied in a copy of the deal, the rest of the bidding is played out
by the basic player for every seat, this one included, and the play is solved
double dummy. Playing the later bidding by a fixed policy rather than by
looking at the sample is what keeps passing honest: plain sampling would let a
seat that passes name trump later knowing every hand, and so over-value
passing. A loner must beat playing with the partner by a margin, since double
dummy flatters a lone hand that needs the cards to lie well.

Every decision has a time budget: as many samples as fit, but at least a few.
"""

from __future__ import annotations

import random
import time
from collections import defaultdict
from collections.abc import Sequence

from bot.rules import Action, Game, HouseRules, RuleError, SeatView, seat_view
from bot.rules.dealing import Deal
from bot.rules.scoring import score_deal

from .basic import BasicPlayer
from .double_dummy import Position, Solver
from .sampling import dealt_hand, sample_deal, sample_hands
from .tracking import Knowledge

LONER_MARGIN = 0.75
"""Points a loner must gain on average over playing with the partner."""
BID_MARGIN = 0.3
"""Points on average by which a searched bid must beat the basic player's count to replace it.

Samples of a whole deal vary a lot, and the basic player's thresholds were tuned
over thousands of duplicate deals: search overrules them only when it is clear.
"""


class ExpertPlayer:
    """Searches sampled deals with a double-dummy solver; basic where there is nothing to search."""

    name: str = "expert"

    def __init__(
        self,
        seed: int = 0,
        budget: float = 0.1,
        min_samples: int = 6,
        max_samples: int = 60,
    ) -> None:
        self.rng = random.Random(seed)
        self.basic = BasicPlayer(seed)
        self.budget = budget
        self.min_samples = min_samples
        self.max_samples = max_samples

    def choose(self, view: SeatView) -> Action:
        """The action for the phase in play; always one of ``view.legal``."""
        legal = list(dict.fromkeys(view.legal))
        if len(legal) == 1:
            return legal[0]
        if view.phase == "play":
            return self._play(view, legal)
        if view.phase in ("bid1", "bid2", "alone", "discard"):
            return self._bid(view, legal)
        return self.basic.choose(view)

    # ------------------------------------------------------------------ card play

    def _play(self, view: SeatView, legal: list[Action]) -> Action:
        know = Knowledge.read(view)
        assert view.trump is not None
        solver = Solver(view.rules, view.trump, list(view.out), view.team)
        totals: dict[int, float] = defaultdict(float)
        tricks_left = view.rules.hand_size - len(view.tricks)
        broken = any(know.is_trump(c) for t in view.tricks for c in t.cards)
        deadline = time.perf_counter() + self.budget
        samples = 0
        while samples < self.max_samples and (
            samples < self.min_samples or time.perf_counter() < deadline
        ):
            hands = sample_hands(know, self.rng)
            pos = Position(
                view.rules,
                view.trump,
                hands,
                list(view.out),
                view.seat,
                list(view.trick),
                tricks_left,
                broken,
            )
            for card, tricks in solver.values(pos).items():
                totals[card] += _net_points(view, view.tricks_won[view.team] + tricks)
            samples += 1
        fallback = self.basic.choose(view)
        best = max(totals.values())
        if fallback.card is not None and totals.get(fallback.card, -1e9) >= best - 1e-9:
            return fallback
        card = max(totals, key=lambda c: totals[c])
        return next(a for a in legal if a.card == card)

    # ------------------------------------------------------------------ bidding

    def _bid(self, view: SeatView, legal: list[Action]) -> Action:
        fallback = self.basic.choose(view)
        mine = dealt_hand(view)
        if mine is None or fallback.do in ("redeal", "swap"):
            return fallback
        options = self._options(view, legal, fallback)
        if len(options) == 1:
            return options[0]
        totals = dict.fromkeys(options, 0.0)
        deadline = time.perf_counter() + self.budget
        samples = 0
        while samples < self.max_samples and (
            samples < self.min_samples or time.perf_counter() < deadline
        ):
            game = _rebuild(view, sample_deal(view, mine, self.rng), self.basic)
            samples += 1
            if game is None:
                continue
            for option in options:
                totals[option] += self._try(view, game.copy(), option)
        best = max(totals, key=lambda a: totals[a])
        if totals[best] - totals[fallback] > BID_MARGIN * max(samples, 1):
            return best
        return fallback

    def _options(self, view: SeatView, legal: list[Action], fallback: Action) -> list[Action]:
        """The actions worth searching.

        Going alone is searched only where the basic player's count of the hand
        already calls for it: double dummy lets a loner find every card where it
        needs it, so on its own it calls far too many loners.
        """
        options = [
            a for a in legal if a.do in ("pass", "order_up", "call", "discard") and not a.alone
        ]
        if fallback not in options:
            options.append(fallback)
        return options

    def _try(self, view: SeatView, game: Game, option: Action) -> float:
        """This seat's net points from a sampled deal (consumed) after taking ``option``."""
        number = game.deal_number
        try:
            game.apply(view.seat, option)
        except RuleError:
            return -1e6
        while game.deal_number == number and not game.over and game.phase != "play":
            seat = game.turn
            assert seat is not None
            game.step(self.basic.choose(seat_view(game, seat)))
        if game.deal_number != number or game.over:
            return 0.0  # thrown in
        solver = Solver(game.rules, game.trump, list(game.out), view.team)
        pos = Position(
            game.rules, game.trump, [list(h) for h in game.hands], list(game.out), game.turn or 0
        )
        value = _points(game.rules, view.team, game.makers, game.alone, solver.tricks(pos))
        if option.alone or option.do == "alone":
            value -= LONER_MARGIN
        return value


def _rebuild(view: SeatView, deal: Deal, basic: BasicPlayer) -> Game | None:
    """The sampled deal replayed to this decision; hidden actions filled in by the basic player."""
    game = Game(view.rules, dealer=view.dealer, deals=[deal])
    for seat, action in view.history:
        masked = action.card is None and not action.cards
        if masked and action.do in ("discard", "give", "swap"):
            action = basic.choose(seat_view(game, seat))
        try:
            game.apply(seat, action)
        except RuleError:
            return None
    return game if game.turn == view.seat else None


def _net_points(view: SeatView, my_tricks: int) -> float:
    """This seat's side's points minus the other side's, if the deal ends with ``my_tricks``."""
    assert view.makers is not None
    return _points(view.rules, view.team, view.makers, view.alone, my_tricks)


def _points(
    rules: HouseRules, team: int, makers: int, alone: Sequence[int], my_tricks: int
) -> float:
    size = rules.hand_size
    maker_tricks = my_tricks if team == makers else size - my_tricks
    maker_alone = any(s % 2 == makers for s in alone)
    defender_alone = any(s % 2 != makers for s in alone)
    _, to_makers, to_defenders = score_deal(rules, maker_tricks, maker_alone, defender_alone)
    net = to_makers - to_defenders
    return float(net if team == makers else -net)
