"""A player's private hand: the cards sorted with trump first, the situation, the legal actions.

:func:`hand_buttons` says which buttons the hand shows and where; the cog turns them
into components. Every action legal now gets a button; the cards are always shown as
buttons, those that can't be played now disabled. At most four rows are used, so the
cog has the fifth for its own buttons. Once the table closes the hand is its end
(:func:`closed_hand_embed`): the result, and no buttons.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Final, Literal

from bot.rules import Action, SeatView, Suit
from bot.rules.ranking import NO_TRUMP_HIGH, build_ranking
from bot.tables import PublicTable

from .action_words import Words, button_label, goes_alone
from .cards import (
    bower_word,
    card_text,
    hand_text,
    in_colours,
    sort_hand,
    suit_text,
    trump_text,
)
from .fitting import BUTTON_LABEL, shorten
from .panel import Colour, Panel
from .table import result_line, score_line
from .teams import label_name, player, team_mark

__all__ = [
    "ACTION_ROWS",
    "ButtonStyle",
    "HandButton",
    "closed_hand_panel",
    "hand_buttons",
    "hand_panel",
]

ButtonStyle = Literal["primary", "secondary", "success", "danger"]

ACTION_ROWS: Final = 4
"""Rows the hand's buttons may use (Discord allows five; the last is the cog's)."""

_PER_ROW: Final = 5
_CARD_ACTIONS: Final = {"play": Action.play, "discard": Action.discard, "give": Action.give}
_CARD_VERBS: Final = tuple(_CARD_ACTIONS)


@dataclass(frozen=True, slots=True)
class HandButton:
    """One button of the private hand."""

    label: str
    action: Action
    style: ButtonStyle
    disabled: bool
    row: int
    position: int
    """Its place among the hand's buttons (keeps button ids unique with two equal cards)."""
    card: int | None = None
    """The card it plays, discards or gives (None: another action)."""
    role: str = ""
    """A top trump's short name ("right", "left", "Benny"): the label beside a card's picture."""


def _card_label(card: int, trump: int | None) -> str:
    return f"{card_text(card)} {bower_word(card, trump)}".strip()


def _action_style(action: Action) -> ButtonStyle:
    if action.do in ("pass", "swap"):
        return "secondary"
    if action.do == "redeal":
        return "danger"
    return "success" if goes_alone(action) else "primary"


def _trump_label(trump: int) -> str:
    """A trump button: "♥️ Hearts", "No Trump High"."""
    if trump >= NO_TRUMP_HIGH:
        return trump_text(trump)
    suit = Suit(trump)
    return f"{suit_text(suit)[: -len(suit.plural)]}{suit.plural.capitalize()}"


_BUTTON_WORDS: Final = Words(card_text, _trump_label, _trump_label)
"""The buttons': emoji suits, trump (or a suit called) with its name ("♥️ Hearts")."""


def hand_buttons(table: PublicTable, view: SeatView, four_colour: bool = False) -> list[HandButton]:
    """The buttons of the hand: the legal non-card actions, then one per card.

    ``four_colour`` writes the suits of their labels in four colours (a person's
    preference); a card's picture comes from the faces the cog draws them with.
    """
    legal = view.legal if view.my_turn else ()
    others = [a for a in legal if a.do not in _CARD_VERBS]
    card_actions = {a.card: a for a in legal if a.do in _CARD_VERBS}
    verb = next((a.do for a in legal if a.do in _CARD_VERBS), "play")
    buttons: list[HandButton] = []
    for i, action in enumerate(others):
        label = button_label(view, action, words=_BUTTON_WORDS, name_of=partial(label_name, table))
        label = in_colours(shorten(label, BUTTON_LABEL), four_colour)
        buttons.append(HandButton(label, action, _action_style(action), False, i // _PER_ROW, i))
    card_row = (len(others) + _PER_ROW - 1) // _PER_ROW
    for i, card in enumerate(sort_hand(view.hand, view.trump)):
        legal_action = card_actions.get(card)
        action = legal_action or _CARD_ACTIONS[verb](card)
        trump = view.trump is not None and _follows_trump(view, card)
        buttons.append(
            HandButton(
                in_colours(_card_label(card, view.trump), four_colour),
                action,
                "primary" if trump else "secondary",
                legal_action is None,
                card_row + i // _PER_ROW,
                len(others) + i,
                card,
                bower_word(card, view.trump),
            )
        )
    if buttons and buttons[-1].row >= ACTION_ROWS:
        raise ValueError(f"{len(buttons)} buttons need more than {ACTION_ROWS} rows")
    return buttons


def _follows_trump(view: SeatView, card: int) -> bool:
    assert view.trump is not None
    if view.trump >= NO_TRUMP_HIGH:
        return False
    return build_ranking(view.rules).suit[view.trump][card] == view.trump


def _situation(table: PublicTable, view: SeatView) -> list[str]:
    dealer = player(table, view.dealer)
    lines = []
    if view.rules.game == "bid_euchre":
        lines.append(_bid_situation(table, view))
    elif view.trump is not None and view.maker is not None:
        alone = " alone" if view.maker in view.alone else ""
        lines.append(
            f"Trump: **{suit_text(view.trump)}**, made by {player(table, view.maker)}{alone}"
        )
    elif view.turned_down is not None:
        lines.append(f"{card_text(view.upcard)} was turned down · dealer {dealer}")
    else:
        lines.append(f"Upcard: **{card_text(view.upcard)}** · dealer {dealer}")
    if view.trick:
        trick = " · ".join(f"{player(table, s)} {card_text(c)}" for s, c in view.trick)
        lines.append(f"Trick: {trick}")
    return lines


def _bid_situation(table: PublicTable, view: SeatView) -> str:
    """Bid Euchre: the dealer and the highest bid; then the contract and trump."""
    dealer = player(table, view.dealer)
    contract = view.contract
    if contract is None:
        return f"Dealer {dealer} · no bid yet"
    bid = "shoots" if contract.shoot else f"bid {contract.tricks}"
    head = f"{player(table, contract.seat)} {bid}"
    if view.trump is None:
        return f"Dealer {dealer} · highest: {head}"
    return f"Contract: {head} · trump **{trump_text(view.trump)}**"


def _prompt(table: PublicTable, view: SeatView) -> str:
    if view.over:
        return "The game is over."
    if view.out[view.seat] and not view.my_turn:
        return "Your partner is playing alone: you sit out this deal."
    if not view.my_turn:
        assert view.turn is not None
        return f"Waiting for {player(table, view.turn)}."
    phase = view.phase
    if phase == "bid":
        if all(a.do != "pass" for a in view.legal):
            return "**Your turn**: everyone passed, so you must bid."
        return "**Your turn**: bid a number of tricks for your team, or pass."
    if phase == "declare":
        return "**Your turn**: name trump, or No Trump High or Low."
    if phase == "bid1":
        upcard = card_text(view.upcard)
        if view.seat == view.dealer:
            return f"**Your turn**: take up {upcard}, or turn it down."
        return f"**Your turn**: order the dealer up to take {upcard}, or pass."
    if phase == "bid2":
        if all(a.do != "pass" for a in view.legal):
            return "**Your turn**: name trump (the dealer can't pass now)."
        return "**Your turn**: name trump, or pass."
    if phase == "discard":
        return "**Your turn**: choose a card to discard."
    if phase == "alone":
        maker_side = view.makers == view.team
        return "**Your turn**: go alone?" if maker_side else "**Your turn**: defend alone?"
    if phase == "give":
        if view.seat in view.alone:
            return "**Your turn**: ask a partner for their best card?"
        if view.rules.game == "bid_euchre":
            return "**Your turn**: give your partner who shoots a card."
        return "**Your turn**: give your lone partner a card."
    if not view.trick:
        return "**Your turn**: lead a card."
    assert view.trump is not None
    led = build_ranking(view.rules).suit[view.trump][view.trick[0][1]]
    return f"**Your turn**: follow {suit_text(led)} if you can."


def _legend(view: SeatView) -> list[str]:
    """One line saying why some card buttons are blue, once trump is made."""
    if view.trump is None or view.trump >= NO_TRUMP_HIGH or not view.hand:
        return []
    return [f"Blue buttons are trump ({suit_text(view.trump)})."]


def hand_panel(table: PublicTable, view: SeatView, four_colour: bool = False) -> Panel:
    """The private hand of one seat (its suits in four colours with ``four_colour``)."""
    lines = [
        f"**{hand_text(view.hand, view.trump)}**" if view.hand else "You hold no cards now.",
        *_legend(view),
        *_situation(table, view),
        _prompt(table, view),
        f"Score: {team_mark(0)} {view.score[0]} · {team_mark(1)} {view.score[1]}",
    ]
    partners = [player(table, s) for s in range(view.seat % 2, view.players, 2) if s != view.seat]
    return Panel(
        f"Your hand · table {table.number}, deal {view.deal_number}",
        in_colours("\n".join(lines), four_colour),
        "dark_green" if view.my_turn else "dark_grey",
        footer=f"Seat {view.seat + 1} {team_mark(view.seat)} · partner {' & '.join(partners)} · "
        "these buttons last 15 minutes: Your hand on the table gives fresh ones.",
    )


def closed_hand_panel(table: PublicTable) -> Panel:
    """The private hand of a closed table: who won and the score, or the score it closed at."""
    game = table.game
    if table.status == "finished" and game is not None and game.view.over:
        title = "game over"
        lines = [result_line(table, game), score_line(table, game)]
        colour: Colour = "gold"
    else:
        title = "closed"
        lines = ["This table was closed before its game ended."]
        if game is not None:
            lines.append(f"Score when it closed: {score_line(table, game)}")
        colour = "light_grey"
    return Panel(f"Your hand · table {table.number} · {title}", "\n".join(lines), colour)
