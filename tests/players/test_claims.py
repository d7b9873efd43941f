"""Claims: offered only when the claimer's own cards take every trick in every world it can't rule out."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.players.claims import can_claim, claim_now, claimed_tricks
from bot.rules import Action, Deal, Game, HouseRules, new_game, parse_card, seat_view
from bot.rules.claims import claim_plays
from bot.rules.dealing import seeded_deal
from bot.rules.house_rules import deck_cards

from .claim_worlds import claimer_takes_every_trick, worlds
from .variants import RULES, label

BID_RULES = [HouseRules.preset_rules(p) for p in ("bid_euchre", "bid_euchre_6", "bid_euchre_8")]
ALL_RULES = [*RULES, *BID_RULES]
TWIN_RULES = [
    rules
    for rules in [
        *ALL_RULES,
        HouseRules.from_spec({"preset": "bid_euchre_8", "duplicate_card_wins": "second"}),
    ]
    if rules.packs == 2
]
"""Double packs, where a card's twin ties with it."""


def deal_positions(rules: HouseRules, seed: int) -> Iterator[tuple[Game, Deal, int]]:
    """Each moment of the play of one deal, played at random: (game, its deal, its dealer)."""
    rng = random.Random(seed)
    deal = seeded_deal(rules, seed, 0)
    dealer = seed % rules.players
    game = new_game(rules, dealer=dealer, deals=[deal])
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


def check_every_claim(rules: HouseRules, seed: int) -> None:
    """Each claim offered in one deal played at random holds in every world that fits."""
    rng = random.Random(seed)
    for game, deal, dealer, seat in claims(rules, seed):
        fitting = 0
        for world in worlds(game, deal, dealer, seat, rng, samples=20):
            claimer_takes_every_trick(world, seat, rng)
            fitting += 1
        assert fitting >= 1  # the real deal always fits


@settings(max_examples=60, deadline=None)
@given(rules=st.sampled_from(ALL_RULES), seed=st.integers(0, 10**6))
def test_a_claim_holds_in_every_world_the_claimer_cannot_rule_out(
    rules: HouseRules, seed: int
) -> None:
    check_every_claim(rules, seed)


@settings(max_examples=30, deadline=None)
@given(rules=st.sampled_from(TWIN_RULES), seed=st.integers(0, 10**6))
def test_a_claim_holds_with_twin_cards_about(rules: HouseRules, seed: int) -> None:
    check_every_claim(rules, seed)


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


# ---------------------------------------------------------------------------- chosen deals


def chosen_game(
    spec: dict[str, object], hands: dict[int, str], upcard: str, kitty: str = ""
) -> Game:
    """Seat 0 deals ``hands`` (the seats not named get the rest of the pack in its order),
    seat 1 orders up, the dealer discards its first card, nobody goes alone."""
    rules = HouseRules.from_spec(spec)
    rest = list(deck_cards(rules))
    named = {s: [parse_card(c) for c in h.split()] for s, h in hands.items()}
    for c in [*(c for h in named.values() for c in h), parse_card(upcard)]:
        rest.remove(c)
    size = rules.hand_size
    dealt = [
        tuple(named[s]) if s in named else tuple(rest.pop(0) for _ in range(size))
        for s in range(rules.players)
    ]
    game = new_game(rules, dealer=0, deals=[Deal(tuple(dealt), parse_card(upcard), tuple(rest))])
    game.apply(1, Action.order_up())
    game.apply(0, Action.discard(dealt[0][0]))
    while game.phase != "play":
        assert game.turn is not None
        game.apply(game.turn, Action.pass_())
    return game


def play(game: Game, *cards: str) -> None:
    """Play these cards in turn."""
    for name in cards:
        assert game.turn is not None
        game.apply(game.turn, Action.play(parse_card(name)))


NA = {"preset": "north_american"}
WITH_BENNY = {"preset": "north_american", "joker": "joker"}
TRUMP_PULL = {
    0: "10C 10D QD KD AD",
    1: "JH JD AH AS KS",
    2: "9C QC KC AC 9D",
    3: "QS JS 10S 10H 9S",
}


def test_no_claim_where_a_hidden_trump_could_ruff_the_claimers_ace() -> None:
    game = chosen_game(NA, TRUMP_PULL, "9H")
    assert game.turn == 1 and game.trump == 2
    # Three trumps led draw three, but the dealer may hold four (the 9 it took and 10 Q K):
    # the fourth would ruff the ace of spades.
    assert not can_claim(seat_view(game, 1))


def test_a_claim_once_the_trumps_left_must_fall_to_the_claimers_leads() -> None:
    game = chosen_game(NA, TRUMP_PULL, "9H")
    play(game, "JH", "9C", "10H", "9H")
    view = seat_view(game, 1)
    # Two trumps are unseen (Q, K of hearts) and two trump leads are to come: whoever holds
    # them must follow with them, so the ace and king of spades are good after.
    assert can_claim(view) and claim_now(view) and claimed_tricks(view) == 4
    assert not can_claim(seat_view(game, 2)) and not can_claim(seat_view(game, 3))


def test_a_claim_once_played_to_a_trick_it_wins_whatever_comes_after() -> None:
    game = chosen_game(NA, TRUMP_PULL, "9H")
    play(game, "JH", "9C", "10H", "9H", "JD")
    view = seat_view(game, 1)
    assert not view.my_turn and can_claim(view) and not claim_now(view)
    plays = claim_plays(game, 1)
    assert [s for s, _ in plays[:3]] == [2, 3, 0]
    assert [a.card for s, a in plays if s == 1] == [parse_card(c) for c in ("AH", "AS", "KS")]


def test_no_claim_while_following_to_a_trick_another_seat_wins() -> None:
    game = chosen_game(NA, TRUMP_PULL, "9H")
    play(game, "JH", "9C", "10H", "9H", "AS")
    assert game.turn == 2
    assert not can_claim(seat_view(game, 2))
    assert not can_claim(seat_view(game, 0))  # not its turn, and it has not played


def test_the_benny_in_hand_gives_the_claim_and_unseen_denies_it() -> None:
    held = chosen_game(
        WITH_BENNY,
        {0: "10C 10D QD KD AD", 1: "JK JH JD AH KH", 2: "9C QC KC AC 9D", 3: "QS JS 10S 10H 9S"},
        "9H",
    )
    assert can_claim(seat_view(held, 1))
    unseen = chosen_game(
        WITH_BENNY,
        {0: "10C 10D QD KD AD", 1: "JH JD AH KH QH", 2: "9C QC KC AC 9D", 3: "JK JS 10S 10H 9S"},
        "9H",
    )
    # The Benny is above the right bower, and the claimer cannot see where it is.
    assert not can_claim(seat_view(unseen, 1))


@pytest.mark.parametrize(("equal_wins", "claims"), [("second", False), ("first", True)])
def test_a_twin_of_the_claimers_card_ties_as_the_rules_say(equal_wins: str, claims: bool) -> None:
    spec = {"preset": "six_player", "deck": "24", "packs": 2, "duplicate_card_wins": equal_wins}
    game = chosen_game(spec, {0: "9C 9C 10C 10C 9D", 1: "JK JK JH JH JD"}, "9H")
    assert game.turn == 1
    # The other left bower is unseen: played after the claimer's, it wins only where the
    # second of two equal cards does (a seat with five trumps can keep it to the last trick).
    assert can_claim(seat_view(game, 1)) is claims


def test_no_claim_before_the_play_or_from_a_seat_sitting_out() -> None:
    game = new_game(HouseRules.preset_rules("north_american"), seed=3)
    assert not can_claim(seat_view(game, game.turn or 0))
    assert not can_claim(seat_view(game, -1))
