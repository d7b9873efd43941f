"""Rating families: the ladders games are rated on, one per kind of game.

Four-hand euchre, six-hand euchre (the ``six_player`` and ``almonte`` presets, any
six-seat euchre) and Bid Euchre (at four, six or eight seats alike) are different
games, so a season keeps one ladder for each and a standing mixes one family only.
"""

from __future__ import annotations

from typing import Final, Literal, get_args

from bot.rules import HouseRules
from bot.store import DEFAULT_FAMILY as _STORED_DEFAULT

__all__ = ["DEFAULT_FAMILY", "FAMILIES", "Family", "game_family"]

Family = Literal["euchre4", "euchre6", "bid_euchre"]

FAMILIES: Final[tuple[Family, ...]] = get_args(Family)
"""Every family, four-hand euchre (the default) first."""

DEFAULT_FAMILY: Final[Family] = FAMILIES[0]
"""Four-hand euchre: the ladder read when no family is named (as the store's default)."""

assert DEFAULT_FAMILY == _STORED_DEFAULT


def game_family(rules: HouseRules | None) -> Family:
    """The family a game under ``rules`` is rated in (None, rules no longer valid: euchre4)."""
    if rules is None:
        return DEFAULT_FAMILY
    if rules.game == "bid_euchre":
        return "bid_euchre"
    return "euchre6" if rules.players == 6 else "euchre4"
