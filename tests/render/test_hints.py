"""Hints in words: the hand in euchre terms and the search's own figures."""

from __future__ import annotations

from bot.players.advice import Advice
from bot.players.expert import ExpertPlayer
from bot.render.hints import hand_words, hint_text
from bot.rules import Action, Deal, Game, HouseRules, parse_card, replay, seat_view


def _cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(c) for c in text.split())


def _dealt(hands: tuple[str, str, str, str], upcard: str, kitty: str) -> Game:
    """A North American game of this deal, seat 3 dealing."""
    deal = Deal(
        hands=tuple(_cards(h) for h in hands), upcard=parse_card(upcard), kitty=_cards(kitty)
    )
    return Game(HouseRules.preset_rules("north_american"), dealer=3, deals=[deal])


def _first_bid() -> Game:
    # Dealer is seat 3; seat 0 bids first with both bowers in hearts and the ace of spades.
    return _dealt(
        ("JH JD AS 9C 10C", "9H QC KC AC 9S", "10H KH 10S QS KS", "QD KD AD 9D 10D"),
        upcard="AH",
        kitty="QH JS JC",
    )


def _spades_played() -> Game:
    """Spades ordered up by seat 0; the dealer (3) took the ace of spades and threw the QD."""
    game = _dealt(
        ("AC KC 9H 10H 9S", "9C JH QH KH 10S", "10C AH 9D 10D QS", "QC JD QD KD KS"),
        upcard="AS",
        kitty="JC AD JS",
    )
    game.apply(0, Action.order_up())
    game.apply(3, Action.discard("QD"))
    return game


def test_the_hand_is_described_by_bowers_trumps_and_side_aces() -> None:
    view = seat_view(_first_bid(), 0)
    assert hand_words(view, 2) == "the right and left bowers and a side ace"
    assert hand_words(view, 1) == "the right and left bowers and a side ace", "right first"
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


def test_a_margin_too_small_to_show_is_told_as_even() -> None:
    view = seat_view(_first_bid(), 0)
    order, passing = Action.order_up(), Action.pass_()
    for worth in (1.13, 1.07):  # the choice a little ahead, or behind on a tie-break
        advice = Advice(order, {order: worth, passing: 1.1}, samples=40)
        assert hint_text(view, advice) == (
            "Order up: in hearts you hold the right and left bowers and a side ace; "
            "ordering up and passing come out about even here (40 deals sampled)."
        )


def test_a_lead_that_no_card_left_can_beat_in_its_suit_is_told_as_cashing_it() -> None:
    game = _spades_played()
    for seat, card in enumerate(["AC", "9C", "10C", "QC"]):
        game.apply(seat, Action.play(card))
    view = seat_view(game, 0)  # spades are trump, so the jack of clubs is not a club
    king, low = Action.play("KC"), Action.play("9H")
    advice = Advice(king, {king: 0.9, low: 0.6}, samples=50)
    assert hint_text(view, advice).startswith(
        "Play K♣️: cash the best card left in its suit while the suit is still followed;"
    )
    advice = Advice(low, {low: 0.9, king: 0.6}, samples=50)
    assert hint_text(view, advice).startswith("Play 9♥️: lead low and keep your winners;")


def test_a_card_under_the_other_sides_trick_says_whether_the_trick_could_be_won() -> None:
    game = _spades_played()
    for seat, card in enumerate(["AC", "9C", "10C", "QC", "9H", "KH", "AH"]):
        game.apply(seat % 4, Action.play(card))
    view = seat_view(game, 3)  # void in hearts: may trump the ace, or throw a diamond
    cheap, spare, trump = Action.play("JD"), Action.play("KD"), Action.play("KS")

    def hint(choice: Action) -> str:
        values = {a: 0.5 for a in (cheap, spare, trump)}
        values[choice] = 0.9
        return hint_text(view, Advice(choice, values, samples=30)).split(";")[0]

    assert hint(cheap) == "Play J♦️: let this trick go and throw your cheapest card"
    assert hint(spare) == "Play K♦️: let this trick go and throw a card you can spare"
    assert hint(trump) == "Play K♠️: trump in and take the trick"


def test_the_experts_own_search_fills_the_hint() -> None:
    view = seat_view(_first_bid(), 0)
    # Counted samples, not the clock's: a busy machine must not change what is tested.
    advice = ExpertPlayer(seed=1, budget=None, min_samples=8).advise(view)
    assert advice.action in view.legal and advice.samples == 8
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


def _bid_euchre() -> Game:
    # Dealer is seat 0; seat 1 bids first with every nine and two tens: No Trump Low.
    hands = ["KS QS JS KH QH AC", "9C 9D 9H 9S 10C 10D", "AS 10S AH JH KD QD", "JD AD 10H KC QC JC"]
    doc = {
        "format": 1,
        "rules": {"preset": "bid_euchre"},
        "dealer": 0,
        "deals": [{"hands": [h.split() for h in hands], "kitty": []}],
    }
    return replay(doc).game


def test_a_bid_euchre_hint_gives_the_tricks_and_the_points() -> None:
    view = seat_view(_bid_euchre(), 1)
    four, passing = Action.bid(4), Action.pass_()
    advice = Advice(four, {four: 3.2, passing: 0.5}, samples=90, tricks={0: 2.0, 5: 5.6})
    assert hint_text(view, advice) == (
        "Bid 4: naming No Trump Low, your side expects about 5.6 of 6 tricks; "
        "bidding 4 is worth about +2.7 points against passing here (90 deals sampled)."
    )
    weak = Advice(passing, {passing: -0.4, Action.bid(3): -1.5}, samples=80, tricks={2: 2.1})
    assert hint_text(view, weak) == (
        "Pass: your side's best choice, hearts, brings it about 2.1 of 6 tricks, for a bid of "
        "at least 3; passing is worth about +1.1 points against bidding 3 here (80 deals sampled)."
    )


def test_the_experts_bid_euchre_search_fills_the_hint() -> None:
    game = _bid_euchre()
    expert = ExpertPlayer(seed=1, budget=None, min_samples=12, max_samples=12)
    bid = hint_text(seat_view(game, 1), expert.advise(seat_view(game, 1)))
    assert bid.startswith(("Bid ", "Shoot", "Pass")) and "of 6 tricks" in bid, bid
    assert "(12 deals sampled)" in bid, bid
    for seat, action in ((1, Action.bid(4)), (2, Action.pass_()), (3, Action.pass_())):
        game.apply(seat, action)
    game.apply(0, Action.pass_())
    view = seat_view(game, 1)
    text = hint_text(view, expert.advise(view))
    assert text.startswith("Name No Trump Low: your side expects about 6.0 of 6 tricks"), text
    assert "points against naming" in text, text
