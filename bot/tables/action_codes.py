"""A short text form of an action, for button ids and log lines: ``play.10H``, ``call.S.alone``.

Cards and suits are written as in game records. :func:`decode_action` is the exact
inverse of :func:`encode_action` and refuses anything else with :class:`ValueError`.
"""

from __future__ import annotations

import re
from typing import Final

from bot.rules import Action, CardError, Suit, card_label, parse_card, parse_suit

__all__ = ["ACTION_CODE_PATTERN", "decode_action", "encode_action"]

ACTION_CODE_PATTERN: Final = r"[a-z_]+(?:\.[A-Za-z0-9-]+){0,2}"
"""A regular expression matching every code (used inside button-id templates)."""

_CARD_VERBS: Final = ("discard", "give", "play")
_PLAIN_VERBS: Final = ("pass", "alone", "redeal")
_ALONE_WORDS: Final = {True: "alone", False: "with"}
_CODE: Final = re.compile(ACTION_CODE_PATTERN)


def encode_action(action: Action) -> str:
    """The code of ``action``."""
    do = action.do
    if do in _CARD_VERBS:
        assert action.card is not None
        return f"{do}.{card_label(action.card)}"
    if do == "order_up":
        return do if action.alone is None else f"{do}.{_ALONE_WORDS[action.alone]}"
    if do == "call":
        assert action.suit is not None
        code = f"call.{Suit(action.suit).letter}"
        return code if action.alone is None else f"{code}.{_ALONE_WORDS[action.alone]}"
    if do == "ask":
        return f"ask.{action.partner}"
    if do == "swap":
        return "swap." + "-".join(card_label(c) for c in action.cards or ())
    return do


def decode_action(code: str) -> Action:
    """The action a code stands for; ValueError when it is not a code."""
    if not _CODE.fullmatch(code):
        raise ValueError(f"{code!r} is not an action code")
    do, *args = code.split(".")
    try:
        action = _decode(do, args)
    except CardError as exc:
        raise ValueError(f"{code!r}: {exc}") from None
    if encode_action(action) != code:
        raise ValueError(f"{code!r} is not an action code")
    return action


def _decode(do: str, args: list[str]) -> Action:
    if do in _PLAIN_VERBS and not args:
        return Action(do)  # type: ignore[arg-type]
    if do in _CARD_VERBS and len(args) == 1:
        return Action(do, card=parse_card(args[0]))  # type: ignore[arg-type]
    if do == "order_up" and len(args) <= 1:
        return Action("order_up", alone=_alone(args[0]) if args else None)
    if do == "call" and 1 <= len(args) <= 2:
        alone = _alone(args[1]) if len(args) == 2 else None
        return Action("call", suit=int(parse_suit(args[0])), alone=alone)
    if do == "ask" and len(args) == 1 and args[0].isdigit():
        return Action("ask", partner=int(args[0]))
    if do == "swap" and len(args) == 1:
        return Action("swap", cards=tuple(parse_card(c) for c in args[0].split("-")))
    raise ValueError(f"{do!r} with {args!r} is not an action code")


def _alone(word: str) -> bool:
    for value, name in _ALONE_WORDS.items():
        if word == name:
            return value
    raise ValueError(f"{word!r} is neither 'alone' nor 'with'")
