"""Rule sets the property tests sweep: every preset and combinations of the optional rules.

``RULES`` are euchre's; ``BID_RULES`` Bid Euchre's (its own properties, test_bid_properties.py).
"""

from __future__ import annotations

from bot.rules import PRESETS, HouseRules

SPECS: list[dict[str, object]] = [
    {"preset": name} for name in PRESETS if PRESETS[name].get("game") != "bid_euchre"
] + [
    {
        "preset": "british",
        "partners_best": True,
        "stick_the_dealer": True,
        "ace_no_face": True,
        "farmers_hand": "nines_and_tens",
    },
    {
        "preset": "north_american",
        "no_trump_lead_first_trick": True,
        "trump_must_be_broken": True,
        "defend_alone": "always",
        "alone_declaration": "after_trump",
        "points_super_euchre": 4,
    },
    {"preset": "toronto", "order_up_needs_suit": "dealer", "deals_per_game": 8},
    {
        "preset": "north_american",
        "deck": "32",
        "joker": "two_of_spades",
        "farmers_hand": "three_of_a_rank",
        "lone_lead": "left_of_loner",
    },
    {"preset": "six_player", "deck": "24", "packs": 2, "two_bennies": "red_black"},
    {
        "preset": "six_player",
        "deck": "24",
        "packs": 2,
        "joker": "two_of_spades",
        "partners_best": True,
        "duplicate_card_wins": "first",
        "stick_the_dealer": True,
    },
    {"preset": "almonte", "players": 4, "deck": "almonte21", "alone_declaration": "with_call"},
    {"preset": "almonte", "deals_per_game": 12},
]
RULES: list[HouseRules] = [HouseRules.from_spec(spec) for spec in SPECS]

BID_SPECS: list[dict[str, object]] = [
    {"preset": "bid_euchre"},
    {"preset": "bid_euchre_6"},
    {"preset": "bid_euchre_8"},
    {"preset": "bid_euchre", "dealer_may_match": False, "bid_lead": "left_of_dealer"},
    {"preset": "bid_euchre_6", "partners_best": False, "points_shoot": 10, "deals_per_game": 6},
    {"preset": "bid_euchre_8", "shoot": False, "duplicate_card_wins": "second", "bid_minimum": 2},
]
BID_RULES: list[HouseRules] = [HouseRules.from_spec(spec) for spec in BID_SPECS]
