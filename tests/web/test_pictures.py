"""Names in the link pictures: emoji in colour, a drawn stand-in without the font, no override.

The emoji font is Debian's ``fonts-noto-color-emoji``, which the Docker image and CI
install; without it the colour test has nothing to draw with and is skipped.
"""

from __future__ import annotations

import pytest
from PIL import Image

from bot.web.drawing import Fonts, draw_text, find_fonts, fit, runs, text_width

FOUND = find_fonts()
NO_EMOJI = Fonts(FOUND.regular, FOUND.bold, None)
NO_FONTS = Fonts()
BACKGROUND = (29, 77, 51)
INK = (243, 243, 234)


def _drawn(text: str, fonts: Fonts) -> Image.Image:
    image = Image.new("RGB", (600, 80), BACKGROUND)
    draw_text(image, (10, 10), text, fonts, 40, INK)
    return image


def _pixels(image: Image.Image) -> set[tuple[int, int, int]]:
    """Every colour of an RGB picture."""
    data = image.convert("RGB").tobytes()
    return {(data[i], data[i + 1], data[i + 2]) for i in range(0, len(data), 3)}


def _colours(image: Image.Image) -> set[tuple[int, int, int]]:
    """The strongly coloured pixels: neither the felt, nor the ink, nor a grey between."""
    out = set()
    for r, g, b in _pixels(image):
        if max(r, g, b) - min(r, g, b) > 80 and (r, g, b) != BACKGROUND:
            out.add((r, g, b))
    return out


def test_a_name_is_cut_into_text_emoji_and_what_no_font_has() -> None:
    with_emoji = Fonts(FOUND.regular, FOUND.bold, "NotoColorEmoji.ttf")  # runs only name it
    assert [(r.kind, r.text) for r in runs("Ada 🃏👩\u200d👩\u200d👧 x", with_emoji)] == [
        ("text", "Ada "),
        ("emoji", "🃏"),
        ("emoji", "👩\u200d👩\u200d👧"),
        ("text", " x"),
    ]
    kinds = [r.kind for r in runs("Ada 🃏", NO_EMOJI)]
    assert kinds[0] == "text" and kinds[-1] in ("text", "emoji-missing")
    assert [r.kind for r in runs("Ada 😀", NO_FONTS)] == ["text", "emoji-missing"]
    assert [r.kind for r in runs("中", NO_FONTS)] == ["missing"]


def test_overrides_and_isolates_are_left_out_of_a_picture() -> None:
    assert "".join(r.text for r in runs("Zed \u202eevil\u2069\u2066", FOUND)) == "Zed evil"


@pytest.mark.skipif(
    FOUND.emoji is None, reason="no emoji font (apt-get install fonts-noto-color-emoji)"
)
def test_emoji_are_drawn_in_colour_with_the_emoji_font() -> None:
    assert _colours(_drawn("Jo 😀🇫🇷", FOUND)), "the emoji drew no colour"
    assert not _colours(_drawn("Jo", FOUND))


def test_without_an_emoji_font_an_emoji_is_a_drawn_face_not_an_empty_box() -> None:
    face = _drawn("Jo 😀", NO_FONTS)
    assert (250, 204, 60) in _pixels(face), "the stand-in face is drawn"
    assert not _colours(_drawn("Jo", NO_FONTS))


def test_a_long_name_is_cut_to_fit_with_emoji_kept_whole() -> None:
    name = "W" * 100 + "👩\u200d👩\u200d👧"
    cut = fit(name, FOUND, 40, 300)
    assert cut.endswith("…") and text_width(cut, FOUND, 40) <= 300
    emoji = fit("👩\u200d👩\u200d👧" * 20, FOUND, 40, 300)
    assert emoji.removesuffix("…").count("👩\u200d👩\u200d👧") * 5 == len(emoji.removesuffix("…"))
