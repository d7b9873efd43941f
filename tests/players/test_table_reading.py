"""Reading each seat from the earlier deals: whose bidding it follows, how closely, what that changes."""

from __future__ import annotations

import random

import pytest

from bot.players.basic import BasicPlayer
from bot.players.expert import ExpertPlayer
from bot.players.inference import BID_SURPRISE, PLAY_SURPRISE, Reader
from bot.players.learnt_bidder import LearntBidder, expert_bidder
from bot.players.learnt_bidding import shipped_model
from bot.players.sampling import draw_hands
from bot.players.table_reading import (
    LENIENCY_FLOOR,
    MISS_RATE,
    PLAY_MISS_RATE,
    PRIOR,
    SeatCount,
    deal_misses,
    leniency,
    read_table,
)
from bot.players.tracking import Knowledge
from bot.rules import Action, Game, HouseRules, SeatView, seat_view

from .variants import RULES, label


class Reckless:
    """Makes trump whenever it may (never alone) and plays like basic: a seat unlike the model."""

    name = "reckless"

    def __init__(self, seed: int = 0) -> None:
        self.basic = BasicPlayer(seed)

    def choose(self, view: SeatView) -> Action:
        for action in view.legal:
            if action.do in ("order_up", "call") and not action.alone:
                return action
        return self.basic.choose(view)


class Wayward:
    """Bids like basic and plays any legal card: a seat whose cards are unlike the model."""

    name = "wayward"

    def __init__(self, seed: int = 0) -> None:
        self.basic = BasicPlayer(seed)
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> Action:
        if view.phase == "play":
            return self.rng.choice(view.legal)
        return self.basic.choose(view)


class Learnt:
    """Bids by the expert's learnt bidder and plays like basic: the expert's bidding, quickly."""

    name = "learnt"

    def __init__(self, seed: int, preset: str) -> None:
        self.bidder = expert_bidder(seed, preset)
        self.basic = BasicPlayer(seed)

    def choose(self, view: SeatView) -> Action:
        if view.phase in ("bid1", "bid2", "alone"):
            return self.bidder.choose(view)
        return self.basic.choose(view)


def _played(
    rules: HouseRules,
    seed: int,
    reckless: tuple[int, ...] = (),
    deals: int = 6,
    learnt: tuple[int, ...] = (),
    wayward: tuple[int, ...] = (),
) -> Game:
    """A game of basic players played into deal ``deals``; other seats bid or play as named."""
    game = Game(rules, seed=seed)
    players: list[Reckless | Learnt | Wayward | BasicPlayer] = [
        Reckless(s)
        if s in reckless
        else Learnt(s, rules.preset)
        if s in learnt
        else Wayward(s)
        if s in wayward
        else BasicPlayer(s)
        for s in range(rules.players)
    ]
    while game.deal_number < deals and not game.over:
        seat = game.turn
        assert seat is not None
        game.apply(seat, players[seat].choose(seat_view(game, seat)))
    return game


def test_a_view_holds_the_finished_deals_as_its_seat_saw_them() -> None:
    rules = HouseRules.preset_rules("north_american")
    game = _played(rules, seed=5, deals=4)
    for seat in range(4):
        view = seat_view(game, seat)
        assert len(view.earlier) == game.deal_number - 1
        for past, result in zip(view.earlier, game.results, strict=False):
            assert past.dealer == result.dealer
            assert past.score == (
                sum(r.points[0] for r in game.results[: view.earlier.index(past)]),
                sum(r.points[1] for r in game.results[: view.earlier.index(past)]),
            )
            plays = [a for _, a in past.history if a.do == "play"]
            assert len(plays) in (0, 16, 20)  # passed in, a loner's, or played out
            for actor, action in past.history:
                if action.do == "discard":
                    assert (action.card is not None) == (actor == seat)
    # the finished deals stay with a copy
    assert seat_view(game.copy(), 0).earlier == seat_view(game, 0).earlier


def test_a_first_deal_has_no_earlier_deals() -> None:
    game = Game(HouseRules.preset_rules("north_american"), seed=1)
    assert seat_view(game, 0).earlier == ()


@pytest.mark.parametrize("rules", RULES, ids=label)
def test_players_who_bid_like_the_model_are_never_read_as_unlike_it(rules: HouseRules) -> None:
    read = played = 0
    for seed in range(3):
        game = _played(rules, seed)
        for seat in range(rules.players):
            view = seat_view(game, seat)
            for past in view.earlier:
                counts = deal_misses(rules, seat, past)
                assert all(count.misses[0] == 0 and count.play_misses == 0 for count in counts)
                assert counts[seat] == SeatCount(0, (0, 0, 0), 0, 0)
                read += sum(count.bids for count in counts)
                played += sum(count.plays for count in counts)
            reading = read_table(view)
            bids = [0] * rules.players
            plays = [0] * rules.players
            for past in view.earlier:
                for other, count in enumerate(deal_misses(rules, seat, past)):
                    bids[other] += count.bids
                    plays[other] += count.plays
            assert reading.leniency == tuple(leniency(count, 0) for count in bids)
            assert all(LENIENCY_FLOOR <= x <= BID_SURPRISE for x in reading.leniency)
            assert reading.play_leniency == tuple(
                leniency(count, 0, PLAY_MISS_RATE) for count in plays
            )
            assert all(LENIENCY_FLOOR <= x <= PLAY_SURPRISE for x in reading.play_leniency)
            assert all(isinstance(b, BasicPlayer) for b in reading.bidders)
            # read by basic's count, yet not shown to bid unlike an expert either
            bids_unlike_experts = [
                sum(min(deal_misses(rules, seat, past)[other].misses[1:]) for past in view.earlier)
                for other in range(rules.players)
            ]
            assert reading.experts == tuple(n == 0 for n in bids_unlike_experts)
    if rules.game == "euchre" and rules.players == 4:
        assert read > 0
        assert played > 0


def test_a_reckless_bidder_is_read_more_loosely_than_the_others() -> None:
    rules = HouseRules.preset_rules("north_american")
    loose = []
    for seed in range(4):
        view = seat_view(_played(rules, seed, reckless=(1,), deals=8), 0)
        counts = [deal_misses(rules, 0, past)[1] for past in view.earlier]
        assert sum(min(count.misses) for count in counts) > 0
        reading = read_table(view).leniency
        assert max(reading[0], reading[2], reading[3]) <= BID_SURPRISE
        loose.append(reading[1])
    assert min(loose) > BID_SURPRISE
    assert max(loose) > 0.3


def test_a_seat_playing_unlike_basic_has_its_cards_read_loosely_the_others_strictly() -> None:
    rules = HouseRules.preset_rules("north_american")
    for seed in range(3):
        game = _played(rules, seed, wayward=(1,), deals=5)
        view = seat_view(game, 0)
        counts = [deal_misses(rules, 0, past) for past in view.earlier]
        assert sum(count[1].play_misses for count in counts) > 0
        assert all(count[s].play_misses == 0 for count in counts for s in (2, 3))
        reading = read_table(view)
        assert reading.play_leniency[1] > PLAY_SURPRISE
        assert max(reading.play_leniency[2:]) < PLAY_SURPRISE / 2  # four deals of basic's cards
        # its bids are basic's: read more closely than before any evidence
        assert reading.leniency[1] < BID_SURPRISE


@pytest.mark.parametrize("preset", ["north_american", "toronto", "british"])
def test_a_seat_bidding_like_the_expert_is_read_by_the_experts_bidder(preset: str) -> None:
    rules = HouseRules.preset_rules(preset)
    styles = []
    shown = []
    for seed in range(4):
        view = seat_view(_played(rules, seed, learnt=(2,), deals=8), 0)
        counts = [deal_misses(rules, 0, past)[2] for past in view.earlier]
        assert sum(count.misses[1] for count in counts) == 0
        reading = read_table(view)
        assert reading.leniency[2] <= BID_SURPRISE
        assert isinstance(reading.bidders[1], BasicPlayer)
        assert reading.experts[2]
        styles.append(type(reading.bidders[2]))
        shown.append(not reading.experts[1] or not reading.experts[3])
    # the learnt bidder bids like basic on most hands: it shows itself in most games of 8 deals
    assert styles.count(LearntBidder) >= 2
    # and so basic's count shows that a seat is no expert
    assert shown.count(True) >= 2


def test_the_expert_makes_trump_by_the_expert_partners_model_while_its_partner_bids_like_one() -> (
    None
):
    rules = HouseRules.preset_rules("north_american")
    partnered = shipped_model(rules.preset, True)
    plain = shipped_model(rules.preset)
    assert partnered is not None and plain is not None and partnered is not plain
    expert = ExpertPlayer(seed=1, budget=None)
    assert expert.bidder(seat_view(Game(rules, seed=1), 0)).model is partnered  # no deal over
    models = []
    for seed in range(4):
        game = _played(rules, seed, learnt=(2,), deals=8)
        assert expert.bidder(seat_view(game, 0)).model is partnered
        view = seat_view(game, 1)  # seat 1's partner, seat 3, bids like basic
        models.append(expert.bidder(view).model)
        assert models[-1] is (partnered if read_table(view).experts[3] else plain)
    assert plain in models


def test_leniency_is_the_odds_of_a_bid_unlike_the_model_never_stricter_than_the_floor() -> None:
    assert leniency(0, 0) == pytest.approx(BID_SURPRISE)
    assert LENIENCY_FLOOR < leniency(5, 0) < leniency(2, 0) < BID_SURPRISE
    assert leniency(40, 0) == LENIENCY_FLOOR
    chance = (10 + PRIOR * MISS_RATE) / (30 + PRIOR)
    assert leniency(30, 10) == pytest.approx(chance / (1 - chance))
    assert leniency(8, 8) == 1.0
    assert leniency(20, 14) == 1.0  # a seat that bids unlike the model more often than not


def test_the_reader_keeps_a_world_per_surprising_bid_with_that_seats_leniency() -> None:
    rules = HouseRules.preset_rules("north_american")
    game = _played(rules, seed=2, reckless=(1,), deals=1)
    while game.phase != "play":
        seat = game.turn
        assert seat is not None
        game.apply(seat, Reckless(seat).choose(seat_view(game, seat)))
    view = seat_view(game, 0)
    model = BasicPlayer()
    reader = Reader(view, random.Random(0), model, (0.1, 0.7, 0.1, 0.1), (model,) * 4)
    deal = game.copy()
    replayed = reader.replay(deal.deal)
    assert replayed is not None
    _, surprise = replayed
    assert surprise.weight() == pytest.approx(0.7**surprise.bids)


def test_the_reader_keeps_a_world_per_surprising_card_with_that_seats_play_leniency() -> None:
    rules = HouseRules.preset_rules("north_american")
    game = _played(rules, seed=4, deals=1)
    view = seat_view(game, 0)
    while view.phase != "play" or len(view.tricks) < 3:
        seat = game.turn
        assert seat is not None
        game.apply(seat, BasicPlayer(seat).choose(seat_view(game, seat)))
        view = seat_view(game, 0)
    model = BasicPlayer()
    know = Knowledge.read(view)
    surprising = 0
    for seed in range(60):
        weights = []
        for plays in ((1.0, 1.0, 1.0, 1.0), (1.0, 0.3, 1.0, 0.3), (0.3, 0.3, 0.3, 1.0)):
            reader = Reader(view, random.Random(seed), model, (1.0,) * 4, None, plays)
            hands = draw_hands(know, reader.rng)
            deal, discard = reader.dealt(know, hands)
            replayed = None if deal is None else reader.replay(deal, discard)
            assert replayed is not None
            weights.append(replayed[1])
        assert weights[0].weight() == 1.0
        # the opponents' cards only, each by its own seat's leniency
        assert weights[1].weight() == pytest.approx(0.3 ** weights[1].plays)
        assert weights[2].weight() >= weights[1].weight()
        surprising += weights[1].plays > 0
    assert surprising > 0
