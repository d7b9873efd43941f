"""An event's standings, from its table results, with the tie-breaks of each format.

Progressive: each person scores the points their partnership made in every finished
deal; the order is total points, then deals won, then head to head (among the people
still level: the points their partnerships made minus those of the level people they
faced, table by table). Pairs: wins (a bye is a win, a game level at a round timer is
half a win each), then point difference. People still level share the place.

Someone replaced by a computer keeps the score of the rounds before the one in which
they left, marked ``replaced``; a late-comer scores from the round they joined in,
marked with it (``joined``); computers that filled seats are not placed.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict

from bot.tournaments.model import Entrant, EventRound, TournamentEvent

__all__ = ["Standing", "champions", "pair_ranking", "standings"]


class Standing(BaseModel):
    """One line: a person (progressive) or a pair (pairs), with what placed them."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    place: int
    entrants: tuple[int, ...]
    """Entrant numbers: one person, or the two of a pair."""
    names: tuple[str, ...]
    points: int = 0
    against: int = 0
    """Pairs: points scored against them."""
    deals_played: int = 0
    deals_won: int = 0
    head_to_head: int = 0
    """Progressive: the head-to-head margin among those level on points and deals won."""
    wins: float = 0
    games: int = 0
    replaced: bool = False
    """Someone of the line left and a computer played on in their place."""
    joined: int | None = None
    """A late-comer: the first round they played (the rounds before it they missed)."""


def standings(event: TournamentEvent) -> list[Standing]:
    """The standings as the results stand now (a round in progress counts its finished deals)."""
    if event.settings.format == "pairs":
        return _pairs(event)
    return _progressive(event)


def champions(event: TournamentEvent) -> list[Standing]:
    """The lines in first place (several when level on every tie-break)."""
    return [line for line in standings(event) if line.place == 1]


def _counts(entrant: Entrant, rnd: EventRound) -> bool:
    return entrant.replaced_in_round is None or rnd.number < entrant.replaced_in_round


def _sides(seats: tuple[int, int, int, int]) -> tuple[tuple[int, int], tuple[int, int]]:
    return (seats[0], seats[2]), (seats[1], seats[3])


def _progressive(event: TournamentEvent) -> list[Standing]:
    people = {e.number: e for e in event.entrants if not e.is_computer and e.slot is not None}
    points: dict[int, int] = defaultdict(int)
    won: dict[int, int] = defaultdict(int)
    played: dict[int, int] = defaultdict(int)
    # (person, opponent) -> their partnership's points minus the opponent's, all tables
    margins: dict[tuple[int, int], int] = defaultdict(int)
    for rnd in event.rounds:
        for table in rnd.tables:
            if table.result is None:
                continue
            ours, theirs = table.result.points
            sides = _sides(table.seats)
            for side, (mine, other) in enumerate(((ours, theirs), (theirs, ours))):
                for person in sides[side]:
                    entrant = people.get(person)
                    if entrant is None or not _counts(entrant, rnd):
                        continue
                    points[person] += mine
                    played[person] += len(table.result.deals)
                    won[person] += sum(
                        1 for deal in table.result.deals if deal[side] > deal[1 - side]
                    )
                    for opponent in sides[1 - side]:
                        margins[person, opponent] += mine - other
    level: dict[tuple[int, int], list[int]] = defaultdict(list)
    for number in people:
        level[points[number], won[number]].append(number)
    h2h: dict[int, int] = {}
    for group in level.values():
        for number in group:
            h2h[number] = sum(margins[number, other] for other in group if other != number)
    keyed = [
        (
            (-points[n], -won[n], -h2h[n]),
            Standing(
                place=0,
                entrants=(n,),
                names=(people[n].display_name,),
                points=points[n],
                deals_played=played[n],
                deals_won=won[n],
                head_to_head=h2h[n],
                replaced=people[n].replaced_in_round is not None,
                joined=people[n].joined_in_round,
            ),
        )
        for n in people
    ]
    return _placed(keyed)


def _pairs(event: TournamentEvent, *, computers: bool = False) -> list[Standing]:
    members: dict[int, list[Entrant]] = defaultdict(list)
    for entrant in event.entrants:
        if entrant.slot is not None:
            members[entrant.slot].append(entrant)
    pair_of = {e.number: e.slot for e in event.entrants if e.slot is not None}
    wins: dict[int, float] = defaultdict(float)
    scored: dict[int, int] = defaultdict(int)
    conceded: dict[int, int] = defaultdict(int)
    games: dict[int, int] = defaultdict(int)
    deals: dict[int, int] = defaultdict(int)
    deals_won: dict[int, int] = defaultdict(int)
    for rnd in event.rounds:
        if rnd.bye is not None and rnd.ended_at is not None:
            wins[rnd.bye] += 1
        for table in rnd.tables:
            result = table.result
            if result is None or (not result.finished and rnd.ended_at is None):
                continue  # a game still being played has no winner yet
            a, b = (pair_of[table.seats[0]], pair_of[table.seats[1]])
            pa, pb = result.points
            for me, mine, theirs, side in ((a, pa, pb, 0), (b, pb, pa, 1)):
                scored[me] += mine
                conceded[me] += theirs
                games[me] += 1
                deals[me] += len(result.deals)
                deals_won[me] += sum(1 for d in result.deals if d[side] > d[1 - side])
                wins[me] += 1 if mine > theirs else 0.5 if mine == theirs else 0
    keyed = []
    for pair, people in sorted(members.items()):
        if not computers and all(p.is_computer for p in people):
            continue
        keyed.append(
            (
                (-wins[pair], conceded[pair] - scored[pair], 0),
                Standing(
                    place=0,
                    entrants=tuple(p.number for p in people),
                    names=tuple(p.display_name for p in people),
                    points=scored[pair],
                    against=conceded[pair],
                    deals_played=deals[pair],
                    deals_won=deals_won[pair],
                    wins=wins[pair],
                    games=games[pair],
                    replaced=any(p.replaced_in_round is not None for p in people),
                ),
            )
        )
    return _placed(keyed)


def _placed(keyed: Iterable[tuple[tuple[float, float, float], Standing]]) -> list[Standing]:
    ordered = sorted(keyed, key=lambda item: (item[0], item[1].names))
    lines: list[Standing] = []
    for index, (key, line) in enumerate(ordered):
        same = index > 0 and ordered[index - 1][0] == key
        place = lines[-1].place if same else index + 1
        lines.append(line.model_copy(update={"place": place}))
    return lines


def pair_ranking(event: TournamentEvent) -> list[int]:
    """Every pair's slot (computer pairs too) in standing order, for Swiss pairing."""
    lines = {line.entrants: line for line in _pairs(event, computers=True)}
    slots = {e.number: e.slot for e in event.entrants if e.slot is not None}
    ordered = sorted(lines.values(), key=lambda line: (line.place, slots[line.entrants[0]]))
    return [slots[line.entrants[0]] for line in ordered]
