"""The expert at Bid Euchre: bids, trump and cards chosen by playing sampled deals out.

Every decision samples deals that explain the bidding so far (``bid_worlds``)
and plays each option out to the end of the deal with the basic player's card
play in every seat (``bid_rollout``), counting what the deal then scores for
this seat's side (``score_bid_deal``: made, each side its tricks; set, minus
the bid; a shoot, its points either way). The option with the best average
wins.

- Bidding: in each sampled deal the tricks its side takes with this seat
  declaring each of the six choices (four suits, No Trump High, No Trump Low)
  are played out; each bid (and passing) is applied and the rest of the
  bidding is made by the basic model; where this seat wins the contract it
  declares the choice that took most tricks over all the samples (chosen once,
  not deal by deal: a seat cannot see the sample), where another seat wins it
  that seat declares as basic would and the deal is played out. A shoot is
  tried only on a hand whose own count (``bid_basic.own_tricks``) is near every
  trick. A searched bid replaces basic's only when it is better by
  ``BID_MARGIN`` points on average.
- Declaring: each choice is played out in each sample at the contract won.
- Card play: each legal card is played, and the rest of the deal played out.
- A partner's gift to a shooter and the shooter's discards are basic's.

Double-dummy solving measured far too slow here: a 48-card deal with eight
cards a hand is not solved in a second (docs/players.md), so the play is
valued by the basic policy, which also keeps the values honest (no seat plays
as if it saw the cards).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.rules import Action, Contract, Game, HouseRules, SeatView, seat_view
from bot.rules.play import play_order
from bot.rules.scoring import score_bid_deal

from . import bid_basic
from .advice import Advice
from .bid_basic import CHOICES, own_tricks
from .bid_rollout import play_out
from .bid_worlds import bidding_world, play_hands
from .effort import Effort, Work
from .tracking import Knowledge

BID_MARGIN = 1.0
"""Points a deal on average by which a searched bid must beat basic's to replace it.

A bid changes the whole deal, so its samples are noisy: against basic, 0.3 netted
less than 1.0 (docs/players.md), and 2.0 no more."""
SETTLE_AFTER = 16
"""Samples drawn before a card may be settled early (``settled``)."""
SETTLE_Z = 3.0
"""Standard errors by which the best card must lead every other to stop sampling early."""
SHOOT_LOOK = 1.0
"""A shoot is searched only when the hand alone counts this close to every trick."""


@dataclass(frozen=True, slots=True)
class Knobs:
    """The search's limits: at least and at most so many sampled deals a decision."""

    min_samples: int = 6
    max_samples: int = 120


@dataclass(slots=True)
class _Outcome:
    """How one option ends in one sampled deal: this seat's contract at ``bid``, or a net value."""

    bid: int = 0
    net: float = 0.0


class BidExpert:
    """The expert's Bid Euchre decisions; ``advise`` gives the choice and the figures behind it."""

    def __init__(self, rng: random.Random, knobs: Knobs = Knobs()) -> None:
        self.rng = rng
        self.knobs = knobs
        self.effort = Effort.start(None)
        """The work of the decision under way."""

    def advise(self, view: SeatView, effort: Effort, also: Action | None = None) -> Advice:
        """The action for the phase in play with the expected points of each option searched.

        ``effort`` is the decision's budget of work, which the deals drawn (``bid_worlds``)
        and the cards played out count; ``also`` a legal bid to search besides those the
        expert would (a shoot on a weak hand).
        """
        legal = list(dict.fromkeys(view.legal))
        if len(legal) == 1:
            return Advice(legal[0])
        knobs = self.knobs
        self.effort = effort

        def more(samples: int) -> bool:
            if samples:
                effort.count(Work(samples=1))
            return effort.more(samples, knobs.min_samples, knobs.max_samples)

        if view.phase == "bid":
            return self._bid(view, legal, more, also)
        if view.phase == "declare":
            return self._declare(view, legal, more)
        if view.phase == "play":
            return self._play(view, legal, more)
        return Advice(bid_basic.choose(view))

    def sample_values(
        self, view: SeatView, options: Sequence[Action], samples: int, effort: Effort
    ) -> list[list[float]]:
        """Each option's points on ``samples`` sampled deals, the same deals for all (paired).

        A bid is valued as ``_bid`` values it (this seat declaring the choice that took
        most tricks over these deals), a declaration and a card as ``_declare`` and
        ``_play`` do. Rows hold the options in their order; none where the phase is not
        searched.
        """
        self.effort = effort
        rows: list[list[float]] = []
        if view.phase == "play" and view.trump is not None and view.contract is not None:
            know = Knowledge.read(view)
            runner = play_out(view.rules, view.trump)
            after = play_order(view.out)
            for _ in range(samples):
                hands = play_hands(view, know, self.rng, effort)
                row = []
                for option in options:
                    if option.card is None:
                        return []
                    trial = [list(h) for h in hands]
                    trial[view.seat].remove(option.card)
                    trick = [*view.trick, (view.seat, option.card)]
                    effort.count(Work(cards=sum(map(len, trial))))
                    won = runner.finish(trial, after, after[view.seat], trick, view.tricks_won)
                    row.append(_net(view, view.contract, won[view.team]))
                rows.append(row)
            return rows
        if view.phase not in ("bid", "declare"):
            return []
        worlds: list[tuple[list[int], list[_Outcome]]] = []
        contract = view.contract
        for _ in range(samples):
            game = bidding_world(view, self.rng, effort)
            if game is None:
                continue
            deal = _Deal(game, view.seat, effort)
            if view.phase == "declare":
                assert contract is not None
                trumps = [a.trump for a in options if a.trump is not None]
                if len(trumps) != len(options):
                    return []
                rows.append([_net(view, contract, deal.declared(t)) for t in trumps])
                continue
            mine = [deal.tricks(view.seat, t) for t in CHOICES]
            worlds.append((mine, [deal.after_bid(option) for option in options]))
        if worlds:
            totals = [sum(w[0][i] for w in worlds) for i in range(len(CHOICES))]
            best_trump = max(range(len(CHOICES)), key=totals.__getitem__)
            rows = [
                [
                    _net(view, Contract(view.seat, out.bid), mine[best_trump])
                    if out.bid
                    else out.net
                    for out in outs
                ]
                for mine, outs in worlds
            ]
        return rows

    # ------------------------------------------------------------------ bidding

    def _bid(
        self,
        view: SeatView,
        legal: list[Action],
        more: Callable[[int], bool],
        also: Action | None = None,
    ) -> Advice:
        rules = view.rules
        fallback = bid_basic.bid_action(view.hand, rules, legal)
        size = len(view.hand)
        may_shoot = max(own_tricks(view.hand, t, rules) for t in CHOICES) >= size - SHOOT_LOOK
        options = [a for a in legal if a.do != "shoot" or may_shoot or a in (fallback, also)]
        worlds: list[tuple[list[int], list[_Outcome]]] = []
        samples = 0
        while more(samples):
            samples += 1
            game = bidding_world(view, self.rng, self.effort)
            if game is None:
                continue
            deal = _Deal(game, view.seat, self.effort)
            mine = [deal.tricks(view.seat, t) for t in CHOICES]
            worlds.append((mine, [deal.after_bid(option) for option in options]))
        if not worlds:
            return Advice(fallback)
        totals = [sum(w[0][i] for w in worlds) for i in range(len(CHOICES))]
        best_trump = max(range(len(CHOICES)), key=totals.__getitem__)
        values: dict[Action, float] = {}
        for k, option in enumerate(options):
            total = 0.0
            for mine, outs in worlds:
                out = outs[k]
                total += (
                    _net(view, Contract(view.seat, out.bid), mine[best_trump])
                    if out.bid
                    else out.net
                )
            values[option] = total / len(worlds)
        tricks = {t: totals[i] / len(worlds) for i, t in enumerate(CHOICES)}
        best = max(values, key=values.__getitem__)
        choice = best if values[best] - values[fallback] > BID_MARGIN else fallback
        return Advice(choice, values, len(worlds), tricks)

    # ------------------------------------------------------------------ declaring

    def _declare(self, view: SeatView, legal: list[Action], more: Callable[[int], bool]) -> Advice:
        contract = view.contract
        assert contract is not None
        fallback = bid_basic.choose(view)
        totals = dict.fromkeys(CHOICES, 0.0)
        nets = dict.fromkeys(CHOICES, 0.0)
        samples = found = 0
        while more(samples):
            samples += 1
            game = bidding_world(view, self.rng, self.effort)
            if game is None:
                continue
            found += 1
            deal = _Deal(game, view.seat, self.effort)
            for t in CHOICES:
                mine = deal.declared(t)
                totals[t] += mine
                nets[t] += _net(view, contract, mine)
        if not found:
            return Advice(fallback)
        values = {a: nets[a.trump] / found for a in legal if a.trump is not None}
        tricks = {t: total / found for t, total in totals.items()}
        best = max(values, key=values.__getitem__)
        choice = fallback if values[fallback] >= values[best] - 1e-9 else best
        return Advice(choice, values, found, tricks)

    # ------------------------------------------------------------------ card play

    def _play(self, view: SeatView, legal: list[Action], more: Callable[[int], bool]) -> Advice:
        assert view.trump is not None and view.contract is not None
        know = Knowledge.read(view)
        runner = play_out(view.rules, view.trump)
        after = play_order(view.out)
        plays = [(a, a.card) for a in legal if a.card is not None]
        rows: list[list[float]] = []
        while more(len(rows)) and not settled(rows):
            hands = play_hands(view, know, self.rng, self.effort)
            row = []
            for _, card in plays:
                trial = [list(h) for h in hands]
                trial[view.seat].remove(card)
                trick = [*view.trick, (view.seat, card)]
                self.effort.count(Work(cards=sum(map(len, trial))))
                won = runner.finish(trial, after, after[view.seat], trick, view.tricks_won)
                row.append(_net(view, view.contract, won[view.team]))
            rows.append(row)
        samples = len(rows)
        values = {a: sum(r[i] for r in rows) / samples for i, (a, _) in enumerate(plays)}
        fallback = bid_basic.choose(view)
        best = max(values, key=values.__getitem__)
        choice = fallback if values[fallback] >= values[best] - 1e-9 else best
        return Advice(choice, values, samples)


def settled(rows: Sequence[Sequence[float]]) -> bool:
    """Whether sampling may stop early: the best option is clearly ahead of every other.

    ``rows`` holds each sample's value of every option. After ``SETTLE_AFTER``
    samples (checked every fourth), the best option must lead each other one by
    ``SETTLE_Z`` standard errors of their paired difference, or tie it in every
    sample (two touching cards, say).
    """
    n = len(rows)
    if n < SETTLE_AFTER or n % 4:
        return False
    width = len(rows[0])
    means = [sum(r[i] for r in rows) / n for i in range(width)]
    best = max(range(width), key=means.__getitem__)
    for other in range(width):
        if other == best:
            continue
        diffs = [r[best] - r[other] for r in rows]
        mean = means[best] - means[other]
        spread = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        if spread == 0.0 and mean == 0.0:
            continue
        if mean <= 0.0 or mean * mean * n < SETTLE_Z * SETTLE_Z * spread:
            return False
    return True


class _Deal:
    """One sampled deal at this seat's bid or declaration, played out as options are tried."""

    def __init__(self, game: Game, seat: int, effort: Effort) -> None:
        self.game = game
        self.seat = seat
        self.effort = effort
        self.rules = game.rules
        self.played: dict[tuple[int, int], int] = {}

    def tricks(self, declarer: int, trump: int) -> int:
        """This seat's side's tricks when ``declarer`` names ``trump`` (no shoot)."""
        key = (declarer, trump)
        if key not in self.played:
            game = self.game
            out = [False] * game.players
            hands = [list(h) for h in game.hands]
            self.effort.count(Work(cards=sum(map(len, hands))))
            won = play_out(self.rules, trump).finish(
                hands, play_order(out), _leader(self.rules, game.dealer, declarer, out)
            )
            self.played[key] = won[self.seat % 2]
        return self.played[key]

    def declared(self, trump: int) -> int:
        """This seat's side's tricks when it names ``trump`` now, at the contract it won."""
        contract = self.game.contract
        if contract is None or not contract.shoot:
            return self.tricks(self.seat, trump)
        game = self.game.copy()
        game.apply(self.seat, Action.declare(trump))
        return _shoot_out(game, self.effort)[self.seat % 2]

    def after_bid(self, option: Action) -> _Outcome:
        """How the deal ends for this seat's side when it takes ``option`` now."""
        game = self.game.copy()
        game.apply(self.seat, option)
        rules = self.rules
        while game.phase == "bid":
            seat = game.turn
            assert seat is not None
            game.step(bid_basic.bid_action(game.hands[seat], rules, game.legal()))
        contract = game.contract
        assert contract is not None
        declarer = contract.seat
        if declarer == self.seat and not contract.shoot:
            return _Outcome(bid=contract.tricks)
        if declarer == self.seat:
            trump = bid_basic.declare_choice(game.hands[declarer], rules)
            game.apply(declarer, Action.declare(trump))
            mine = _shoot_out(game, self.effort)[self.seat % 2]
        elif contract.shoot:
            mine = _shoot_out(game, self.effort)[self.seat % 2]
        else:
            trump = bid_basic.declare_choice(game.hands[declarer], rules)
            mine = self.tricks(declarer, trump)
        return _Outcome(net=_team_net(rules, self.seat % 2, contract, mine))


def _shoot_out(game: Game, effort: Effort) -> list[int]:
    """A shoot's deal from its declaration on: basic's gifts and discards, then the tricks."""
    while game.phase in ("declare", "give", "discard"):
        seat = game.turn
        assert seat is not None
        game.step(bid_basic.choose(seat_view(game, seat)))
    trump = game.trump
    assert trump is not None and game.turn is not None
    hands = [list(h) for h in game.hands]
    effort.count(Work(cards=sum(map(len, hands))))
    return play_out(game.rules, trump).finish(hands, play_order(game.out), game.turn)


def _leader(rules: HouseRules, dealer: int, declarer: int, out: Sequence[bool]) -> int:
    """Who leads the first trick: the declarer, or the first seat in play after the dealer."""
    if rules.bid_lead == "bidder":
        return declarer
    return play_order(out)[dealer]


def _team_net(rules: HouseRules, team: int, contract: Contract, tricks: int) -> float:
    """``team``'s points less the other side's, when ``team`` takes ``tricks`` of the deal."""
    bidders = contract.team
    size = rules.hand_size
    taken = tricks if team == bidders else size - tricks
    _, to_bidders, to_defenders = score_bid_deal(rules, contract, taken, size - taken)
    net = to_bidders - to_defenders
    return float(net if team == bidders else -net)


def _net(view: SeatView, contract: Contract, tricks: int) -> float:
    """This seat's side's points less the other side's, when its side ends with ``tricks``."""
    return _team_net(view.rules, view.team, contract, tricks)
