"""A claim in words, for the table's line: "Alice claims the last 3 tricks"."""

from __future__ import annotations

__all__ = ["claim_line"]


def claim_line(who: str, tricks: int) -> str:
    """The table's line when ``who`` (the name as the table shows it) claims ``tricks`` tricks.

    ``tricks`` is every trick not finished when the claim is made, so they are the last ones.
    """
    if tricks < 1:
        raise ValueError(f"a claim takes at least one trick, not {tricks}")
    if tricks == 1:
        return f"{who} claims the last trick"
    return f"{who} claims the last {tricks} tricks"
