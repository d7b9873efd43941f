"""Seating an event at its start, and the tables of each round.

At the start the people in are shuffled into slots by the event's seed (so sign-up
order decides nothing); computers fill a progressive event up to a multiple of four,
and a pairs event up to two pairs, plus one pair when the count is odd and the event
seats a computer pair rather than giving byes.
"""

from __future__ import annotations

import random
from datetime import datetime

from bot.tournaments.late import occupants
from bot.tournaments.model import Entrant, EventRound, RoundTable, TournamentEvent
from bot.tournaments.pairings import Pairing, round_robin, round_robin_fits, swiss_round
from bot.tournaments.rotation import progressive_schedule
from bot.tournaments.standings import pair_ranking

__all__ = ["computer_name", "planned_rounds", "round_tables", "seat_everyone"]


def computer_name(index: int) -> str:
    """The display name of the ``index``-th computer an event seats (from 1)."""
    return f"Computer {index}"


def seat_everyone(event: TournamentEvent, people: list[Entrant]) -> None:
    """Give ``people`` (the event's entrants from now on) and the computers their slots."""
    rng = random.Random(event.seed)
    pairs = event.settings.format == "pairs"
    if pairs:
        groups = _pairs(people)
        wanted = max(2, len(groups))
        if wanted % 2 and event.settings.odd_pairs == "computers":
            wanted += 1
        size = 2 * wanted
    else:
        groups = [[p] for p in people]
        size = max(4, -(-len(people) // 4) * 4)
    entrants = list(people)
    number = max((e.number for e in entrants), default=-1) + 1
    for index in range(size - len(people)):
        computer = Entrant(number=number + index, display_name=computer_name(index + 1))
        entrants.append(computer)
        if pairs and index % 2:
            groups.append([entrants[-2], computer])
        elif not pairs:
            groups.append([computer])
    rng.shuffle(groups)
    for slot, group in enumerate(groups):
        for entrant in group:
            entrant.slot = slot
            entrant.checked_in = not entrant.is_computer
    event.entrants = sorted(entrants, key=lambda e: e.number)
    if not pairs:
        schedule = progressive_schedule(size, event.settings.rounds, seed=event.seed)
        event.schedule = [list(rnd) for rnd in schedule]


def _pairs(people: list[Entrant]) -> list[list[Entrant]]:
    """The partnerships among ``people``, each once, in sign-up order."""
    by_user = {p.user_id: p for p in people}
    seen: set[int] = set()
    groups = []
    for person in people:
        if person.number in seen:
            continue
        partner = by_user.get(person.partner_id)
        group = [person] if partner is None else [person, partner]
        seen.update(p.number for p in group)
        groups.append(group)
    return groups


def planned_rounds(event: TournamentEvent) -> int:
    """How many rounds the event plays: its setting, or a whole round robin when it fits."""
    if event.settings.format == "pairs":
        count = _pair_count(event)
        if round_robin_fits(count, event.settings.rounds):
            return count - 1 + count % 2
    return event.settings.rounds


def round_tables(event: TournamentEvent, number: int, now: datetime) -> EventRound:
    """Round ``number`` (from 1) as the schedule or the pairing has it."""
    if event.settings.format == "pairs":
        pairing = _pairing(event, number)
        members: dict[int, list[int]] = {}
        for entrant in event.entrants:
            if entrant.slot is not None:
                members.setdefault(entrant.slot, []).append(entrant.number)
        tables = [
            RoundTable(
                number=i + 1,
                seats=(members[a][0], members[b][0], members[a][1], members[b][1]),
            )
            for i, (a, b) in enumerate(pairing.matches)
        ]
        return EventRound(number=number, tables=tables, bye=pairing.bye, started_at=now)
    assert event.schedule is not None
    by_slot = {slot: e.number for slot, e in occupants(event, number).items()}
    tables = [
        RoundTable(number=i + 1, seats=(by_slot[a], by_slot[b], by_slot[c], by_slot[d]))
        for i, (a, b, c, d) in enumerate(event.schedule[number - 1])
    ]
    return EventRound(number=number, tables=tables, started_at=now)


def _pair_count(event: TournamentEvent) -> int:
    return len({e.slot for e in event.entrants if e.slot is not None})


def _pairing(event: TournamentEvent, number: int) -> Pairing:
    count = _pair_count(event)
    if round_robin_fits(count, event.settings.rounds):
        return round_robin(count)[number - 1]
    slot_of = {e.number: e.slot for e in event.entrants if e.slot is not None}
    met = {
        frozenset((slot_of[t.seats[0]], slot_of[t.seats[1]]))
        for rnd in event.rounds
        for t in rnd.tables
    }
    had_bye = {rnd.bye for rnd in event.rounds if rnd.bye is not None}
    return swiss_round(pair_ranking(event), met, had_bye)
