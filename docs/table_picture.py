"""Draw docs/table.png, the picture of a table in README.

A seeded north_american game with the basic player in every seat, stopped in the
third trick: the trick on the felt, each seat's name and tricks, and the hand of the
seat at the bottom, every card drawn by the bot's own card faces
(:func:`bot.render.card_images.draw_card`, the pictures it uploads as emojis).

    python docs/table_picture.py          # writes docs/table.png
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from bot.players import make_player
from bot.render.card_images import SIZE, draw_card
from bot.render.cards import sort_hand
from bot.rules import Game, HouseRules, seat_view
from bot.rules.cards import Suit

OUT = Path(__file__).with_name("table.png")
SEED = 11
NAMES = ("You", "Ada (computer)", "Sam", "Lin (computer)")
WIDTH, HEIGHT = 860, 585
FELT = (31, 94, 58)
INK = (240, 240, 230)
SUIT_NAMES = {
    Suit.CLUBS: "clubs",
    Suit.DIAMONDS: "diamonds",
    Suit.SPADES: "spades",
    Suit.HEARTS: "hearts",
}


def game_in_the_third_trick(seed: int) -> Game | None:
    """The first deal of a seeded game, played by basic until seat 0 plays third to trick 3.

    None when the deal never gets there (thrown in, or someone went alone).
    """
    game = Game(HouseRules.preset_rules("north_american"), seed=seed)
    players = [make_player("basic", n) for n in range(4)]
    while not (len(game.tricks) == 2 and len(game.trick) == 2 and game.turn == 0):
        turn = game.turn
        if turn is None or game.deal_number > 1 or any(game.alone):
            return None
        game.apply(turn, players[turn].choose(seat_view(game, turn)))
    return game


def first_fitting_game() -> Game:
    """The game of the first seed from SEED on that reaches the moment drawn."""
    seed = SEED
    while (game := game_in_the_third_trick(seed)) is None:
        seed += 1
    return game


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    try:
        return ImageFont.truetype("DejaVuSans-Bold.ttf", size)
    except OSError:
        return ImageFont.load_default()


def draw(game: Game) -> Image.Image:
    """The felt, the seats, the trick in the middle and seat 0's hand along the bottom."""
    image = Image.new("RGB", (WIDTH, HEIGHT), FELT)
    pen = ImageDraw.Draw(image)
    big, small = _font(22), _font(17)
    view = seat_view(game, 0)
    trump = view.trump
    assert trump is not None and view.maker is not None
    title = (
        f"Score {view.score[0]}-{view.score[1]}   ·   trump {SUIT_NAMES[Suit(trump)]}, "
        f"made by {NAMES[view.maker]}   ·   tricks {view.tricks_won[0]}-{view.tricks_won[1]}"
    )
    pen.text((WIDTH / 2, 22), title, font=small, fill=INK, anchor="mm")
    middle = (WIDTH / 2, 215)
    places = {0: (0, 70), 1: (-110, 0), 2: (0, -70), 3: (110, 0)}
    labels = {0: (0, 150), 1: (-300, 0), 2: (0, -150), 3: (300, 0)}
    for seat in range(4):
        dx, dy = labels[seat]
        pen.text((middle[0] + dx, middle[1] + dy), NAMES[seat], font=big, fill=INK, anchor="mm")
    for seat, card in view.trick:
        dx, dy = places[seat]
        face = draw_card(card)
        image.paste(face, (int(middle[0] + dx - SIZE / 2), int(middle[1] + dy - SIZE / 2)), face)
    hand = sort_hand(view.hand, trump)
    scale = 1.25
    width = int(SIZE * scale)
    step = width - 22
    left = int(WIDTH / 2 - (step * (len(hand) - 1) + width) / 2)
    pen.text((WIDTH / 2, 420), "Your hand: your turn", font=small, fill=INK, anchor="mm")
    for i, card in enumerate(hand):
        face = draw_card(card).resize((width, width), Image.Resampling.LANCZOS)
        image.paste(face, (left + i * step, 440), face)
    return image


def main() -> None:
    """Write the picture."""
    draw(first_fitting_game()).save(OUT, optimize=True)
    print(OUT)


if __name__ == "__main__":
    main()
