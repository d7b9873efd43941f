"""The first lesson: one guided deal on a stacked deck, the same for everyone.

The learner sits left of the dealer with both bowers, the ace and king of hearts and
the ace of spades; hearts are turned up. The left opponent holds every other spade, so
when they lead, the learner must follow suit. Each of the learner's decisions is the
hint's (the expert at a fixed number of samples, so the same in every process); the
computers around play the basic level from fixed seeds. A step number says how far
the learner is, so the lesson needs no store and survives a restart.

The deal fits rules of four-handed euchre whose pack holds its cards and has no joker;
for other rules :func:`differences` names what differs from the rules it is played by.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from bot.players.advice import Advice
from bot.players.expert import ExpertPlayer
from bot.players.protocol import Player, make_player
from bot.rules import Action, HouseRules, SeatView, new_game, seat_view
from bot.rules.cards import ACE, JACK, KING, NINE, QUEEN, TEN, Suit, card
from bot.rules.dealing import Deal
from bot.rules.game import Game
from bot.rules.house_rules import deck_cards

__all__ = [
    "LEARNER",
    "HintOf",
    "LessonStep",
    "advised_lesson",
    "differences",
    "lesson_advice",
    "lesson_fits",
    "lesson_rules",
    "play_lesson",
]

LEARNER: Final = 0
"""The learner's seat; the dealer sits on their right (seat 3)."""

H, D, S, C = Suit.HEARTS, Suit.DIAMONDS, Suit.SPADES, Suit.CLUBS

_HANDS: Final = (
    (card(JACK, H), card(JACK, D), card(ACE, H), card(KING, H), card(ACE, S)),
    (card(NINE, S), card(TEN, S), card(JACK, S), card(QUEEN, S), card(KING, S)),
    (card(ACE, C), card(KING, C), card(QUEEN, C), card(ACE, D), card(KING, D)),
    (card(TEN, H), card(QUEEN, H), card(JACK, C), card(TEN, C), card(NINE, C)),
)
_UPCARD: Final = card(NINE, H)
_REST: Final = (card(QUEEN, D), card(TEN, D), card(NINE, D))
_SEED: Final = 1

HintOf = Callable[[SeatView], tuple[Action, str]]

HINT_SEED: Final = 7
"""The seed of the lesson's hint: the same expert, and the same hint, every time."""
"""The hint at a view: its move and its line."""


def _deal(rules: HouseRules) -> Deal:
    """The stacked deal, the rest of the pack face down."""
    dealt = {c for hand in _HANDS for c in hand} | {_UPCARD}
    kitty = tuple(c for c in deck_cards(rules) if c not in dealt)
    return Deal(_HANDS, _UPCARD, kitty)


def lesson_fits(rules: HouseRules) -> bool:
    """Whether the lesson's deal can be played under ``rules``."""
    if rules.game != "euchre" or rules.players != 4 or rules.joker != "none":
        return False
    pack = deck_cards(rules)
    needed = [c for hand in _HANDS for c in hand] + [_UPCARD, *_REST]
    if any(pack.count(c) != 1 for c in needed):
        return False
    try:
        new_game(rules, seed=_SEED, dealer=3, deals=[_deal(rules)])
    except (ValueError, IndexError):
        return False
    return True


def lesson_rules(rules: HouseRules) -> HouseRules:
    """The rules the lesson is played by: ``rules`` where it fits, else the standard ones."""
    return rules if lesson_fits(rules) else HouseRules()


def differences(rules: HouseRules) -> list[str]:
    """What ``rules`` change from the standard rules, one line a field, in words."""
    standard = HouseRules()
    lines = []
    for name, info in HouseRules.model_fields.items():
        if name == "preset":
            continue
        mine, theirs = getattr(rules, name), getattr(standard, name)
        if mine != theirs:
            lines.append(f"{info.description}: {_value(mine)} (the lesson: {_value(theirs)})")
    return lines


def _value(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value).replace("_", " ")


@dataclass(frozen=True, slots=True)
class LessonStep:
    """The lesson after ``step`` of the learner's decisions."""

    step: int
    game: Game
    view: SeatView | None
    """The learner's view at their next decision; None once the deal is over."""
    choice: Action | None
    """The lesson's (the hint's) move at that decision."""
    why: str
    """The hint's line for that move."""


def _computer(seat: int) -> Player:
    return make_player("basic", _SEED + seat)


def play_lesson(rules: HouseRules, step: int, hint: HintOf) -> LessonStep:
    """The lesson after the learner's first ``step`` decisions, each the hint's move.

    ``hint`` gives the move and its line for a view. ValueError for a step beyond the end.
    """
    game = new_game(rules, seed=_SEED, dealer=3, deals=[_deal(rules)])
    computers = {s: _computer(s) for s in range(4) if s != LEARNER}
    done = 0
    while not (game.over or (game.results and game.results[0].result != "in_play")):
        turn = game.turn
        assert turn is not None
        view = seat_view(game, turn)
        if turn != LEARNER:
            game.apply(turn, computers[turn].choose(view))
            continue
        choice, why = hint(view)
        if done == step:
            return LessonStep(step, game, view, choice, why)
        game.apply(turn, choice)
        done += 1
    if done != step:
        raise ValueError("the lesson is over")
    return LessonStep(step, game, None, None, "")


def lesson_advice(view: SeatView) -> Advice:
    """The lesson's hint at ``view``: the expert at a fixed number of samples."""
    return ExpertPlayer(seed=HINT_SEED, budget=None).advise(view)


def advised_lesson(rules: HouseRules, step: int) -> tuple[LessonStep, Advice | None]:
    """The lesson at ``step`` with :func:`lesson_advice` as its hint, and the advice there.

    A search-pool job: the hint's line is the caller's to word from the advice (its
    ``why`` is left empty); None once the deal is over.
    """
    advised: list[Advice] = []

    def hint(view: SeatView) -> tuple[Action, str]:
        advised[:] = [lesson_advice(view)]
        return advised[0].action, ""

    lesson = play_lesson(rules, step, hint)
    return lesson, (advised[0] if lesson.view is not None and advised else None)
