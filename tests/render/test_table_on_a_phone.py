"""The table message read on a phone: few lines in every phase, at four and six seats."""

from __future__ import annotations

from collections import defaultdict

import pytest

from bot.discord.tables.embeds import table_embed
from bot.rules import HouseRules
from bot.tables import Place, Player, Table
from tests.render.games import steps
from tests.render.phone import PHONE_COLUMNS, phone_lines, wrapped_lines

PLAYING_LIMIT = 12
"""Lines a game in progress may take on a phone."""
OTHER_LIMIT = 18
"""Lines the lobby and the result may take."""

TABLES = [
    {"preset": "north_american"},
    {"preset": "north_american", "stick_the_dealer": True, "trump_must_be_broken": True},
    {"preset": "british", "partners_best": True, "ace_no_face": True},
    {"preset": "six_player"},
    {"preset": "almonte"},
]
BID_TABLES = [
    {"preset": "bid_euchre", "deals_per_game": 4},
    {"preset": "bid_euchre_6", "deals_per_game": 4},
    {"preset": "bid_euchre_8", "deals_per_game": 4},
]
"""Bid Euchre for four deals, not to 32: random play scores slowly (often below zero)."""


def test_the_phone_measure_wraps_at_spaces_and_counts_a_custom_emoji_as_one_picture() -> None:
    assert wrapped_lines("x" * PHONE_COLUMNS) == 1
    assert wrapped_lines("word " * 10) == 2
    assert wrapped_lines("**Trick 1:** Alice <:c_10H_abcdef:123456789012345678>") == 1


@pytest.mark.parametrize("spec", TABLES, ids=lambda s: "-".join(map(str, s.values())))
def test_every_phase_fits_a_phone_at_four_and_six_seats(spec: dict[str, object]) -> None:
    worst: dict[str, int] = defaultdict(int)
    for seed in (1, 2, 3):
        for table in steps(spec, seed):
            game = table.game
            assert game is not None
            phase = "over" if game.over else str(game.phase)
            worst[phase] = max(worst[phase], phone_lines(table_embed(table.public())))
    assert {"bid1", "play", "over"} <= set(worst)
    playing = {p: n for p, n in worst.items() if p != "over"}
    assert max(playing.values()) <= PLAYING_LIMIT, playing
    assert worst["over"] <= OTHER_LIMIT, worst


@pytest.mark.parametrize("spec", BID_TABLES, ids=lambda s: "-".join(map(str, s.values())))
def test_every_bid_euchre_phase_fits_a_phone_at_four_six_and_eight_seats(
    spec: dict[str, object],
) -> None:
    worst: dict[str, int] = defaultdict(int)
    for seed in (1, 2):
        for table in steps(spec, seed, limit=1500):
            game = table.game
            assert game is not None
            phase = "over" if game.over else str(game.phase)
            worst[phase] = max(worst[phase], phone_lines(table_embed(table.public())))
    assert {"bid", "declare", "play", "over"} <= set(worst)
    playing = {p: n for p, n in worst.items() if p != "over"}
    assert max(playing.values()) <= PLAYING_LIMIT, playing
    assert worst["over"] <= OTHER_LIMIT, worst


@pytest.mark.parametrize("preset", ["north_american", "six_player", "bid_euchre_8"])
def test_the_lobby_fits_a_phone(preset: str) -> None:
    rules = HouseRules.preset_rules(preset)
    table = Table(7, Place(1, 2), 101, rules, 1)
    table.join(Player(101, "Alice"))
    assert phone_lines(table_embed(table.public())) <= OTHER_LIMIT
