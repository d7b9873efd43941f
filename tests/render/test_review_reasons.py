"""Why a reviewed decision lost, in the cards' terms: crafted deals, each with its reason.

Each deal is dealt by hand and played by a script up to the decision, then by basic.
The review's judgement is fixed (``_judge``: the expert "prefers" the given action and
the action done lost 0.5 ± 0.05), so the test is of the words alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pytest

from bot.players.advice import Advice
from bot.players.review import Advisor, Estimate, ReviewedDecision, Verdict, review_deal
from bot.render.cards import card_text
from bot.render.reasons import reason
from bot.render.review import fitted, review_text
from bot.rules import Action, Game, SeatView, game_record, parse_card
from tests.players.util import played_out, position


def _c(text: str) -> str:
    return card_text(parse_card(text))


def _deal(
    hands: Sequence[str],
    upcard: str,
    script: Sequence[tuple[int, Action]],
    dealer: int = 3,
) -> Game:
    """A north_american deal from explicit hands, the script played, then basic to its end."""
    game = position({"preset": "north_american"}, list(hands), upcard, dealer=dealer)
    for seat, action in script:
        game.apply(seat, action)
    return played_out(game)


def _judge(done: Action, best: Action) -> Advisor:
    """The expert prefers ``best`` where ``done`` was done (0.5 ± 0.05 points), else agrees."""

    def judge(view: SeatView, action: Action, seed: int) -> Verdict:
        if action == done and best in view.legal:
            return Verdict(Advice(best, {best: 0.5, done: 0.0}, 10), Estimate(0.5, 0.05, 200))
        return Verdict(Advice(action), Estimate())

    return judge


def _reviewed(game: Game, seat: int, done: Action, best: Action) -> ReviewedDecision:
    review = review_deal(game_record(game), seat, 1, advisor=_judge(done, best))
    found = [d for d in review.decisions if d.done == done and d.best == best]
    assert found, [(d.done, d.best) for d in review.decisions]
    return found[0]


def _play(card: str) -> Action:
    return Action.play(card)


# Dealer 3; seat 0 orders hearts up and the dealer throws the K♣: seat 2 is void in spades.
HANDS = ["AS KS AH KH QC", "9S QS 9C 10C JC", "JH JD 10H 9D QD", "10S JS KC AC AD"]
ORDERED = [(0, Action.order_up()), (3, Action.discard("KC"))]


def test_trumping_a_partner_who_had_already_won_the_trick() -> None:
    script = [*ORDERED, (0, _play("AS")), (1, _play("9S")), (2, _play("10H"))]
    game = _deal(HANDS, "9H", script)
    decision = _reviewed(game, 2, _play("10H"), _play("9D"))
    assert reason(decision) == (
        f"your partner's {_c('AS')} had already won the trick (nobody after you could beat "
        f"it), so trumping it with the {_c('10H')} threw a trump away"
    )
    text = review_text(
        review_deal(game_record(game), 2, 1, advisor=_judge(_play("10H"), _play("9D")))
    )
    assert (
        f"**Mistake** · trick 1: Play {_c('9D')}: your partner's {_c('AS')} had already won" in text
    )
    assert "loses about 0.50 points (± 0.10) against it (200 deals sampled)." in text


@dataclass(frozen=True)
class Case:
    """A deal dealt by hand, a script up to one seat's decision, and the reason its review gives."""

    hands: list[str]
    upcard: str
    script: list[tuple[int, Action]]
    seat: int
    done: Action
    best: Action
    reason: str
    dealer: int = 3


CASES = {
    # The dealer keeps a spade higher than the partner's king: the king only had the trick.
    "overtaking_a_partner_whom_a_later_seat_could_beat": Case(
        ["KS AH KH QC 9D", "9S QS 9C 10C JC", "JH JD 10H 10D QD", "10S AS KC AC AD"],
        "9H",
        [*ORDERED, (0, _play("KS")), (1, _play("9S")), (2, _play("JH"))],
        seat=2,
        done=_play("JH"),
        best=_play("10D"),
        reason=(
            f"your partner's {_c('KS')} had the trick: trumping it with the {_c('JH')} spent a "
            "trump your side could use later"
        ),
    ),
    # Dealer 0: seat 1 leads; seat 2 is void in spades and throws a diamond.
    "letting_a_trick_go_that_a_trump_would_have_taken": Case(
        ["9S QC KC AC 10D", "AS KS AH KH QD", "JH JD 10H 9D JC", "10S JS QS 9C 10C"],
        "9H",
        [
            (1, Action.order_up()),
            (0, Action.discard("10D")),
            (1, _play("AS")),
            (2, _play("9D")),
        ],
        seat=2,
        done=_play("9D"),
        best=_play("10H"),
        reason=(
            f"you could trump the player on your right's {_c('AS')} with the {_c('10H')} and take "
            f"the trick; the {_c('9D')} let the other side have it"
        ),
        dealer=0,
    ),
    "winning_with_the_right_bower_where_a_small_trump_would_do": Case(
        ["9S QC KC AC 10D", "AS KS 9H KH QD", "JH JD 10H 9D JC", "10S JS QS 9C 10C"],
        "QH",
        [
            (1, Action.order_up()),
            (0, Action.discard("10D")),
            (1, _play("9H")),
            (2, _play("JH")),
        ],
        seat=2,
        done=_play("JH"),
        best=_play("10H"),
        reason=(
            f"the {_c('10H')} would have taken the trick as well: the right bower was worth "
            "keeping for a later trick"
        ),
        dealer=0,
    ),
    # Seat 2 holds one trump, the 10♥, and must follow to the trump led.
    "leading_trump_that_pulled_the_partners_last_one": Case(
        ["AH KS QS AC KC", "9S JS 9C 10C JC", "10H 10S QC AD KD", "JH JD QH 9D 10D"],
        "9H",
        [(0, Action.order_up()), (3, Action.discard("9D")), (0, _play("AH"))],
        seat=0,
        done=_play("AH"),
        best=_play("AC"),
        reason=(
            f"leading trump pulled your partner's last one, the {_c('10H')}, which could have "
            "trumped a side suit later"
        ),
    ),
    "a_maker_who_does_not_draw_trump": Case(
        ["AH KH QC 9D 10D", "9S JS 9C 10C JC", "10S QS KC AD KD", "JH JD AS KS AC"],
        "9H",
        [(0, Action.order_up()), (3, Action.discard("KS")), (0, _play("QC"))],
        seat=0,
        done=_play("QC"),
        best=_play("AH"),
        reason=(
            f"your side made trump and you haven't seen four of the trumps yet: leading the "
            f"{_c('AH')} draws them before they can trump your winners"
        ),
    ),
    # The dealer takes hearts up; seat 0 (a defender) leads the first trick.
    "a_defender_who_does_not_cash_the_best_card_left": Case(
        ["9S QS AC JC KD", "AS 9C QD 9D 10C", "10S JS KC QC AD", "JH JD AH KH QH"],
        "10H",
        [
            (0, Action.pass_()),
            (1, Action.pass_()),
            (2, Action.pass_()),
            (3, Action.order_up()),
            (3, Action.discard("QH")),
            (0, _play("KD")),
        ],
        seat=0,
        done=_play("KD"),
        best=_play("AC"),
        reason=(
            f"the {_c('AC')} was the best club left: cashing it takes a trick before the suit "
            "can be trumped"
        ),
    ),
    "throwing_away_the_best_card_left_on_a_lost_trick": Case(
        ["9S QC KC AC 10D", "AS KS AH KH QD", "JH JD 10H 9D JC", "10S JS QS 9C 10C"],
        "9H",
        [
            (1, Action.order_up()),
            (0, Action.discard("9H")),
            (1, _play("AH")),
            (2, _play("10H")),
            (3, _play("10C")),
            (0, _play("AC")),
        ],
        seat=0,
        done=_play("AC"),
        best=_play("10D"),
        reason=(
            f"the trick was lost either way: the {_c('AC')} was the best club left, a trick later "
            f"on; throw the {_c('10D')}, which could not take one"
        ),
        dealer=0,
    ),
    "a_dealer_who_turns_down_the_upcard_holding_the_left_bower": Case(
        ["9S QS 9C 10C JC", "AS KS QC KC AC", "10S JS 9D 10D QD", "JD AH KH 9H AD"],
        "QH",
        [(0, Action.pass_()), (1, Action.pass_()), (2, Action.pass_()), (3, Action.pass_())],
        seat=3,
        done=Action.pass_(),
        best=Action.order_up(),
        reason=(
            f"you held the left bower ({_c('JD')}): taking up the {_c('QH')} makes you two trumps "
            "stronger"
        ),
    ),
    "the_upcard_taken_up_is_named_by_its_role": Case(
        ["9S QS 9C 10C JC", "AS KS QC KC AC", "10S JS 9D 10D QD", "JD AH KH 9H AD"],
        "JH",
        [(0, Action.pass_()), (1, Action.pass_()), (2, Action.pass_()), (3, Action.pass_())],
        seat=3,
        done=Action.pass_(),
        best=Action.order_up(),
        reason=(
            f"you held the left bower ({_c('JD')}): taking up the right bower ({_c('JH')}) makes "
            "you two trumps stronger"
        ),
    ),
    "a_dealers_partner_who_passes_holding_the_left_bower": Case(
        ["9S QS 9C 10C JC", "JD AH KH AS 9D", "10S JS 10D QD KD", "AC KS QC KC AD"],
        "QH",
        [(0, Action.pass_()), (1, Action.pass_())],
        seat=1,
        done=Action.pass_(),
        best=Action.order_up(),
        reason=(
            f"you held the left bower ({_c('JD')}): ordering up makes your side two trumps "
            f"stronger, your partner taking up the {_c('QH')}"
        ),
    ),
}


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_the_reason_names_what_the_cards_show(case: Case) -> None:
    game = _deal(case.hands, case.upcard, case.script, dealer=case.dealer)
    decision = _reviewed(game, case.seat, case.done, case.best)
    assert reason(decision) == case.reason


def test_leading_into_a_suit_an_opponent_had_shown_out_of() -> None:
    # Trick 1: seat 1 shows out of spades; trick 2: seat 0 leads a spade again and it is trumped.
    hands = ["AS KS AC KC 9D", "9H 10H 9C 10C JC", "JS QS QC AD KD", "10S JH JD QH 10D"]
    script = [
        (0, Action.order_up()),
        (3, Action.discard("10D")),
        (0, _play("AS")),
        (1, _play("9C")),
        (2, _play("JS")),
        (3, _play("10S")),
        (0, _play("KS")),
    ]
    game = _deal(hands, "KH", script)
    decision = _reviewed(game, 0, _play("KS"), _play("AC"))
    text = reason(decision)
    assert text is not None
    assert text.startswith(
        f"the player on your left had shown out of spades: leading the {_c('KS')} let them trump it"
    ), text


def test_a_discard_that_keeps_a_suit_instead_of_voiding_it() -> None:
    hands = ["AS KS AH KH QC", "9S QS 9C 10C JC", "JH JD 10H 9D QD", "10S JS AC KD AD"]
    game = _deal(hands, "9H", [(0, Action.order_up()), (3, Action.discard("KD"))])
    decision = _reviewed(game, 3, Action.discard("KD"), Action.discard("AC"))
    assert reason(decision) == (
        f"discarding the {_c('AC')} leaves you void in clubs, ready to trump them"
    )
    game = _deal(hands, "9H", [(0, Action.order_up()), (3, Action.discard("AD"))])
    decision = _reviewed(game, 3, Action.discard("AD"), Action.discard("KD"))
    assert reason(decision) == (
        f"the {_c('AD')} is a side ace, a likely trick: discard the {_c('KD')}"
    )


def test_ordering_up_with_no_trump_at_all() -> None:
    hands = ["AC 9S QS 9C 10C", "JH AH KS QC KC", "10S JS 9D 10D QD", "JD AS 10H KD AD"]
    game = _deal(hands, "9H", [(0, Action.order_up())])
    decision = _reviewed(game, 0, Action.order_up(), Action.pass_())
    text = reason(decision)
    assert text is not None
    assert text.startswith("you held no hearts and a side ace: not enough to make hearts trump")


def test_ordering_up_on_too_little_against_the_other_sides_bowers() -> None:
    hands = ["10H 9S QS 9C 10C", "JH AH KS QC KC", "10S JS 9D 10D QD", "JD AS AC KD AD"]
    game = _deal(hands, "9H", [(0, Action.order_up())])
    decision = _reviewed(game, 0, Action.order_up(), Action.pass_())
    text = reason(decision)
    assert text is not None
    assert text.startswith("in hearts you held only one trump: not enough to make trump"), text
    assert f"the other side held the right bower ({_c('JH')})" in text, text


def test_going_alone_and_not() -> None:
    hands = ["JH JD AH KH QH", "9C QC KC AC 9S", "10H AD 10S QS KS", "QD KD JS 9D 10D"]
    game = _deal(hands, "9H", [(0, Action.order_up())])
    decision = _reviewed(game, 0, Action.order_up(), Action.order_up(alone=True))
    assert reason(decision) == (
        "you held the right and left bowers and three more trumps: enough to take every "
        "trick alone, and a march alone scores 4 points, not 2"
    )
    weak = ["JH AH KH 9C 9S", "QC KC AC QS KS", "10H AD 10S JD QH", "QD KD JS 9D 10D"]
    game = _deal(weak, "9H", [(0, Action.order_up(alone=True))])
    decision = _reviewed(game, 0, Action.order_up(alone=True), Action.order_up())
    text = reason(decision)
    assert text is not None
    assert text.startswith("with the right bower and two more trumps you needed every trick"), text
    assert "the other side took" in text and text.endswith("your partner's cards would have helped")


def test_no_reason_where_no_pattern_fits_and_the_hints_why_instead() -> None:
    # Two throw-offs under the partner's winning ace: nothing in the cards to point at.
    script = [*ORDERED, (0, _play("AS")), (1, _play("9S")), (2, _play("9D"))]
    game = _deal(HANDS, "9H", script)
    decision = _reviewed(game, 2, _play("9D"), _play("QD"))
    assert reason(decision) is None
    agreed = ReviewedDecision(decision.index, decision.view, decision.done, Advice(decision.done))
    assert reason(agreed) is None
    text = review_text(
        review_deal(game_record(game), 2, 1, advisor=_judge(_play("9D"), _play("QD")))
    )
    assert f"Play {_c('QD')}: your partner has the trick" in text, text


def test_a_long_review_keeps_whole_lines_within_discords_limit() -> None:
    lines = ["head", *(f"line {n} " + "x" * 300 for n in range(10))]
    text = fitted(lines)
    assert len(text) <= 2000
    assert text.endswith("… and 4 more flagged decisions.")
    assert all(line in lines for line in text.splitlines()[:-1])
    assert fitted(["a", "b"]) == "a\nb"
