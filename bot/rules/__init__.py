"""The rules core: every euchre of the rule sources in one pure, fast engine.

No discord, no asyncio, no I/O. Everything else in the project asks this
package what is legal, who took the trick and what a deal scored. These names
are what a user of the rules needs; the modules hold the rest (card and suit
tables in ``cards``, the rankings in ``ranking``, the state record in
``state``), and cards in words and symbols are ``bot.render.cards``'s. Every
error the rules raise is a ``RulesError`` (errors.py).

    >>> from bot.rules import HouseRules, new_game
    >>> game = new_game(HouseRules.preset_rules("north_american"), seed=7)
    >>> game.phase, game.turn is not None
    ('bid1', True)
"""

from .actions import ACTION_CODE_PATTERN, Action, action_from_json
from .cards import Suit, card_label, parse_card
from .dealing import Deal
from .errors import (
    ERROR_CODES,
    ActionError,
    CardError,
    ErrorCode,
    RecordError,
    RefusedError,
    RulesError,
)
from .game import Game, new_game
from .house_rules import PRESETS, HouseRules
from .pickling import register as _register_pickling
from .record import Replay, game_record, parse_record, replay
from .results import Contract, DealResult, Trick
from .state import Phase
from .view import PastDeal, SeatView, public_view, seat_view

__all__ = [
    "ACTION_CODE_PATTERN",
    "ERROR_CODES",
    "PRESETS",
    "Action",
    "ActionError",
    "CardError",
    "Contract",
    "Deal",
    "DealResult",
    "ErrorCode",
    "Game",
    "HouseRules",
    "PastDeal",
    "Phase",
    "RecordError",
    "RefusedError",
    "Replay",
    "RulesError",
    "SeatView",
    "Suit",
    "Trick",
    "action_from_json",
    "card_label",
    "game_record",
    "new_game",
    "parse_card",
    "parse_record",
    "public_view",
    "replay",
    "seat_view",
]

_register_pickling()
