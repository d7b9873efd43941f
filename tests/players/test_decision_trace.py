"""Held decisions: seeded games whose every choice must stay the same as speed work lands.

Each trace is a SHA-256 over a whole seeded game: every action taken and, for
the expert, the samples and the expected points of each option it searched
(rounded). The expert runs with ``budget=None``, so it draws a fixed number of
samples whatever the clock: a change that makes the search cheaper must leave
every trace as it is. A change that means to alter a decision (a new bidding
model, a retuned threshold) records the new traces here, and says so.

To record: run ``python -m tests.players.test_decision_trace`` and paste what it prints.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence

import pytest

from bot.players import make_player
from bot.players.expert import ExpertPlayer
from bot.players.protocol import Player
from bot.rules import HouseRules, new_game, seat_view

from .variants import RULES, label

SAMPLES = 3
"""Samples a decision for the traced expert: few, so that a whole game is quick."""


def _expert(seed: int) -> ExpertPlayer:
    return ExpertPlayer(seed=seed, budget=None, min_samples=SAMPLES, max_samples=SAMPLES)


def trace(rules: HouseRules, seed: int, players: Sequence[Player], deals: int | None = None) -> str:
    """The hash of a seeded game played by ``players`` (its first ``deals`` deals, if given)."""
    game = new_game(rules, seed=seed)
    digest = hashlib.sha256()
    while not game.over and (deals is None or game.deal_number <= deals):
        seat = game.turn
        assert seat is not None
        view = seat_view(game, seat)
        player = players[seat]
        if isinstance(player, ExpertPlayer):
            advice = player.advise(view)
            action = advice.action
            values = sorted(
                (json.dumps(a.to_json()), round(v, 6)) for a, v in advice.values.items()
            )
            digest.update(json.dumps([advice.samples, values]).encode())
        else:
            action = player.choose(view)
        digest.update(json.dumps([seat, action.to_json()]).encode())
        game.apply(seat, action)
    return digest.hexdigest()[:16]


def expert_vs_basic(rules: HouseRules, seed: int, deals: int | None) -> str:
    """Experts in the even seats (0 and 2 at four), basic in the odd ones."""
    players: list[Player] = [
        _expert(seed + s) if s % 2 == 0 else make_player("basic", seed + s)
        for s in range(rules.players)
    ]
    return trace(rules, seed, players, deals)


def levels(rules: HouseRules, seed: int, a: str, b: str) -> str:
    """Level ``a`` in the even seats against level ``b``: a whole game."""
    players = [make_player(a if s % 2 == 0 else b, seed + s) for s in range(rules.players)]
    return trace(rules, seed, players)


TRACED = [*RULES, HouseRules.preset_rules("bid_euchre")]
"""Every preset and the variant combinations the player tests run, and Bid Euchre."""

EXPERT_DEALS: dict[str, str] = {
    "north_american": "d580a34a822cbf0d",
    "toronto": "f73201f42a8ebb1f",
    "british": "1a31a540da533628",
    "six_player": "22e305adb2851c1e",
    "almonte": "ce9e219d2988be32",
    "north_american,stick_the_dealer=True,partners_best=True": "d580a34a822cbf0d",
    "north_american,ace_no_face=True,farmers_hand=three_of_a_rank": "04575f73ab74c61a",
    "north_american,no_trump_lead_first_trick=True,trump_must_be_broken=True,farmers_hand=nines_and_tens": "384893d09beb300f",
    "british,order_up_needs_suit=dealer,partners_best=True,ace_no_face=True": "1ad1fd2ab758eb5e",
    "toronto,stick_the_dealer=True,alone_declaration=after_trump": "a9b040b5fd4d456d",
    "six_player,deck=24,packs=2,partners_best=True": "57f43547a15389ea",
    "six_player,deck=24,packs=2,duplicate_card_wins=first,two_bennies=red_black,stick_the_dealer=True": "742d1460e95c6c1f",
    "north_american,deck=almonte21,defend_alone=always": "1e90a253226a8e22",
    "north_american,deck=32,joker=two_of_spades,alone_declaration=after_trump,defend_alone=always,farmers_hand=nines_and_tens": "ba61614264efbe5b",
    "almonte,stick_the_dealer=True,trump_must_be_broken=True": "0a32641232f329b6",
    "bid_euchre": "84569434e86ada27",
}
"""The expert against basic, the first two deals of game seed 7, by rule set."""

EXPERT_GAMES: dict[str, str] = {
    "north_american": "a148357e9e40447f",
    "toronto": "2b638cba5565a731",
    "british": "fa1642f6ef59126e",
    "six_player": "af359d6eaeab5b0b",
    "almonte": "c96daa7ee67cdbe3",
    "bid_euchre": "3bb6eee0c83c86e3",
}
"""The expert against basic, the whole of game seed 11, by preset."""

WHOLE_GAMES = ("north_american", "toronto", "british", "six_player", "almonte", "bid_euchre")

LEVEL_GAMES: dict[str, tuple[str, str]] = {
    "north_american": ("2c14d9c3cdffe7ca", "6e24c0875046bd6c"),
    "toronto": ("fcb36be0d6cbdced", "06a6c0b7918f5c0f"),
    "british": ("5f72a09d71fe2cf5", "f51fd4126272900f"),
    "six_player": ("6b84f218f86bd082", "0f1253b81cc1a50d"),
    "almonte": ("6bcecdef3903a0e2", "9f065b0b2f2d70fe"),
    "north_american,stick_the_dealer=True,partners_best=True": (
        "2c14d9c3cdffe7ca",
        "6e24c0875046bd6c",
    ),
    "north_american,ace_no_face=True,farmers_hand=three_of_a_rank": (
        "3eb8f11d2245d67c",
        "08f40e29939073b3",
    ),
    "north_american,no_trump_lead_first_trick=True,trump_must_be_broken=True,farmers_hand=nines_and_tens": (
        "15db76ac8341da93",
        "e1513188506a639c",
    ),
    "british,order_up_needs_suit=dealer,partners_best=True,ace_no_face=True": (
        "68f11a3f596f8cc7",
        "f51fd4126272900f",
    ),
    "toronto,stick_the_dealer=True,alone_declaration=after_trump": (
        "42a3b9179ca7b759",
        "41ceeced9cd282f5",
    ),
    "six_player,deck=24,packs=2,partners_best=True": ("424109851c9d65e4", "aec2accf02282a3e"),
    "six_player,deck=24,packs=2,duplicate_card_wins=first,two_bennies=red_black,stick_the_dealer=True": (
        "a570c5da92c5d9b1",
        "6859dfc566efc981",
    ),
    "north_american,deck=almonte21,defend_alone=always": ("d89d9ed742660bd9", "e288914522bf52d9"),
    "north_american,deck=32,joker=two_of_spades,alone_declaration=after_trump,defend_alone=always,farmers_hand=nines_and_tens": (
        "60a29f1799581b12",
        "cda327c6b5fb737c",
    ),
    "almonte,stick_the_dealer=True,trump_must_be_broken=True": (
        "834e67bb9ebf5356",
        "4c45cfd44237955d",
    ),
    "bid_euchre": ("453664e3f52f19df", "dbf958b576de0d58"),
}
"""Basic against the beginner (seed 3) both ways round, whole games: every bid, every card."""


@pytest.mark.parametrize("rules", TRACED, ids=label)
def test_the_experts_first_deals_are_held(rules: HouseRules) -> None:
    assert expert_vs_basic(rules, 7, deals=2) == EXPERT_DEALS[label(rules)]


@pytest.mark.slow
@pytest.mark.parametrize("preset", WHOLE_GAMES)
def test_the_experts_whole_games_are_held(preset: str) -> None:
    rules = HouseRules.preset_rules(preset)
    assert expert_vs_basic(rules, 11, deals=None) == EXPERT_GAMES[preset]


@pytest.mark.parametrize("rules", TRACED, ids=label)
def test_basic_and_the_beginner_are_held(rules: HouseRules) -> None:
    traces = (levels(rules, 3, "basic", "beginner"), levels(rules, 3, "beginner", "basic"))
    assert traces == LEVEL_GAMES[label(rules)]


if __name__ == "__main__":
    print("EXPERT_DEALS = {")
    for r in TRACED:
        print(f"    {label(r)!r}: {expert_vs_basic(r, 7, deals=2)!r},")
    print("}\nEXPERT_GAMES = {")
    for p in WHOLE_GAMES:
        print(f"    {p!r}: {expert_vs_basic(HouseRules.preset_rules(p), 11, deals=None)!r},")
    print("}\nLEVEL_GAMES = {")
    for r in TRACED:
        pair = (levels(r, 3, "basic", "beginner"), levels(r, 3, "beginner", "basic"))
        print(f"    {label(r)!r}: {pair!r},")
    print("}")
