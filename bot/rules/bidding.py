"""What both biddings share: the first checks of every action, making trump, going alone.

A deal's bidding is euchre's (euchre_bidding.py: ordering up, naming trump,
loners and their gifts) or Bid Euchre's (bid_bidding.py: numeric bids, a
declared trump, a shooter's gifts); each is functions over the ``State``
(state.py), and each ends by beginning the play (play.py). Every refusal
follows the order record-format.md gives: the game over (``wrong_phase``), the
wrong seat (``not_your_turn``), an action the phase does not have
(``wrong_phase``), a card not held (``card_not_in_hand``), then the rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from .actions import Action
from .cards import card_words
from .errors import RefusedError
from .state import Phase, State

VERB_WORDS: Final = {
    "pass": "pass",
    "order_up": "order up",
    "call": "name trump",
    "discard": "discard",
    "alone": "go alone",
    "give": "give a card",
    "ask": "ask for a card",
    "redeal": "throw in the hands",
    "swap": "swap with the kitty",
    "play": "play a card",
    "bid": "bid",
    "shoot": "shoot",
    "declare": "name trump",
}
"""Each verb in a sentence: "You can't ... now"."""

_CARD_VERBS: Final = frozenset({"give", "discard", "play"})
NO_VERBS: Final[frozenset[str]] = frozenset()
"""What a game that is over allows."""


def check_turn(
    s: State,
    seat: int,
    action: Action,
    verbs: frozenset[str],
    phase_words: Mapping[Phase, str],
) -> None:
    """The checks every action meets first: the game on, the seat's turn, the phase, the cards.

    ``verbs`` are those the phase allows now, ``phase_words`` each phase in words.
    """
    phase = s.phase
    do = action.do
    verb = VERB_WORDS[do]
    if phase is None:
        raise RefusedError("wrong_phase", f"You can't {verb} now: the game is over.")
    if seat != s.turn:
        raise RefusedError("not_your_turn", "It's not your turn.")
    if do not in verbs:
        raise RefusedError("wrong_phase", f"You can't {verb} now: {phase_words[phase]}.")
    card = action.card
    if card is None and do in _CARD_VERBS:
        raise RefusedError("not_allowed", f"Name the card to {verb.split()[0]}.")
    held = [card] if card is not None else list(action.cards or ())
    spare = list(s.hands[seat])
    for c in held:
        if c not in spare:
            raise RefusedError("card_not_in_hand", f"You don't hold {card_words(c)}.")
        spare.remove(c)


def make_trump(s: State, seat: int, trump: int) -> None:
    """``seat`` made ``trump`` (a suit; in Bid Euchre also a no-trump)."""
    ranking = s.fixed.ranking
    s.trump = int(trump)  # a plain int in both builds, where a Suit member is passed in
    s.eff = ranking.suit[trump]
    s.power = ranking.power[trump]
    s.maker = seat
    s.makers = seat % 2


def go_alone(s: State, seat: int) -> None:
    """``seat`` plays alone: its partners sit the deal out."""
    s.alone = (*s.alone, seat)
    out = list(s.out)
    for p in s.fixed.partners[seat]:
        out[p] = True
    s.out = tuple(out)
