"""Random games at a table, step by step, for the render tests."""

from __future__ import annotations

import random
from collections.abc import Iterator

from bot.rules import HouseRules
from bot.tables import Place, Player, Table

VARIANTS = [
    {"preset": "north_american"},
    {"preset": "north_american", "stick_the_dealer": True, "trump_must_be_broken": True},
    {"preset": "toronto"},
    {"preset": "british", "partners_best": True, "ace_no_face": True},
    {"preset": "six_player"},
    {"preset": "almonte"},
    {"preset": "north_american", "deck": "32", "farmers_hand": "three_of_a_rank"},
]

BID_VARIANTS = [
    {"preset": "bid_euchre", "deals_per_game": 2},
    {"preset": "bid_euchre_6", "deals_per_game": 2},
    {"preset": "bid_euchre_8", "deals_per_game": 2},
]
"""Bid Euchre at four, six and eight seats, two deals each (random play scores slowly)."""


def seated_table(spec: dict[str, object], seed: int) -> Table:
    rules = HouseRules.from_spec(spec)
    names = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Gina", "Hugo"][: rules.players]
    people = [Player(100 + i, n) for i, n in enumerate(names)]
    table = Table(1, Place(1, 2), people[0].user_id, rules, seed)
    for person in people:
        table.join(person)
    table.start(people[0].user_id)
    return table


def steps(spec: dict[str, object], seed: int, limit: int = 400) -> Iterator[Table]:
    """The table after its start and after each random move, until the game ends."""
    table = seated_table(spec, seed)
    rng = random.Random(seed)
    game = table.game
    assert game is not None
    yield table
    for _ in range(limit):
        if game.over:
            return
        assert game.turn is not None
        table.apply(game.turn, rng.choice(game.legal()))
        yield table
