"""Seeded, portable shuffling: the same seed gives the same cards on every machine.

The permutation of a deal comes from a BLAKE2b digest of the seed and the
deal's number, read as one big integer and spent digit by digit in a
Fisher-Yates shuffle. Nothing depends on Python's ``random`` module, whose
algorithms may change between versions.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from .cards import JACK, Suit, card
from .house_rules import HouseRules, deals_every_card, deck_cards

if TYPE_CHECKING:  # mypyc's native 64-bit integer; at run time a plain int
    from mypy_extensions import i64

_JACK_CLUBS: Final = card(JACK, Suit.CLUBS)
_JACK_SPADES: Final = card(JACK, Suit.SPADES)

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


_BLAKE2B: Final = hashlib.blake2b
_FROM_BYTES: Final[Callable[[bytes], int]] = int.from_bytes
"""Bound once: compiled code calls them without looking them up."""


def seed_key(seed: int, purpose: str) -> bytes:
    """What the digest of ``seeded_int(seed, purpose, index)`` hashes, but the index."""
    return f"euchre:{seed}:{purpose}:".encode()


def deal_key(seed: int) -> bytes:
    """The ``seed_key`` of a game's deals."""
    return seed_key(seed, "deal")


def seeded_int(seed: int, purpose: str, index: int = 0) -> int:
    """A 512-bit integer determined by the seed, a purpose word and an index."""
    return keyed_int(seed_key(seed, purpose), index)


def keyed_int(key: bytes, index: int) -> int:
    """``seeded_int`` of a ``seed_key`` and an index: the BLAKE2b digest of both, as a number."""
    # blake2b's digest is 64 bytes unless asked otherwise; int.from_bytes reads big-endian.
    return _FROM_BYTES(_BLAKE2B(key + str(index).encode()).digest())


_COPY: Final[Callable[[Any], Any]] = hashlib.blake2b.copy
_UPDATE: Final[Callable[[Any, bytes], None]] = hashlib.blake2b.update
_DIGEST: Final[Callable[[Any], bytes]] = hashlib.blake2b.digest
"""A BLAKE2b's methods, bound once: compiled code calls them without a lookup by name."""
_INDEX_BYTES: Final = tuple([str(i).encode() for i in range(256)])
"""The text of the first deals' numbers, as ``hashed_int`` hashes them."""

_HASHED_KEYS: Final[dict[bytes, hashlib.blake2b]] = {}
"""A BLAKE2b that has hashed each key (a game's ``deal_key``): only copied, never updated."""


def hashed_int(key: bytes, index: int) -> int:
    """``keyed_int(key, index)``, resuming a BLAKE2b that hashed the key already.

    A game's deals share the key: copying the hashed key is about half the work of
    hashing it afresh each deal.
    """
    hashed = _HASHED_KEYS.get(key)
    if hashed is None:
        if len(_HASHED_KEYS) >= 256:
            _HASHED_KEYS.clear()
        hashed = _HASHED_KEYS[key] = _BLAKE2B(key)
    h = _COPY(hashed)
    _UPDATE(h, _INDEX_BYTES[index] if index < len(_INDEX_BYTES) else str(index).encode())
    return _FROM_BYTES(_DIGEST(h))


def shuffled(cards: list[int], seed: int, purpose: str, index: int = 0) -> list[int]:
    """A copy of ``cards`` in a seeded random order (see ``Shuffle``)."""
    out = list(cards)
    shuffle_for(len(out)).apply(out, seeded_int(seed, purpose, index))
    return out


_DIVMOD: Final[Callable[[Any, Any], tuple[Any, int]]] = divmod
"""Bound once: compiled code calls it without looking it up."""

_DIGIT: Final = 1 << 30
"""Products of radices below this are one digit of CPython's big integers."""


class Shuffle:
    """The seeded shuffle of ``size`` cards, worked out once per size.

    Fisher-Yates from the top: for i = size-1 down to 1, swap card i with card
    j = x mod (i+1), then x //= i+1. The radices are taken in chunks whose
    product is below ``_DIGIT``: one division of the big number by one digit a
    chunk (CPython's cheapest), then machine arithmetic. Only x modulo size!
    decides the swaps, and the chunks' products divide size!, so the divisions
    by the chunks give the same remainders whether x is reduced first or not:
    it is not.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        chunks: list[int] = []
        stops: list[i64] = []
        i = size - 1
        while i > 0:
            chunk, stop = 1, i
            while stop > 0 and chunk * (stop + 1) < _DIGIT:
                chunk *= stop + 1
                stop -= 1
            chunks.append(chunk)
            stops.append(stop)
            i = stop
        # Any: Python's ints, made once (compiled, an int read for a division is boxed anew)
        self.chunks: tuple[Any, ...] = tuple(chunks)
        self.stops = stops

    def apply(self, out: list[Any], x: int) -> None:
        """Shuffle ``out`` (``size`` cards) in place by the number ``x`` (not negative).

        The items are only moved: typed Any, compiled code moves them as they are.
        """
        i: i64 = self.size - 1
        stops = self.stops
        chunks = self.chunks
        last = len(stops) - 1
        rest: Any = x  # Any: compiled, the big number's divisions call CPython's as they are
        for k in range(len(stops)):
            chunk = chunks[k]
            if k < last:  # one pass over the big number gives both
                rest, low = _DIVMOD(rest, chunk)
                r: i64 = low
            else:  # the last chunk's quotient is never read
                r = rest % chunk
            stop: i64 = stops[k]
            while i > stop:
                radix = i + 1
                q = r // radix  # r is not negative: one division gives both
                j = r - q * radix
                r = q
                card = out[i]
                out[i] = out[j]
                out[j] = card
                i -= 1


_SHUFFLES: Final[dict[int, Shuffle]] = {}


def shuffle_for(size: int) -> Shuffle:
    """The ``Shuffle`` of ``size`` cards (made once)."""
    found = _SHUFFLES.get(size)
    if found is None:
        found = _SHUFFLES[size] = Shuffle(size)
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
        self.shuffle = shuffle_for(len(self.pack))
        self.random_first = rules.first_dealer == "random"

    def first_dealer(self, seed: int) -> int:
        """The first dealer: at random, or whoever is dealt the first black jack.

        For the black jack, a seeded shuffle of the pack is dealt face up one
        card at a time, starting with seat 0, until a jack of clubs or spades
        appears.
        """
        if self.random_first:
            return seeded_int(seed, "first_dealer") % self.players
        cards = list(self.pack)
        self.shuffle.apply(cards, seeded_int(seed, "black_jack"))
        for i, c in enumerate(cards):
            if c in (_JACK_CLUBS, _JACK_SPADES):  # compiled: two comparisons, no set to hash into
                return i % self.players
        return 0

    def shuffled(self, key: bytes, number: int) -> list[int]:
        """The pack as deal number ``number`` (0-based) deals it (``key``: ``deal_key(seed)``)."""
        out = list(self.pack)
        self.shuffle.apply(out, hashed_int(key, number))
        return out

    def deal(self, seed: int, number: int) -> Deal:
        """Deal number ``number`` (0-based, thrown-in deals included) of a game seeded ``seed``."""
        return self.deal_pack(self.shuffled(deal_key(seed), number))

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


def first_dealer(rules: HouseRules, seed: int) -> int:
    """The first dealer of a game of ``rules`` seeded ``seed`` (see ``Dealer.first_dealer``)."""
    return Dealer(rules).first_dealer(seed)
