"""A game's deals one after another: dealing each, its end (scored or thrown in), the game's end.

Functions over the ``State`` (state.py). ``Game`` (game.py) hands each action to
the bidding of its rules or, a card, to the play (play.py); when the deal ends
it calls here, which scores it (scoring.py) and deals the next or ends the game.
"""

from __future__ import annotations

from .bid_bidding import start as bid_start
from .dealing import NO_UPCARD
from .euchre_bidding import start as euchre_start
from .results import DealOutcome
from .scoring import book, score_played
from .state import State


def start_deal(s: State) -> None:
    """Deal the next deal (a preset one while there are some) and begin its bidding."""
    fixed = s.fixed
    number = s.deal_number
    presets = s.preset_deals
    if number < len(presets):
        deal = presets[number]
        s.clear_deal([list(h) for h in deal.hands], deal.upcard, list(deal.kitty))
    else:
        dealer = fixed.dealer
        pack = dealer.shuffled(s.deal_key, number)
        size = dealer.hand_size
        dealt = dealer.players * size
        hands = []
        at = 0
        while at < dealt:  # not a comprehension over range(0, dealt, size): compiled, no iterator
            hands.append(pack[at : at + size])
            at += size
        if dealt == len(pack):
            s.clear_deal(hands, NO_UPCARD, [])
        else:
            s.clear_deal(hands, pack[dealt], [] if dealer.every_card else pack[dealt + 1 :])
    s.deal_number = number + 1
    score = s.score
    s.deal_marks.append((s.dealer, s.upcard, s.deal_start, score[0], score[1]))
    if fixed.bid_euchre:
        bid_start(s)
    else:
        euchre_start(s)


def end_played_deal(s: State) -> None:
    """The deal's last trick is taken: score it, then deal the next or end the game."""
    first = score_played(s)
    finish_deal(s, (s.dealer + 1) % s.fixed.players, first)


def throw_in(s: State, outcome: DealOutcome) -> None:
    """The deal ends unplayed (``passed``, or ``redeal`` by the same dealer): deal the next."""
    book(s, outcome, 0, 0, 0)
    dealer = s.dealer
    finish_deal(s, dealer if outcome == "redeal" else (dealer + 1) % s.fixed.players)


def finish_deal(s: State, next_dealer: int, first: int = 0) -> None:
    """End the game or deal the next deal; ``first`` wins where both teams reach the target."""
    fixed = s.fixed
    score = s.score
    if fixed.deals_per_game >= 0:
        if s.deal_number >= fixed.deals_per_game:
            a, b = score
            _end_game(s, -1 if a == b else (0 if a > b else 1))
            return
    elif score[0] >= fixed.target_score or score[1] >= fixed.target_score:
        _end_game(s, first if score[first] >= fixed.target_score else 1 - first)
        return
    s.dealer = next_dealer
    start_deal(s)


def _end_game(s: State, winner: int) -> None:
    s.over = True
    s.winner = winner
    s.phase = None
    s.turn = -1
