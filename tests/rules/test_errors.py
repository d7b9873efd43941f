"""Every error code of the record format, each leaving the state exactly as it was.

A test that shows a code says so with ``@shows("code")``: the decorator lists the code
when the module is read (so :func:`test_every_code_is_covered_here` compares what the
tests in this file declare with ``ERROR_CODES``, whatever runs first) and fails the test
unless the rules really rejected a move with that code while it ran. Removing a code's
last test, or its decorator, fails the coverage check.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import pytest

from bot.rules import ERROR_CODES, Action, Game, RefusedError, parse_card, replay

from .util import game_of, record, snapshot

HANDS = ["QH 9H AS KS QS", "JD 9S AC KC QC", "JH 10C AH KH 9C", "AD KD QD 10D 9D"]


def _game(**rules: Any) -> Game:
    return game_of(record({"preset": "north_american", **rules}, HANDS, "10H"))


_DECLARED: dict[str, list[str]] = {}
"""Error code -> the tests in this file that show it (filled as the module is read)."""
_caught: list[str] = []
"""The codes the rules rejected with during the running test."""


def shows(*codes: str) -> Callable[[Callable[[], None]], Callable[[], None]]:
    """Declare the error codes a test shows; the test fails unless each one was raised."""

    def declare(test: Callable[[], None]) -> Callable[[], None]:
        for code in codes:
            _DECLARED.setdefault(code, []).append(test.__name__)

        @functools.wraps(test)
        def run() -> None:
            _caught.clear()
            test()
            missing = [code for code in codes if code not in _caught]
            assert not missing, f"{test.__name__} declares {missing} but never caught them"

        return run

    return declare


def _rejects(game: Game, seat: int, action: Action, code: str) -> RefusedError:
    before = snapshot(game)
    with pytest.raises(RefusedError) as err:
        game.apply(seat, action)
    assert err.value.code == code, err.value
    _caught.append(code)
    assert err.value.message.endswith(".") and err.value.message[0].isupper()
    assert snapshot(game) == before
    return err.value


def _plays(game: Game, *plays: tuple[int, str]) -> None:
    """Each (seat, card) played in turn."""
    for seat, card in plays:
        game.apply(seat, Action.play(parse_card(card)))


def _to_play(game: Game) -> Game:
    game.apply(1, Action.order_up())
    game.apply(0, Action.discard(parse_card("QS")))
    return game


@shows("not_your_turn")
def test_not_your_turn() -> None:
    _rejects(_game(), 2, Action.pass_(), "not_your_turn")


@shows("wrong_phase")
def test_wrong_phase() -> None:
    game = _game()
    _rejects(game, 1, Action.play(parse_card("AC")), "wrong_phase")
    _rejects(game, 1, Action.call(0), "wrong_phase")
    _to_play(game)
    _rejects(game, 1, Action.pass_(), "wrong_phase")


@shows("wrong_phase")
def test_wrong_phase_wins_over_wrong_seat_once_the_game_is_over() -> None:
    game = game_of(record({"preset": "north_american", "deals_per_game": 1}, HANDS, "10H"))
    for s in range(1, 9):
        game.apply(s % 4, Action.pass_())
    assert game.over
    err = _rejects(game, 3, Action.pass_(), "wrong_phase")
    assert "game is over" in err.message


@shows("card_not_in_hand")
def test_card_not_in_hand() -> None:
    game = _to_play(_game())
    err = _rejects(game, 1, Action.play(parse_card("AD")), "card_not_in_hand")
    assert err.message == "You don't hold the ace of diamonds."
    discard = _game()
    discard.apply(1, Action.order_up())
    _rejects(discard, 0, Action.discard(parse_card("AC")), "card_not_in_hand")


@shows("must_follow_suit")
def test_must_follow_suit_names_the_left_bower() -> None:
    game = _to_play(_game())
    game.apply(1, Action.play(parse_card("9S")))  # spades led
    game.apply(2, Action.play(parse_card("9C")))  # seat 2 has no spade
    game.apply(3, Action.play(parse_card("AD")))
    game.apply(0, Action.play(parse_card("AS")))
    # seat 0 won; leads hearts; seat 1 holds only the jack of diamonds as a heart
    game.apply(0, Action.play(parse_card("QH")))
    err = _rejects(game, 1, Action.play(parse_card("AC")), "must_follow_suit")
    assert err.message == (
        "You must follow hearts: the jack of diamonds is a heart this hand (the left bower)."
    )


@shows("must_follow_suit")
def test_playing_the_left_bower_as_its_printed_suit_is_explained() -> None:
    hands = ["QH 9H AS KS QS", "AD 9S AC KC QC", "JD 9D 10C AH KH", "JH KD QD 10D JC"]
    game = _to_play(game_of(record({"preset": "north_american"}, hands, "10H")))
    game.apply(1, Action.play(parse_card("AD")))
    err = _rejects(game, 2, Action.play(parse_card("JD")), "must_follow_suit")
    assert err.message == (
        "You must follow diamonds: the jack of diamonds is the left bower, "
        "a heart this hand, not a diamond."
    )


def test_the_left_bower_cannot_be_forced_out_on_its_printed_suit() -> None:
    game = game_of(record({"preset": "north_american"}, HANDS, "10H"))
    _to_play(game)
    _plays(game, (1, "9S"), (2, "9C"), (3, "9D"), (0, "AS"), (0, "KS"))
    # seat 1 holds JD (a heart) and clubs: no spade, so anything goes
    assert len(game.legal()) == 4


@shows("cannot_pass")
def test_cannot_pass() -> None:
    game = _game(stick_the_dealer=True)
    for s in range(1, 8):
        game.apply(s % 4, Action.pass_())
    _rejects(game, 0, Action.pass_(), "cannot_pass")


@shows("suit_turned_down")
def test_suit_turned_down() -> None:
    game = _game()
    for s in (1, 2, 3, 0):
        game.apply(s, Action.pass_())
    err = _rejects(game, 1, Action.call(2), "suit_turned_down")
    assert err.message == "Hearts were turned down this deal: name another suit."


@shows("needs_suit")
def test_needs_suit() -> None:
    game = _game(order_up_needs_suit="everyone")
    err = _rejects(game, 1, Action.order_up(), "needs_suit")
    assert "left bower does not count" in err.message


@shows("not_allowed")
def test_not_allowed() -> None:
    game = _game(dealer_partner_order_up="must_go_alone")
    game.apply(1, Action.pass_())
    _rejects(game, 2, Action.order_up(alone=False), "not_allowed")


def test_every_code_is_covered_here() -> None:
    assert sorted(_DECLARED) == sorted(ERROR_CODES), _DECLARED


def test_replay_reports_the_rejected_index_and_the_state_before_it() -> None:
    doc = record(
        {"preset": "north_american"},
        HANDS,
        "10H",
        [
            {"seat": 1, "do": "order_up"},
            {"seat": 0, "do": "discard", "card": "QS"},
            {"seat": 2, "do": "play", "card": "AH"},
            {"seat": 1, "do": "play", "card": "9S"},
        ],
    )
    out = replay(doc).to_json()
    assert out["ok"] is False
    assert out["error"]["index"] == 2 and out["error"]["code"] == "not_your_turn"
    assert out["turn"]["seat"] == 1 and out["turn"]["phase"] == "play"


@shows("must_follow_suit")
def test_the_two_of_spades_benny_is_trump_not_a_spade() -> None:
    hands = ["QH 9H AS KS QS", "2S 9S AC KC QC", "JH 10C AH KH 9C", "AD KD QD 10D 9D"]
    game = game_of(record({"preset": "north_american", "joker": "two_of_spades"}, hands, "10H"))
    _to_play(game)
    _plays(game, (1, "AC"), (2, "9C"), (3, "9D"), (0, "10H"), (0, "AS"))
    # seat 1 must follow spades with the nine: the Benny is a heart this hand
    assert game.legal() == [Action.play(parse_card("9S"))]
    err = _rejects(game, 1, Action.play(parse_card("2S")), "must_follow_suit")
    assert err.message == (
        "You must follow spades: the two of spades is the Benny, a heart this hand, not a spade."
    )


@shows("bid_too_low")
def test_bid_too_low() -> None:
    doc = {"format": 1, "rules": {"preset": "bid_euchre"}, "dealer": 0, "seed": 3, "actions": []}
    game = game_of(doc)
    err = _rejects(game, 1, Action.bid(2), "bid_too_low")
    assert err.message == "Bids start at 3 tricks."
    game.apply(1, Action.bid(4))
    err = _rejects(game, 2, Action.bid(4), "bid_too_low")
    assert err.message == "The highest bid is 4: bid more or pass."
