"""Finished deals and tricks taken in words, for the table message: one line each.

Euchre names the makers and what they made; Bid Euchre the contract (who bid how many,
in what trump), each team's tricks against what it needs, and both teams' points.
"""

from __future__ import annotations

from typing import Final

from bot.rules import SeatView
from bot.tables import DealSummary, PublicTable

from .cards import suit_text, trump_text
from .teams import player, team_mark

__all__ = ["DEAL_OUTCOMES", "deal_line", "tricks_line"]

DEAL_OUTCOMES: Final = {
    "made": "made it",
    "march": "a march",
    "euchred": "euchred",
    "set": "set",
    "shot": "took them all",
    "shot_failed": "failed",
}


def tricks_line(view: SeatView) -> str:
    """Tricks per team; in Bid Euchre, against what each needs: "Tricks 🔵 2/4 · 🟠 1/3"."""
    won = view.tricks_won
    contract = view.contract
    if contract is None:
        return f"Tricks {team_mark(0)} {won[0]} · {team_mark(1)} {won[1]}"
    hand = view.rules.hand_size
    bid = hand if contract.shoot else contract.tricks
    need = {contract.team: bid, 1 - contract.team: hand - bid + 1}
    return f"Tricks {team_mark(0)} {won[0]}/{need[0]} · {team_mark(1)} {won[1]}/{need[1]}"


def deal_line(table: PublicTable, deal: DealSummary) -> str:
    """A finished deal in one line: who made what, and the points."""
    if deal.result == "passed":
        return f"Deal {deal.number}: everyone passed, the hand was thrown in."
    if deal.result == "redeal":
        return f"Deal {deal.number}: a hand was thrown in (ace no face)."
    if deal.maker is None or deal.trump is None or deal.makers is None:
        return f"Deal {deal.number}: {deal.result}."
    makers = deal.makers
    maker = player(table, deal.maker, then=deal.maker_player)
    if deal.contract is not None:
        return _bid_deal_line(deal, maker)
    alone = " alone" if any(s % 2 == makers for s in deal.alone) else ""
    head = f"Deal {deal.number}: {maker} made {suit_text(deal.trump)}{alone}"
    winner = makers if deal.result in ("made", "march") else 1 - makers
    outcome = DEAL_OUTCOMES.get(deal.result, deal.result)
    took = deal.tricks[makers]
    tricks = "1 trick" if took == 1 else f"{took} tricks"
    return f"{head}, took {tricks}: {outcome}, {team_mark(winner)} +{deal.points[winner]}."


def _bid_deal_line(deal: DealSummary, maker: str) -> str:
    """A finished Bid Euchre deal: "Deal 2: Alice bid 4, ♥️ hearts, took 5: made it, 🔵 +5 🟠 +1"."""
    contract = deal.contract
    assert contract is not None and deal.trump is not None
    bid = "shot" if contract.shoot else f"bid {contract.tricks}"
    took = deal.tricks[contract.team]
    outcome = DEAL_OUTCOMES.get(deal.result, deal.result)
    points = " ".join(f"{team_mark(t)} {deal.points[t]:+d}" for t in (0, 1))
    return (
        f"Deal {deal.number}: {maker} {bid}, {trump_text(deal.trump)}, took {took}: "
        f"{outcome}, {points}."
    )
