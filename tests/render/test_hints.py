"""Hints in words: the hand in euchre terms and the search's own figures."""

from __future__ import annotations

from bot.players.advice import Advice
from bot.players.expert import ExpertPlayer
from bot.render.hints import hand_words, hint_text
from bot.rules import Action, Deal, Game, HouseRules, parse_card, seat_view


def _cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(c) for c in text.split())


def _first_bid() -> Game:
    # Dealer is seat 3; seat 0 bids first with both bowers in hearts and the ace of spades.
    deal = Deal(
        hands=(
            _cards("JH JD AS 9C 10C"),
            _cards("9H QC KC AC 9S"),
            _cards("10H KH 10S QS KS"),
            _cards("QD KD AD 9D 10D"),
        ),
        upcard=parse_card("AH"),
        kitty=_cards("QH JS JC"),
    )
    return Game(HouseRules.preset_rules("north_american"), dealer=3, deals=[deal])


def test_the_hand_is_described_by_bowers_trumps_and_side_aces() -> None:
    view = seat_view(_first_bid(), 0)
    assert hand_words(view, 2) == "the right and left bowers and a side ace"
    assert hand_words(view, 0) == "two trumps and a side ace"
    assert hand_words(view, 3) == "one trump"
    dealer = seat_view(_first_bid(), 3)
    assert hand_words(dealer, 1) == "five trumps"
    assert hand_words(dealer, 2) == "one trump and a side ace", "the upcard it would take"


def test_a_hint_gives_the_choice_the_reason_and_the_margin() -> None:
    view = seat_view(_first_bid(), 0)
    order, passing = Action.order_up(), Action.pass_()
    advice = Advice(order, {order: 1.1, passing: 0.5}, samples=120)
    assert hint_text(view, advice) == (
        "Order up: in hearts you hold the right and left bowers and a side ace; "
        "ordering up is worth about +0.6 points against passing here (120 deals sampled)."
    )


def test_the_experts_own_search_fills_the_hint() -> None:
    view = seat_view(_first_bid(), 0)
    advice = ExpertPlayer(seed=1).advise(view)
    assert advice.action in view.legal and advice.samples >= 6
    assert set(advice.values) <= set(view.legal) and len(advice.values) >= 2
    text = hint_text(view, advice)
    assert text.startswith(("Order up", "Pass")) and "points" in text, text


def test_every_bid_euchre_choice_gets_a_hint_naming_it() -> None:
    from tests.render.games import BID_VARIANTS, steps

    said: dict[str, str] = {}
    for spec in BID_VARIANTS[:2]:
        for table in steps(spec, 3):
            game = table.game
            assert game is not None
            if game.over:
                break
            view = seat_view(game, game.turn)  # type: ignore[arg-type]
            for action in set(view.legal):
                said.setdefault(action.do, hint_text(view, Advice(action)))
    assert said["bid"].startswith("Bid ") and said["shoot"].startswith("Shoot")
    assert said["declare"].startswith("Name ") and {"give", "play", "discard"} <= set(said)
