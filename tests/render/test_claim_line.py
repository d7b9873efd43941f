"""The table's line for a claim."""

from __future__ import annotations

import pytest

from bot.render.claims import claim_line


def test_a_claim_names_the_claimer_and_the_tricks_left() -> None:
    assert claim_line("Alice", 3) == "Alice claims the last 3 tricks"
    assert claim_line("🤖 Club player", 5) == "🤖 Club player claims the last 5 tricks"


def test_one_trick_is_the_last_trick() -> None:
    assert claim_line("Bob", 1) == "Bob claims the last trick"


def test_a_claim_of_no_trick_is_refused() -> None:
    with pytest.raises(ValueError, match="at least one trick"):
        claim_line("Bob", 0)
