"""Claiming the rest of a deal from the private hand, at a table of four people.

The deal is a chosen one (the trump pull of the claim rules' tests): Bob leads after
taking the first trick with the right bower. The Claim button is offered only when his
cards take every trick left whatever the unseen cards are; pressing it plays the deal
out through the normal path (the record stays plays) and the table shows the claim in
one update. A claim from an old hand, or one his cards can't make good, is refused.
"""

from __future__ import annotations

import pytest

from bot.players.claims import can_claim
from bot.rules import Action, Deal, Game, new_game, parse_card, seat_view
from bot.rules.house_rules import deck_cards
from bot.tables import ClaimRefusedError, MemoryTableStore, Table
from tests.cogs.euchre_driver import clocked_bot, only_table, started
from tests.cogs.test_euchre_ping_after import NAMES, Room
from tests.conftest import MakeHarness
from tests.kit.harness import StoredMessage

TRUMP_PULL = {
    0: "10C 10D QD KD AD",
    1: "JH JD AH AS KS",
    2: "9C QC KC AC 9D",
    3: "QS JS 10S 10H 9S",
}
"""Hearts are trump (seat 1 orders up the 9); the dealer, seat 0, discards its 10 of clubs."""


def chosen_game(table: Table, *plays: str) -> Game:
    """The trump pull dealt at ``table`` by seat 0, then ``plays`` played in turn."""
    rules = table.rules
    rest = list(deck_cards(rules))
    named = {s: [parse_card(c) for c in h.split()] for s, h in TRUMP_PULL.items()}
    for c in [*(c for h in named.values() for c in h), parse_card("9H")]:
        rest.remove(c)
    dealt = tuple(tuple(named[s]) for s in range(rules.players))
    deal = Deal(dealt, parse_card("9H"), tuple(rest))
    game = new_game(rules, seed=table.seed, dealer=0, deals=[deal])
    game.apply(1, Action.order_up())
    game.apply(0, Action.discard(dealt[0][0]))
    while game.phase != "play":
        assert game.turn is not None
        game.apply(game.turn, Action.pass_())
    for name in plays:
        assert game.turn is not None
        game.apply(game.turn, Action.play(parse_card(name)))
    return game


async def claim_room(make_harness: MakeHarness, *plays: str) -> Room:
    """Four people at the trump pull, ``plays`` made (the store holds them too)."""
    store = MemoryTableStore()
    bot, clock = clocked_bot(store=store, claims=can_claim)
    h = await make_harness(bot)
    r = Room(h, bot, clock)
    r.people, r.message = await started(h, NAMES)
    table = only_table(bot)
    game = chosen_game(table, *plays)
    table.game = game
    table.actors = [(game.deal_number, table.seats[seat]) for seat, _ in game.log]
    for index, (seat, action) in enumerate(game.log):
        await store.append_action(table.id, index, seat, action.to_json())
    return r


def claim_button(hand: StoredMessage) -> str | None:
    """The custom_id of the hand's Claim button, if it has one."""
    return next((b.custom_id for b in hand.buttons if (b.custom_id or "").endswith(":claim")), None)


async def open_hand(r: Room, seat: int) -> StoredMessage:
    assert r.message is not None
    return (await r.h.click(r.people[seat], r.message, label="Your hand")).message


async def test_a_claim_is_offered_and_played_out_in_one_update(
    make_harness: MakeHarness,
) -> None:
    r = await claim_room(make_harness, "JH", "9C", "10H", "9H")
    game = r.table.game
    assert game is not None
    start = len(game.log)
    hand = await open_hand(r, 1)
    claim = claim_button(hand)
    assert claim is not None, "Bob's cards take every trick left"
    for seat in (0, 2, 3):
        assert claim_button(await open_hand(r, seat)) is None, "the others can't claim"
    assert r.message is not None
    edits = len(r.h.message(r.message.id).history)
    await r.h.click(r.people[1], hand, custom_id=claim)
    await r.wait(0)
    table = r.table.game
    assert table is not None and table.deal_number == 2, "the deal was played out"
    assert len(table.log) - start == 16, "the claim is its plays, every one recorded"
    claimer = [a.card for s, a in table.log[start:] if s == 1]
    assert claimer == [parse_card(c) for c in ("JD", "AH", "AS", "KS")], "from the highest"
    shown = r.h.message(r.message.id)
    assert len(shown.history) - edits == 1, "the table shows the claim in one update"
    assert "Bob claims the last 4 tricks" in shown.text
    for seat in (0, 2, 3):
        hand = r.h.last_ephemeral(r.people[seat])
        assert "deal 2" in hand.text, "the hands whose cards the claim played are redrawn"


async def test_no_claim_where_a_hidden_card_could_beat(make_harness: MakeHarness) -> None:
    r = await claim_room(make_harness)
    game = r.table.game
    assert game is not None and game.turn == 1
    # The dealer may hold four trumps: the fourth would ruff Bob's ace of spades.
    assert not can_claim(seat_view(game, 1))
    hand = await open_hand(r, 1)
    assert claim_button(hand) is None
    before = len(game.log)
    with pytest.raises(ClaimRefusedError, match="an unseen card could still take one"):
        await (await r.bot.tables.fetch(r.table.id)).turns.claim(r.people[1].id, 1, r.table.stamp)
    assert len(game.log) == before, "a refused claim changes nothing"


async def test_a_claim_from_an_old_hand_is_refused(make_harness: MakeHarness) -> None:
    r = await claim_room(make_harness, "JH", "9C", "10H", "9H")
    hand = await open_hand(r, 1)
    claim = claim_button(hand)
    assert claim is not None
    game = r.table.game
    assert game is not None
    await (await r.bot.tables.fetch(r.table.id)).turns.act(
        r.people[1].id, 1, r.table.stamp, Action.play(parse_card("JD"))
    )
    before = len(game.log)
    reply = await r.h.click(r.people[1], hand, custom_id=claim)
    assert "out of date" in reply.reply.text
    assert len(game.log) == before and game.deal_number == 1
