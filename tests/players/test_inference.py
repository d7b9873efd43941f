"""Reading the table: the true deal explains basic players' actions, and the evidence moves samples."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

import pytest

from bot.players.basic import BasicPlayer
from bot.players.inference import Reader
from bot.players.sampling import draw_hands
from bot.players.tracking import Knowledge
from bot.rules import Game, HouseRules, SeatView, seat_view

from .variants import RULES, label


def _play_views(rules: HouseRules, seeds: range) -> Iterator[tuple[SeatView, list[list[int]]]]:
    """Play-phase views of first deals played by basic in every seat, with the real hands."""
    for seed in seeds:
        game = Game(rules, seed=seed)
        players = [BasicPlayer(s) for s in range(rules.players)]
        while game.deal_number == 1 and not game.over:
            seat = game.turn
            assert seat is not None
            view = seat_view(game, seat)
            if game.phase == "play":
                yield view, [list(h) for h in game.hands]
            game.apply(seat, players[seat].choose(view))


@pytest.mark.parametrize("rules", RULES, ids=label)
def test_the_real_deal_explains_every_action_of_basic_players(rules: HouseRules) -> None:
    checked = 0
    for view, hands in _play_views(rules, range(300, 308)):
        reader = Reader(view, random.Random(0), BasicPlayer())
        deal, discard = reader.dealt(Knowledge.read(view), hands)
        if deal is None:
            continue  # a hand this seat cannot know as dealt (a swap or a card passed)
        replayed = reader.replay(deal, discard)
        assert replayed is not None
        game, surprise = replayed
        assert (surprise.bids, surprise.plays) == (0, 0)
        rebuilt = seat_view(game, view.seat)
        # the seat's own played cards rejoin its dealt hand at its end, so only the order differs
        assert sorted(rebuilt.hand) == sorted(view.hand)
        assert sorted(map(str, rebuilt.legal)) == sorted(map(str, view.legal))
        assert replace(rebuilt, hand=view.hand, legal=view.legal) == view
        checked += 1
    assert checked >= 8


def test_samples_give_a_maker_the_trumps_the_bidding_showed() -> None:
    rules = HouseRules.preset_rules("north_american")
    plain = read = real = 0.0
    views = 0
    for view, hands in _play_views(rules, range(40)):
        maker = view.maker
        if view.tricks or view.trick or maker is None or maker % 2 == view.team:
            continue
        know = Knowledge.read(view)
        reader = Reader(view, random.Random(views), BasicPlayer())
        rng = random.Random(views)
        for _ in range(20):
            plain += sum(know.is_trump(c) for c in draw_hands(know, rng)[maker]) / 20
            read += sum(know.is_trump(c) for c in reader.hands(know)[maker]) / 20
        real += sum(know.is_trump(c) for c in hands[maker])
        views += 1
    assert views >= 15
    # the bidding says the maker is long in trump: reading it brings the samples near the truth
    assert read > plain + 0.3 * views
    assert abs(read - real) < abs(plain - real)
