"""How tables, hands and rules look in Discord: embeds and text, no state and no I/O.

The public table message is drawn from :class:`~bot.tables.PublicTable` only, so it
cannot show a hidden card; a private hand from the seat's own ``SeatView``.
"""

from .cards import card_name, card_text, hand_text, sort_hand, suit_text
from .controls import (
    TABLE_VERBS,
    TAKEOVER_PROMPT,
    PublicButton,
    PublicControls,
    SeatOption,
    TableVerb,
    played_again_controls,
    public_controls,
)
from .dealt_hands import dealt_hands_panel
from .faces import NO_FACES, CardFaces
from .hand import HandButton, closed_hand_panel, hand_buttons, hand_panel
from .help import help_panel
from .hints import hint_text
from .rules import rules_line, rules_panel, rules_text
from .table import LAST_DEAL, table_panel, turn_mention

__all__ = [
    "LAST_DEAL",
    "NO_FACES",
    "TABLE_VERBS",
    "TAKEOVER_PROMPT",
    "CardFaces",
    "HandButton",
    "PublicButton",
    "PublicControls",
    "SeatOption",
    "TableVerb",
    "card_name",
    "card_text",
    "closed_hand_panel",
    "dealt_hands_panel",
    "hand_buttons",
    "hand_panel",
    "hand_text",
    "help_panel",
    "hint_text",
    "played_again_controls",
    "public_controls",
    "rules_line",
    "rules_panel",
    "rules_text",
    "sort_hand",
    "suit_text",
    "table_panel",
    "turn_mention",
]
