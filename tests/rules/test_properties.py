"""Property tests over random seeds and rule sets: cards conserved, always an action, games end."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules import Action, Game, HouseRules, game_record, replay, seat_view

from .util import checked_random_game, snapshot
from .variants import RULES

rules_st = st.sampled_from(RULES)
seeds = st.integers(min_value=0, max_value=2**63)


def _partway(full: Game, where: float) -> Game:
    """The same game again, its first ``where`` share of ``full``'s actions applied."""
    game = Game(full.rules, seed=full.seed, dealer=full.first_dealer)
    for seat, action in full.log[: int(len(full.log) * where)]:
        game.apply(seat, action)
    return game


@settings(max_examples=60, deadline=None)
@given(rules_st, seeds, seeds)
def test_random_games_end_with_cards_conserved(rules: HouseRules, seed: int, pick: int) -> None:
    game = checked_random_game(rules, seed, pick)
    assert game.over and game.turn is None and list(game.legal()) == []
    if rules.deals_per_game is None:
        assert game.winner is not None
        assert game.score[game.winner] >= rules.target_score
        assert game.score[1 - game.winner] < rules.target_score
    else:
        assert game.deal_number == rules.deals_per_game


@settings(max_examples=60, deadline=None)
@given(rules_st, seeds, seeds)
def test_points_match_each_deal_result(rules: HouseRules, seed: int, pick: int) -> None:
    game = checked_random_game(rules, seed, pick)
    assert [sum(r.points[t] for r in game.results) for t in (0, 1)] == game.score
    for r in game.results:
        makers = r.makers
        if r.result in ("passed", "redeal"):
            assert r.points == [0, 0] and r.tricks == [0, 0]
            continue
        assert makers is not None and sum(r.tricks) == 5
        lone_maker = any(s % 2 == makers for s in r.alone)
        lone_defender = any(s % 2 != makers for s in r.alone)
        mine, theirs = r.points[makers], r.points[1 - makers]
        if r.result == "march":
            assert r.tricks[makers] == 5
            assert mine == (rules.points_lone_march if lone_maker else rules.points_march)
            assert theirs == 0
        elif r.result == "made":
            assert r.tricks[makers] in (3, 4) and (mine, theirs) == (rules.points_made, 0)
        else:
            assert r.result == "euchred" and r.tricks[makers] < 3 and mine == 0
            expected = rules.points_lone_defender_euchre if lone_defender else rules.points_euchre
            if r.tricks[makers] == 0 and rules.points_super_euchre is not None:
                expected = max(expected, rules.points_super_euchre)
            assert theirs == expected


@settings(max_examples=40, deadline=None)
@given(rules_st, seeds, seeds)
def test_scores_never_go_down(rules: HouseRules, seed: int, pick: int) -> None:
    """Euchre scores only what a deal won: no rule takes points away."""
    rng = random.Random(pick)
    game = Game(rules, seed=seed)
    while not game.over:
        before = list(game.score)
        game.step(rng.choice(list(game.legal())))
        assert all(now >= then for now, then in zip(game.score, before, strict=True))


@settings(max_examples=40, deadline=None)
@given(rules_st, seeds, seeds, st.floats(min_value=0, max_value=1))
def test_replaying_a_prefix_gives_the_same_state(
    rules: HouseRules, seed: int, pick: int, where: float
) -> None:
    stepped = _partway(checked_random_game(rules, seed, pick), where)
    doc = game_record(stepped)
    assert snapshot(replay(doc).game) == snapshot(stepped)
    with_deals = game_record(stepped, with_deals=True)
    assert snapshot(replay(with_deals).game) == snapshot(stepped)


@settings(max_examples=40, deadline=None)
@given(rules_st, seeds, seeds)
def test_a_view_never_shows_another_seats_hidden_cards(
    rules: HouseRules, seed: int, pick: int
) -> None:
    rng = random.Random(pick)
    game = Game(rules, seed=seed)
    twins = {c for c, k in Counter(game.pack).items() if k > 1}  # a double pack's copies look alike
    for _ in range(400):
        if game.over:
            break
        for seat in range(rules.players):
            view = seat_view(game, seat)
            assert view.hand in ((), tuple(game.hands[seat]))
            public = set(view.hand) | {c for _, c in view.trick}
            public |= {c for t in view.tricks for c in t.cards} | {view.upcard}
            for actor, action in view.history:
                if action.do in ("discard", "swap") and actor != seat:
                    assert action.card is None and action.cards is None
                if action.do == "swap":
                    continue  # a seat remembers its own swapped-out cards, wherever they go next
                if action.card is not None:
                    public.add(action.card)
            others = {c for s, hand in enumerate(game.hands) if s != seat for c in hand}
            # every card a view mentions is one this seat saw (its own, played, turned or given to it)
            leaked = (public & others) - set(view.hand) - {view.upcard} - twins
            leaked -= {
                c for _, a in view.history if a.do == "give" for c in [a.card] if c is not None
            }
            assert not leaked
        game.apply(game.turn, rng.choice(list(game.legal())))  # type: ignore[arg-type]


@settings(max_examples=30, deadline=None)
@given(rules_st, seeds, seeds, st.floats(min_value=0, max_value=1))
def test_a_copy_is_independent(rules: HouseRules, seed: int, pick: int, where: float) -> None:
    game = _partway(checked_random_game(rules, seed, pick), where)
    before = snapshot(game)
    twin = game.copy()
    assert snapshot(twin) == before
    rng = random.Random(pick)
    while not twin.over:
        twin.step(rng.choice(list(twin.legal())))
    assert snapshot(game) == before


def test_the_public_view_holds_no_hand() -> None:
    from bot.rules import public_view

    game = Game(HouseRules.preset_rules("british"), seed=5)
    view = public_view(game)
    assert view.hand == () and view.legal == () and view.seat == -1


def _history_by_hand(game: Game, seat: int) -> list[tuple[int, Action]]:
    """The deal's history as ``seat`` may see it, masked action by action (the plain reading)."""
    deal_log = game.log[len(game.log) - _deal_length(game) :]
    seen = []
    receiver: int | None = None
    for actor, action in deal_log:
        if action.do == "ask":
            receiver = actor
        elif action.do == "give" and receiver is None:
            receiver = (actor + 2) % game.players
        if action.do == "discard" and actor != seat:
            action = Action.discard()
        elif action.do == "give" and seat not in (actor, receiver):
            action = Action.give()
        elif action.do == "swap" and actor != seat:
            action = Action.swap()
        if action.do == "discard":
            receiver = None
        seen.append((actor, action))
    return seen


def _deal_length(game: Game) -> int:
    """How many of the log's actions belong to the deal in play (replayed to count them)."""
    again = Game(game.rules, seed=game.seed, dealer=game.first_dealer)
    start = 0
    for index, (_, action) in enumerate(game.log):
        if again.deal_number != game.deal_number:
            start = index + 1
        again.step(action)
    return len(game.log) - start if again.deal_number == game.deal_number else 0


@settings(max_examples=40, deadline=None)
@given(rules_st, seeds, seeds, st.floats(min_value=0, max_value=1))
def test_every_seat_sees_the_deal_history_masked_as_the_rules_say(
    rules: HouseRules, seed: int, pick: int, where: float
) -> None:
    game = _partway(checked_random_game(rules, seed, pick), where)
    if game.over:
        return
    for seat in range(-1, rules.players):
        assert list(seat_view(game, seat).history) == _history_by_hand(game, seat)
