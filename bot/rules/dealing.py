"""Seeded, portable shuffling: the same seed gives the same cards on every machine.

The permutation of a deal comes from a BLAKE2b digest of the seed and the
deal's number, read as one big integer and spent digit by digit in a
Fisher-Yates shuffle. Nothing depends on Python's ``random`` module, whose
algorithms may change between versions.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from math import factorial
from typing import Final

from .cards import JACK, Suit, rank_of, suit_of
from .house_rules import HouseRules, deals_every_card, deck_cards

NO_UPCARD: Final = -1
"""The ``upcard`` of a deal that turns no card (Bid Euchre deals the whole pack)."""


@dataclass(frozen=True, slots=True)
class Deal:
    """The cards of one deal: each seat's hand as dealt, the upcard and the face-down rest.

    ``upcard`` is NO_UPCARD where nothing is turned (Bid Euchre).
    """

    hands: tuple[tuple[int, ...], ...]
    upcard: int
    kitty: tuple[int, ...]

    def __init__(
        self, hands: tuple[tuple[int, ...], ...], upcard: int, kitty: tuple[int, ...]
    ) -> None:
        # By hand, not dataclass's: compiled by mypyc this one is native code.
        object.__setattr__(self, "hands", hands)
        object.__setattr__(self, "upcard", upcard)
        object.__setattr__(self, "kitty", kitty)


def seeded_int(seed: int, purpose: str, index: int = 0) -> int:
    """A 512-bit integer determined by the seed, a purpose word and an index."""
    digest = hashlib.blake2b(f"euchre:{seed}:{purpose}:{index}".encode(), digest_size=64).digest()
    return int.from_bytes(digest, "big")


def shuffled(cards: list[int], seed: int, purpose: str, index: int = 0) -> list[int]:
    """A copy of ``cards`` in a seeded random order.

    Fisher-Yates from the top: for i = len-1 down to 1, swap card i with card
    j = x mod (i+1), then x //= i+1. Only x modulo len! decides the swaps.
    """
    out = list(cards)
    orders, plan = _chunks(len(out))
    x = seeded_int(seed, purpose, index) % orders
    i = len(out) - 1
    for chunk, stop in plan:
        # The next digits of x (radices i+1 down to stop+1) are those of x mod their
        # product, a number small enough for machine arithmetic: one big division a chunk.
        x, r = divmod(x, chunk)
        while i > stop:
            j = r % (i + 1)
            r //= i + 1
            out[i], out[j] = out[j], out[i]
            i -= 1
    return out


_WORD: Final = 1 << 62
"""Products of radices below this fit a machine word (and mypyc's unboxed int)."""
_CHUNKS: Final[dict[int, tuple[int, list[tuple[int, int]]]]] = {}


def _chunks(size: int) -> tuple[int, list[tuple[int, int]]]:
    """For shuffling ``size`` cards: ``size!``; (product of radices, last i not in it) per chunk."""
    found = _CHUNKS.get(size)
    if found is None:
        plan = []
        i = size - 1
        while i > 0:
            chunk, stop = 1, i
            while stop > 0 and chunk * (stop + 1) < _WORD:
                chunk *= stop + 1
                stop -= 1
            plan.append((chunk, stop))
            i = stop
        found = _CHUNKS[size] = (factorial(size), plan)
    return found


class Dealer:
    """One rule set's dealing, worked out once: its pack, its seats and hand size, what is turned.

    A game keeps one for all its deals rather than reading its rules again each deal.
    """

    def __init__(self, rules: HouseRules, pack: list[int] | None = None) -> None:
        self.pack = deck_cards(rules) if pack is None else pack
        self.players = rules.players
        self.hand_size = rules.hand_size
        self.every_card = deals_every_card(rules)

    def deal(self, seed: int, number: int) -> Deal:
        """Deal number ``number`` (0-based, thrown-in deals included) of a game seeded ``seed``."""
        return self.deal_pack(shuffled(self.pack, seed, "deal", number))

    def deal_pack(self, pack: list[int]) -> Deal:
        """``hand_size`` cards to each seat from the top of ``pack``, then the upcard, the kitty."""
        n, size = self.players, self.hand_size
        hands = tuple([tuple(pack[s * size : (s + 1) * size]) for s in range(n)])
        dealt = n * size
        upcard = pack[dealt] if dealt < len(pack) else NO_UPCARD
        kitty = () if self.every_card else tuple(pack[dealt + 1 :])
        return Deal(hands, upcard, kitty)


def deal_from_pack(pack: list[int], rules: HouseRules) -> Deal:
    """``hand_size`` cards to each seat from the top of the pack, then the upcard, then the kitty.

    Where every card is dealt (Almonte), the card after the hands is the
    dealer's turned card and the kitty is empty; where the hands take the whole
    pack (Bid Euchre) nothing is turned.
    """
    return Dealer(rules, pack).deal_pack(pack)


def seeded_deal(rules: HouseRules, seed: int, number: int, pack: list[int] | None = None) -> Deal:
    """Deal number ``number`` (0-based, thrown-in deals included) of a game seeded by ``seed``."""
    return Dealer(rules, pack or None).deal(seed, number)


def first_dealer(rules: HouseRules, seed: int, pack: Sequence[int] | None = None) -> int:
    """The first dealer: at random, or whoever is dealt the first black jack.

    For the black jack, a seeded shuffle of the pack (``pack``, else the
    rules') is dealt face up one card at a time, starting with seat 0, until a
    jack of clubs or spades appears.
    """
    n = rules.players
    if rules.first_dealer == "random":
        return seeded_int(seed, "first_dealer") % n
    cards = deck_cards(rules) if pack is None else list(pack)
    for i, c in enumerate(shuffled(cards, seed, "black_jack")):
        if rank_of(c) == JACK and suit_of(c) in (Suit.CLUBS, Suit.SPADES):
            return i % n
    return 0
