"""What a seat works out from its view: unseen cards, voids, the upcard in the dealer's hand."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bot.players.tracking import Knowledge
from bot.rules import Action, Deal, HouseRules, new_game, parse_card, seat_view
from bot.rules.dealing import NO_UPCARD
from tests.rules.util import TWO_PACKS_SIX_SEATS

from .test_basic import DEAL_A, NA, ordered_then
from .util import position


def test_unseen_cards_voids_and_the_taken_upcard() -> None:
    game = ordered_then("9S", "KS", "JS", "10H")
    know = Knowledge.read(seat_view(game, 2))
    spades, hearts = 3, 2
    assert spades in know.voids[0]
    # Seat 2 sees its own hand and the played cards; the dealer's discard (JC) stays unseen.
    for name in ("9S", "KS", "JS", "10H", "QC", "QS", "10S", "9D"):
        assert know.unseen.get(parse_card(name), 0) == 0
    assert know.unseen[parse_card("JC")] == 1
    assert not know.could_hold(0, parse_card("AS"))
    assert know.is_trump(parse_card("JD")) and know.suit(parse_card("JD")) == hearts
    dealer = Knowledge.read(seat_view(game, 0))
    assert dealer.unseen.get(parse_card("JC"), 0) == 0  # its own discard is out of play


def test_upcard_known_in_the_dealers_hand() -> None:
    game = position(
        NA,
        DEAL_A,
        "AS",
        [{"seat": 1, "do": "order_up"}, {"seat": 0, "do": "discard", "card": "JC"}],
    )
    know = Knowledge.read(seat_view(game, 3))
    assert know.holder[parse_card("AS")] == 0
    assert know.could_hold(0, parse_card("AS")) and not know.could_hold(1, parse_card("AS"))


def test_a_six_seat_shooter_holds_the_cards_its_partners_passed() -> None:
    # Seat 1 shoots, and its partners 3 and 5 each pass it a card.
    hands = tuple(tuple(parse_card(c) for c in h.split()) for h in TWO_PACKS_SIX_SEATS)
    game = new_game(
        HouseRules.preset_rules("bid_euchre_6"), dealer=0, deals=[Deal(hands, NO_UPCARD, ())]
    )
    for seat, action in [
        (1, Action.shoot()),
        (1, Action.declare("S")),
        (3, Action.give(parse_card("JD"))),
        (1, Action.discard(parse_card("9D"))),
        (5, Action.give(parse_card("KD"))),
        (1, Action.discard(parse_card("9D"))),
    ]:
        game.apply(seat, action)
    assert game.phase == "play" and list(game.out) == [False, False, False, True, False, True]
    for giver, gift in ((3, "JD"), (5, "KD")):
        card = parse_card(gift)
        know = Knowledge.read(seat_view(game, giver))
        # The giver kept the other copy: the one unseen is the shooter's, two seats on or four.
        assert know.unseen[card] == 1 and know.holder[card] == 1
        assert know.could_hold(1, card)
        assert not any(know.could_hold(s, card) for s in (0, 2, 3, 4, 5))


@pytest.mark.parametrize(
    "spec",
    [
        {"preset": "north_american", "partners_best": True},
        {"preset": "six_player"},
        {"preset": "six_player", "partners_best": True},
        {"preset": "bid_euchre"},
        {"preset": "bid_euchre_6"},
        {"preset": "bid_euchre_8"},
    ],
    ids=["na-partners-best", "six", "six-partners-best", "bid-4", "bid-6", "bid-8"],
)
def test_a_passed_card_is_known_in_the_hand_the_rules_put_it_in(spec: dict[str, object]) -> None:
    rules = HouseRules.from_spec(spec)
    rng = random.Random(7)
    gifts = 0
    for seed in range(200):
        game = new_game(rules, seed=seed)
        while not game.over and game.deal_number <= 2 and gifts < 12:
            seat = game.turn
            assert seat is not None
            action = rng.choice(list(game.legal()))
            before = [Counter(h) for h in game.hands]
            game.step(action)
            if action.do != "give" or action.card is None:
                continue
            gifts += 1
            (receiver,) = [s for s, h in enumerate(game.hands) if Counter(h) - before[s]]
            assert receiver != seat
            assert Knowledge.read(seat_view(game, seat)).holder[action.card] == receiver
    assert gifts == 12
