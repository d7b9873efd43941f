"""An event's life: sign-up, check-in, the start, rounds, the director's buttons, the end.

Every refused request raises a UserFacingError subclass and leaves the event unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.errors import UserFacingError
from bot.tournaments import (
    Actor,
    EventStateError,
    NotDirectorError,
    ResultError,
    SignUpError,
    TooFewPlayersError,
    Tournament,
)
from bot.tournaments.model import EventSettings

NOW = datetime(2026, 5, 1, 19, 0, tzinfo=UTC)
DIRECTOR = Actor(900, is_director=True)
USERS = list(range(101, 141))


def later(minutes: int) -> datetime:
    return NOW + timedelta(minutes=minutes)


def event(**settings: Any) -> Tournament:
    return Tournament.create(
        guild_id=1,
        channel_id=2,
        director_id=DIRECTOR.user_id,
        name="Friday euchre",
        now=NOW,
        settings=EventSettings(**settings),
        seed=11,
    )


def progressive(people: int, **settings: Any) -> Tournament:
    t = event(**settings)
    for user in USERS[:people]:
        t.join(user, f"P{user}", NOW)
    return t


def refused(
    t: Tournament, error: type[UserFacingError], match: str, act: Callable[[], Any]
) -> None:
    """``act`` is refused with ``error`` and a sentence matching ``match``; nothing changed."""
    before = t.state
    with pytest.raises(error, match=match) as caught:
        act()
    assert caught.value.message.endswith(".")
    assert t.state == before


def play_round(t: Tournament, deals: list[tuple[int, int]]) -> None:
    rnd = t.current_round
    assert rnd is not None and t.phase == "playing"
    for table in rnd.tables:
        t.report(rnd.number, table.number, deals, later(rnd.number * 30), finished=True)


# --------------------------------------------------------------------------- sign-up


def test_joining_twice_or_a_started_pairs_event_is_refused() -> None:
    t = progressive(4, check_in_minutes=0)
    refused(t, SignUpError, "already signed up", lambda: t.join(USERS[0], "again", NOW))
    t.start(DIRECTOR, NOW)
    refused(t, SignUpError, "already in this event", lambda: t.join(USERS[0], "again", NOW))
    p = pairs_event(2)
    p.start(DIRECTOR, NOW)
    refused(p, SignUpError, "already started", lambda: p.join(999, "late", NOW, partner_id=998))


def test_leaving_before_the_start_removes_the_entry() -> None:
    t = progressive(3)
    t.leave(USERS[1], later(1))
    assert [e.user_id for e in t.state.entrants] == [USERS[0], USERS[2]]
    refused(t, SignUpError, "not signed up", lambda: t.leave(USERS[1], NOW))
    assert t.state.updated_at == later(1)


def test_progressive_events_take_no_partner_and_pairs_need_one() -> None:
    t = event()
    refused(t, SignUpError, "individuals", lambda: t.join(1, "A", NOW, partner_id=2))
    p = event(format="pairs")
    refused(p, SignUpError, "Name your partner", lambda: p.join(1, "A", NOW))
    refused(p, SignUpError, "own partner", lambda: p.join(1, "A", NOW, partner_id=1))


def test_a_pair_forms_when_the_named_partner_confirms() -> None:
    t = event(format="pairs")
    t.join(1, "Ann", NOW, partner_id=2, partner_name="Bob")
    refused(
        t,
        SignUpError,
        "Bob is already signed up",
        lambda: t.join(3, "C", NOW, partner_id=2, partner_name="Bob"),
    )
    refused(t, SignUpError, "already signed up", lambda: t.join(2, "Bob", NOW, partner_id=3))
    refused(t, SignUpError, "Waiting for Bob", lambda: t.confirm_partner(1, NOW))
    refused(t, SignUpError, "Nobody has named you", lambda: t.confirm_partner(3, NOW))
    assert t.confirm_partner(2, NOW).user_id == 1
    refused(t, SignUpError, "already confirmed", lambda: t.confirm_partner(2, NOW))
    t.leave(2, NOW)
    assert t.state.entrants == []


def test_a_partner_who_never_confirms_is_dropped_when_check_in_opens() -> None:
    t = event(format="pairs")
    t.join(1, "Ann", NOW, partner_id=2, partner_name="Bob")
    t.join(3, "Cid", NOW, partner_id=4, partner_name="Dee")
    t.confirm_partner(4, NOW)
    dropped = t.open_check_in(None, later(1))
    assert [e.user_id for e in dropped] == [1, 2]
    assert [e.user_id for e in t.state.entrants] == [3, 4]
    refused(t, SignUpError, "Nobody has named you", lambda: t.confirm_partner(2, NOW))
    refused(t, SignUpError, "new pairs", lambda: t.join(5, "E", NOW, partner_id=6))


# --------------------------------------------------------------------------- check-in


def test_check_in_drops_who_did_not_check_in_at_the_start() -> None:
    t = progressive(6)
    refused(t, SignUpError, "not open", lambda: t.check_in(USERS[0], NOW))
    refused(t, NotDirectorError, "directors", lambda: t.open_check_in(Actor(USERS[0]), NOW))
    t.open_check_in(None, later(1))
    for user in USERS[:5]:
        t.check_in(user, later(2))
    refused(t, SignUpError, "already checked in", lambda: t.check_in(USERS[0], NOW))
    refused(t, SignUpError, "not signed up", lambda: t.check_in(5, NOW))
    late = t.join(777, "Late", later(3))
    assert late.checked_in
    refused(t, EventStateError, "only open during sign-up", lambda: t.open_check_in(None, NOW))
    dropped = t.start(DIRECTOR, later(15))
    assert [e.user_id for e in dropped] == [USERS[5]]
    people = [e for e in t.state.entrants if not e.is_computer]
    assert len(people) == 6 and len(t.state.entrants) == 8


def test_an_event_without_check_in_has_no_window() -> None:
    t = progressive(4, check_in_minutes=0)
    refused(t, EventStateError, "no check-in", lambda: t.open_check_in(None, NOW))


# --------------------------------------------------------------------------- the start


def test_only_directors_start_and_the_creator_directs() -> None:
    t = progressive(4, check_in_minutes=0)
    refused(
        t, NotDirectorError, "Only the event's directors", lambda: t.start(Actor(USERS[0]), NOW)
    )
    t.start(Actor(DIRECTOR.user_id), NOW)  # the creator, without the server's director role
    assert t.phase == "playing"
    refused(t, EventStateError, "already started", lambda: t.start(DIRECTOR, NOW))


def test_fewer_than_four_people_offers_computers_or_cancel() -> None:
    t = progressive(2)
    refused(t, TooFewPlayersError, "seat computers .* or cancel", lambda: t.start(DIRECTOR, NOW))
    t.start(DIRECTOR, NOW, fill_with_computers=True)
    assert sum(e.is_computer for e in t.state.entrants) == 2
    empty = event()
    refused(
        empty,
        TooFewPlayersError,
        "Nobody",
        lambda: empty.start(DIRECTOR, NOW, fill_with_computers=True),
    )


@pytest.mark.parametrize(("people", "seats"), [(4, 4), (5, 8), (8, 8), (13, 16)])
def test_computers_fill_to_a_multiple_of_four(people: int, seats: int) -> None:
    t = progressive(people, check_in_minutes=0)
    t.start(DIRECTOR, NOW)
    state = t.state
    assert len(state.entrants) == seats
    assert sorted(e.slot for e in state.entrants) == list(range(seats))
    rnd = t.current_round
    assert rnd is not None and len(rnd.tables) == seats // 4
    assert sorted(s for table in rnd.tables for s in table.seats) == list(range(seats))
    assert state.schedule is not None and len(state.schedule) == state.settings.rounds


def test_the_seating_is_fixed_by_the_seed() -> None:
    a, b = progressive(8, check_in_minutes=0), progressive(8, check_in_minutes=0)
    a.start(DIRECTOR, NOW)
    b.start(DIRECTOR, NOW)
    assert a.state == b.state


# --------------------------------------------------------------------------- rounds


def test_a_whole_eight_player_event_plays_to_its_champion() -> None:
    t = progressive(8, rounds=3, deals_per_round=2, check_in_minutes=0)
    t.start(DIRECTOR, NOW)
    assert t.total_rounds == 3 and t.champions() == []
    for number in (1, 2, 3):
        rnd = t.current_round
        assert rnd is not None and rnd.number == number
        for table in rnd.tables:
            deals = [(2, 0), (0, 1)] if table.number == 1 else [(1, 0), (1, 0)]
            ended = t.report(number, table.number, deals, later(number), finished=True)
        assert ended
        if number < 3:
            assert t.phase == "between_rounds"
            t.next_round(None, later(number * 10))
    assert t.phase == "finished"
    lines = t.standings()
    assert len(lines) == 8
    assert sum(line.deals_played for line in lines) == 8 * 3 * 2
    champions = t.champions()
    assert champions and all(c.place == 1 for c in champions)
    assert champions[0].points == max(line.points for line in lines)


def test_bad_results_are_refused() -> None:
    t = progressive(8, deals_per_round=2, check_in_minutes=0)
    refused(t, ResultError, "No round", lambda: t.report(1, 1, [], NOW, finished=False))
    t.start(DIRECTOR, NOW)
    refused(t, ResultError, "Round 2 is not", lambda: t.report(2, 1, [], NOW, finished=False))
    refused(t, ResultError, "no table 3", lambda: t.report(1, 3, [], NOW, finished=False))
    refused(t, ResultError, "at most 2", lambda: t.report(1, 1, [(1, 0)] * 3, NOW, finished=True))
    refused(t, ResultError, "all 2 deals", lambda: t.report(1, 1, [(1, 0)], NOW, finished=True))
    refused(t, ResultError, "at most one", lambda: t.report(1, 1, [(1, 1)], NOW, finished=False))
    refused(t, ResultError, "at most one", lambda: t.report(1, 1, [(-1, 0)], NOW, finished=False))
    t.report(1, 1, [(0, 0)], NOW, finished=False)  # a deal thrown in scores nothing
    assert not t.report(1, 1, [(1, 0), (0, 4)], NOW, finished=True)
    refused(
        t, ResultError, "already in", lambda: t.report(1, 1, [(1, 0), (0, 4)], NOW, finished=True)
    )


def test_at_the_round_timer_unfinished_deals_do_not_count() -> None:
    t = progressive(8, deals_per_round=4, check_in_minutes=0)
    t.start(DIRECTOR, NOW)
    t.report(1, 1, [(1, 0), (2, 0), (0, 1), (1, 0)], later(20), finished=True)
    t.report(1, 2, [(0, 2)], later(25), finished=False)  # one deal done, the next in play
    t.set_table_id(1, 2, 4242, later(1))
    refused(t, NotDirectorError, "directors", lambda: t.end_round(Actor(USERS[0]), NOW))
    t.end_round(None, later(45))
    rnd = t.state.rounds[0]
    assert rnd.ended_by_timer and rnd.ended_at == later(45)
    assert rnd.tables[1].table_id == 4242
    assert rnd.tables[1].result is not None and rnd.tables[1].result.deals == [(0, 2)]
    assert t.phase == "between_rounds"
    by_table2 = {s for s in rnd.tables[1].seats}
    played = {line.entrants[0]: line.deals_played for line in t.standings()}
    assert all(played[n] == (1 if n in by_table2 else 4) for n in played)
    refused(t, EventStateError, "No round", lambda: t.end_round(None, NOW))


def test_pause_holds_the_next_round_until_resumed() -> None:
    t = progressive(4, deals_per_round=1, check_in_minutes=0)
    refused(t, EventStateError, "in play", lambda: t.pause(DIRECTOR, NOW))
    t.start(DIRECTOR, NOW)
    refused(t, NotDirectorError, "pause", lambda: t.pause(Actor(USERS[0]), NOW))
    t.pause(DIRECTOR, NOW)
    refused(t, EventStateError, "already paused", lambda: t.pause(DIRECTOR, NOW))
    play_round(t, [(1, 0)])
    refused(t, EventStateError, "paused", lambda: t.next_round(DIRECTOR, NOW))
    t.resume(DIRECTOR, NOW)
    refused(t, EventStateError, "not paused", lambda: t.resume(DIRECTOR, NOW))
    assert t.next_round(DIRECTOR, NOW).number == 2
    refused(t, EventStateError, "between rounds", lambda: t.next_round(DIRECTOR, NOW))


def test_someone_replaced_mid_event_keeps_the_score_of_their_earlier_rounds() -> None:
    t = progressive(4, rounds=3, deals_per_round=1, check_in_minutes=0)
    t.start(DIRECTOR, NOW)
    play_round(t, [(1, 0)])
    t.next_round(None, NOW)
    leaver = USERS[0]
    refused(t, SignUpError, "not playing", lambda: t.skip(DIRECTOR, 5555, NOW))
    gone = t.leave(leaver, NOW)
    assert gone[0].replaced_in_round == 2
    refused(t, SignUpError, "already been replaced", lambda: t.skip(DIRECTOR, leaver, NOW))
    play_round(t, [(4, 0)])
    t.next_round(None, NOW)
    play_round(t, [(4, 0)])
    line = next(s for s in t.standings() if s.names == (f"P{leaver}",))
    assert line.replaced and line.deals_played == 1


def test_a_no_show_is_skipped_by_the_director_between_rounds() -> None:
    t = progressive(4, rounds=2, deals_per_round=1, check_in_minutes=0)
    t.start(DIRECTOR, NOW)
    play_round(t, [(1, 0)])
    refused(t, NotDirectorError, "skip", lambda: t.skip(Actor(USERS[1]), USERS[2], NOW))
    assert t.skip(DIRECTOR, USERS[2], NOW).replaced_in_round == 2


def test_cancel_ends_the_event_and_nothing_more_happens() -> None:
    t = progressive(8, check_in_minutes=0)
    t.start(DIRECTOR, NOW)
    refused(t, NotDirectorError, "cancel", lambda: t.cancel(Actor(USERS[0]), NOW))
    t.cancel(DIRECTOR, later(5))
    assert t.phase == "cancelled" and t.champions() == []
    refused(t, EventStateError, "was cancelled", lambda: t.cancel(DIRECTOR, NOW))
    refused(t, EventStateError, "was cancelled", lambda: t.leave(USERS[0], NOW))
    refused(t, ResultError, "No round", lambda: t.report(1, 1, [], NOW, finished=False))
    refused(t, SignUpError, "already started", lambda: t.join(5, "x", NOW))


# --------------------------------------------------------------------------- pairs


def pairs_event(pairs: int, **settings: Any) -> Tournament:
    t = event(format="pairs", check_in_minutes=0, **settings)
    for i in range(pairs):
        a, b = USERS[2 * i], USERS[2 * i + 1]
        t.join(a, f"P{a}", NOW, partner_id=b, partner_name=f"P{b}")
        t.confirm_partner(b, NOW)
    return t


def test_pairs_play_a_round_robin_when_it_fits() -> None:
    t = pairs_event(4, rounds=5)
    t.start(DIRECTOR, NOW)
    assert t.total_rounds == 3
    slot = {e.number: e.slot for e in t.state.entrants}
    met = set()
    while t.phase != "finished":
        rnd = t.current_round
        assert rnd is not None and len(rnd.tables) == 2
        for table in rnd.tables:
            assert slot[table.seats[0]] == slot[table.seats[2]]
            met.add(frozenset((slot[table.seats[0]], slot[table.seats[1]])))
            t.report(rnd.number, table.number, [(4, 0), (2, 0), (0, 1), (4, 0)], NOW, finished=True)
        if t.phase == "between_rounds":
            t.next_round(None, NOW)
    assert len(met) == 6
    lines = t.standings()
    assert sum(line.wins for line in lines) == 6 and {line.games for line in lines} == {3}
    assert lines[0].wins >= lines[1].wins and lines[0].place == 1
    assert all(len(line.entrants) == 2 for line in lines)


def test_an_odd_number_of_pairs_gives_a_bye_or_a_computer_pair() -> None:
    bye = pairs_event(3, rounds=3)
    bye.start(DIRECTOR, NOW)
    rnd = bye.current_round
    assert rnd is not None and rnd.bye is not None and len(rnd.tables) == 1
    computers = pairs_event(3, rounds=3, odd_pairs="computers")
    computers.start(DIRECTOR, NOW)
    rnd = computers.current_round
    assert rnd is not None and rnd.bye is None and len(rnd.tables) == 2
    assert sum(e.is_computer for e in computers.state.entrants) == 2
    assert len(computers.standings()) == 3  # the computer pair is not placed


def test_pairs_go_swiss_when_a_round_robin_does_not_fit() -> None:
    t = pairs_event(6, rounds=3)
    t.start(DIRECTOR, NOW)
    assert t.total_rounds == 3
    slot = {e.number: e.slot for e in t.state.entrants}
    games: list[frozenset[int]] = []
    while t.phase != "finished":
        rnd = t.current_round
        assert rnd is not None
        for table in rnd.tables:
            games.append(frozenset((slot[table.seats[0]], slot[table.seats[1]])))
            t.report(rnd.number, table.number, [(0, 2)] * 5, NOW, finished=True)
        if t.phase == "between_rounds":
            t.next_round(None, NOW)
    assert len(games) == 9 and len(set(games)) == 9  # no rematch
    lines = t.standings()
    assert lines[0].wins >= lines[-1].wins


def test_a_pairs_game_stopped_by_the_timer_goes_to_the_side_ahead() -> None:
    t = pairs_event(2, rounds=1)
    t.start(DIRECTOR, NOW)
    t.report(1, 1, [(2, 0), (0, 1)], NOW, finished=False)
    assert {line.games for line in t.standings()} == {0}  # no winner while it is played
    t.end_round(DIRECTOR, later(45))
    assert t.phase == "finished"
    lines = t.standings()
    assert [(line.wins, line.points, line.against) for line in lines] == [(1, 2, 1), (0, 1, 2)]
    assert t.champions() == [lines[0]]
