"""The pictures a link shows when it is pasted in Discord (Open Graph): PNGs made here.

Each belongs to what the link names, on the felt of the bot's table picture:

- a server's: its icon and name, and a season's leaders (an old season's link, that
  season's final standings);
- a player's: their name, place, rating and record, and a small line of their rating
  over the season;
- a game's: the table at its final deal (each hand as dealt, the last trick in the
  middle, the final score), or at the step its link names, with the cards the project
  draws for its emojis (:func:`bot.render.card_images.draw_card`).

1200 x 630, the size link previews expect. Names are drawn by :mod:`.drawing`: emoji in
colour where the font is there, and never turned around by what they hold.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Final

from PIL import Image, ImageDraw

from bot.league import Standing
from bot.render.card_images import draw_card
from bot.render.league import FAMILY_NAMES
from bot.rules.cards import parse_card

from .drawing import Fonts, draw_text, find_fonts, fit, text_width
from .replay_view import TEAM_NAMES, Player, StepView, step_view

if TYPE_CHECKING:
    from .reading import GamePage, PlayerPage, ServerPage

__all__ = ["SIZE", "game_card", "player_card", "server_card"]

SIZE: Final = (1200, 630)
_FELT: Final = (29, 77, 51)
_FELT_EDGE: Final = (20, 53, 31)
_INK: Final = (243, 243, 234)
_SOFT: Final = (201, 220, 207)
_TEAMS: Final = ((169, 193, 255), (255, 194, 122))
_GOLD: Final = (255, 210, 74)


@cache
def _fonts() -> Fonts:
    return find_fonts()


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.convert("RGB").save(out, format="PNG", optimize=True)
    return out.getvalue()


def _felt() -> Image.Image:
    image = Image.new("RGBA", SIZE, _FELT_EDGE)
    ImageDraw.Draw(image).rounded_rectangle((12, 12, SIZE[0] - 13, SIZE[1] - 13), 40, fill=_FELT)
    return image


def _icon(image: Image.Image, png: bytes | None, xy: tuple[int, int], side: int) -> bool:
    """The server's icon in a circle at ``xy``; whether there was one to draw."""
    if not png:
        return False
    try:
        with Image.open(io.BytesIO(png)) as found:
            icon = found.convert("RGBA").resize((side, side), Image.Resampling.LANCZOS)
    except (OSError, ValueError, Image.DecompressionBombError):
        return False
    mask = Image.new("L", (side, side), 0)
    ImageDraw.Draw(mask).ellipse((0, 0, side - 1, side - 1), fill=255)
    image.paste(icon, xy, mask)
    return True


def _line(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: tuple[int, int, int],
    width: float,
    *,
    bold: bool = False,
) -> float:
    fonts = _fonts()
    return draw_text(
        image, xy, fit(text, fonts, size, width, bold=bold), fonts, size, fill, bold=bold
    )


def _header(image: Image.Image, name: str, icon: bytes | None, under: str) -> None:
    """The server's icon and name at the top left, a line under them."""
    left = 150 if _icon(image, icon, (50, 44), 84) else 56
    _line(image, (left, 40), name, 54, _INK, SIZE[0] - left - 56, bold=True)
    _line(image, (left, 104), under, 32, _SOFT, SIZE[0] - left - 56)


def server_card(page: ServerPage, icon: bytes | None) -> bytes:
    """A server's link: its name and icon, and the leaders of the season the link names."""
    image = _felt()
    season = page.season
    shown = page.standings[0] if page.standings else None
    under = "Euchre league"
    if season is not None:
        under = f"Season {season.name}" + ("" if season.running else " · final standings")
    if shown is not None:
        under += f" · {FAMILY_NAMES[shown.family]}"
    _header(image, page.server.name, icon, under)
    rows: Sequence[Standing] = shown.rows[:5] if shown is not None else ()
    if not rows:
        _line(image, (60, 220), "No standings yet this season.", 40, _SOFT, 1080)
    for n, s in enumerate(rows):
        y = 180 + n * 84
        _line(image, (60, y), f"{s.place or '-'}.", 44, _SOFT, 80)
        _line(image, (150, y), s.name, 44, _INK, 620)
        _line(image, (800, y), f"{s.rating:.1f}", 44, _INK, 160, bold=True)
        _line(image, (980, y + 6), f"{s.wins}-{s.games - s.wins}", 36, _SOFT, 160)
    return _png(image)


def _rating_line(
    image: Image.Image, ratings: Sequence[float], box: tuple[int, int, int, int]
) -> None:
    """A small line of the ratings (first: before any game) inside ``box``."""
    left, top, right, bottom = box
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(box, 18, fill=(22, 62, 40))
    low, high = min(ratings), max(ratings)
    if high - low < 1:
        low, high = low - 0.5, high + 0.5
    inner = (left + 24, top + 24, right - 24, bottom - 60)
    last = max(len(ratings) - 1, 1)
    points = [
        (
            inner[0] + (inner[2] - inner[0]) * i / last,
            inner[3] - (inner[3] - inner[1]) * (v - low) / (high - low),
        )
        for i, v in enumerate(ratings)
    ]
    if len(points) > 1:
        draw.line(points, fill=_TEAMS[0], width=5, joint="curve")
    end = points[-1]
    draw.ellipse((end[0] - 9, end[1] - 9, end[0] + 9, end[1] + 9), fill=_GOLD)
    games = len(ratings) - 1
    caption = f"Rating after each of {games} rated games: {ratings[0]:.1f} to {ratings[-1]:.1f}"
    draw_text(image, (left + 24, bottom - 46), caption, _fonts(), 24, _SOFT)


def player_card(page: PlayerPage, icon: bytes | None) -> bytes:
    """A player's link: name, place, rating and record, and their rating over the season."""
    image = _felt()
    line = page.main_line
    standing = line.standing if line is not None else None
    family = f"{FAMILY_NAMES[line.family]} · " if line is not None else ""
    season = f"Season {page.season.name}" if page.season is not None else "No season yet"
    _header(image, page.name, icon, f"{page.server.name} · {family}{season}")
    st = page.stats
    facts = []
    if standing is not None and standing.place:
        facts.append((f"#{standing.place}", "place"))
        facts.append((f"{standing.rating:.1f}", "rating"))
    elif line is not None:
        facts.append(("—", "not placed yet"))
    facts.append((f"{st.wins}-{st.losses}" + (f"-{st.ties}" if st.ties else ""), "won-lost"))
    if page.accuracy is not None:
        facts.append((f"{page.accuracy.mean:.0f}%", "accuracy"))
    x = 60.0
    for big, small in facts:
        width = max(draw_text(image, (x, 180), big, _fonts(), 72, _INK, bold=True), 150)
        draw_text(image, (x, 268), small, _fonts(), 28, _SOFT)
        x += width + 70
    if line is not None and len(line.ratings) > 1:
        _rating_line(image, line.ratings, (60, 340, SIZE[0] - 60, SIZE[1] - 50))
    else:
        _line(image, (60, 380), f"{st.games} games this season.", 40, _SOFT, 1080)
    return _png(image)


@cache
def _card(label: str, height: int) -> Image.Image:
    picture = draw_card(parse_card(label))
    return picture.resize((height, height), Image.Resampling.LANCZOS)


def _anchors(
    seats: int, centre: tuple[float, float], radii: tuple[float, float]
) -> list[tuple[float, float]]:
    """Where each seat sits around the felt: the first at the bottom, then clockwise."""
    return [
        (
            centre[0] + radii[0] * math.cos(math.pi / 2 + 2 * math.pi * i / seats),
            centre[1] + radii[1] * math.sin(math.pi / 2 + 2 * math.pi * i / seats),
        )
        for i in range(seats)
    ]


def _hand(
    image: Image.Image, labels: Sequence[str], middle: float, top: float, height: int, room: float
) -> None:
    if not labels:
        return
    step = min(height * 0.62, (room - height) / max(1, len(labels) - 1))
    left = middle - (height + step * (len(labels) - 1)) / 2
    for k, label in enumerate(labels):
        picture = _card(label, height)
        image.paste(picture, (round(left + k * step), round(top)), picture)


def _table(
    image: Image.Image,
    players: Sequence[Player],
    hands: Sequence[Sequence[str]],
    out: Sequence[bool],
    dealer: int,
    played: Sequence[tuple[int, str]],
    winner: int | None,
) -> None:
    """The seats around the felt with their hands, and the trick in the middle."""
    seats = len(players)
    height = {4: 86, 6: 70}.get(seats, 60)
    room = {4: 300, 6: 250}.get(seats, 220)
    centre = (SIZE[0] / 2, 340)
    anchors = _anchors(seats, centre, (430, 158))
    fonts = _fonts()
    for p, (x, y) in zip(players, anchors, strict=True):
        name = fit(p.name, fonts, 28, room - (90 if p.seat == dealer else 0), bold=True)
        tag = " · dealer" if p.seat == dealer else ""
        width = text_width(name, fonts, 28, bold=True) + text_width(tag, fonts, 24)
        top = y - (height + 40) / 2
        drawn = draw_text(image, (x - width / 2, top), name, fonts, 28, _TEAMS[p.team], bold=True)
        if tag:
            draw_text(image, (x - width / 2 + drawn, top + 4), tag, fonts, 24, _SOFT)
        if out[p.seat]:
            draw_text(image, (x - 60, top + 48), "sits out", fonts, 26, _SOFT)
        else:
            _hand(image, hands[p.seat], x, top + 38, height, room)
    for seat, label in played:
        ax, ay = anchors[seat]
        cx = centre[0] + (ax - centre[0]) * 0.22 - height / 2
        cy = centre[1] + (ay - centre[1]) * 0.32 - height / 2
        picture = _card(label, height)
        if seat == winner:
            ImageDraw.Draw(image).rounded_rectangle(
                (cx + height * 0.08, cy - 3, cx + height * 0.92, cy + height + 3),
                10,
                outline=_GOLD,
                width=5,
            )
        image.paste(picture, (round(cx), round(cy)), picture)


def _deal_start(page: GamePage, index: int) -> StepView:
    step = page.book.steps[index]
    return step_view(page.book, page.book.deal_starts[step.deal])


def game_card(page: GamePage, index: int | None) -> bytes:
    """A game's link: the table at its final deal, or at step ``index`` (0-based)."""
    image = _felt()
    game, book = page.game, page.book
    players = page.players
    last = len(book.steps) - 1
    shown = step_view(book, last if index is None else index)
    if index is None:
        dealt = _deal_start(page, last)
        hands = [[c.label for c in hand] for hand in dealt.hands]
        where = f"final deal ({shown.deal} of {shown.deals})"
        bottom = shown.game_result or ""
    else:
        hands = [[c.label for c in hand] for hand in shown.hands]
        where = shown.heading.replace("Deal", "deal")
        bottom = shown.deal_result or shown.game_result or ""
    fonts = _fonts()
    title = f"Game {page.number} · {where}"
    _line(image, (48, 34), title, 38, _INK, 760, bold=True)
    score = f"{TEAM_NAMES[0]} {game.score[0]} · {TEAM_NAMES[1]} {game.score[1]}"
    width = text_width(score, fonts, 38, bold=True)
    draw_text(image, (SIZE[0] - 48 - width, 34), score, fonts, 38, _INK, bold=True)
    _line(image, (48, 84), page.server.name, 26, _SOFT, 760)
    played = [(seat, c.label) for seat, c in shown.played]
    _table(image, players, hands, shown.out, shown.dealer, played, shown.taken_by)
    if bottom:
        width = min(text_width(bottom, fonts, 30, bold=True), SIZE[0] - 100)
        _line(
            image,
            ((SIZE[0] - width) / 2, SIZE[1] - 64),
            bottom,
            30,
            _GOLD,
            SIZE[0] - 100,
            bold=True,
        )
    return _png(image)
