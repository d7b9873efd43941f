"""Four-colour suits (a person's preference): the card pictures, the text, the hand, the faces."""

from __future__ import annotations

import io
from collections import Counter

from PIL import Image

from bot.discord.tables.embeds import hand_embed
from bot.render import CardFaces, hand_buttons
from bot.render.card_images import (
    FOUR_COLOUR_PREFIX,
    card_picture,
    card_pictures,
    draw_card,
    emoji_pictures,
)
from bot.render.cards import card_text, hand_text, in_colours, suit_text
from bot.render.faces import CardEmoji
from bot.rules import Suit, parse_card, seat_view
from tests.render.games import VARIANTS, steps

Colour = tuple[int, int, int]


def suit_pixels(png: bytes) -> Counter[Colour]:
    """How many pixels of each colour the card's suit sign (below its rank) has."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    counts: Counter[Colour] = Counter()
    for x in range(30, 66):
        for y in range(50, 84):
            pixel = image.getpixel((x, y))
            assert isinstance(pixel, tuple)
            counts[(pixel[0], pixel[1], pixel[2])] += 1
    return counts


def ink(png: bytes) -> Colour:
    """The colour the suit sign is drawn in: its most common colour other than the white."""
    counts = suit_pixels(png)
    del counts[(255, 255, 255)]
    return counts.most_common(1)[0][0]


def is_red(c: Colour) -> bool:
    return c[0] > 150 and c[1] < 80 and c[2] < 80


def is_black(c: Colour) -> bool:
    return max(c) < 60


def is_blue(c: Colour) -> bool:
    return c[2] > 150 and c[0] < 80


def is_green(c: Colour) -> bool:
    return c[1] > 110 and c[0] < 60 and c[2] < 100


def test_two_colours_draw_diamonds_red_and_clubs_black() -> None:
    assert is_red(ink(card_picture(parse_card("QD")).png))
    assert is_black(ink(card_picture(parse_card("QC")).png))
    assert is_red(ink(card_picture(parse_card("QH")).png))
    assert is_black(ink(card_picture(parse_card("QS")).png))


def test_four_colours_draw_diamonds_blue_and_clubs_green_and_keep_the_others() -> None:
    for rank in ("9", "10", "J", "Q", "K", "A"):
        diamond = ink(card_picture(parse_card(f"{rank}D"), four_colour=True).png)
        club = ink(card_picture(parse_card(f"{rank}C"), four_colour=True).png)
        assert is_blue(diamond), diamond
        assert is_green(club), club
        assert diamond != ink(card_picture(parse_card(f"{rank}D")).png)
        assert club != ink(card_picture(parse_card(f"{rank}C")).png)
    for label in ("AH", "AS", "JK"):
        card = parse_card(label)
        assert draw_card(card, True).tobytes() == draw_card(card).tobytes()


def test_the_four_colour_faces_are_a_second_set_of_the_cards_they_change() -> None:
    four = card_pictures(four_colour=True)
    assert len(four) == 16 and all(p.four_colour for p in four)
    assert {Suit(p.card >> 3) for p in four} == {Suit.DIAMONDS, Suit.CLUBS}
    assert all(p.name.startswith(FOUR_COLOUR_PREFIX) and len(p.name) <= 32 for p in four)
    names = [p.name for p in emoji_pictures()]
    assert len(names) == len(set(names)) == 38 + 16 < 2000
    # Neither set's stale-picture prefix catches a picture of the other.
    for usual in card_pictures():
        assert not any(p.name.startswith(usual.label_prefix) for p in four)
    for coloured in four:
        assert not any(p.name.startswith(coloured.label_prefix) for p in card_pictures())


def test_text_in_four_colours() -> None:
    jd, jc = parse_card("JD"), parse_card("JC")
    assert card_text(jd) == "J♦️" and card_text(jd, four_colour=True) == "J🔷"
    assert card_text(jc, four_colour=True) == "J☘️"
    assert card_text(parse_card("10H"), four_colour=True) == "10♥️"
    assert suit_text(Suit.CLUBS, four_colour=True) == "☘️ clubs"
    assert in_colours(hand_text([jd, jc], None), True) == hand_text([jd, jc], None).replace(
        "♦️", "🔷"
    ).replace("♣️", "☘️")
    assert in_colours("J♦️", False) == "J♦️"


def test_the_hand_and_its_buttons_follow_the_preference() -> None:
    seen_suits = False
    for table in steps(VARIANTS[0], 5, limit=12):
        game = table.game
        assert game is not None
        public = table.public()
        for seat in range(table.size):
            view = seat_view(game, seat)
            two = hand_embed(public, view).description or ""
            four = hand_embed(public, view, four_colour=True).description or ""
            assert four == in_colours(two, True)
            assert "♦️" not in four and "♣️" not in four
            labels = [b.label for b in hand_buttons(public, view, four_colour=True)]
            assert labels == [in_colours(b.label, True) for b in hand_buttons(public, view)]
            seen_suits = seen_suits or "♦️" in two or "♣️" in two
    assert seen_suits


def test_the_faces_draw_with_the_set_asked_for() -> None:
    jd, ah = parse_card("JD"), parse_card("AH")
    usual = {
        jd: CardEmoji("euchre_JD_a", 1),
        ah: CardEmoji("euchre_AH_b", 2),
    }
    four = {jd: CardEmoji("euchre_four_JD_c", 3)}
    faces = CardFaces(usual, four)
    assert faces.emoji(jd) == usual[jd]
    coloured = faces.coloured(True)
    assert coloured.emoji(jd) == four[jd] and coloured.emoji(ah) == usual[ah]
    assert coloured.coloured(False) == faces
    assert CardFaces().coloured(True).inline(jd) == "J🔷"
    assert CardFaces().inline(jd) == "J♦️"
