"""The table tests' people and place, and a table seated and started for a test."""

from __future__ import annotations

from bot.rules import HouseRules
from bot.tables import Place, Player, Table, TableService

ALICE, BOB, CAROL, DAVE, ERIN = (
    Player(i, n) for i, n in enumerate(["Alice", "Bob", "Carol", "Dave", "Erin"], start=101)
)
HERE = Place(1, 10)


async def started(tables: TableService, people: int = 1, rules: HouseRules | None = None) -> Table:
    """A table Alice opened at ``HERE``, with ``people`` people (Alice first), the rest
    computers, started: its first turn not yet played."""
    table = await tables.open(HERE, ALICE, rules=rules)
    for person in (BOB, CAROL, DAVE)[: people - 1]:
        await (await tables.fetch(table.id)).lobby.join(person)
    for _ in range(4 - people):
        await (await tables.fetch(table.id)).lobby.add_computer(ALICE.user_id)
    await (await tables.fetch(table.id)).lobby.start(ALICE.user_id)
    return table


async def playing(tables: TableService, people: int = 4, rules: HouseRules | None = None) -> Table:
    """A table :func:`started`, its computers played until a person's turn."""
    table = await started(tables, people, rules)
    await tables.get_any(table.id).turns.run_computers()
    return table
