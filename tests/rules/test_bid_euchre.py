"""Bid Euchre (rule source 003 and record-format.md's "Bid Euchre"): worked hands and refusals."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from bot.rules import (
    Action,
    ActionError,
    Contract,
    Game,
    HouseRules,
    RecordError,
    RefusedError,
    game_record,
    new_game,
    parse_card,
    replay,
    seat_view,
)
from bot.rules.bid_bidding import bid_range, must_bid
from bot.rules.dealing import NO_UPCARD

from .util import TWO_PACKS_SIX_SEATS, snapshot

# One suit to each seat: easy to follow by hand. Dealer 0, so seat 1 bids first.
SUITED = [
    "AS KS QS JS 10S 9S",
    "AH KH QH JH 10H 9H",
    "AD KD QD JD 10D 9D",
    "AC KC QC JC 10C 9C",
]
# Mixed hands for the no-trump cases.
MIXED = [
    "AS JS 9H 9D 9C 10C",
    "QS 10S 10H 10D JC QC",
    "KS 9S JH QH QD KC",
    "KH AH JD KD AD AC",
]


def bid_game(hands: list[str], preset: str = "bid_euchre", **rules: Any) -> Game:
    doc = {
        "format": 1,
        "rules": {"preset": preset, **rules},
        "dealer": 0,
        "seed": 1,
        "deals": [{"hands": [h.split() for h in hands], "kitty": []}],
    }
    return replay(doc).game


def act(game: Game, *codes: str) -> None:
    """Apply actions by code, each by the seat whose turn it is."""
    for code in codes:
        assert game.turn is not None
        game.apply(game.turn, Action.from_code(code))


def play(game: Game, *cards: str) -> None:
    act(game, *(f"play.{c}" for c in cards))


def finish(game: Game) -> None:
    number = game.deal_number
    while not game.over and game.deal_number == number:
        act(game, str(game.legal()[0]))


def last(game: Game) -> dict[str, Any]:
    return game.results[0].to_json()


def test_a_bid_made_scores_each_team_its_tricks() -> None:
    game = bid_game(SUITED)
    assert game.phase == "bid" and game.turn == 1
    act(game, "bid.3", "pass", "pass", "pass")
    assert game.phase == "declare" and game.turn == 1 and game.contract == Contract(1, 3)
    act(game, "declare.H")
    assert game.phase == "play" and game.turn == 1  # the bidder leads
    # Hearts trump: the jack of diamonds is the left bower, seat 2's only heart.
    assert [str(a) for a in game.legal()] == [f"play.{c}" for c in SUITED[1].split()]
    play(game, "AH")
    assert [str(a) for a in game.legal()] == ["play.JD"]
    play(game, "JD", "9C", "9S")
    assert game.last_trick is not None and game.last_trick.winner == 2  # left bower over the ace
    play(game, "AD", "10C", "10S", "9H")  # seat 1, void in diamonds, trumps
    play(game, "KH", "KD", "JC", "JS")
    play(game, "QH", "QD", "QC", "QS")
    play(game, "JH", "10D", "KC", "KS")
    play(game, "10H", "9D", "AC", "AS")
    deal = last(game)
    assert deal["bid"] == {"seat": 1, "tricks": 3} and deal["trump"] == "H"
    assert deal["tricks"] == [1, 5] and deal["result"] == "made"
    assert deal["points"] == [1, 5] and list(game.score) == [1, 5]
    assert game.deal_number == 2 and game.dealer == 1 and game.turn == 2


def test_a_bid_set_loses_the_bid_and_the_defenders_score_their_tricks() -> None:
    game = bid_game(SUITED)
    act(game, "bid.6", "pass", "pass", "pass", "declare.H")
    play(game, "AH", "JD", "9C", "9S")  # the left bower takes the first trick: 6 is out of reach
    finish(game)
    deal = last(game)
    assert deal["tricks"] == [1, 5] and deal["result"] == "set"
    assert deal["points"] == [1, -6] and list(game.score) == [1, -6]


def test_the_dealer_may_match_the_highest_bid_and_take_it() -> None:
    game = bid_game(SUITED)
    act(game, "bid.4", "pass", "pass")
    assert game.turn == 0
    assert [str(a) for a in game.legal()] == ["pass", "bid.4", "bid.5", "bid.6", "shoot"]
    act(game, "bid.4")
    assert game.contract == Contract(0, 4) and game.maker == 0 and game.phase == "declare"
    act(game, "declare.S")
    play(game, "JS", "9H", "9D", "JC")  # right bower over left bower
    for card in ("AS", "KS", "QS", "10S", "9S"):
        play(game, card)
        while game.trick:
            act(game, str(game.legal()[0]))
    deal = last(game)
    assert deal["tricks"] == [6, 0] and deal["result"] == "made" and deal["points"] == [6, 0]


def test_without_dealer_may_match_the_dealer_must_go_above() -> None:
    game = bid_game(SUITED, dealer_may_match=False)
    act(game, "bid.4", "pass", "pass")
    assert [str(a) for a in game.legal()] == ["pass", "bid.5", "bid.6", "shoot"]
    with pytest.raises(RefusedError) as err:
        game.apply(0, Action.bid(4))
    assert err.value.code == "bid_too_low"


def test_everyone_passing_leaves_the_dealer_the_minimum_or_a_shoot() -> None:
    game = bid_game(SUITED)
    act(game, "pass", "pass", "pass")
    assert game.turn == 0 and [str(a) for a in game.legal()] == ["bid.3", "shoot"]
    before = snapshot(game)
    with pytest.raises(RefusedError) as err:
        game.apply(0, Action.pass_())
    assert err.value.code == "cannot_pass" and "must bid 3" in err.value.message
    with pytest.raises(RefusedError) as err:
        game.apply(0, Action.bid(4))
    assert err.value.code == "not_allowed" and snapshot(game) == before
    act(game, "bid.3")
    assert game.contract == Contract(0, 3) and game.turn == 0 and game.phase == "declare"


def test_no_trump_high_ranks_ace_down_to_nine_and_jacks_are_plain() -> None:
    game = bid_game(MIXED)
    act(game, "bid.3", "pass", "pass", "pass", "declare.high")
    assert game.trump == 4 and last(game)["trump"] == "high"
    play(game, "QS", "9S", "KH", "JS")  # under clubs or spades the jack of spades would win
    assert game.last_trick is not None and game.last_trick.winner == 1
    play(game, "JC", "KC")  # the jack of clubs is a plain club
    assert [str(a) for a in game.legal()] == ["play.AC"]
    play(game, "AC", "9C")
    assert game.last_trick is not None and game.last_trick.winner == 3
    finish(game)
    assert sum(last(game)["tricks"]) == 6


def test_no_trump_low_ranks_nine_up_to_ace() -> None:
    game = bid_game(MIXED)
    act(game, "bid.3", "pass", "pass", "pass", "declare.low")
    assert game.trump == 5 and last(game)["trump"] == "low"
    play(game, "QS", "9S", "KH", "JS")
    assert game.last_trick is not None and game.last_trick.winner == 2  # the nine is high
    play(game, "QD", "AD", "9D", "10D")
    assert game.last_trick is not None and game.last_trick.winner == 0


def test_of_two_equal_cards_the_first_played_wins() -> None:
    game = bid_game(TWO_PACKS_SIX_SEATS, "bid_euchre_6")
    assert game.hand_size == 8
    act(game, "bid.3", "pass", "pass", "pass", "pass", "pass", "declare.high")
    play(game, "AS", "9C", "AS", "KH", "KD", "9S")
    trick = game.last_trick
    assert trick is not None and trick.cards.count(parse_card("AS")) == 2 and trick.winner == 1


def test_where_the_second_equal_card_wins_by_house_rule() -> None:
    game = bid_game(TWO_PACKS_SIX_SEATS, "bid_euchre_6", duplicate_card_wins="second")
    act(game, "bid.3", "pass", "pass", "pass", "pass", "pass", "declare.high")
    play(game, "AS", "9C", "AS", "KH", "KD", "9S")
    assert game.last_trick is not None and game.last_trick.winner == 3


def test_a_shoot_made_with_partners_best() -> None:
    game = bid_game(SUITED)
    act(game, "pass", "pass", "pass", "shoot")
    assert game.contract == Contract(0, 6, shoot=True) and list(game.alone) == [0]
    assert list(game.out) == [False, False, True, False]
    act(game, "declare.S")
    assert game.phase == "give" and game.turn == 2
    act(game, "give.AD")
    assert game.phase == "discard" and game.turn == 0 and parse_card("AD") in game.hands[0]
    act(game, "discard.9S")
    assert game.phase == "play" and game.turn == 0 and list(game.kitty) == [parse_card("9S")]
    play(game, "JS", "9H", "JC")  # three seats play: the partner sits out
    for card in ("AS", "KS", "QS", "10S", "AD"):
        play(game, card)
        while game.trick:
            act(game, str(game.legal()[0]))
    deal = last(game)
    assert deal["bid"] == {"seat": 0, "shoot": True} and deal["alone"] == [0]
    assert deal["tricks"] == [6, 0] and deal["result"] == "shot" and deal["points"] == [12, 0]


def test_a_shoot_failed_loses_the_shoot_and_the_defenders_score() -> None:
    game = bid_game(SUITED)
    act(game, "shoot")  # seat 1 shoots at once: the bidding ends
    assert game.phase == "declare" and game.turn == 1
    act(game, "declare.C", "give.AC", "discard.9H")
    play(game, "AH", "9D", "JS")  # clubs trump: the jack of spades is the left bower
    assert game.last_trick is not None and game.last_trick.winner == 0
    finish(game)
    deal = last(game)
    assert deal["result"] == "shot_failed" and deal["tricks"][0] >= 1
    assert deal["points"] == [deal["tricks"][0], -12]


def test_six_players_give_in_turn_from_the_shooters_left() -> None:
    game = bid_game(TWO_PACKS_SIX_SEATS, "bid_euchre_6")
    act(game, "shoot", "declare.S")
    assert game.turn == 3 and game.phase == "give"
    act(game, "give.JD", "discard.9D")
    assert game.turn == 5 and game.phase == "give"
    view = seat_view(game, 4)
    assert all(a.card is None for _, a in view.history if a.do in ("give", "discard"))
    assert seat_view(game, 1).history[-2][1] == Action.give("JD")
    act(game, "give.KD", "discard.9D")
    assert game.phase == "play" and game.turn == 1 and list(game.out) == [
        False, False, False, True, False, True,
    ]  # fmt: skip
    assert game.rules.shoot_points == 16


def test_the_first_trick_is_led_left_of_the_dealer_by_house_rule() -> None:
    game = bid_game(SUITED, bid_lead="left_of_dealer")
    act(game, "pass", "bid.3", "pass", "pass", "declare.D")
    assert game.turn == 1


def test_shooting_off() -> None:
    game = bid_game(SUITED, shoot=False)
    assert "shoot" not in [a.do for a in game.legal()]
    with pytest.raises(RefusedError) as err:
        game.apply(1, Action.shoot())
    assert err.value.code == "not_allowed" and "Shooting" in err.value.message


@pytest.mark.parametrize(
    ("preset", "players", "size"),
    [("bid_euchre", 4, 6), ("bid_euchre_6", 6, 8), ("bid_euchre_8", 8, 6)],
)
def test_dealing_the_whole_pack(preset: str, players: int, size: int) -> None:
    rules = HouseRules.preset_rules(preset)
    assert rules.players == players and rules.hand_size == size and rules.target_score == 32
    for seed in range(5):
        game = new_game(rules, seed=seed)
        assert [len(h) for h in game.hands] == [size] * players
        assert game.deal.upcard == NO_UPCARD and game.deal.kitty == ()
        assert Counter(c for h in game.hands for c in h) == Counter(game.pack)
        assert len(game.pack) == 24 * rules.packs
        assert game.turn == (game.dealer + 1) % players and game.phase == "bid"


def test_game_to_32_and_both_teams_there_on_one_deal_the_bidders_win() -> None:
    doc = {
        "format": 1,
        "rules": {"preset": "bid_euchre", "target_score": 3},
        "dealer": 0,
        "deals": [{"hands": [h.split() for h in SUITED], "kitty": []}],
    }
    game = replay(doc).game
    act(game, "bid.3", "pass", "pass", "pass", "declare.H")
    finish(game)  # 1 trick to team 0, 5 to team 1: only the bidders reach 3
    assert game.over and game.winner == 1
    game = replay({**doc, "rules": {**doc["rules"], "target_score": 1}}).game
    act(game, "pass", "bid.3", "pass", "pass", "declare.D")  # seat 2 (team 0) bids
    finish(game)
    assert game.over and min(game.score) >= 1 and game.winner == 0


def test_records_carry_the_new_verbs_and_replay_the_same() -> None:
    game = bid_game(SUITED)
    act(game, "bid.4", "pass", "bid.5", "pass", "declare.low")
    doc = game_record(game)
    assert doc["actions"][:3] == [
        {"seat": 1, "do": "bid", "tricks": 4},
        {"seat": 2, "do": "pass"},
        {"seat": 3, "do": "bid", "tricks": 5},
    ]
    assert doc["actions"][4] == {"seat": 3, "do": "declare", "trump": "low"}
    assert "upcard" not in doc["deals"][0]
    out = replay(doc).to_json()
    assert out["turn"]["phase"] == "play" and out["deals"][0]["bid"] == {"seat": 3, "tricks": 5}
    assert snapshot(replay(doc).game) == snapshot(game)


def test_a_bid_euchre_deal_with_an_upcard_is_not_a_record() -> None:
    doc = {
        "format": 1,
        "rules": {"preset": "bid_euchre"},
        "deals": [{"hands": [h.split() for h in SUITED], "upcard": "9S"}],
    }
    with pytest.raises(RecordError, match="upcard"):
        replay(doc)


def test_action_codes_and_json_of_the_new_verbs() -> None:
    for action, code in (
        (Action.bid(4), "bid.4"),
        (Action.shoot(), "shoot"),
        (Action.declare("H"), "declare.H"),
        (Action.declare("high"), "declare.high"),
        (Action.declare(5), "declare.low"),
    ):
        assert str(action) == code and Action.from_code(code) == action
    assert repr(Action.declare("low")) == "Action.declare('low')"
    assert Action.bid(3).to_json(2) == {"seat": 2, "do": "bid", "tricks": 3}
    for bad in ("bid.0", "bid.x", "declare.none", "shoot.4"):
        with pytest.raises(ActionError):
            Action.from_code(bad)


@pytest.mark.parametrize(
    ("codes", "seat", "action", "code"),
    [
        ([], 2, "bid.3", "not_your_turn"),
        ([], 1, "declare.H", "wrong_phase"),
        ([], 1, "bid.7", "not_allowed"),
        (["bid.3", "pass", "pass", "pass", "declare.H"], 1, "bid.4", "wrong_phase"),
        (["bid.3", "pass", "pass", "pass", "declare.H"], 1, "play.AS", "card_not_in_hand"),
        (
            ["bid.3", "pass", "pass", "pass", "declare.H", "play.AH"],
            2,
            "play.AD",
            "must_follow_suit",
        ),
        (["bid.4", "pass", "pass"], 0, "bid.3", "bid_too_low"),
        (["shoot", "declare.C"], 3, "give.AS", "card_not_in_hand"),
        (["shoot", "declare.C"], 3, "play.AC", "wrong_phase"),
    ],
)
def test_every_refusal_names_the_rule_and_changes_nothing(
    codes: list[str], seat: int, action: str, code: str
) -> None:
    game = bid_game(SUITED)
    act(game, *codes)
    before = snapshot(game)
    with pytest.raises(RefusedError) as err:
        game.apply(seat, Action.from_code(action))
    assert err.value.code == code, err.value
    assert err.value.message[0].isupper() and err.value.message.endswith(".")
    assert snapshot(game) == before


def test_the_left_bower_refusal_explains_itself() -> None:
    game = bid_game(SUITED)
    act(game, "bid.3", "pass", "pass", "pass", "declare.H", "play.AH")
    with pytest.raises(RefusedError) as err:
        game.apply(2, Action.play("AD"))
    assert err.value.message == (
        "You must follow hearts: the jack of diamonds is a heart this hand (the left bower)."
    )


def test_eight_players_need_bid_euchre() -> None:
    with pytest.raises(ValueError, match="eight players only play Bid Euchre"):
        HouseRules.from_spec({"preset": "north_american", "players": 8})
    with pytest.raises(ValueError, match="24-card pack"):
        HouseRules.from_spec({"preset": "bid_euchre", "deck": "32"})
    with pytest.raises(ValueError, match="bid_minimum"):
        HouseRules.from_spec({"preset": "bid_euchre", "bid_minimum": 7})


def test_repr_and_copy() -> None:
    game = bid_game(SUITED)
    act(game, "bid.4")
    assert repr(game).startswith("<Game bid_euchre deal 1, dealer 0, bid, turn 2, bid 4 by 1")
    twin = game.copy()
    act(twin, "pass", "pass", "pass", "declare.S")
    assert game.phase == "bid" and len(game.log) == 1 and twin.phase == "play"


def test_one_game_class_plays_every_game() -> None:
    rules = HouseRules.preset_rules("bid_euchre_8")
    plain, bid = Game(rules, seed=3), new_game(rules, seed=3)
    assert type(bid) is Game and type(plain) is Game
    while not bid.over:
        action = bid.legal()[0]
        bid.apply(bid.turn, action)  # type: ignore[arg-type]
        plain.apply(plain.turn, action)  # type: ignore[arg-type]
        assert repr(plain) == repr(bid)
    assert plain.score == bid.score and plain.contract == bid.contract
    assert type(new_game(HouseRules.preset_rules("north_american"))) is Game


def test_the_bids_a_seat_may_make() -> None:
    game = bid_game(SUITED)
    state = game.state
    assert (state.high, bid_range(state, 1), must_bid(state, 1)) == (0, (3, 6), False)
    assert (bid_range(state, 0), must_bid(state, 0)) == ((3, 3), True)
    act(game, "bid.4", "pass", "pass")
    assert state.high == 4 and bid_range(state, 0) == (4, 6)  # the dealer may match
    act(game, "bid.6")
    assert game.contract == Contract(0, 6) and bid_range(game.state, 1) is None
