"""The first lesson's deal: where it fits, what it shows, the same every time."""

from __future__ import annotations

import pytest

from bot.lesson.deal import differences, lesson_fits, lesson_rules, play_lesson
from bot.rules import PRESETS, Action, HouseRules, SeatView


def first_legal(view: SeatView) -> tuple[Action, str]:
    return view.legal[-1], "the last legal move"


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_preset_either_plays_the_lesson_or_says_what_differs(preset: str) -> None:
    rules = HouseRules.from_spec({"preset": preset})
    fits = lesson_fits(rules)
    assert fits == (preset in ("north_american", "toronto"))
    if not fits:
        assert differences(rules)
        assert lesson_rules(rules) == HouseRules()
    played = lesson_rules(rules)
    step = 0
    phases = []
    while (now := play_lesson(played, step, first_legal)).view is not None:
        assert now.view.seat == 0 and now.choice in now.view.legal
        phases.append(now.view.phase)
        step += 1
    assert phases[0] == "bid1" and "play" in phases
    with pytest.raises(ValueError):
        play_lesson(played, step + 1, first_legal)


def test_the_learner_holds_both_bowers_under_a_turned_heart() -> None:
    view = play_lesson(HouseRules(), 0, first_legal).view
    assert view is not None
    assert sorted(str(Action.play(c)) for c in view.hand) == sorted(
        ["play.JH", "play.JD", "play.AH", "play.KH", "play.AS"]
    )
    assert str(Action.play(view.upcard)) == "play.9H"
