"""Cards in text: symbols, bowers named, hands sorted with trump first."""

from __future__ import annotations

from bot.render import card_name, card_text, hand_text, sort_hand, suit_text
from bot.rules import Suit, parse_card
from bot.rules.cards import JOKER


def cards(*names: str) -> list[int]:
    return [parse_card(n) for n in names]


def test_trump_first_with_the_bowers_on_top() -> None:
    hand = cards("9H", "AS", "JD", "QH", "JH", "KC")
    sorted_hand = sort_hand(hand, int(Suit.HEARTS))
    assert sorted_hand == cards("JH", "JD", "QH", "9H", "AS", "KC")
    assert hand_text(hand, int(Suit.HEARTS)).startswith(
        "J♥\ufe0f (right bower) · J♦\ufe0f (left bower) · Q♥\ufe0f"
    )


def test_before_trump_suits_alternate_colours_and_jacks_are_plain() -> None:
    hand = cards("9D", "AS", "JD", "QH", "KC")
    assert sort_hand(hand, None) == cards("AS", "QH", "KC", "JD", "9D")
    assert card_name(parse_card("JD"), None) == "J♦\ufe0f"


def test_the_benny_leads_and_is_named() -> None:
    hand = [*cards("9S", "JS"), JOKER]
    assert sort_hand(hand, int(Suit.SPADES))[0] == JOKER
    assert card_name(JOKER, int(Suit.SPADES)) == "🃏 (Benny)"


def test_suits_are_written_in_their_emoji_form_which_discord_draws_in_colour() -> None:
    assert suit_text(int(Suit.HEARTS)) == "♥\ufe0f hearts"
    assert card_text(parse_card("10S")) == "10♠\ufe0f"
    assert card_text(parse_card("2S")) == "2♠\ufe0f" and card_text(JOKER) == "🃏"
