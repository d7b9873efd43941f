"""A claim played out: the claimer's highest card, the others' lowest or their chooser's pick."""

from __future__ import annotations

import random

import pytest

from bot.rules import Action, Game, HouseRules, RefusedError, SeatView, new_game, parse_card
from bot.rules.claims import claim_plays, highest_card, lowest_card
from bot.rules.ranking import build_ranking


def _in_play(preset: str, seed: int) -> Game:
    """A game of ``preset`` played at random to the middle of its first deal's play."""
    game = new_game(HouseRules.preset_rules(preset), seed=seed)
    rng = random.Random(seed)
    while game.phase != "play" or len(game.tricks) < 2:
        assert game.turn is not None
        game.apply(game.turn, rng.choice(list(game.legal())))
    return game


def test_highest_and_lowest_follow_the_trick_then_the_card_alone() -> None:
    ranking = build_ranking(HouseRules.preset_rules("north_american"))
    hearts, spades = 2, 3
    jd, ah, ks, nine_s, ad = (parse_card(c) for c in ("JD", "AH", "KS", "9S", "AD"))
    assert highest_card([ah, jd, ks], hearts, -1, ranking) == jd  # the left bower leads highest
    assert lowest_card([ks, nine_s, ah], hearts, spades, ranking) == nine_s
    # Off the led suit and no trump: the weaker card when led goes first.
    assert lowest_card([ks, ad], hearts, 0, ranking) == ks


@pytest.mark.parametrize("preset", ["north_american", "british", "bid_euchre_6"])
def test_the_claim_plays_finish_the_deal_and_leave_the_game_as_it_was(preset: str) -> None:
    game = _in_play(preset, seed=5)
    before = list(game.log)
    seat = game.turn
    assert seat is not None
    plays = claim_plays(game, seat)
    assert list(game.log) == before
    left = sum(len(h) for s, h in enumerate(game.hands) if not game.out[s])
    assert len(plays) == left and all(a.do == "play" for _, a in plays)
    number = game.deal_number
    for actor, action in plays:
        game.apply(actor, action)
    assert game.over or game.deal_number != number


def test_a_chooser_picks_for_the_others_and_none_means_their_lowest_card() -> None:
    game = _in_play("north_american", seed=11)
    seat = game.turn
    assert seat is not None
    asked: list[int] = []

    def chooser(view: SeatView) -> Action | None:
        asked.append(view.seat)
        assert view.turn == view.seat != seat and view.legal
        return view.legal[-1] if view.seat == (seat + 1) % 4 else None

    plays = claim_plays(game, seat, chooser)
    assert asked and seat not in asked
    mine = [a for s, a in plays if s == seat]
    assert len(mine) == len(game.hands[seat])
    copy = game.copy()
    ranking = game.ranking
    assert game.trump is not None
    for actor, action in plays:
        legal = list(copy.legal())
        trick = copy.trick
        led = ranking.suit[game.trump][trick[0][1]] if trick else -1
        cards = [a.card for a in legal if a.card is not None]
        if actor == (seat + 1) % 4:
            assert action == legal[-1]
        elif actor != seat:
            assert action.card == lowest_card(cards, game.trump, led, ranking)
        copy.apply(actor, action)


def test_no_claim_outside_the_play_or_from_a_seat_sitting_out() -> None:
    game = new_game(HouseRules.preset_rules("north_american"), seed=2)
    with pytest.raises(RefusedError, match="only claim while the cards are being played"):
        claim_plays(game, 0)
    played = _in_play("north_american", seed=2)
    with pytest.raises(RefusedError, match="Only a seat playing this deal"):
        claim_plays(played, 7)
