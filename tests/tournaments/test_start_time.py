"""An event's start: minutes from now, or the next time a UTC clock shows HH:MM."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.tournaments import StartTimeError, event_start

NOW = datetime(2026, 5, 1, 18, 40, 12, tzinfo=UTC)


def test_no_start_means_the_directors_button() -> None:
    assert event_start(NOW) is None


def test_minutes_from_now() -> None:
    assert event_start(NOW, minutes=30) == NOW + timedelta(minutes=30)


def test_a_clock_time_still_ahead_is_today() -> None:
    assert event_start(NOW, clock="19:30") == datetime(2026, 5, 1, 19, 30, tzinfo=UTC)
    assert event_start(NOW, clock=" 23:05 ") == datetime(2026, 5, 1, 23, 5, tzinfo=UTC)


def test_a_clock_time_gone_by_is_tomorrow() -> None:
    assert event_start(NOW, clock="18:40") == datetime(2026, 5, 2, 18, 40, tzinfo=UTC)
    assert event_start(NOW, clock="7:00") == datetime(2026, 5, 2, 7, 0, tzinfo=UTC)
    assert event_start(NOW, clock="00:00") == datetime(2026, 5, 2, 0, 0, tzinfo=UTC)


@pytest.mark.parametrize("text", ["7pm", "24:00", "19:60", "19.30", "1930", "", "19:3"])
def test_what_is_not_a_time_is_refused_in_one_sentence(text: str) -> None:
    with pytest.raises(StartTimeError, match=r"is not a time: give it as HH:MM, 24-hour, in UTC"):
        event_start(NOW, clock=text)


def test_minutes_and_a_clock_time_together_are_refused() -> None:
    with pytest.raises(StartTimeError, match="either in minutes or as a time, not both"):
        event_start(NOW, minutes=10, clock="19:30")
