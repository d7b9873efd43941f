"""The worst cases the bot's messages must hold: long names in mixed scripts, the longest rules.

Display names are 100 characters (Unicode code points, as Discord counts), more than
Discord lets a person choose, mixing right-to-left scripts, combining marks, emoji
built of several code points, wide characters and Markdown (escaped where Discord reads
it, so longer there), so that any message naming people is tried at its longest. :func:`longest_rules` are the house rules whose text is the longest the rules allow.
"""

from __future__ import annotations

import functools
import typing
from collections.abc import Sequence
from typing import Final

from bot.render.names import shown
from bot.render.rules import rules_text
from bot.rules import PRESETS, HouseRules
from tests.kit.harness import FakeGuild, Harness, MemberSpec

NAME_LENGTH: Final = 100

_PIECES: Final = (
    "مُحَمَّد",  # Arabic with its vowel marks: right to left
    "שָׁלוֹם",  # Hebrew with points: right to left
    "Z̤̈a̧̰l̵̛g̷o",  # Latin under a pile of combining marks
    "👩‍❤️‍💋‍👨",  # one emoji of ten code points
    "🏳️‍🌈",
    "東京の夜",
    "हिन्दी",
    "Ελένη",
    "Łódź",
    "🃏♠️♥️",
    "*_~|`[>]\\",  # Markdown: each escaped, so the name grows in Discord's text
)


def long_name(index: int) -> str:
    """A display name of exactly 100 characters, different for each ``index``."""
    head = f"{index:02d}·"
    text = head
    piece = index
    while len(text) < NAME_LENGTH:
        text += _PIECES[piece % len(_PIECES)] + " "
        piece += 3
    return text[:NAME_LENGTH]


def long_members(
    count: int, *, prefix: str = "p", first: MemberSpec | None = None
) -> list[MemberSpec]:
    """``count`` members named ``p00``, ``p01``... whose display names are :func:`long_name`."""
    specs = [MemberSpec(f"{prefix}{i:02d}", nick=long_name(i)) for i in range(count)]
    return specs if first is None else [first, *specs]


def long_guild(h: Harness, count: int, *, admin: bool = True) -> FakeGuild:
    """A guild of ``count`` long-named members; the first may manage the server."""
    specs = long_members(count)
    if admin:
        specs[0] = MemberSpec(specs[0].name, {"manage_guild": True}, nick=specs[0].nick)
    return h.guild(members=specs)


def _candidates(field: str, rules: HouseRules) -> list[object]:
    """The values a rule may take, as its type says (numbers: a few, the largest first)."""
    annotation = HouseRules.model_fields[field].annotation
    args = typing.get_args(annotation)
    if typing.get_origin(annotation) is typing.Literal:
        values: list[object] = list(args)
    elif annotation is bool:
        values = [True, False]
    elif annotation is int or int in args:
        values = [99, 7, 4, 1, *([None] if type(None) in args else [])]
    else:
        values = []
    return [v for v in values if v != getattr(rules, field)]


@functools.cache
def longest_rules() -> HouseRules:
    """The house rules whose every-rule text is the longest: each preset, each rule changed
    to the value that lengthens the text most while the rules stay valid, the longest kept."""
    found: list[HouseRules] = []
    for preset in PRESETS:
        rules = HouseRules.preset_rules(preset)
        for field in HouseRules.model_fields:
            if field in ("preset", "game", "players"):
                continue
            for value in _candidates(field, rules):
                try:
                    changed = rules.with_changes(**{field: value})
                except ValueError:
                    continue
                if len(rules_text(changed)) > len(rules_text(rules)):
                    rules = changed
        found.append(rules)
    return max(found, key=lambda r: len(rules_text(r)))


def names_shown(text: str, names: Sequence[str]) -> list[str]:
    """The names of ``names`` that ``text`` shows whole: as typed in plain text (a title, a
    button), or escaped where Discord reads Markdown (:func:`~bot.render.names.shown`)."""
    return [n for n in names if n in text or shown(n) in text]
