"""The computer of euchre-cli (PyPI ``euchre-cli`` 0.7), seated through the player protocol.

``python -m lab arena --a expert --b lab.players.outside.euchre_cli:EuchreCliPlayer``

Each decision builds euchre-cli's own ``Computer`` with the seat's hand in its card
classes and asks it the question its game would ask: ``call_pick_up`` in the first
round, ``pick_up_card`` for the dealer's discard, ``call_trump_suit`` in the
second round, ``play_card`` in the play. Its game has no loners, no stick-the-dealer
and no other variants: where our rules ask something it never decides, the adapter
answers as its game would (never alone; a stuck dealer names the suit it holds most
of). Its first-round call is sometimes random ("on accident") through the ``random``
module; the adapter seeds that from its own seed, so matches are reproducible.
"""

from __future__ import annotations

import random
from typing import Any

from bot.rules import Action, SeatView
from bot.rules.cards import JOKER

try:
    from euchre.abstract import Card, Computer, Face, Suit, Team
except ImportError as exc:  # pragma: no cover - depends on the optional extra
    raise ImportError("euchre-cli is not installed: pip install 'euchre-cli==0.7.*'") from exc

__all__ = ["EuchreCliPlayer"]

_SUITS = (
    Suit("Club", "Black"),
    Suit("Diamond", "Red"),
    Suit("Heart", "Red"),
    Suit("Spade", "Black"),
)
"""Our suit numbers (clubs, diamonds, hearts, spades) in euchre-cli's classes."""
_FACES = {
    2: Face("Nine", 9),
    3: Face("Ten", 10),
    4: Face("Jack", 11),
    5: Face("Queen", 12),
    6: Face("King", 13),
    7: Face("Ace", 14),
}
"""Our ranks (nine is 2 ... ace is 7) in euchre-cli's classes."""


def _to_cli(card: int) -> Any:
    if card >= JOKER or (card & 7) not in _FACES:
        raise ValueError(f"euchre-cli plays the 24-card pack only, not card {card}")
    return Card(_SUITS[card >> 3], _FACES[card & 7])


def _from_cli(card: Any) -> int:
    suit = next(i for i, s in enumerate(_SUITS) if s.name == card.suit.name)
    rank = next(r for r, f in _FACES.items() if f.name == card.face.name)
    return suit * 8 + rank


class EuchreCliPlayer:
    """euchre-cli 0.7's computer player, for the 24-card four-seat game."""

    name: str = "euchre-cli"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def _computer(self, view: SeatView) -> Any:
        computer = Computer(f"seat {view.seat + 1}", Team(f"team {view.team}"))
        computer.is_dealer = view.seat == view.dealer
        computer.hand = [_to_cli(c) for c in view.hand]
        return computer

    def choose(self, view: SeatView) -> Action:
        """Ask euchre-cli's computer the question its own game would ask here."""
        legal = view.legal
        if view.phase == "bid1":
            return self._first_round(view)
        if view.phase == "bid2":
            return self._second_round(view)
        if view.phase == "discard":
            computer = self._computer(view)
            computer.hand = [_to_cli(c) for c in view.hand if c != view.upcard]
            discard = _from_cli(computer.pick_up_card(_to_cli(view.upcard)))
            return _pick(legal, "discard", card=discard)
        if view.phase == "play":
            return self._play(view)
        # Going alone, a partner's card: euchre-cli's game has neither; it never goes alone.
        return next((a for a in legal if a.do == "pass"), legal[0])

    def _first_round(self, view: SeatView) -> Action:
        computer = self._computer(view)
        partner_is_dealer = (view.seat + 2) % view.players == view.dealer
        random.seed(self.rng.random())
        if computer.call_pick_up(_to_cli(view.upcard), partner_is_dealer):
            order = [a for a in view.legal if a.do == "order_up" and not a.alone]
            if order:
                return order[0]
        return _pick(view.legal, "pass")

    def _second_round(self, view: SeatView) -> Action:
        computer = self._computer(view)
        turned = _SUITS[view.upcard >> 3]
        suit = computer.call_trump_suit(turned)
        calls = {a.suit: a for a in view.legal if a.do == "call" and not a.alone}
        if suit.name != turned.name:
            chosen = calls.get(_SUITS.index(suit))
            if chosen is not None:
                return chosen
        passing = [a for a in view.legal if a.do == "pass"]
        if passing:
            return passing[0]
        # Stuck: the suit it holds most of (euchre-cli's game would redeal instead).
        counts = {s: sum(1 for c in view.hand if c >> 3 == s) for s in calls}
        return calls[max(counts, key=lambda s: (counts[s], -(s or 0)))]

    def _play(self, view: SeatView) -> Action:
        assert view.trump is not None
        computer = self._computer(view)
        played = [_to_cli(c) for _, c in view.trick]
        card = _from_cli(computer.play_card(played, _SUITS[view.trump]))
        plays = [a for a in view.legal if a.do == "play"]
        return next((a for a in plays if a.card == card), plays[0])


def _pick(legal: tuple[Action, ...], do: str, **fields: object) -> Action:
    for action in legal:
        if action.do == do and all(getattr(action, k) == v for k, v in fields.items()):
            return action
    raise ValueError(f"euchre-cli chose {do} {fields}, which is not legal here")
