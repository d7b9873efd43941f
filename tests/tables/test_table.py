"""A table without Discord or storage: its lobby, its refusals, its game and its record."""

from __future__ import annotations

import random

import pytest

from bot.rules import Action, Game, HouseRules, replay
from bot.tables import (
    IllegalMoveError,
    NotHostError,
    NotReadyError,
    NotSeatedError,
    NotYourHandError,
    NotYourTurnError,
    Place,
    SavedTable,
    SeatTakenError,
    StaleActionError,
    Table,
    TableClosedError,
    TableFullError,
    WrongStageError,
)
from bot.tables.seats import COMPUTER_NAMES

from .util import ALICE, BOB, CAROL, DAVE, ERIN

NA = HouseRules.preset_rules("north_american")


def lobby(seed: int = 1, rules: HouseRules = NA) -> Table:
    table = Table(1, Place(10, 20), ALICE.user_id, rules, seed)
    table.join(ALICE)
    return table


def snapshot(table: Table) -> tuple[object, ...]:
    return (table.status, tuple(table.seats), table.host_id, table.stamp)


def full(seed: int = 1) -> Table:
    table = lobby(seed)
    for person in (BOB, CAROL, DAVE):
        table.join(person)
    return table


def started(seed: int = 1) -> tuple[Table, Game]:
    """A full table Alice started, and its game."""
    table = full(seed)
    table.start(ALICE.user_id)
    assert table.game is not None
    return table, table.game


def test_join_takes_the_next_seat_or_a_chosen_one() -> None:
    table = lobby()
    assert table.join(BOB) == 1
    assert table.join(CAROL, 3) == 3
    assert table.join(CAROL, 2) == 2, "a seated player may move"
    assert table.seat_of(CAROL.user_id) == 2 and table.seats[3] is None
    assert table.humans == [ALICE.user_id, BOB.user_id, CAROL.user_id]


@pytest.mark.parametrize(
    ("do", "error", "words"),
    [
        (lambda t: t.join(BOB), SeatTakenError, "already sitting in seat 2"),
        (lambda t: t.join(CAROL, 1), SeatTakenError, "Seat 2 is taken by Bob"),
        (lambda t: t.join(CAROL, 7), SeatTakenError, "no seat 8"),
        (lambda t: t.add_computer(BOB.user_id), NotHostError, "Only the host, Alice"),
        (lambda t: t.start(ALICE.user_id), NotReadyError, "Seats 3 and 4 are still empty"),
        (lambda t: t.start(BOB.user_id), NotHostError, "Only the host, Alice, can start"),
        (lambda t: t.leave(CAROL.user_id), NotSeatedError, "click Join"),
        (lambda t: t.abort(BOB.user_id), NotHostError, "Only the host"),
        (lambda t: t.view_for(ALICE.user_id), WrongStageError, "hasn't started"),
    ],
)
def test_lobby_refusals_change_nothing(do, error, words) -> None:  # type: ignore[no-untyped-def]
    table = lobby()
    table.join(BOB)
    before = snapshot(table)
    with pytest.raises(error) as caught:
        do(table)
    assert words in caught.value.message
    assert snapshot(table) == before


def test_a_full_table_refuses_a_fifth_person_but_gives_a_computer_seat_away() -> None:
    table = full()
    before = snapshot(table)
    with pytest.raises(TableFullError, match=r"The table is full\."):
        table.join(ERIN)
    with pytest.raises(TableFullError):
        table.add_computer(ALICE.user_id)
    assert snapshot(table) == before
    table.leave(DAVE.user_id)
    assert table.add_computer(ALICE.user_id) == 3
    assert table.seats[3] is not None and table.seats[3].name == COMPUTER_NAMES[3]
    assert table.join(ERIN) == 3, "a person takes a computer's seat"


def test_host_passes_on_and_the_last_leaver_closes_the_lobby() -> None:
    table = lobby()
    table.join(BOB)
    table.leave(ALICE.user_id)
    assert table.host_id == BOB.user_id and table.status == "lobby"
    table.leave(BOB.user_id)
    assert table.status == "aborted"
    with pytest.raises(TableClosedError):
        table.join(CAROL)


def test_start_deals_and_lobby_actions_stop() -> None:
    table = full()
    table.start(ALICE.user_id)
    assert table.status == "playing" and table.game is not None
    with pytest.raises(WrongStageError, match="already started"):
        table.join(ERIN)
    with pytest.raises(WrongStageError):
        table.start(ALICE.user_id)


def test_human_action_checks_go_from_who_to_when() -> None:
    table, game = started()
    assert game.turn is not None
    turn = game.turn
    owner = table.seats[turn]
    other = (turn + 1) % 4
    assert owner is not None and table.seats[other] is not None
    stamp = table.stamp
    with pytest.raises(NotYourHandError, match=f"That hand is {owner.name}'s"):
        table.check_human_action(table.seats[other].user_id, turn, stamp)  # type: ignore[union-attr, arg-type]
    with pytest.raises(StaleActionError):
        table.check_human_action(owner.user_id, turn, (stamp[0], stamp[1] + 1))  # type: ignore[arg-type]
    with pytest.raises(NotYourTurnError, match=f"{owner.name} is to bid"):
        table.check_human_action(table.seats[other].user_id, other, stamp)  # type: ignore[union-attr, arg-type]
    table.check_human_action(owner.user_id, turn, stamp)  # type: ignore[arg-type]


def test_rule_errors_become_illegal_moves_and_change_nothing() -> None:
    table, game = started()
    assert game.turn is not None
    before = (snapshot(table), table.record())
    with pytest.raises(IllegalMoveError) as caught:
        table.apply(game.turn, Action.play(game.hands[game.turn][0]))
    assert caught.value.code == "wrong_phase"
    assert "first round of bidding" in caught.value.message
    assert (snapshot(table), table.record()) == before


def play(table: Table, moves: int = 10_000, seed: int = 0) -> None:
    """Random legal moves until the game ends (or ``moves`` were made)."""
    rng = random.Random(seed)
    game = table.game
    assert game is not None
    for _ in range(moves):
        if game.over:
            return
        assert game.turn is not None
        table.apply(game.turn, rng.choice(game.legal()))


def test_a_played_game_finishes_and_its_record_replays() -> None:
    table = full(seed=4)
    table.start(ALICE.user_id)
    play(table)
    assert table.status == "finished"
    game = table.game
    assert game is not None and game.over
    replayed = replay(table.record()).game
    assert replayed.score == game.score and replayed.winner == game.winner
    assert table.record()["meta"]["seats"][0] == {"name": "Alice", "user": 101, "level": None}
    last = table.last_trick
    assert last is not None and last.deal_number == game.deal_number
    assert table.view_for(ALICE.user_id)[1].over, "the hand can still be shown at the end"


@pytest.mark.parametrize("seed", range(6))
def test_last_trick_of_a_finished_deal_is_kept_with_its_winner(seed: int) -> None:
    table, game = started(seed)
    rng = random.Random(seed)
    earlier: list[int] = []
    while game.deal_number == 1:
        assert game.turn is not None
        earlier = [t.winner for t in game.tricks]
        table.apply(game.turn, rng.choice(game.legal()))
    deal_one = game.results[0]
    last = table.last_trick
    if deal_one.result in ("made", "march", "euchred"):
        assert last is not None and last.deal_number == 1
        assert len(last.cards) == 4 - len(deal_one.alone)
        won = [0, 0]
        for winner in [*earlier, last.winner]:
            won[winner % 2] += 1
        assert won == deal_one.tricks
    public = table.public().game
    assert public is not None and public.last_deal is not None
    assert public.last_deal.number == 1 and public.view.deal_number == 2


def test_undo_last_takes_an_action_back() -> None:
    table, game = started(3)
    play(table, moves=12)
    before = (table.record(), table.last_trick, table.stamp)
    assert game.turn is not None
    table.apply(game.turn, game.legal()[0])
    table.undo_last()
    assert (table.record(), table.last_trick, table.stamp) == before


def test_leaving_a_game_hands_the_seat_to_a_computer() -> None:
    table = full()
    table.start(ALICE.user_id)
    table.leave(BOB.user_id)
    seat = table.seats[1]
    assert seat is not None and seat.is_computer and table.status == "playing"


def test_restore_replays_the_stored_record() -> None:
    table, _ = started(6)
    play(table, moves=30)
    record = table.record()
    stored = SavedTable(
        id=1,
        place=table.place,
        host_id=ALICE.user_id,
        status="playing",
        rules=NA,
        seed=6,
        seats=list(table.seats),
        message_id=55,
        actions=record["actions"],
    )
    restored = Table.restore(stored)
    assert restored.record() == record and restored.message_id == 55
    assert restored.public() == table.public()
