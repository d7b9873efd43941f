"""Bid Euchre's property tests: cards conserved, always an action, games end, views, replays."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules import HouseRules, game_record, new_game, replay, seat_view

from .util import calm_choice, checked_random_game, snapshot
from .variants import BID_RULES

rules_st = st.sampled_from(BID_RULES)
seeds = st.integers(min_value=0, max_value=2**63)


@settings(max_examples=25, deadline=None)
@given(rules_st, seeds, seeds)
def test_random_games_end_with_cards_conserved_and_points_per_result(
    rules: HouseRules, seed: int, pick: int
) -> None:
    game = checked_random_game(rules, seed, pick, calm_choice, limit=20_000)
    assert game.over and game.turn is None and list(game.legal()) == []
    assert [sum(r.points[t] for r in game.results) for t in (0, 1)] == list(game.score)
    if rules.deals_per_game is None:
        assert game.winner is not None and game.score[game.winner] >= rules.target_score
    for r in game.results:
        bidders = r.makers
        assert bidders is not None and r.contract is not None
        assert sum(r.tricks) == rules.hand_size
        mine, theirs = r.points[bidders], r.points[1 - bidders]
        if r.result == "made":
            assert r.tricks[bidders] >= r.contract.tricks and (mine, theirs) == (
                r.tricks[bidders],
                r.tricks[1 - bidders],
            )
        else:
            assert r.result == "set" and mine == -r.contract.tricks
            assert theirs == r.tricks[1 - bidders]


@settings(max_examples=25, deadline=None)
@given(rules_st, seeds, seeds)
def test_a_score_goes_down_only_by_a_contract_lost(rules: HouseRules, seed: int, pick: int) -> None:
    """Only the bidders' score goes down: by their bid when set, by the shoot's when it fails."""
    rng = random.Random(pick)
    game = new_game(rules, seed=seed)
    while not game.over and game.deal_number <= 12:
        before, deals = list(game.score), len(game.results)
        game.step(calm_choice(game, rng))
        for team in (0, 1):
            if game.score[team] >= before[team]:
                continue
            ended = game.results[deals - 1]
            assert ended.contract is not None and ended.contract.team == team
            lost = rules.shoot_points if ended.contract.shoot else ended.contract.tricks
            assert ended.result in ("set", "shot_failed")
            assert game.score[team] == before[team] - lost


@settings(max_examples=25, deadline=None)
@given(rules_st, seeds, seeds, st.floats(min_value=0, max_value=1))
def test_replaying_a_prefix_gives_the_same_state(
    rules: HouseRules, seed: int, pick: int, where: float
) -> None:
    rng = random.Random(pick)
    full = new_game(rules, seed=seed)
    for _ in range(int(400 * where)):
        if full.over:
            break
        full.step(rng.choice(list(full.legal())))  # shoots included
    stepped = new_game(rules, seed=seed, dealer=full.first_dealer)
    for seat, action in full.log:
        stepped.apply(seat, action)
    assert snapshot(stepped) == snapshot(full)
    assert snapshot(replay(game_record(stepped)).game) == snapshot(stepped)
    assert snapshot(replay(game_record(stepped, with_deals=True)).game) == snapshot(stepped)
    twin = stepped.copy()
    while not twin.over and twin.deal_number < stepped.deal_number + 2:
        twin.step(rng.choice(list(twin.legal())))
    assert snapshot(stepped) == snapshot(full)


@settings(max_examples=25, deadline=None)
@given(rules_st, seeds, seeds)
def test_a_view_never_shows_another_seats_hidden_cards(
    rules: HouseRules, seed: int, pick: int
) -> None:
    rng = random.Random(pick)
    game = new_game(rules, seed=seed)
    twins = {c for c, k in Counter(game.pack).items() if k > 1}
    for _ in range(300):
        if game.over:
            break
        for seat in range(rules.players):
            view = seat_view(game, seat)
            assert (
                view.hand == tuple(game.hands[seat]) and view.contract == game.results[-1].contract
            )
            seen = set(view.hand) | {c for _, c in view.trick}
            seen |= {c for t in view.tricks for c in t.cards}
            for actor, action in view.history:
                if action.do == "discard" and actor != seat:
                    assert action.card is None
                if action.do == "give" and seat not in (actor, game.maker):
                    assert action.card is None
                if action.card is not None:
                    seen.add(action.card)
            others = {c for s, hand in enumerate(game.hands) if s != seat for c in hand}
            leaked = (seen & others) - set(view.hand) - twins
            leaked -= {a.card for _, a in view.history if a.do == "give" and a.card is not None}
            assert not leaked
        game.apply(game.turn, rng.choice(list(game.legal())))  # type: ignore[arg-type]
