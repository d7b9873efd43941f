"""A game's deals one after another: each action to its phase, a deal's end, the game's end.

Functions over the ``State`` (state.py), the engine's one path for every
change: ``legal_actions`` asks the phase in play, ``check_action`` refuses
what the rules refuse, ``step_action`` applies an action (to the bidding of
the game's rules, or a card to the trick, play.py), and a deal that ends (its
last trick scored, scoring.py, or thrown in) deals the next or ends the game.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import bid_bidding, euchre_bidding, euchre_checks
from .actions import Action
from .play import check_play, legal_plays, play_card
from .results import DealOutcome
from .scoring import book, score_played
from .state import PLAY_PHASE, State


def start_deal(s: State) -> None:
    """Deal the next deal (a preset one while there are some) and begin its bidding."""
    fixed = s.fixed
    number = s.deal_number
    presets = s.preset_deals
    deal = presets[number] if number < len(presets) else fixed.dealer.deal(s.seed, number)
    s.deal_number = number + 1
    s.clear_deal(deal)
    score = s.score
    s.deal_marks.append((s.dealer, deal.upcard, s.deal_start, score[0], score[1]))
    if fixed.bid_euchre:
        bid_bidding.start(s)
    else:
        euchre_bidding.start(s)


def legal_actions(s: State) -> Sequence[Action]:
    """Every action the seat to act may take now; empty once the game is over."""
    seat = s.turn
    if s.phase is PLAY_PHASE:
        return legal_plays(s, seat)
    if seat < 0:
        return ()
    if s.fixed.bid_euchre:
        return bid_bidding.legal(s, seat)
    return euchre_bidding.legal(s, seat)


def check_action(s: State, seat: int, action: Action) -> None:
    """RefusedError (with the record's code) where the rules refuse ``seat``'s action now."""
    if s.fixed.bid_euchre:
        bid_bidding.check(s, seat, action)
    else:
        euchre_checks.check(s, seat, action)
    card = action.card
    if action.do == "play" and card is not None:
        check_play(s, seat, card)


def step_action(s: State, action: Action) -> None:
    """Apply an action of the seat to act, unchecked: it must come from ``legal``."""
    seat = s.turn
    assert seat >= 0, "the game is over"
    s.log.append((seat, action))
    card = action.card
    if action.do == "play":
        assert card is not None
        if play_card(s, seat, card):
            first = score_played(s)
            finish_deal(s, (s.dealer + 1) % s.fixed.players, first)
    elif s.fixed.bid_euchre:
        bid_bidding.act(s, seat, action)
    else:
        ended = euchre_bidding.act(s, seat, action)
        if ended == euchre_bidding.PASSED:
            _throw_in(s, "passed", (s.dealer + 1) % s.fixed.players)
        elif ended == euchre_bidding.THROWN_IN:
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
