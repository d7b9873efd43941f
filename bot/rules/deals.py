"""A game's deals one after another: each action to its phase, a deal's end, the game's end.

Functions over the ``State`` (state.py), the engine's one path for every
change: ``legal_actions`` asks the phase in play, ``check_action`` refuses
what the rules refuse, ``step_action`` applies an action (to the bidding of
the game's rules, or a card to the trick, play.py), and a deal that ends (its
last trick scored, scoring.py, or thrown in) deals the next or ends the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .actions import Action
from .bid_bidding import act as bid_act
from .bid_bidding import check as bid_check
from .bid_bidding import legal as bid_legal
from .bid_bidding import start as bid_start
from .dealing import NO_UPCARD
from .euchre_bidding import PASSED, THROWN_IN
from .euchre_bidding import act as euchre_act
from .euchre_bidding import legal as euchre_legal
from .euchre_bidding import start as euchre_start
from .euchre_checks import check as euchre_check
from .play import check_play, legal_plays, play_card
from .results import DealOutcome
from .scoring import book, score_played
from .state import PLAY_PHASE, State


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
        hands = [pack[at : at + size] for at in range(0, dealt, size)]
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


def legal_actions(s: State) -> Sequence[Action]:
    """Every action the seat to act may take now; empty once the game is over."""
    seat = s.turn
    if s.phase is PLAY_PHASE:
        return legal_plays(s, seat)
    if seat < 0:
        return ()
    if s.fixed.bid_euchre:
        return bid_legal(s, seat)
    return euchre_legal(s, seat)


def check_action(s: State, seat: int, action: Action) -> None:
    """RefusedError (with the record's code) where the rules refuse ``seat``'s action now."""
    if s.fixed.bid_euchre:
        bid_check(s, seat, action)
    else:
        euchre_check(s, seat, action)
    card = action.card
    if action.do == "play" and card is not None:
        check_play(s, seat, card)


def step_action(s: State, action: Action) -> None:
    """Apply an action of the seat to act, unchecked: it must come from ``legal``."""
    seat = s.turn
    assert seat >= 0, "the game is over"
    card = action.card
    if action.do == "play":
        assert card is not None
        entry: Any = s.fixed.plays[seat][card]  # Any: appended as it is, not rebuilt
        s.log.append(entry)
        if play_card(s, seat, card):
            first = score_played(s)
            finish_deal(s, (s.dealer + 1) % s.fixed.players, first)
        return
    s.log.append((seat, action))
    if s.fixed.bid_euchre:
        bid_act(s, seat, action)
    else:
        ended = euchre_act(s, seat, action)
        if ended == PASSED:
            _throw_in(s, "passed", (s.dealer + 1) % s.fixed.players)
        elif ended == THROWN_IN:
            _throw_in(s, "redeal", s.dealer)


def _throw_in(s: State, outcome: DealOutcome, next_dealer: int) -> None:
    book(s, outcome, 0, 0, 0)
    finish_deal(s, next_dealer)


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
