"""The basic player's decisions in hand-made positions: bidding, discards, gifts and play."""

from __future__ import annotations

import random
from typing import Any

from bot.players import BasicPlayer
from bot.players.deck import deck_facts
from bot.players.evaluation import best_discard, strength, sure_trump_tricks, sweep_chance
from bot.rules import Action, Game, HouseRules, parse_card

from .util import position, view_to_act

NA: dict[str, Any] = {"preset": "north_american"}

# Hearts turned by dealer 0; the kitty holds 9C, AS and AD.
DEAL_A = [
    "AH KH QH JC JD",  # seat 0, dealer
    "AC JH 9H 9S 10D",  # seat 1
    "QC QS KS 10S 9D",  # seat 2
    "KC 10C JS QD KD",  # seat 3
]
ORDERED = [{"seat": 1, "do": "order_up"}, {"seat": 0, "do": "discard", "card": "JC"}]


def ordered_then(*plays: str) -> Game:
    """:data:`DEAL_A` once hearts are ordered up, then these cards played in turn from seat 1."""
    cards = [{"seat": (1 + n) % 4, "do": "play", "card": c} for n, c in enumerate(plays)]
    return position(NA, DEAL_A, "10H", [*ORDERED, *cards])


def choose(game: Any) -> Action:
    return BasicPlayer().choose(view_to_act(game))


def cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def test_does_not_overtake_partners_sure_ace() -> None:
    game = position(
        NA,
        DEAL_A,
        "10H",
        [
            *ORDERED,
            {"seat": 1, "do": "play", "card": "AC"},
            {"seat": 2, "do": "play", "card": "QC"},
        ],
    )
    assert choose(game) == Action.play(parse_card("10C"))


def test_trumps_as_cheaply_as_possible() -> None:
    game = ordered_then("9S", "KS", "JS")
    assert choose(game) == Action.play(parse_card("10H"))


def test_throws_lowest_when_the_trick_is_lost() -> None:
    game = ordered_then("JH", "9D")
    # Seat 3 holds no trump and partner has the right bower: the cheapest side card goes.
    assert choose(game) == Action.play(parse_card("10C"))


def test_maker_leads_the_right_bower() -> None:
    game = position(NA, DEAL_A, "10H", ORDERED)
    assert choose(game) == Action.play(parse_card("JH"))


def test_defender_leads_a_side_ace() -> None:
    actions = [
        {"seat": 1, "do": "pass"},
        {"seat": 2, "do": "order_up"},
        {"seat": 0, "do": "discard", "card": "JC"},
    ]
    game = position(NA, DEAL_A, "10H", actions)
    assert choose(game) == Action.play(parse_card("AC"))


def test_dealer_discards_to_make_a_void() -> None:
    facts = deck_facts(HouseRules.preset_rules("north_american"))
    hearts = 2
    assert best_discard(cards("JH AH QH 9C KS 10S"), hearts, facts) == parse_card("9C")
    # A side ace is kept while another side card can go.
    assert best_discard(cards("JH AH KH QH AS 9D"), hearts, facts) == parse_card("9D")
    # Only trumps: the lowest goes.
    assert best_discard(cards("JH JD AH KH QH 9H"), hearts, facts) == parse_card("9H")


def test_orders_a_strong_hand_and_goes_alone_with_a_sweeping_one() -> None:
    strong = ["9C 10C JC QC KC", "JH JD AH AC 9S", "QS KS 10S 9D AS", "KD 10D QD AD JS"]
    game = position(NA, strong, "10H")
    assert choose(game) == Action.order_up()
    sweeping = ["9C 10C JC QC 9S", "JH JD AH KH AC", "QS KS 10S 9D AS", "KD 10D QD AD JS"]
    game = position(NA, sweeping, "10H")
    assert choose(game) == Action.order_up(alone=True)


def test_passes_a_weak_hand() -> None:
    weak = ["9C 10C JC QC KC", "9H 10D QS 9S AD", "JH KS 10S 9D AS", "KD JD QD AH JS"]
    assert choose(position(NA, weak, "10H")) == Action.pass_()


def test_dealers_partner_who_must_go_alone_passes_an_ordinary_hand() -> None:
    hands = ["9C 10C JC QC KC", "9H 10D QS 9S AD", "JH KH 10S 9D AS", "KD JD QD AH JS"]
    game = position({"preset": "toronto"}, hands, "10H", [{"seat": 1, "do": "pass"}])
    view = view_to_act(game)
    assert Action.order_up() not in view.legal
    assert BasicPlayer().choose(view) == Action.pass_()


def test_stuck_dealer_names_its_best_suit() -> None:
    hands = ["9C 10C JC QC AS", "9H 10D QS 9S AD", "JH KH 10S 9D KC", "KD JD QD AH JS"]
    passes = [{"seat": s % 4, "do": "pass"} for s in range(1, 8)]
    game = position({"preset": "north_american", "stick_the_dealer": True}, hands, "10H", passes)
    view = view_to_act(game)
    assert view.seat == 0 and Action.pass_() not in view.legal
    assert BasicPlayer().choose(view) == Action.call(0)


def test_partner_of_a_loner_gives_the_best_trump() -> None:
    spec = {"preset": "north_american", "partners_best": True}
    game = position(
        spec,
        DEAL_A,
        "10H",
        [{"seat": 1, "do": "pass"}, {"seat": 2, "do": "order_up", "alone": True}],
    )
    view = view_to_act(game)
    assert view.seat == 0 and view.phase == "give"
    assert BasicPlayer().choose(view) == Action.give(parse_card("JD"))


def test_takes_a_farmers_hand_and_throws_in_a_weak_ace_no_face() -> None:
    farmer = ["JC QC KC AC 10S", "9C 9D 9H QS KS", "JH KH AH 10C 10D", "KD JD QD AD JS"]
    farmers: dict[str, Any] = {"preset": "north_american", "farmers_hand": "three_of_a_rank"}
    action = choose(position(farmers, farmer, "QH"))
    assert action.do == "swap" and sorted(action.cards or ()) == sorted(cards("9C 9D 9H"))
    weak = ["JC QC KC AC 9S", "9C 10C 9D 10D 10S", "JH KH AH QS QD", "KD JD 9H AD JS"]
    ace_no_face: dict[str, Any] = {"preset": "north_american", "ace_no_face": True}
    assert choose(position(ace_no_face, weak, "KS")) == Action.redeal()


def test_evaluation_figures() -> None:
    facts = deck_facts(HouseRules.preset_rules("north_american"))
    hearts = 2
    assert sure_trump_tricks(cards("JH JD AH 9C 9S"), hearts, facts) == 3
    assert sure_trump_tricks(cards("JD AH KH 9C 9S"), hearts, facts) == 0
    assert sweep_chance(cards("JH JD AH KH QH"), hearts, facts, opponents=2) == 1.0
    assert sweep_chance(cards("9C 10C 9D 10D 9S"), hearts, facts, opponents=2) == 0.0
    assert strength(cards("JH JD AH AC 9S"), hearts, facts) > strength(
        cards("9H 10D QS 9S AD"), hearts, facts
    )


def test_a_sweep_chance_with_a_floor_answers_the_same_comparison() -> None:
    checked = below = 0
    for preset in ("north_american", "six_player", "almonte"):
        facts = deck_facts(HouseRules.preset_rules(preset))
        pack = [c for c, n in facts.copies.items() for _ in range(n)]
        rng = random.Random(preset)
        for _ in range(300):
            rng.shuffle(pack)
            hand, dead, live = pack[:5], pack[5:6], pack[6:7]
            trump = rng.randrange(4)
            args: dict[str, Any] = {"opponents": 2, "leads": rng.random() < 0.5, "dead": dead}
            args["live"] = live if rng.random() < 0.5 else ()
            full = sweep_chance(hand, trump, facts, **args)
            for floor in (0.05, 0.2, 0.28, 0.4):
                cut = sweep_chance(hand, trump, facts, floor=floor, **args)
                assert (cut >= floor) == (full >= floor)
                if full >= floor:
                    assert cut == full
                else:
                    assert full <= cut < floor  # a partial product, already below the floor
                    below += cut > full
                checked += 1
    assert checked == 3600 and below > 0  # the floor cut some products short


def test_deck_facts_are_the_same_for_an_equal_rule_set() -> None:
    rules = HouseRules.preset_rules("toronto")
    facts = deck_facts(rules)
    assert deck_facts(rules) is facts
    assert deck_facts(HouseRules.preset_rules("north_american")).rules.preset == "north_american"
    assert deck_facts(HouseRules.preset_rules("toronto")) is facts
