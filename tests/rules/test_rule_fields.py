"""For every house-rule field, a case where changing the field changes the outcome.

Each test quotes the rule source it is written from (000-004, named in docs/record-format.md).
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.rules import (
    Action,
    Game,
    HouseRules,
    RecordError,
    RefusedError,
    action_from_json,
    parse_card,
    replay,
    seat_view,
)
from bot.rules.cards import parse_suit
from bot.rules.dealing import first_dealer, seeded_int, shuffled
from bot.rules.house_rules import deck_cards

from .util import acts, game_of, play_out, record, run

# Deal A: seat 1 holds four top hearts; with hearts trump the makers take four tricks.
DEAL_A = ["QH 9H AS KS QS", "JH JD AH KH 9C", "AC KC QC JC 10C", "AD KD QD 10D 9D"]
# Deal B: seat 1 holds the five top hearts.
DEAL_B = ["9H AS KS QS JS", "JH JD AH KH QH", "AC KC QC JC 10C", "AD KD QD 10D 9D"]


def na(**changes: Any) -> dict[str, Any]:
    return {"preset": "north_american", **changes}


def applied(doc: dict[str, Any]) -> Game:
    """The game after the record's actions."""
    game = game_of(doc)
    for a in doc["actions"]:
        seat, action = action_from_json(a)
        game.apply(seat if seat is not None else game.turn, action)  # type: ignore[arg-type]
    return game


def finished(doc: dict[str, Any]) -> Game:
    """The game after the record's actions, its deal played out by first legal actions."""
    game = applied(doc)
    play_out(game)
    return game


# ---------------------------------------------------------------- pack and table


def test_players_six_seats_bid_in_turn_before_the_second_round() -> None:
    """000: six-player euchre is "played between two teams of three, sitting alternately"."""
    four = Game(HouseRules.preset_rules("british"), seed=3, dealer=0)
    six = Game(HouseRules.preset_rules("six_player"), seed=3, dealer=0)
    for game in (four, six):
        for _ in range(4):
            game.apply(game.turn, game.legal()[0])  # type: ignore[arg-type]
    assert four.phase == "bid2"
    assert six.phase == "bid1" and six.turn == 5
    assert len(six.hands) == 6 and all(len(h) == 5 for h in six.hands)


def test_deck_32_adds_sevens_and_eights() -> None:
    """000: "the 8s and 7s are included in the pack as the lowest cards in each suit"."""
    hands = ["7H 9H AS KS QS", "JH JD AH KH 9C", "AC KC QC JC 10C", "AD KD QD 10D 8D"]
    with pytest.raises(RecordError, match="not in this pack"):
        replay(record(na(), hands, "10H"))
    assert len(deck_cards(HouseRules.from_spec(na(deck=32)))) == 32
    run(record(na(deck="32"), hands, "10H"))


def test_joker_is_the_top_trump_and_two_of_spades_may_stand_in() -> None:
    """000: "Benny, or Best Bower (the joker or two of spades)" ranks above the right bower."""
    for joker, name in (("joker", "JK"), ("two_of_spades", "2S")):
        hands = ["9H AS KS QS JS", f"{name} JD AH KH QH", "AC KC QC JC 10C", "AD KD QD 10D 9D"]
        doc = record(
            na(joker=joker),
            hands,
            "10H",
            acts(
                (1, "order_up"),
                (0, "discard", {"card": "JS"}),
                (1, "play", {"card": "AH"}),
                (2, "play", {"card": "AC"}),
                (3, "play", {"card": "AD"}),
                (0, "play", {"card": "10H"}),
            ),
        )
        game = finished(doc)
        assert game.results[0].result == "march"
    with pytest.raises(RecordError):
        replay(
            record(
                na(),
                ["9H AS KS QS JS", "JK JD AH KH QH", "AC KC QC JC 10C", "AD KD QD 10D 9D"],
                "10H",
            )
        )


def test_benny_beats_the_right_bower() -> None:
    game = game_of(
        record(
            na(joker="joker"),
            ["JH AS KS QS JS", "JK JD AH KH QH", "AC KC QC JC 10C", "AD KD QD 10D 9D"],
            "10H",
        )
    )
    for seat, a in [(1, "order_up")]:
        game.apply(seat, Action(a))
    game.apply(0, Action.discard(parse_card("JS")))
    game.apply(1, Action.play(parse_card("AH")))
    game.apply(2, Action.play(parse_card("AC")))
    game.apply(3, Action.play(parse_card("AD")))
    game.apply(0, Action.play(parse_card("JH")))
    assert game.turn == 0  # the right bower took it
    game.apply(0, Action.play(parse_card("10H")))
    game.apply(1, Action.play(parse_card("JK")))
    game.apply(2, Action.play(parse_card("KC")))
    game.apply(3, Action.play(parse_card("KD")))
    assert game.tricks[-1].winner == 1  # the Benny beat the ten of trump


def test_packs_two_deal_from_a_double_pack() -> None:
    """000: six players may "play with a double 25 card pack – 50 cards in all"."""
    rules = HouseRules.from_spec({"preset": "six_player", "deck": "24", "packs": 2})
    assert len(deck_cards(rules)) == 50
    assert len(deck_cards(HouseRules.preset_rules("six_player"))) == 33


def _six_double(**changes: Any) -> dict[str, Any]:
    return {
        "preset": "six_player",
        "deck": "24",
        "packs": 2,
        "dealer_partner_order_up": "with_partner",
        "alone_declaration": "with_call",
        "defend_alone": "never",
        **changes,
    }


SIX_HANDS = [
    "AS 9C 9D 10D QD",
    "AS 10C QC KC AC",
    "KS 9C 10C QC KC",
    "QS AC JC 9D QD",
    "9S KD AD 10H QH",
    "10S KD AD 9H 10H",
]


@pytest.mark.parametrize("rule", ["second", "first"])
def test_duplicate_card_wins(rule: str) -> None:
    """000: "if two equally high cards are played to a trick, the second to be played beats the first";
    003: "the first card of a given suit and rank is more powerful than the second one"."""
    doc = record(_six_double(duplicate_card_wins=rule), SIX_HANDS, "KH")
    game = game_of(doc)
    game.apply(1, Action.order_up())
    game.apply(0, Action.discard(parse_card("KH")))
    # seat 1 leads the ace of spades; seat 3 plays the other ace of spades
    plays = [(1, "AS"), (2, "KS"), (3, "QS"), (4, "9S"), (5, "10S"), (0, "AS")]
    for seat, name in plays:
        game.apply(seat, Action.play(parse_card(name)))
    assert game.tricks[0].winner == (0 if rule == "second" else 1)


@pytest.mark.parametrize(("trump", "red_wins"), [("D", True), ("C", False)])
def test_two_bennies_red_and_black(trump: str, red_wins: bool) -> None:
    """000: "If the two Bennies are red and black, the one which is the same colour as the trump suit
    beats the other one. If they both look the same, then the second one played beats the other"."""
    hands = [
        "JR 9C 9D 10D QD",
        "JB 10C QC KC AC",
        "KS 9C 10C QC KC",
        "QS AC JC 9D QD",
        "9S KD AD 10H QH",
        "10S KD AD 9H 10H",
    ]
    for bennies in ("red_black", "alike"):
        if bennies == "alike":
            hands = [h.replace("JR", "JK").replace("JB", "JK") for h in hands]
        doc = record(_six_double(two_bennies=bennies), hands, "AH")
        game = game_of(doc)
        for _ in range(6):
            game.apply(game.turn, Action.pass_())  # type: ignore[arg-type]
        game.apply(1, Action.call(parse_suit(trump)))
        first = "JB" if bennies == "red_black" else "JK"
        game.apply(1, Action.play(parse_card(first)))
        for seat in (2, 3, 4, 5):
            game.apply(seat, game.legal()[0])
        game.apply(0, Action.play(parse_card("JR" if bennies == "red_black" else "JK")))
        won_by = game.tricks[0].winner
        if bennies == "red_black":
            assert won_by == (0 if red_wins else 1)
        else:
            assert won_by == 0  # the second of two equal Bennies wins


# ---------------------------------------------------------------- game length


def test_target_score() -> None:
    """002: "The first side to reach 10 points wins ... A short game to 5 or 7 points is also common"."""
    for target, over in ((2, True), (10, False)):
        game = finished(
            record(
                na(target_score=target),
                DEAL_B,
                "10H",
                acts((1, "order_up"), (0, "discard", {"card": "JS"})),
            )
        )
        assert game.over is over
        if over:
            assert game.winner == 1 and game.score == [0, 2]


def test_deals_per_game_counts_thrown_in_deals_and_a_tie_has_no_winner() -> None:
    """000: "in euchre leagues, players play twice around the table (i.e. 12 hands)"."""
    passes = acts(*[(s % 4, "pass") for s in range(1, 9)])
    game = applied(record(na(deals_per_game=1), DEAL_A, "10H", passes))
    assert game.over and game.winner is None and game.score == [0, 0]
    game = applied(record(na(), DEAL_A, "10H", passes))
    assert not game.over and game.results[0].result == "passed" and game.dealer == 1
    game = finished(
        record(
            na(deals_per_game=1, target_score=1),
            DEAL_B,
            "10H",
            acts((1, "order_up"), (0, "discard", {"card": "JS"})),
        )
    )
    assert game.over and game.winner == 1


def test_first_dealer() -> None:
    """001: "First black jack selects the first dealer"; 000: "The first dealer is selected at random"."""
    black = HouseRules.from_spec(na())
    rand = HouseRules.from_spec(na(first_dealer="random"))
    differ = False
    for seed in range(20):
        order = shuffled(deck_cards(black), seed, "black_jack")
        first = next(i for i, c in enumerate(order) if c in (parse_card("JC"), parse_card("JS")))
        assert Game(black, seed=seed).dealer == first % 4 == first_dealer(black, seed)
        assert Game(rand, seed=seed).dealer == seeded_int(seed, "first_dealer") % 4
        differ |= Game(black, seed=seed).dealer != Game(rand, seed=seed).dealer
    assert differ


# ---------------------------------------------------------------- bidding


def test_stick_the_dealer() -> None:
    """000: "the dealer cannot pass a second time ... the dealer must name a suit"."""
    passes = acts(*[(s % 4, "pass") for s in range(1, 8)])
    game = applied(record(na(), DEAL_A, "10H", passes))
    assert game.turn == 0 and game.legal()[0].do == "pass"
    game.apply(0, Action.pass_())
    assert game.results[0].result == "passed" and game.dealer == 1
    stuck = game_of(record(na(stick_the_dealer=True), DEAL_A, "10H"))
    for s in range(1, 8):
        stuck.apply(s % 4, Action.pass_())
    with pytest.raises(RefusedError) as err:
        stuck.apply(0, Action.pass_())
    assert err.value.code == "cannot_pass"
    assert all(a.do == "call" for a in stuck.legal())


def test_dealer_partner_order_up() -> None:
    """001: "the dealer's partner can only make the turned up suit trumps by playing alone, in which
    case the dealer's cards are placed face-down"; 002: "The dealer's partner says 'I assist'"."""
    us = game_of(record(na(), DEAL_A, "10H"))
    us.apply(1, Action.pass_())
    us.apply(2, Action.order_up())
    assert us.phase == "discard" and us.turn == 0 and us.alone == []
    ca = game_of(record(na(dealer_partner_order_up="must_go_alone"), DEAL_A, "10H"))
    ca.apply(1, Action.pass_())
    assert list(ca.legal()) == [Action.pass_(), Action.order_up(alone=True)]
    with pytest.raises(RefusedError) as err:
        ca.apply(2, Action.order_up(alone=False))
    assert err.value.code == "not_allowed"
    ca.apply(2, Action.order_up())
    assert ca.alone == [2] and ca.out[0] and ca.phase == "play"
    assert len(ca.hands[0]) == 5 and not ca.upcard_taken  # the dealer took nothing up


def test_order_up_needs_suit() -> None:
    """001: "The up-card can only be ordered up if the player has at least one card of the same suit in
    their hand, the off-suit Jack does not count"; 000: the Canadian rule for the dealer."""
    hands = ["9C AS KS QS 10S", "JD 9S AC KC QC", "9H 10H JH QD JC", "AD KD QH 10D 9D"]
    never = game_of(record(na(), hands, "KH"))
    assert Action.order_up() in never.legal()
    everyone = game_of(record(na(order_up_needs_suit="everyone"), hands, "KH"))
    assert Action.order_up() not in everyone.legal()  # seat 1 holds only the left bower
    with pytest.raises(RefusedError) as err:
        everyone.apply(1, Action.order_up())
    assert err.value.code == "needs_suit"
    dealer_only = game_of(record(na(order_up_needs_suit="dealer"), hands, "KH"))
    assert Action.order_up() in dealer_only.legal()
    for s in (1, 2, 3):
        dealer_only.apply(s, Action.pass_())
    assert list(dealer_only.legal()) == [Action.pass_()]  # the dealer holds no heart


def test_alone_declaration_after_trump_asks_maker_then_partner() -> None:
    """004: "if they do not choose to go Alone then the Makers partner has the option to go Alone"."""
    with_call = game_of(record(na(), DEAL_A, "10H", []))
    with_call.apply(1, Action.order_up())
    with_call.apply(0, Action.discard(parse_card("QS")))
    assert with_call.phase == "play"
    after = game_of(record(na(alone_declaration="after_trump"), DEAL_A, "10H"))
    after.apply(1, Action.order_up())
    after.apply(0, Action.discard(parse_card("QS")))
    assert (after.phase, after.turn) == ("alone", 1)
    after.apply(1, Action.pass_())
    assert (after.phase, after.turn) == ("alone", 3)
    after.apply(3, Action.go_alone())
    assert after.alone == [3] and after.out[1] and after.phase == "play"


@pytest.mark.parametrize(
    ("mode", "maker_alone", "asked"),
    [
        ("never", True, []),
        ("vs_lone_maker", False, []),
        ("vs_lone_maker", True, [2, 0]),
        ("always", False, [2, 0]),
    ],
)
def test_defend_alone(mode: str, maker_alone: bool, asked: list[int]) -> None:
    """002: "Some groups ban lone defenders altogether, others allow them only against a lone maker";
    003: defenders may go alone "beginning with the player on the attacker's left"."""
    game = game_of(record(na(defend_alone=mode), DEAL_A, "10H"))
    game.apply(1, Action.order_up(alone=maker_alone))
    game.apply(0, Action.discard(parse_card("QS")))
    seen = []
    while game.phase == "alone":
        seen.append(game.turn)
        game.apply(game.turn, Action.pass_())  # type: ignore[arg-type]
    assert seen == asked


@pytest.mark.parametrize(("rule", "leader"), [("left_of_loner", 0), ("left_of_dealer", 2)])
def test_lone_lead(rule: str, leader: int) -> None:
    """000: "If one player is playing alone, the person to that player's left leads first";
    002: "If that player sits out because their partner went alone, the lead goes to the next player"."""
    game = game_of(record(na(lone_lead=rule), DEAL_A, "10H"))
    for s in (1, 2):
        game.apply(s, Action.pass_())
    game.apply(3, Action.order_up(alone=True))
    game.apply(0, Action.discard(parse_card("QS")))
    assert game.turn == leader


def test_both_sides_alone_the_defender_leads() -> None:
    """000: "If two players are playing alone, the defender leads"."""
    game = game_of(record({"preset": "british", "joker": "none"}, DEAL_A, "10H"))
    game.apply(1, Action.order_up(alone=True))
    game.apply(0, Action.discard(parse_card("QS")))
    assert (game.phase, game.turn) == ("alone", 2)
    game.apply(2, Action.go_alone())
    assert game.alone == [1, 2] and game.turn == 2 and game.phase == "play"


# ---------------------------------------------------------------- scoring


def _order(seat: int, alone: bool = False) -> list[dict[str, Any]]:
    passes = [(s, "pass") for s in range(1, seat)]
    return acts(
        *passes,
        (seat, "order_up", {"alone": alone}),
        (0, "discard", {"card": "QS"}),
    )


def test_points_made() -> None:
    """002: "if that side wins at least three of the five tricks it scores" (1 point)."""
    for points in (1, 3):
        game = finished(record(na(points_made=points), DEAL_A, "10H", _order(1)))
        assert game.results[0].result == "made" and game.results[0].tricks == [1, 4]
        assert game.score == [0, points]


def test_points_march_and_lone_march() -> None:
    """000: "If the makers win all 5 tricks they score two points ... playing alone ... 4 points"."""
    doc = record(
        na(points_march=3, points_lone_march=5),
        DEAL_B,
        "10H",
        acts((1, "order_up"), (0, "discard", {"card": "JS"})),
    )
    assert finished(doc).score == [0, 3]
    doc = record(
        na(points_march=3, points_lone_march=5),
        DEAL_B,
        "10H",
        acts((1, "order_up", {"alone": True}), (0, "discard", {"card": "JS"})),
    )
    game = finished(doc)
    assert game.results[0].result == "march" and game.score == [0, 5]
    assert finished(
        record(
            na(),
            DEAL_B,
            "10H",
            acts((1, "order_up", {"alone": True}), (0, "discard", {"card": "JS"})),
        )
    ).score == [0, 4]


def _euchre_doc(**rules: Any) -> dict[str, Any]:
    return record(
        na(**rules),
        DEAL_B,
        "10H",
        acts((1, "pass"), (2, "order_up"), (0, "discard", {"card": "JS"})),
    )


def test_points_euchre_and_super_euchre() -> None:
    """001: "A 'Super-Euchre' occurs when the making team takes zero tricks. The defending team then
    scores 4 points."""
    game = finished(_euchre_doc())
    assert game.results[0].result == "euchred" and game.results[0].tricks == [0, 5]
    assert game.score == [0, 2]
    assert finished(_euchre_doc(points_euchre=3)).score == [0, 3]
    assert finished(_euchre_doc(points_super_euchre=4)).score == [0, 4]


def test_points_lone_defender_euchre() -> None:
    """000: "If a member of the defenders' team is playing alone and succeeds in winning at least 3
    tricks ... the defenders score 4 points instead of 2"."""

    def lone_defence(**changes: Any) -> Game:
        rules = {
            "preset": "british",
            "joker": "none",
            "dealer_partner_order_up": "with_partner",
            **changes,
        }
        game = game_of(record(rules, DEAL_B, "10H"))
        game.apply(1, Action.pass_())
        game.apply(2, Action.order_up())
        game.apply(0, Action.discard(parse_card("JS")))
        for seat in (2, 0, 3):
            assert game.turn == seat
            game.apply(seat, Action.pass_())
        game.apply(1, Action.go_alone())
        play_out(game)
        return game

    assert lone_defence().score == [0, 4]
    assert lone_defence(points_lone_defender_euchre=6).score == [0, 6]
    assert lone_defence(points_super_euchre=7).score == [0, 7]  # the larger counts


# ---------------------------------------------------------------- Benny turned, partner's best, six


def test_benny_upcard_dealer_names_trump_unseen() -> None:
    """000: "If the Benny is turned up then the dealer's team are automatically the makers ... The dealer
    must choose a trump suit without looking at her cards. She then picks up ... the Benny and discards"."""
    hands = ["9H AS KS QS JS", "JH JD AH KH QH", "AC KC QC JC 10C", "AD KD QD 10D 9D"]
    game = game_of(record(na(joker="joker"), hands, "JK"))
    assert (game.phase, game.turn) == ("bid2", 0)
    assert {a.suit for a in game.legal()} == {0, 1, 2, 3}
    assert seat_view(game, 0).hand == ()
    with pytest.raises(RefusedError) as err:
        game.apply(0, Action.pass_())
    assert err.value.code == "cannot_pass"
    game.apply(0, Action.call(3))
    assert game.phase == "discard" and parse_card("JK") in game.hands[0] and game.maker == 0
    game.apply(0, Action.discard(parse_card("9H")))
    assert game.phase == "play"


def test_partners_best() -> None:
    """003: "When a player decides to go alone, then after trump is called, the player's partner
    chooses a card and passes it to the fellow with the loner hand"."""
    plain = game_of(record(na(), DEAL_A, "10H", []))
    plain.apply(1, Action.order_up(alone=True))
    plain.apply(0, Action.discard(parse_card("QS")))
    assert plain.phase == "play"
    best = game_of(record(na(partners_best=True), DEAL_A, "10H"))
    best.apply(1, Action.order_up(alone=True))
    best.apply(0, Action.discard(parse_card("QS")))
    assert (best.phase, best.turn) == ("give", 3)
    best.apply(3, Action.give(parse_card("AD")))
    assert (best.phase, best.turn) == ("discard", 1)
    best.apply(1, Action.discard(parse_card("9C")))
    assert best.phase == "play" and parse_card("AD") in best.hands[1]


def test_six_players_the_loner_asks_one_partner() -> None:
    """000: "the lone player can ask one of them for a card. The partner asked gives a card of his
    choice ... and the lone player discards a card face-down in return"."""
    game = game_of(record(_six_double(alone_declaration="after_trump"), SIX_HANDS, "KH"))
    game.apply(1, Action.order_up(alone=True))
    game.apply(0, Action.discard(parse_card("9C")))
    assert (game.phase, game.turn) == ("give", 1)
    assert game.legal() == [Action.pass_(), Action.ask(3), Action.ask(5)]
    with pytest.raises(RefusedError) as err:
        game.apply(1, Action.ask(2))
    assert err.value.code == "not_allowed"
    game.apply(1, Action.ask(5))
    assert game.turn == 5
    game.apply(5, Action.give(parse_card("AD")))
    game.apply(1, Action.discard(parse_card("10C")))
    assert game.phase == "play" and game.out == [False, False, False, True, False, True]


def test_six_player_scores_three_and_six() -> None:
    """000: "The score for winning all the tricks or euchring the makers is 3 points instead of 2. If the
    winner is playing alone the score is 6 points instead of 4"."""
    rules = HouseRules.preset_rules("six_player")
    assert (rules.points_march, rules.points_lone_march, rules.points_euchre) == (3, 6, 3)


# ---------------------------------------------------------------- play restrictions


def test_no_trump_lead_first_trick() -> None:
    """003: "No First Blood ... the first lead of the round may not lead trump"."""
    for rule in (False, True):
        game = game_of(
            record(
                na(no_trump_lead_first_trick=rule),
                DEAL_A,
                "10H",
            )
        )
        game.apply(1, Action.order_up())
        game.apply(0, Action.discard(parse_card("QS")))
        jack = Action.play(parse_card("JH"))
        if rule:
            assert jack not in game.legal()
            with pytest.raises(RefusedError) as err:
                game.apply(1, jack)
            assert err.value.code == "not_allowed"
        else:
            game.apply(1, jack)


def test_no_first_blood_is_waived_for_a_hand_of_trumps() -> None:
    game = game_of(record(na(no_trump_lead_first_trick=True), DEAL_B, "10H"))
    game.apply(1, Action.order_up())
    game.apply(0, Action.discard(parse_card("JS")))
    assert len(game.legal()) == 5


def test_trump_must_be_broken() -> None:
    """003 (visitor comment): "You can't lead a trump until a trump has been played"."""
    hands = ["QH 9H AS KS QS", "JH JD 9S KH 9C", "AC KC QC JC 10C", "AD KD QD 10D 9D"]
    game = game_of(record(na(trump_must_be_broken=True), hands, "10H"))
    game.apply(1, Action.order_up())
    game.apply(0, Action.discard(parse_card("QS")))
    assert [a.card for a in game.legal()] == [parse_card("9S"), parse_card("9C")]
    for seat, name in ((1, "9S"), (2, "10C"), (3, "9D"), (0, "AS")):
        game.apply(seat, Action.play(parse_card(name)))
    # no trump has been played: the dealer, holding three trumps and a spade, must lead the spade
    assert game.turn == 0 and game.legal() == [Action.play(parse_card("KS"))]
    for seat, name in ((0, "KS"), (1, "JH"), (2, "JC"), (3, "10D")):
        game.apply(seat, Action.play(parse_card(name)))
    # the right bower broke trump: now seat 1 may lead trump
    assert Action.play(parse_card("JD")) in game.legal()
    plain = game_of(record(na(), hands, "10H"))
    plain.apply(1, Action.order_up())
    plain.apply(0, Action.discard(parse_card("QS")))
    assert len(plain.legal()) == 5


# ---------------------------------------------------------------- misdeals


def test_ace_no_face() -> None:
    """003: "If a player is dealt a hand with (only) one ace and no face cards, then they are allowed
    to call 'Ace-No Face'. Everybody's hands are thrown in and the current dealer deals again"."""
    hands = ["QH 9H AS KS QS", "AC 9C 10C 9S 10S", "JH JD AH KH QC", "AD KD QD 10D 9D"]
    off = game_of(record(na(), hands, "10H"))
    assert Action.redeal() not in off.legal()
    with pytest.raises(RefusedError):
        off.apply(1, Action.redeal())
    on = game_of(record(na(ace_no_face=True), hands, "10H"))
    assert Action.redeal() in on.legal()
    on.apply(1, Action.redeal())
    assert on.results[0].result == "redeal" and on.dealer == 0 and on.deal_number == 2


def test_farmers_hand() -> None:
    """003: "If someone is dealt three nines or three tens, they have the opportunity ... to exchange
    their puny cards with the three face-down cards in the kitty"."""
    hands = ["QH 9H AS KS QS", "9C 9D 9S KH 10C", "JH JD AH AC QC", "AD KD QD 10D JS"]
    doc = record(na(farmers_hand="three_of_a_rank"), hands, "10H")
    game = game_of(doc)
    kitty = list(game.kitty[:3])
    swap = Action.swap(sorted(parse_card(c) for c in ("9C", "9D", "9S")))
    assert swap in game.legal()
    game.apply(1, swap)
    assert sorted(game.hands[1]) == sorted([parse_card("KH"), parse_card("10C"), *kitty])
    assert game.turn == 1 and swap not in game.legal()
    off = game_of(record(na(), hands, "10H"))
    assert all(a.do != "swap" for a in off.legal())
    mixed = ["QH 9H AS KS QS", "9C 10D 9S KH 10C", "JH JD AH AC QC", "AD KD QD 9D JS"]
    strict = game_of(record(na(farmers_hand="three_of_a_rank"), mixed, "10H"))
    loose = game_of(record(na(farmers_hand="nines_and_tens"), mixed, "10H"))
    assert all(a.do != "swap" for a in strict.legal())
    assert sum(a.do == "swap" for a in loose.legal()) == 4
