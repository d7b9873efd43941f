"""The rules core: every euchre of the rule sources in one pure, fast engine.

No discord, no asyncio, no I/O. Everything else in the project asks this
package what is legal, who took the trick and what a deal scored.

    >>> from bot.rules import Game, HouseRules, seat_view
    >>> game = Game(HouseRules.preset_rules("north_american"), seed=7)
    >>> game.phase, game.turn is not None
    ('bid1', True)
"""

from .actions import ACTION_CODE_PATTERN, Action, ActionError, action_from_json
from .bid_game import BidGame, make_game, trump_words
from .cards import CardError, Suit, card_label, card_symbol, card_words, parse_card, parse_suit
from .dealing import Deal
from .errors import ERROR_CODES, ErrorCode, RuleError
from .game import Game, Phase, Trick
from .house_rules import PRESET_DESCRIPTIONS, PRESETS, HouseRules, RulesError
from .record import RecordError, Replay, game_record, parse_record, replay
from .scoring import Contract, DealResult
from .view import PastDeal, SeatView, public_view, seat_view

__all__ = [
    "ACTION_CODE_PATTERN",
    "ERROR_CODES",
    "PRESETS",
    "PRESET_DESCRIPTIONS",
    "Action",
    "ActionError",
    "BidGame",
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
    "Replay",
    "RuleError",
    "RulesError",
    "SeatView",
    "Suit",
    "Trick",
    "action_from_json",
    "card_label",
    "card_symbol",
    "card_words",
    "game_record",
    "make_game",
    "parse_card",
    "parse_record",
    "parse_suit",
    "public_view",
    "replay",
    "seat_view",
    "trump_words",
]
