"""The private hand: its text and its buttons, over whole random games of every variant."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.discord.tables.embeds import hand_embed
from bot.render import hand_buttons
from bot.render.hand import ACTION_ROWS
from bot.rules import seat_view
from bot.rules.bid_bidding import bid_range
from bot.rules.ranking import top_rank_word
from tests.render.games import BID_VARIANTS, VARIANTS, steps


@pytest.mark.parametrize(
    "spec", VARIANTS + BID_VARIANTS, ids=lambda s: "-".join(map(str, s.values()))
)
def test_buttons_match_the_legal_actions_and_fit_discord(spec: dict[str, object]) -> None:
    for table in steps(spec, 3):
        game = table.game
        assert game is not None
        public = table.public()
        for seat in range(table.size):
            view = seat_view(game, seat)
            buttons = hand_buttons(public, view)
            rows = Counter(b.row for b in buttons)
            assert all(n <= 5 for n in rows.values()) and max(rows, default=0) < ACTION_ROWS
            assert all(0 < len(b.label) <= 80 for b in buttons)
            enabled = [b.action for b in buttons if not b.disabled]
            if view.my_turn and view.rules.packs > 1:
                # Two equal cards are two buttons for one legal action.
                assert set(enabled) == set(view.legal), (enabled, view.legal)
            elif view.my_turn:
                assert Counter(enabled) == Counter(view.legal), (enabled, view.legal)
            else:
                assert not enabled
            card_buttons = [b for b in buttons if b.action.do in ("play", "discard", "give")]
            assert len(card_buttons) == len(view.hand)
            assert len({b.position for b in buttons}) == len(buttons)


def test_the_hand_names_the_bowers_and_says_whose_turn() -> None:
    named = turns = 0
    for table in steps({"preset": "north_american"}, 6):
        game = table.game
        assert game is not None
        if game.turn is None or game.trump is None:
            continue
        for seat in range(4):
            view = seat_view(game, seat)
            embed = hand_embed(table.public(), view)
            text = embed.description or ""
            for card in view.hand:
                role = top_rank_word(card, game.trump)
                if role:
                    assert f"({role.removeprefix('the ')})" in text
                    named += 1
            if view.my_turn:
                assert "**Your turn**" in text
                turns += 1
            elif not view.out[seat]:
                assert f"Waiting for {table.name(game.turn)}" in text
    assert named and turns


def test_trump_comes_first_in_the_hand_text() -> None:
    for table in steps({"preset": "north_american"}, 2):
        game = table.game
        assert game is not None
        if game.phase == "play":
            break
    view = seat_view(game, game.turn)  # type: ignore[arg-type]
    text = (hand_embed(table.public(), view).description or "").splitlines()[0]
    symbols = [part.strip("* ").split(" ")[0] for part in text.split(" · ")]
    trump_symbol = "♣♦♥♠"[game.trump]
    is_trump = [
        s.endswith(trump_symbol) or (s.startswith("J") and "left" in part)
        for s, part in zip(symbols, text.split(" · "), strict=True)
    ]
    assert is_trump == sorted(is_trump, reverse=True)


def test_a_legend_says_the_blue_card_buttons_are_trump_once_trump_is_made() -> None:
    before = after = 0
    for table in steps({"preset": "north_american"}, 4):
        game = table.game
        assert game is not None
        view = seat_view(game, 0)
        text = hand_embed(table.public(), view).description or ""
        blue = [b for b in hand_buttons(table.public(), view) if b.card is not None]
        if game.trump is None:
            before += 1
            assert "Blue buttons are trump" not in text
            assert all(b.style == "secondary" for b in blue)
        elif view.hand:
            after += 1
            assert "Blue buttons are trump" in text
            assert all(b.role == "" or b.style == "primary" for b in blue)
    assert before and after


def test_bid_euchre_shows_only_the_legal_bids_then_six_ways_to_name_trump() -> None:
    bids_seen = declares_seen = 0
    for table in steps({"preset": "bid_euchre_6", "deals_per_game": 2}, 4):
        game = table.game
        assert game is not None
        if game.over or game.phase not in ("bid", "declare"):
            continue
        view = seat_view(game, game.turn)  # type: ignore[arg-type]
        labels = [b.label for b in hand_buttons(table.public(), view) if b.card is None]
        if game.phase == "bid":
            span = bid_range(game.state, view.seat)
            numbers = [] if span is None else [f"Bid {n}" for n in range(span[0], span[1] + 1)]
            assert [x for x in labels if x.startswith("Bid ")] == numbers
            assert ("Pass" in labels) == any(a.do == "pass" for a in view.legal)
            assert "Shoot (all tricks)" in labels
            bids_seen += 1
        else:
            assert labels == [
                "♣️ Clubs",
                "♦️ Diamonds",
                "♥️ Hearts",
                "♠️ Spades",
                "No Trump High",
                "No Trump Low",
            ]
            declares_seen += 1
    assert bids_seen and declares_seen
