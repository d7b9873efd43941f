"""Late sign-up to a running progressive event, the announcements an event makes, its CSV."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

from bot.render.tournaments import standing_line
from bot.tournaments import (
    REMINDER_BEFORE,
    SignUpError,
    Tournament,
    due_announcements,
    export_csv,
)
from bot.tournaments.late import occupants
from tests.tournaments.test_event import (
    DIRECTOR,
    NOW,
    USERS,
    event,
    later,
    play_round,
    progressive,
    refused,
)

LATE = 777


def started(people: int, **settings: object) -> Tournament:
    options: dict[str, object] = {"check_in_minutes": 0, "rounds": 3, "deals_per_round": 2}
    t = progressive(people, **{**options, **settings})
    t.start(DIRECTOR, NOW, fill_with_computers=people < 4)
    return t


def test_a_late_comer_takes_a_computers_seat_from_the_next_round() -> None:
    t = started(6)  # two computers fill the second table
    entry = t.join(LATE, "Late", later(5))
    assert entry.joined_in_round == 2 and entry.slot is not None
    computer = occupants(t.state, 1)[entry.slot]
    assert computer.is_computer, "the seat was a computer's"
    play_round(t, [(1, 0), (0, 2)])
    t.next_round(DIRECTOR, later(40))
    seated = [n for table in t.state.rounds[1].tables for n in table.seats]
    assert entry.number in seated and computer.number not in seated
    play_round(t, [(1, 0), (0, 2)])
    (line,) = [s for s in t.standings() if s.entrants == (entry.number,)]
    assert line.joined == 2 and line.deals_played == 2
    assert "(joined in round 2, missed round 1)" in standing_line(line, pairs=False)


def test_with_every_seat_taken_a_late_comer_sits_out_until_one_is_free() -> None:
    t = started(8)
    entry = t.join(LATE, "Late", later(5))
    assert entry.slot is None and entry.joined_in_round is None
    assert all(s.entrants != (entry.number,) for s in t.standings()), "not placed yet"
    t.leave(USERS[0], later(6))  # a computer plays on for them: a computer's seat
    play_round(t, [(1, 0), (0, 2)])
    t.next_round(DIRECTOR, later(40))
    mine = next(e for e in t.state.entrants if e.user_id == LATE)
    assert mine.joined_in_round == 2
    left = next(e for e in t.state.entrants if e.user_id == USERS[0])
    assert mine.slot == left.slot


def test_late_sign_up_is_refused_when_no_round_is_left_and_changes_nothing() -> None:
    t = started(4, rounds=1)
    refused(t, SignUpError, "no round left", lambda: t.join(LATE, "Late", later(5)))


def test_a_late_comer_who_leaves_before_their_round_gives_the_seat_back() -> None:
    t = started(6)
    t.join(LATE, "Late", later(5))
    t.leave(LATE, later(6))
    assert t.entrant(LATE) is None
    assert all(e.joined_in_round is None for e in t.state.entrants)


def test_the_announcements_an_event_calls_for() -> None:
    start = NOW + timedelta(hours=1)
    t = event(format="pairs", start_time=start, check_in_minutes=15)
    t.join(USERS[0], "Ann", NOW, partner_id=USERS[1], partner_name="Bob")
    keys = {a.key: a for a in due_announcements(t.state, NOW)}
    (partner,) = keys.values()
    assert partner.kind == "partner" and partner.users == (USERS[1],)
    assert partner.named_by == USERS[0]
    t.confirm_partner(USERS[1], NOW)
    assert not due_announcements(t.state, NOW), "confirmed: nothing to say"

    t.open_check_in(None, start - timedelta(minutes=15))
    (check_in,) = due_announcements(t.state, start - timedelta(minutes=15))
    assert check_in.key == "checkin" and set(check_in.users) == {USERS[0], USERS[1]}
    t.check_in(USERS[0], start - timedelta(minutes=14))
    at_reminder = start - REMINDER_BEFORE
    found = {a.kind: a for a in due_announcements(t.state, at_reminder)}
    assert found["checkin"].users == (USERS[1],)
    assert found["reminder"].key == f"reminder:{start.isoformat()}"
    assert set(found["reminder"].users) == {USERS[0], USERS[1]}


def test_a_rounds_end_names_the_next_rounds_time() -> None:
    t = started(8, break_minutes=5)
    play_round(t, [(1, 0), (0, 2)])
    (said,) = due_announcements(t.state, later(40))
    ended = t.state.rounds[0].ended_at
    assert said.key == "round:1" and ended is not None
    assert said.next_at == ended + timedelta(minutes=5)
    assert set(said.users) == set(USERS[:8])


def test_the_standings_as_csv() -> None:
    t = started(8)
    play_round(t, [(1, 0), (0, 2)])
    rows = list(csv.reader(io.StringIO(export_csv(t.state))))
    assert rows[0][:4] == ["place", "names", "user_ids", "points"]
    assert len(rows) == 9
    assert {int(r[2]) for r in rows[1:]} == set(USERS[:8])


def test_a_name_a_spreadsheet_would_run_is_kept_as_text() -> None:
    t = progressive(3, check_in_minutes=0)
    t.join(LATE, "=HYPERLINK(1)", NOW)
    t.start(DIRECTOR, NOW)
    rows = list(csv.reader(io.StringIO(export_csv(t.state))))
    assert "'=HYPERLINK(1)" in [r[1] for r in rows]
