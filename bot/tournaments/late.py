"""Late sign-up to a running progressive event: a computer's seat from the next round.

Someone who joins after the start takes the slot of a computer's seat (a computer
that filled a table, or one playing on for someone who left) from the next round,
marked with the round they joined in; with no such seat free they sit out (no slot)
until a round opens one. Plain functions over the event's state, as :mod:`.waiting`:
:class:`~.event.Tournament` checks, then changes its draft with them.
"""

from __future__ import annotations

from bot.tournaments.errors import SignUpError
from bot.tournaments.model import Entrant, TournamentEvent

__all__ = [
    "add_late_comer",
    "check_late_join",
    "late_round",
    "occupants",
    "seat_late_comers",
    "unplayed",
]


def occupants(event: TournamentEvent, round_number: int) -> dict[int, Entrant]:
    """Progressive: who holds each slot in round ``round_number``.

    A late-comer holds the slot of the computer's seat they took from the round they
    joined in; before it, whoever held it before.
    """
    held: dict[int, Entrant] = {}
    for entrant in event.entrants:
        slot, joined = entrant.slot, entrant.joined_in_round or 0
        if slot is None or joined > round_number:
            continue
        current = held.get(slot)
        if current is None or joined > (current.joined_in_round or 0):
            held[slot] = entrant
    return held


def late_round(event: TournamentEvent) -> int:
    """The first round someone joining a running event now would play: the next one."""
    return len(event.rounds) + 1


def seat_late_comers(event: TournamentEvent, round_number: int) -> None:
    """Give late-comers still sitting out the computers' seats free in ``round_number``.

    A computer's seat: a computer that filled a slot, or a computer playing on for
    someone who left. Late-comers are seated in the order they joined, slots in order.
    """
    waiting = sorted(
        (e for e in event.entrants if e.user_id is not None and e.slot is None),
        key=lambda e: e.number,
    )
    if not waiting:
        return
    held = occupants(event, round_number)
    free = [
        slot
        for slot, e in sorted(held.items())
        if e.is_computer or (e.replaced_in_round or round_number + 1) <= round_number
    ]
    for entrant, slot in zip(waiting, free, strict=False):
        entrant.slot = slot
        entrant.joined_in_round = round_number


def check_late_join(event: TournamentEvent, user_id: int, total_rounds: int) -> None:
    """Refuse a late sign-up the event can't take (a SignUpError saying why)."""
    if any(e.user_id == user_id for e in event.entrants):
        raise SignUpError("You are already in this event.")
    if late_round(event) > total_rounds:
        raise SignUpError("The last round is being played: there is no round left to join.")
    if sum(1 for e in event.entrants if e.user_id is not None) >= event.settings.max_players:
        raise SignUpError("The event is full: it has no place for another player.")


def add_late_comer(draft: TournamentEvent, user_id: int, name: str) -> int:
    """Add a late-comer to ``draft``, seated for the next round if a seat is free; its number."""
    number = max(e.number for e in draft.entrants) + 1
    draft.entrants.append(
        Entrant(number=number, user_id=user_id, display_name=name, checked_in=True)
    )
    seat_late_comers(draft, late_round(draft))
    return number


def unplayed(event: TournamentEvent, entry: Entrant) -> bool:
    """A late-comer who has not played a round yet (sitting out, or seated from the next)."""
    return entry.slot is None or (
        entry.joined_in_round is not None and entry.joined_in_round >= late_round(event)
    )
