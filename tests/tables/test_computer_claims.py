"""A computer claims the rest of a deal when its cards take every trick left.

Seat 0 is a person, seats 1 to 3 computers, at the trump pull of the claim tests: seat
1 leads after taking the first trick with the right bower, and claims instead of
playing on. The person's seat plays its lowest legal card, the computers' seats
their own choices; the table is told once (:class:`ClaimMade`).
"""

from __future__ import annotations

from bot.players import make_player
from bot.players.claims import can_claim
from bot.rules import Game, parse_card
from bot.tables import (
    ClaimMade,
    MemoryTableStore,
    MoveMade,
    Table,
    TableEvent,
    TableService,
)
from tests.cogs.test_euchre_claims import chosen_game
from tests.tables.util import started


async def at_trump_pull(table: Table, store: MemoryTableStore) -> Game:
    """Give ``table`` the trump pull, its first trick taken (the store holds it too)."""
    game = chosen_game(table, "JH", "9C", "10H", "9H")
    table.game = game
    table.actors = [(game.deal_number, table.seats[seat]) for seat, _ in game.log]
    for index, (seat, action) in enumerate(game.log):
        await store.append_action(table.id, index, seat, action.to_json())
    return game


async def test_a_computer_claims_when_it_can() -> None:
    store = MemoryTableStore()
    tables = TableService(store, make_player, claims=can_claim, seeds=lambda: 8, play_on=False)
    heard: list[TableEvent] = []
    tables.listeners.append(heard.append)
    table = await started(tables)
    game = await at_trump_pull(table, store)
    start = len(game.log)
    heard.clear()
    await tables.get_any(table.id).turns.run_computers()
    claims = [e for e in heard if isinstance(e, ClaimMade)]
    assert [(c.seat, c.tricks) for c in claims] == [(1, 4)]
    plays = game.log[start : start + 16]
    assert [a.card for s, a in plays if s == 1] == [parse_card(c) for c in ("JD", "AH", "AS", "KS")]
    moves = [e for e in heard if isinstance(e, MoveMade)]
    assert all(m.claimed for m in moves[:16]) and not any(m.claimed for m in moves[16:])
    assert game.deal_number == 2
    mine = [a.card for s, a in plays if s == 0]
    assert mine == [parse_card(c) for c in ("10D", "QD", "KD", "AD")], "the person's lowest"
    assert (await store.load_table(table.id)).actions[start : start + 16] == [
        {**a.to_json(), "seat": s} for s, a in plays
    ], "the record is the plays"


async def test_no_claims_without_a_checker() -> None:
    store = MemoryTableStore()
    tables = TableService(store, make_player, seeds=lambda: 8, play_on=False)
    heard: list[TableEvent] = []
    tables.listeners.append(heard.append)
    table = await started(tables)
    await at_trump_pull(table, store)
    await tables.get_any(table.id).turns.run_computers()
    assert not [e for e in heard if isinstance(e, ClaimMade)]
