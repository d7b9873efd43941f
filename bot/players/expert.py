"""The expert level: decisions by search over sampled deals, solved double dummy.

Card play samples the unseen cards consistently with everything public (who
showed out of which suit, the upcard the dealer took, a passed card), keeps
the samples that explain the other seats' bids and plays (``inference``; a
seat is read as closely as the earlier deals showed it bidding and playing
like the model, ``table_reading``), solves each exactly with ``double_dummy.Solver`` for
every legal card, turns the tricks into what the deal's result is worth at
this score (``stakes``), and plays the card with the best average.

Bidding, discarding and going alone try each option on sampled deals that
explain the bidding so far: the option is applied in a copy of the deal and
the rest of the deal, bidding and play, is played out by the basic player in
every seat, this one included. Playing on by a fixed policy rather than by
looking at the sample is what keeps passing honest: plain sampling would let a
seat that passes name trump later knowing every hand, and so over-value
passing. Solving the play double dummy instead measured worse in the arena: it
lets every seat find every card, which is not how the deal will be played. A
searched bid replaces the bidder's only by a margin: 0.3 points, or half a
standard error where the learnt model decides (``MODEL_MARGIN``).

Every decision has a budget of work (``effort``): the solver's nodes, the
actions replayed and played out, priced at what they take on an idle core, so
0.1 s of budget is what fits in 0.1 s there. As many samples are drawn as fit;
a few even past the budget, but only up to a hard limit. The work, not the
clock, decides: a busy machine makes a decision slower, never weaker, and a
decision is the same on every machine.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import replace

from bot.rules import Action, Game, HouseRules, RulesError, SeatView, seat_view
from bot.rules.scoring import score_deal

from .advice import Advice
from .basic import BasicPlayer
from .bid_expert import BidExpert, Knobs
from .double_dummy import Position, Solver
from .effort import BID_COSTS, COSTS, Effort, Work
from .inference import TRIES, Reader
from .learnt_bidder import LearntBidder, expert_bidder
from .margins import BID_MARGIN, MODEL_MARGIN, Margin
from .protocol import SEARCH_BUDGET
from .sampling import dealt_hand, sample_deal, sample_hands
from .stakes import Stakes, lone_march_decides, march_wins
from .table_reading import TableReading, read_table
from .tracking import Knowledge

_MAKING = ("order_up", "call")


class ExpertPlayer:
    """Searches sampled deals with a double-dummy solver; basic where there is nothing to search.

    ``budget`` is a decision's work in seconds of an idle core (``effort``); None draws
    exactly ``min_samples`` samples. Either way a decision depends only on the view
    and the seed, never on the machine's speed or load.
    ``model_margin`` is the margin of a searched bid where the learnt model decides.
    """

    name: str = "expert"

    def __init__(
        self,
        seed: int = 0,
        budget: float | None = SEARCH_BUDGET,
        min_samples: int = 6,
        max_samples: int = 120,
        max_bid_samples: int = 400,
        read_table: bool = True,
        weigh_score: bool = True,
        search_bids: bool = True,
        model_margin: Margin = MODEL_MARGIN,
    ) -> None:
        self.rng = random.Random(seed)
        self.basic = BasicPlayer(seed)
        self.seed = seed
        self.bidders: dict[tuple[str, bool], LearntBidder] = {}
        self._reading: tuple[SeatView, TableReading] | None = None
        self.budget = budget
        self.min_samples = min_samples
        self.max_samples = max_samples
        self.max_bid_samples = max_bid_samples
        self.read_table = read_table
        self.weigh_score = weigh_score
        self.search_bids = search_bids
        self.model_margin = model_margin
        self.steps = 0
        """Actions the rollouts have played so far (their work, ``effort``)."""
        self.learnt = 0
        """Of those, this seat's bids by its learnt bidder."""
        self.effort = Effort.start(budget)
        """The work of the latest decision (``python -m lab calibrate`` reads it)."""
        self.bid_expert = BidExpert(self.rng, Knobs(min_samples, max_samples))

    def choose(self, view: SeatView) -> Action:
        """The action for the phase in play; always one of ``view.legal``."""
        return self.advise(view).action

    def advise(self, view: SeatView, also: Action | None = None) -> Advice:
        """The action with the expected points of each option searched (see ``Advice``).

        ``also`` is a legal option to search besides those the expert would (a review
        values the action that was taken); it may then be chosen like any other.
        """
        bid_euchre = view.rules.game == "bid_euchre"
        clock = self.effort = Effort.start(self.budget, BID_COSTS if bid_euchre else COSTS)
        legal = list(dict.fromkeys(view.legal))
        if len(legal) == 1:
            return Advice(legal[0])
        if also is not None and also not in legal:
            also = None
        if bid_euchre:
            return self.bid_expert.advise(view, clock, also)
        if view.phase == "play":
            return self._play(view, legal, clock)
        if view.phase in ("bid1", "bid2", "alone", "discard"):
            return self._bid(view, legal, clock, also)
        return Advice(self.basic.choose(view))

    # ------------------------------------------------------------------ card play

    def _play(self, view: SeatView, legal: list[Action], clock: Effort) -> Advice:
        totals: dict[int, float] = defaultdict(float)
        samples = 0
        for world in self._solved(view, clock, self.min_samples, self.max_samples):
            for card, value in world.items():
                totals[card] += value
            samples += 1
        values = {a: totals[a.card] / samples for a in legal if a.card in totals}
        fallback = self.basic.choose(view)
        best = max(totals.values())
        if fallback.card is not None and totals.get(fallback.card, -1e9) >= best - 1e-9:
            return Advice(fallback, values, samples)
        card = max(totals, key=lambda c: totals[c])
        return Advice(next(a for a in legal if a.card == card), values, samples)

    def _solved(
        self, view: SeatView, clock: Effort, least: int, most: int, only: list[int] | None = None
    ) -> Iterator[dict[int, float]]:
        """Sampled worlds one after another while ``clock`` lets, each solved double dummy.

        Each world gives every legal card (of ``only``, if given) what the deal is
        then worth to this seat at this score.
        """
        know = Knowledge.read(view)
        assert view.trump is not None
        solver = Solver(view.rules, view.trump, list(view.out), view.team)
        tricks_left = view.rules.hand_size - len(view.tricks)
        broken = any(know.is_trump(c) for t in view.tricks for c in t.cards)
        reader = self._reader(view)
        stakes = self._stakes(view)
        samples = 0
        draws, replayed, nodes = reader.draws, reader.replayed, solver.nodes
        asked, learnt = reader.asked, reader.learnt
        while clock.more(samples, least, most):
            if self.read_table:
                hands = reader.hands(know)
            else:
                hands = sample_hands(know, self.rng)
                reader.draws += 1
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
            won = view.tricks_won[view.team]
            values = {
                card: stakes.value(*deal_points(view, won + tricks))
                for card, tricks in solver.values(pos, only).items()
            }
            samples += 1
            clock.count(
                Work(
                    nodes=solver.nodes - nodes,
                    draws=reader.draws - draws,
                    replayed=reader.replayed - replayed,
                    asked=reader.asked - asked,
                    learnt=reader.learnt - learnt,
                    samples=1,
                )
            )
            draws, replayed, nodes = reader.draws, reader.replayed, solver.nodes
            asked, learnt = reader.asked, reader.learnt
            yield values

    def sample_values(
        self, view: SeatView, options: Sequence[Action], samples: int
    ) -> list[list[float]]:
        """Each option's worth on ``samples`` sampled deals, the same deals for all (paired).

        The deals are drawn as the search draws them (consistent with what the seat knows,
        read by the bidding and play so far); a card is valued by solving each deal
        double dummy, a bid, discard or call to go alone by playing it out with the
        basic policy in every seat (the same rollout for every option), a Bid Euchre
        decision by ``BidExpert.sample_values``. Each row holds one deal's values in
        the order of ``options``; fewer rows where a deal could not be drawn, none where
        the phase is not searched.
        """
        effort = Effort.start(None)
        if view.rules.game == "bid_euchre":
            return self.bid_expert.sample_values(view, options, samples, effort)
        if view.phase == "play":
            cards = [a.card for a in options if a.card is not None]
            if len(cards) != len(options):
                return []
            solved = self._solved(view, effort, samples, samples, cards)
            return [[values[c] for c in cards] for values in solved]
        mine = dealt_hand(view)
        if view.phase not in ("bid1", "bid2", "alone", "discard") or mine is None:
            return []
        return list(self.rollouts(view, mine, options, effort, samples))

    # ------------------------------------------------------------------ bidding

    def bidder(self, view: SeatView) -> LearntBidder:
        """The bidding by the learnt models of the view's preset (by the count where none).

        Making trump or passing is by the model learnt with an expert partner
        where every partner of the seat bids like an expert so far (``table_reading``).
        """
        experts = self.read(view).experts
        partners = range(view.team, view.players, 2)
        key = (view.rules.preset, all(experts[s] for s in partners if s != view.seat))
        if key not in self.bidders:
            self.bidders[key] = expert_bidder(self.seed, *key)
        return self.bidders[key]

    def read(self, view: SeatView) -> TableReading:
        """How the view's table reads (``read_table``), once for each decision's view."""
        if self._reading is None or self._reading[0] is not view:
            self._reading = (view, read_table(view))
        return self._reading[1]

    def _reader(self, view: SeatView) -> Reader:
        reading = self.read(view)
        return Reader(
            view, self.rng, self.basic, reading.leniency, reading.bidders, reading.play_leniency
        )

    def _bid(
        self, view: SeatView, legal: list[Action], clock: Effort, also: Action | None = None
    ) -> Advice:
        fallback = self._with_partner(view, legal, self.bidder(view).choose(view))
        mine = dealt_hand(view)
        if not self.search_bids or mine is None or fallback.do in ("redeal", "swap"):
            return Advice(fallback)
        options = self._options(view, legal, fallback)
        if also is not None and also not in options:
            options.append(also)
        if len(options) == 1:
            return Advice(options[0])
        totals = dict.fromkeys(options, 0.0)
        squares = dict.fromkeys(options, 0.0)
        at = options.index(fallback)
        tried = 0
        for outcome in self.rollouts(view, mine, options, clock):
            tried += 1
            base = outcome[at]
            for option, value in zip(options, outcome, strict=True):
                totals[option] += value
                squares[option] += (value - base) ** 2
        values = {a: total / max(tried, 1) for a, total in totals.items()}
        best = max(totals, key=lambda a: totals[a])
        margin = self._margin(view)
        if margin.beaten(totals[best] - totals[fallback], squares[best], max(tried, 1)):
            return Advice(best, values, tried)
        return Advice(fallback, values, tried)

    def _margin(self, view: SeatView) -> Margin:
        """``model_margin`` where the learnt model decides making trump or passing, else 0.3."""
        if view.phase in ("bid1", "bid2") and self.bidder(view).estimate(view) is not None:
            return self.model_margin
        return Margin(BID_MARGIN)

    def rollouts(
        self,
        view: SeatView,
        mine: list[int],
        options: Sequence[Action],
        clock: Effort,
        count: int | None = None,
    ) -> Iterator[list[float]]:
        """Each option's worth on one sampled deal after another, while ``clock`` lets.

        ``mine`` is this seat's hand as dealt. Every option is tried on the same
        deal (``_try``), so their differences are paired. ``count`` draws exactly
        that many deals instead of the expert's least to most.
        """
        reader = self._reader(view)
        stakes = self._stakes(view)
        least, most = (self.min_samples, self.max_bid_samples) if count is None else (count, count)
        samples = 0
        while clock.more(samples, least, most):
            draws, replayed, steps = reader.draws, reader.replayed, self.steps
            asked, learnt = reader.asked, reader.learnt + self.learnt
            game = self._world(reader, mine)
            samples += 1
            outcome = None
            if game is not None:
                outcome = [self._try(view, game.copy(), option, stakes) for option in options]
            clock.count(
                Work(
                    draws=reader.draws - draws,
                    replayed=reader.replayed - replayed,
                    asked=reader.asked - asked,
                    learnt=reader.learnt + self.learnt - learnt,
                    steps=self.steps - steps,
                    samples=1,
                )
            )
            if outcome is not None:
                yield outcome

    def _world(self, reader: Reader, mine: list[int]) -> Game | None:
        """A sampled deal replayed to here, drawn again while it explains the bids badly."""
        view = reader.view
        best: tuple[float, Game] | None = None
        for _ in range(TRIES if self.read_table else 1):
            replayed = reader.replay(sample_deal(view, mine, self.rng))
            if replayed is None or replayed[0].turn != view.seat:
                continue
            game, surprise = replayed
            weight = surprise.weight() if self.read_table else 1.0
            if self.rng.random() < weight:
                return game
            if best is None or weight > best[0]:
                best = (weight, game)
        return None if best is None else best[1]

    def _with_partner(self, view: SeatView, legal: list[Action], choice: Action) -> Action:
        """``choice``, or the same bid with the partner where a march already wins the game.

        Going alone cannot gain there (``stakes.march_wins``); where the rules make
        a bid alone (no twin with the partner is legal), it stands.
        """
        if not march_wins(view.rules, view.score[view.team]):
            return choice
        if choice.do == "alone":
            twin = Action.pass_()
        elif choice.alone and choice.do in _MAKING:
            twin = replace(choice, alone=None)
        else:
            return choice
        return twin if twin in legal else choice

    def _options(self, view: SeatView, legal: list[Action], fallback: Action) -> list[Action]:
        """The actions worth searching: every bid with the partner, and the bidder's own choice.

        Going alone is searched only where the bidder (the loners' model, or
        the count where it has no say) calls for it: searched on every hand, the
        noise of a few hundred sampled deals would call loners that the models
        know better than to try. Except where a lone march would win the game and a
        march would not (6 or 7 points under north_american rules): there every way
        of going alone is searched too, for the models weigh the score only within
        two points of the game (+0.0009 ± 0.0004 of a game's winning chance a deal
        at those scores, docs/players.md).
        """
        options = [
            a for a in legal if a.do in ("pass", "order_up", "call", "discard") and not a.alone
        ]
        if fallback not in options:
            options.append(fallback)
        if lone_march_decides(view.rules, view.score[view.team]):
            alone = [a for a in legal if a.do == "alone" or (a.alone and a.do in _MAKING)]
            options += [a for a in alone if a not in options]
        return options

    def _stakes(self, view: SeatView) -> Stakes:
        next_dealer = (view.dealer + 1) % view.players
        return Stakes(
            view.rules, view.score, view.team, next_dealer, by_points=not self.weigh_score
        )

    def _try(self, view: SeatView, game: Game, option: Action, stakes: Stakes) -> float:
        """What a sampled deal (consumed) is worth to this seat after taking ``option``.

        The rest of the deal is played out by the basic player in every seat.
        """
        number = game.deal_number
        try:
            game.apply(view.seat, option)
        except RulesError:
            return -1e6
        bidder = self.bidder(view)
        steps = learnt = 0
        while game.deal_number == number and not game.over:
            seat = game.turn
            assert seat is not None
            own_bid = seat == view.seat and game.phase in ("bid1", "bid2")
            game.step((bidder if own_bid else self.basic).choose(seat_view(game, seat)))
            steps += 1
            learnt += own_bid
        self.steps += steps
        self.learnt += learnt
        points = game.results[number - 1].points
        return stakes.value(points[view.team], points[1 - view.team])


def deal_points(view: SeatView, my_tricks: int) -> tuple[int, int]:
    """Points to this seat's side and to the other, if the deal ends with ``my_tricks``."""
    assert view.makers is not None
    return _points(view.rules, view.team, view.makers, view.alone, my_tricks)


def _points(
    rules: HouseRules, team: int, makers: int, alone: Sequence[int], my_tricks: int
) -> tuple[int, int]:
    size = rules.hand_size
    maker_tricks = my_tricks if team == makers else size - my_tricks
    maker_alone = any(s % 2 == makers for s in alone)
    defender_alone = any(s % 2 != makers for s in alone)
    _, to_makers, to_defenders = score_deal(rules, maker_tricks, maker_alone, defender_alone)
    return (to_makers, to_defenders) if team == makers else (to_defenders, to_makers)
