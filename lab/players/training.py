"""Learning the bidding model (``learnt_bidding``) by simulation, reproducibly from a seed.

Deal ``deals`` deals of a preset from the seed, each at a random score. The
bidding is played by the basic player; at every decision to make trump or pass
(where basic counts a hand) both are tried on a copy of the real deal, and the
rest of it, bidding and play, is played out by the basic player in every seat.
What each ending is worth at that score (``stakes``) gives the gain of making
trump over passing, which goes with the decision's features to the sums of its
round and place. The same seed and number of deals give the same model, split
over any number of processes.

With an expert partner (``expert_partner``), one side of each deal (each side in
turn) bids like the expert, by its bidder with the shipped models, and the other
like basic; only the expert side's decisions are taken, and in their play-outs
that side's later bids are the expert's too. That is the model of a seat whose
partner bids like it: an expert partner's pass says something else about its
hand than basic's, and its later bids are its own.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from functools import partial

from bot.players.basic import BasicPlayer
from bot.players.learnt_bidder import BIDDING, LearntBidder, expert_bidder
from bot.players.learnt_bidding import BiddingModel, features, key_of, score_class, shipped_model
from bot.players.learnt_loners import SWEEPS, loner_choice, new_model
from bot.players.protocol import Player
from bot.players.stakes import Stakes
from bot.rules import Action, Game, HouseRules, RulesError, seat_view

from .arena import game_seed


def _outcome(
    game: Game,
    seat: int,
    option: Action,
    stakes: Stakes,
    basic: BasicPlayer,
    bidder: Player | None = None,
) -> float:
    """What the deal (a copy, consumed) is worth to ``seat``'s side after ``option``.

    The rest is played out by ``basic``; with ``bidder``, ``seat``'s side bids by it.
    """
    number = game.deal_number
    try:
        game.apply(seat, option)
    except RulesError:
        return 0.0
    while game.deal_number == number and not game.over:
        turn = game.turn
        assert turn is not None
        player: Player = basic
        if bidder is not None and turn % 2 == seat % 2 and game.phase != "play":
            player = bidder
        game.step(player.choose(seat_view(game, turn)))
    points = game.results[number - 1].points
    team = seat % 2
    return stakes.value(points[team], points[1 - team])


def train_part(
    rules: HouseRules, seed: int, first: int, count: int, expert_partner: bool = False
) -> BiddingModel:
    """Deals ``first`` to ``first + count - 1`` of the training from ``seed``.

    ``expert_partner``: deal ``index``'s side ``index % 2`` bids like the expert
    and only its decisions are taken (see the module).
    """
    model = BiddingModel(rules.preset, seed, count)
    basic = BasicPlayer(seed)
    expert = expert_bidder(seed, rules.preset) if expert_partner else None
    for index in range(first, first + count):
        game, score = _random_start(rules, seed, index)
        next_dealer = (game.dealer + 1) % rules.players
        while game.deal_number == 1 and game.phase in ("bid1", "bid2"):
            seat = game.turn
            assert seat is not None
            view = seat_view(game, seat)
            bidder: Player = basic
            if expert is not None and seat % 2 == index % 2:
                bidder = expert
            chosen = bidder.choose(view)
            made = basic.make_count(view)
            passing = next((a for a in view.legal if a.do == "pass"), None)
            taken = expert is None or bidder is expert
            if taken and made is not None and passing is not None:
                action, counted = made
                team = seat % 2
                stakes = Stakes(rules, score, team, next_dealer)
                gain = _outcome(game.copy(), seat, action, stakes, basic, expert) - _outcome(
                    game.copy(), seat, passing, stakes, basic, expert
                )
                klass = score_class(rules, score, team)
                model.add(key_of(view), features(view, action, counted, klass), gain)
            game.step(chosen)
    return model


def _random_start(rules: HouseRules, seed: int, index: int) -> tuple[Game, tuple[int, int]]:
    """Deal ``index`` of a training from ``seed`` and the random score it is played at."""
    gseed = game_seed(seed, index)
    rng = random.Random(gseed)
    game = Game(rules, seed=gseed)
    top = rules.target_score - 1 if rules.deals_per_game is None else 0
    return game, (rng.randint(0, top), rng.randint(0, top))


def train_loners_part(rules: HouseRules, seed: int, first: int, count: int) -> BiddingModel:
    """Deals ``first`` to ``first + count - 1`` of the loners' training from ``seed``.

    The deal is bid by the expert's bidder (the learnt make-or-pass model, loners
    by the count) in every seat; at every decision to go alone (a bid making
    trump, or the makers' turns in an alone round) inside ``SWEEPS``, going alone
    and playing with the partner are tried on copies of the real deal.
    """
    model = new_model(rules, seed, count)
    basic = BasicPlayer(seed)
    bidder = LearntBidder(seed, BIDDING, shipped_model(rules.preset))
    for index in range(first, first + count):
        game, score = _random_start(rules, seed, index)
        upcoming = (game.dealer + 1) % rules.players
        while game.deal_number == 1 and not game.over and game.phase != "play":
            seat = game.turn
            assert seat is not None
            view = seat_view(game, seat)
            chosen = bidder.choose(view)
            choice = loner_choice(view, chosen, score_class(rules, score, seat % 2))
            if choice is not None and SWEEPS[0] <= choice.x[1] <= SWEEPS[1]:
                stakes = Stakes(rules, score, seat % 2, upcoming)
                gain = _outcome(game.copy(), seat, choice.alone, stakes, basic) - _outcome(
                    game.copy(), seat, choice.partner, stakes, basic
                )
                model.add(choice.key, choice.x, gain)
            game.step(chosen)
    return model


def train(
    rules: HouseRules, deals: int, seed: int = 1, jobs: int = 1, expert_partner: bool = False
) -> BiddingModel:
    """The bidding model of ``rules`` learnt from ``deals`` deals from ``seed``.

    ``expert_partner``: the model of a seat whose partner bids like the expert.
    """
    part = partial(train_part, expert_partner=expert_partner)
    return _in_parts(part, BiddingModel(rules.preset, seed, 0), rules, deals, seed, jobs)


def train_loners(rules: HouseRules, deals: int, seed: int = 1, jobs: int = 1) -> BiddingModel:
    """The loners' model of ``rules`` learnt from ``deals`` deals from ``seed``."""
    return _in_parts(train_loners_part, new_model(rules, seed), rules, deals, seed, jobs)


def _in_parts(
    part: Callable[[HouseRules, int, int, int], BiddingModel],
    model: BiddingModel,
    rules: HouseRules,
    deals: int,
    seed: int,
    jobs: int,
) -> BiddingModel:
    """``part`` run over ``deals`` deals split into ``jobs`` processes, merged into ``model``."""
    jobs = max(1, min(jobs, deals))
    parts = [(i * deals // jobs, (i + 1) * deals // jobs) for i in range(jobs)]
    if jobs == 1:
        model.merge(part(rules, seed, 0, deals))
        return model
    with ProcessPoolExecutor(jobs) as pool:
        futures = [pool.submit(part, rules, seed, a, b - a) for a, b in parts]
        for future in futures:
            model.merge(future.result())
    return model
