"""Card names and the trump order: bowers and Bennies."""

from __future__ import annotations

import pytest

from bot.rules import HouseRules, Suit, card_label, parse_card
from bot.rules.cards import CardError, card_words, parse_suit
from bot.rules.ranking import build_ranking, trick_winner_index


def test_names_round_trip() -> None:
    for name in ["9S", "10H", "JD", "AC", "7C", "8D", "JK", "2S", "3S", "4S", "JR", "JB"]:
        assert card_label(parse_card(name)) == name
    assert parse_card("TH") == parse_card("10H") == parse_card("10h")
    assert card_words(parse_card("JD")) == "the jack of diamonds"


@pytest.mark.parametrize("bad", ["", "1H", "JX", "10", "HJ", "11S"])
def test_malformed_cards(bad: str) -> None:
    with pytest.raises(CardError):
        parse_card(bad)


def test_suits() -> None:
    assert parse_suit("h") == parse_suit("♥") == parse_suit("hearts") == Suit.HEARTS
    assert Suit.HEARTS.partner == Suit.DIAMONDS and Suit.CLUBS.partner == Suit.SPADES


def _winner(rules: HouseRules, trump: Suit, names: str) -> str:
    cards = [parse_card(c) for c in names.split()]
    return card_label(cards[trick_winner_index(cards, trump, build_ranking(rules))])


def test_left_bower_follows_trump_and_beats_the_ace() -> None:
    rules = HouseRules.preset_rules("north_american")
    ranking = build_ranking(rules)
    assert ranking.suit[Suit.HEARTS][parse_card("JD")] == Suit.HEARTS
    assert ranking.suit[Suit.HEARTS][parse_card("QD")] == Suit.DIAMONDS
    assert _winner(rules, Suit.HEARTS, "AH JD KH") == "JD"
    assert _winner(rules, Suit.HEARTS, "JD JH AH") == "JH"
    # led as a diamond it is a heart: trump, and wins the diamond trick
    assert _winner(rules, Suit.HEARTS, "AD JD") == "JD"


def test_the_benny_follows_trump_and_beats_both_bowers() -> None:
    rules = HouseRules.preset_rules("british")
    ranking = build_ranking(rules)
    assert ranking.suit[Suit.CLUBS][parse_card("JK")] == Suit.CLUBS
    assert _winner(rules, Suit.CLUBS, "JC JS JK AC") == "JK"


def test_almonte_jokers_rank_four_three_two() -> None:
    rules = HouseRules.preset_rules("almonte")
    assert _winner(rules, Suit.DIAMONDS, "2S JD 3S") == "3S"
    assert _winner(rules, Suit.DIAMONDS, "2S 4S 3S") == "4S"
    assert _winner(rules, Suit.DIAMONDS, "JD 2S") == "2S"
    assert _winner(rules, Suit.DIAMONDS, "8D 9D") == "9D"
