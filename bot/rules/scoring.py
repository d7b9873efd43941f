"""What a deal scores: euchre's points from the makers' tricks, Bid Euchre's from the contract.

``score_deal`` and ``score_bid_deal`` work from the rules alone (the computer
players' search asks them too); ``score_played`` and ``book`` are the same
over a game's ``State`` (state.py), once its last trick is taken or the deal
is thrown in.
"""

from __future__ import annotations

from .house_rules import HouseRules
from .results import Contract, DealOutcome, DealResult
from .state import Fixed, State, fixed_for

__all__ = ["Contract", "DealOutcome", "DealResult", "book", "score_bid_deal", "score_deal"]


def score_deal(
    rules: HouseRules,
    maker_tricks: int,
    maker_alone: bool,
    defender_alone: bool,
) -> tuple[DealOutcome, int, int]:
    """The outcome and the points to (makers, defenders) for a deal played to the end.

    A lone maker's march scores ``points_lone_march`` even against a lone
    defender; where a lone defender's euchre and a super-euchre both apply,
    the larger counts.
    """
    return _euchre_points(fixed_for(rules), maker_tricks, maker_alone, defender_alone)


def _euchre_points(
    fixed: Fixed, maker_tricks: int, maker_alone: bool, defender_alone: bool
) -> tuple[DealOutcome, int, int]:
    if maker_tricks == fixed.hand_size:
        return "march", fixed.points_lone_march if maker_alone else fixed.points_march, 0
    if maker_tricks * 2 > fixed.hand_size:
        return "made", fixed.points_made, 0
    points = fixed.points_lone_defender_euchre if defender_alone else fixed.points_euchre
    if maker_tricks == 0 and fixed.points_super_euchre >= 0:
        points = max(points, fixed.points_super_euchre)
    return "euchred", 0, points


def score_bid_deal(
    rules: HouseRules, contract: Contract, bidder_tricks: int, defender_tricks: int
) -> tuple[DealOutcome, int, int]:
    """Bid Euchre: the outcome and the points to (bidders, defenders) of a deal played out.

    Made: each team scores its tricks. Set: the bidders lose their bid, the
    defenders score their tricks. A shoot scores ``shoot_points`` for every
    trick taken, or loses as much, the defenders scoring their tricks.
    """
    return _bid_points(fixed_for(rules), contract, bidder_tricks, defender_tricks)


def _bid_points(
    fixed: Fixed, contract: Contract, bidder_tricks: int, defender_tricks: int
) -> tuple[DealOutcome, int, int]:
    if contract.shoot:
        if defender_tricks == 0:
            return "shot", fixed.shoot_points, 0
        return "shot_failed", -fixed.shoot_points, defender_tricks
    if bidder_tricks >= contract.tricks:
        return "made", bidder_tricks, defender_tricks
    return "set", -contract.tricks, defender_tricks


def score_played(s: State) -> int:
    """Book the deal whose last trick was just taken; the team that wins a tie at the target.

    Euchre scores the makers' tricks, loners counted; Bid Euchre the contract,
    and its bidders win when both teams reach the target on the same deal.
    """
    won = s.tricks_won
    fixed = s.fixed
    if fixed.bid_euchre:
        contract = s.contract
        assert contract is not None
        bidders = contract.team
        outcome, to_team, to_others = _bid_points(fixed, contract, won[bidders], won[1 - bidders])
        book(s, outcome, bidders, to_team, to_others)
        return bidders
    makers = s.makers
    maker_alone = False
    for seat in s.alone:
        maker_alone = maker_alone or seat & 1 == makers
    defender_alone = len(s.alone) > int(maker_alone)
    outcome, to_team, to_others = _euchre_points(fixed, won[makers], maker_alone, defender_alone)
    book(s, outcome, makers, to_team, to_others)
    return 0


def book(s: State, outcome: DealOutcome, team: int, to_team: int, to_others: int) -> None:
    """End the deal as ``outcome``: ``team`` scores ``to_team``, the others ``to_others``."""
    points = [0, 0]
    points[team] = to_team
    points[1 - team] = to_others
    score = s.score
    score[0] += points[0]
    score[1] += points[1]
    s.results.append(s.result(outcome, points))
