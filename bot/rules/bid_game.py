"""Bid Euchre's game: the one trick-taking ``Game`` with Bid Euchre's queries, and ``new_game``.

Four, six or eight players; the whole pack dealt; numeric bids, then every
trick of the hand, scored to 32 (bid_bidding.py has the bidding). A ``Game``
plays Bid Euchre rules as it plays euchre's; ``BidGame`` is that game with
what only Bid Euchre asks (``high_bid``, ``bid_range``, ``must_bid``), and
``new_game`` makes whichever the rules play, so tables, players and records
take either.

    >>> from bot.rules import HouseRules, new_game
    >>> game = new_game(HouseRules.preset_rules("bid_euchre"), seed=7, dealer=0)
    >>> game.phase, game.turn, [str(a) for a in game.legal()]
    ('bid', 1, ['pass', 'bid.3', 'bid.4', 'bid.5', 'bid.6', 'shoot'])
"""

from __future__ import annotations

from collections.abc import Sequence

from .bid_bidding import BidBidding
from .dealing import Deal
from .game import Game
from .house_rules import HouseRules


class BidGame(Game):
    """A whole game of Bid Euchre, from the first deal to the winner (see ``Game``)."""

    def _refuse(self, rules: HouseRules) -> None:
        if rules.game != "bid_euchre":
            raise ValueError("BidGame plays Bid Euchre rules; use Game or new_game for euchre")

    def _blank(self) -> Game:
        return BidGame.__new__(BidGame)

    def copy(self) -> BidGame:
        """An independent copy of the game as it stands (for search: try, then throw away)."""
        new = super().copy()
        assert isinstance(new, BidGame)
        return new

    @property
    def _bids(self) -> BidBidding:
        bidding = self._bidding
        assert isinstance(bidding, BidBidding)
        return bidding

    @property
    def high_bid(self) -> int:
        """The highest number bid so far this deal; 0 when nobody has bid."""
        return self._bids.high

    def bid_range(self, seat: int) -> tuple[int, int] | None:
        """The numbers ``seat`` may bid now (lowest, highest); None when it may bid no number."""
        return self._bids.bid_range(self, seat)

    def must_bid(self, seat: int) -> bool:
        """Whether ``seat`` may not pass: the dealer when everyone else passed."""
        return self._bids.must_bid(self, seat)


def new_game(
    rules: HouseRules, *, seed: int = 0, dealer: int | None = None, deals: Sequence[Deal] = ()
) -> Game:
    """A new game of whichever game the rules play (a ``BidGame`` for Bid Euchre)."""
    if rules.game == "bid_euchre":
        return BidGame(rules, seed=seed, dealer=dealer, deals=deals)
    return Game(rules, seed=seed, dealer=dealer, deals=deals)
