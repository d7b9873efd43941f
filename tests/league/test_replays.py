"""Replay steps: every action of the record, in order, with the engine's tricks and hands."""

from __future__ import annotations

import pytest

from bot.league import replay_book
from bot.rules import PRESETS, HouseRules, RecordError, game_record, new_game, parse_record
from bot.rules.record import starting_game

from .util import finished_record


def engine_tricks(record: dict[str, object]) -> list[list[tuple[tuple[int, ...], int]]]:
    """Each deal's tricks as (cards, winner), read from the engine as it plays."""
    loaded = parse_record(record)
    game = starting_game(loaded)
    deals: list[list[tuple[tuple[int, ...], int]]] = [[]]
    for seat, action in loaded.actions:
        before = game.deal_number
        seen = len(game.tricks)
        game.apply(seat if seat is not None else -1, action)
        moved_on = game.deal_number != before
        if len(game.tricks) > seen and not moved_on:
            last = game.tricks[-1]
            deals[-1].append((last.cards, last.winner))
        elif moved_on and action.do == "play":
            # The deal's last trick: the engine moved on to the next deal at once.
            deals[-1].append(((), -1))
        if moved_on:
            deals.append([])
    return deals


def book_rules(preset: str) -> HouseRules:
    """A preset's rules; Bid Euchre for three deals (random play scores slowly)."""
    rules = HouseRules.preset_rules(preset)
    return rules.with_changes(deals_per_game=3) if rules.game == "bid_euchre" else rules


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("seed", range(6))
def test_the_book_holds_every_action_and_every_trick(preset: str, seed: int) -> None:
    rules = book_rules(preset)
    record = finished_record(seed, rules)
    book = replay_book(record)
    assert [a.to_json(s) for s, a in book.actions()] == record["actions"]

    again = new_game(rules, seed=seed)
    for seat, action in book.actions():
        again.apply(seat, action)
    assert game_record(again) == record
    assert book.score == tuple(again.score) and book.winner == again.winner

    tricks = engine_tricks(record)
    assert len(book.deal_starts) == len(tricks) == again.deal_number
    for deal, expected in enumerate(tricks):
        start = book.deal_starts[deal]
        steps = [s for s in book.steps if s.deal == deal]
        assert book.steps[start] == steps[0] and steps[0].trick == 0
        assert [s.trick for s in steps] == list(range(len(steps)))
        assert len(steps) - 1 == len(expected)
        won = [0, 0]
        for step, (cards, winner) in zip(steps[1:], expected, strict=True):
            assert step.trick_play is not None
            won[step.trick_play.winner % 2] += 1
            assert step.tricks_won == tuple(won)  # the winner named is the one that scored
            if winner >= 0:
                assert tuple(c for _, c in step.trick_play.plays) == cards
                assert step.trick_play.winner == winner
            for seat, card in step.trick_play.plays:
                assert card in step.hands[seat]  # hands are shown as the trick began
        last = steps[-1]
        assert last.result == again.results[deal].result
        assert last.points == tuple(again.results[deal].points)
        assert last.trump == again.results[deal].trump
        assert last.contract == again.results[deal].contract


def test_index_clamps_to_the_steps_there_are() -> None:
    book = replay_book(finished_record(3))
    assert book.index(0, 0) == 0
    assert book.index(-5, 99) == book.deal_starts[1] - 1
    assert book.index(999, 0) == book.deal_starts[-1]
    assert book.index(999, 999) == len(book.steps) - 1


def test_an_unfinished_or_broken_record_is_refused() -> None:
    record = finished_record(3)
    with pytest.raises(RecordError, match="not over"):
        replay_book({**record, "actions": record["actions"][:5]})
    broken = {**record, "actions": [record["actions"][1], *record["actions"]]}
    with pytest.raises(RecordError, match="action 0"):
        replay_book(broken)
