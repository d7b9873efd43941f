"""What a seat works out from its view: unseen cards, voids, the upcard in the dealer's hand."""

from __future__ import annotations

from bot.players.tracking import Knowledge
from bot.rules import parse_card, seat_view

from .test_basic import DEAL_A, NA, ORDERED
from .util import position


def test_unseen_cards_voids_and_the_taken_upcard() -> None:
    plays = [("1", "9S"), ("2", "KS"), ("3", "JS"), ("0", "10H")]
    game = position(
        NA,
        DEAL_A,
        "10H",
        [*ORDERED, *({"seat": int(s), "do": "play", "card": c} for s, c in plays)],
    )
    know = Knowledge.read(seat_view(game, 2))
    spades, hearts = 3, 2
    assert spades in know.voids[0]
    # Seat 2 sees its own hand and the played cards; the dealer's discard (JC) stays unseen.
    for name in ("9S", "KS", "JS", "10H", "QC", "QS", "10S", "9D"):
        assert know.unseen[parse_card(name)] == 0
    assert know.unseen[parse_card("JC")] == 1
    assert not know.could_hold(0, parse_card("AS"))
    assert know.is_trump(parse_card("JD")) and know.suit(parse_card("JD")) == hearts
    dealer = Knowledge.read(seat_view(game, 0))
    assert dealer.unseen[parse_card("JC")] == 0  # its own discard is out of play


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
