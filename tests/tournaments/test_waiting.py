"""An event's places and its waiting list: who gets in, who waits, who moves up, in order.

``max_players`` caps the people in; whoever joins beyond it (or while others wait)
waits in line, a pair as one. A place freed before the start goes to the first in
line who fits; at the start the places of those who did not check in go to those
waiting who did, and the rest of the line is dropped.
"""

from __future__ import annotations

import pytest

from bot.tournaments import SignUpError, Tournament
from bot.tournaments.model import EventSettings
from bot.tournaments.waiting import groups
from tests.tournaments.test_event import DIRECTOR, NOW, USERS, event, later, refused


def users(entries: list[object]) -> list[int | None]:
    return [getattr(e, "user_id", None) for e in entries]


def test_joins_beyond_max_players_wait_in_line() -> None:
    t = event(max_players=4)
    for user in USERS[:7]:
        t.join(user, f"P{user}", NOW)
    state = t.state
    assert users(state.entrants) == USERS[:4]
    assert users(state.waiting) == USERS[4:7]
    assert [t.waiting_place(u) for u in USERS[3:8]] == [None, 1, 2, 3, None]
    numbers = [e.number for e in [*state.entrants, *state.waiting]]
    assert numbers == list(range(7)), "one count of numbers for both lists"
    refused(
        t, SignUpError, "already on this event's waiting list", lambda: t.join(USERS[5], "x", NOW)
    )


def test_a_place_freed_before_the_start_goes_to_the_first_in_line() -> None:
    t = event(max_players=4)
    for user in USERS[:6]:
        t.join(user, f"P{user}", NOW)
    t.leave(USERS[1], NOW)
    assert users(t.state.entrants) == [USERS[0], USERS[2], USERS[3], USERS[4]]
    assert users(t.state.waiting) == [USERS[5]]
    t.leave(USERS[5], NOW)  # leaving the waiting list frees nothing
    assert users(t.state.waiting) == [] and len(t.state.entrants) == 4


def test_nobody_jumps_the_line_even_when_a_place_is_open() -> None:
    t = event(max_players=5, format="pairs")
    t.join(USERS[0], "A", NOW, partner_id=USERS[1], partner_name="B")
    t.join(USERS[2], "C", NOW, partner_id=USERS[3], partner_name="D")
    t.join(USERS[4], "E", NOW, partner_id=USERS[5], partner_name="F")  # one place: waits
    assert users(t.state.waiting) == [USERS[4], USERS[5]]
    assert [len(g) for g in groups(t.state.waiting)] == [2]
    t.leave(USERS[0], NOW)  # two places free: the waiting pair moves up together
    assert users(t.state.entrants) == [USERS[2], USERS[3], USERS[4], USERS[5]]
    assert t.state.waiting == []


def three_pairs_for_two_places() -> Tournament:
    """A timed pairs event of four places: A & B and C & D in, E & F waiting."""
    t = event(max_players=4, format="pairs", check_in_minutes=15, start_time=later(60))
    for first in (0, 2, 4):
        name, partner = "ABCDEF"[first], "ABCDEF"[first + 1]
        t.join(USERS[first], name, NOW, partner_id=USERS[first + 1], partner_name=partner)
    return t


def test_a_waiting_pair_confirms_and_checks_in_while_it_waits() -> None:
    t = three_pairs_for_two_places()
    for partner in (USERS[1], USERS[3], USERS[5]):
        t.confirm_partner(partner, NOW)
    t.open_check_in(None, later(45))
    for user in [*USERS[:2], *USERS[4:6]]:  # C and D never check in
        t.check_in(user, later(50))
    gone = t.start(DIRECTOR, later(60))
    in_play = {e.user_id for e in t.state.entrants if not e.is_computer}
    assert in_play == {USERS[0], USERS[1], USERS[4], USERS[5]}, "the checked-in pair moved up"
    assert {e.user_id for e in gone} == {USERS[2], USERS[3]}
    assert t.state.waiting == []


def test_an_unconfirmed_waiting_pair_is_dropped_at_check_in() -> None:
    t = three_pairs_for_two_places()
    t.confirm_partner(USERS[1], NOW)
    t.confirm_partner(USERS[5], NOW)  # C named D, who never confirms
    gone = t.open_check_in(None, later(45))
    assert {e.user_id for e in gone} == {USERS[2], USERS[3]}
    assert users(t.state.entrants) == [USERS[0], USERS[1], USERS[4], USERS[5]]


def test_whoever_still_waits_at_the_start_is_dropped() -> None:
    t = event(max_players=4)
    for user in USERS[:6]:
        t.join(user, f"P{user}", NOW)
    gone = t.start(DIRECTOR, NOW)
    assert {e.user_id for e in gone} == set(USERS[4:6])
    assert t.state.waiting == [] and len(t.state.entrants) == 4
    numbers = [e.number for e in t.state.entrants]
    assert len(set(numbers)) == len(numbers)


@pytest.mark.parametrize("wrong", [3, 129])
def test_max_players_is_four_to_128(wrong: int) -> None:
    with pytest.raises(ValueError, match="max_players"):
        EventSettings(max_players=wrong)
    assert EventSettings().max_players == 64
