"""Claims: offered only when the claimer's own cards take every trick in every world it can't rule out."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.players.claims import can_claim, claim_now, claimed_tricks
from bot.rules import Deal, Game, HouseRules, make_game, parse_card, seat_view
from bot.rules.claims import claim_plays
from bot.rules.dealing import seeded_deal

from .claim_worlds import claimer_takes_every_trick, worlds
from .variants import RULES, label

BID_RULES = [HouseRules.preset_rules(p) for p in ("bid_euchre", "bid_euchre_6", "bid_euchre_8")]
ALL_RULES = [*RULES, *BID_RULES]


def deal_positions(rules: HouseRules, seed: int) -> Iterator[tuple[Game, Deal, int]]:
    """Each moment of the play of one deal, played at random: (game, its deal, its dealer)."""
    rng = random.Random(seed)
    deal = seeded_deal(rules, seed, 0)
    dealer = seed % rules.players
    game = make_game(rules, dealer=dealer, deals=[deal])
    number = game.deal_number
    while not game.over and game.deal_number == number:
        if game.phase == "play":
            yield game, deal, dealer
        assert game.turn is not None
        game.apply(game.turn, rng.choice(list(game.legal())))


def claims(rules: HouseRules, seed: int) -> Iterator[tuple[Game, Deal, int, int]]:
    """Every claim offered during one deal played at random: (game, deal, dealer, claimer)."""
    for game, deal, dealer in deal_positions(rules, seed):
        for seat in range(game.players):
            if can_claim(seat_view(game, seat)):
                yield game, deal, dealer, seat


@settings(max_examples=60, deadline=None)
@given(rules=st.sampled_from(ALL_RULES), seed=st.integers(0, 10**6))
def test_a_claim_holds_in_every_world_the_claimer_cannot_rule_out(
    rules: HouseRules, seed: int
) -> None:
    rng = random.Random(seed)
    for game, deal, dealer, seat in claims(rules, seed):
        fitting = 0
        for world in worlds(game, deal, dealer, seat, rng, samples=20):
            claimer_takes_every_trick(world, seat, rng)
            fitting += 1
        assert fitting >= 1  # the real deal always fits


@pytest.mark.parametrize("rules", ALL_RULES, ids=label)
def test_claims_come_up_in_every_variant_and_play_out_to_the_end(rules: HouseRules) -> None:
    found = 0
    for seed in range(12):
        for game, _, _, seat in claims(rules, seed):
            found += 1
            tricks = claimed_tricks(seat_view(game, seat))
            plays = claim_plays(game, seat)
            after = game.copy()
            number = after.deal_number
            taken = 0
            for actor, action in plays:
                assert action.do == "play"
                after.apply(actor, action)
                if not after.trick:
                    last = after.last_trick
                    assert last is not None and last.winner == seat
                    taken += 1
            assert taken == tricks
            assert after.over or after.deal_number != number
    assert found > 0
