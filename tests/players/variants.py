"""Rule sets the player tests run under: every preset and the variant combinations."""

from __future__ import annotations

from typing import Any

from bot.rules import HouseRules

SPECS: list[dict[str, Any]] = [
    {"preset": "north_american"},
    {"preset": "toronto"},
    {"preset": "british"},
    {"preset": "six_player"},
    {"preset": "almonte"},
    {"preset": "north_american", "partners_best": True, "stick_the_dealer": True},
    {"preset": "north_american", "ace_no_face": True, "farmers_hand": "three_of_a_rank"},
    {
        "preset": "north_american",
        "farmers_hand": "nines_and_tens",
        "no_trump_lead_first_trick": True,
        "trump_must_be_broken": True,
    },
    {
        "preset": "british",
        "partners_best": True,
        "ace_no_face": True,
        "order_up_needs_suit": "dealer",
    },
    {"preset": "toronto", "stick_the_dealer": True, "alone_declaration": "after_trump"},
    {"preset": "six_player", "deck": "24", "packs": 2, "partners_best": True},
    {
        "preset": "six_player",
        "deck": "24",
        "packs": 2,
        "two_bennies": "red_black",
        "duplicate_card_wins": "first",
        "stick_the_dealer": True,
    },
    {"preset": "north_american", "deck": "almonte21", "defend_alone": "always"},
    {
        "preset": "north_american",
        "deck": "32",
        "joker": "two_of_spades",
        "farmers_hand": "nines_and_tens",
        "defend_alone": "always",
        "alone_declaration": "after_trump",
    },
    {"preset": "almonte", "trump_must_be_broken": True, "stick_the_dealer": True},
]

RULES: list[HouseRules] = [HouseRules.from_spec(spec) for spec in SPECS]


def label(rules: HouseRules) -> str:
    """A short test id for a rule set."""
    return ",".join(f"{k}={v}" if k != "preset" else str(v) for k, v in rules.to_spec().items())
