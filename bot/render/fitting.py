"""Discord's limits on what the bot draws, and fitting text into them without losing any.

Discord refuses a payload past its limits (a 400, code 50035), counting characters as
Unicode code points. A label or a name is :func:`shorten`-ed with "…" at a place that
splits no letter from its marks, no emoji and no Markdown escape; a list is never cut:
:func:`chunks` splits its lines into pieces that fit (the fields of an embed, several
messages) and the callers page what is longer than one message may hold.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Sequence
from typing import Final

__all__ = [
    "BUTTON_LABEL",
    "CONTENT",
    "EMBED_DESCRIPTION",
    "EMBED_FIELDS",
    "EMBED_TITLE",
    "EMBED_TOTAL",
    "FIELD_NAME",
    "FIELD_VALUE",
    "FOOTER",
    "OPTION_TEXT",
    "THREAD_NAME",
    "chunks",
    "fit_fields",
    "fit_lines",
    "shorten",
]

CONTENT: Final = 2000
EMBED_TITLE: Final = 256
EMBED_DESCRIPTION: Final = 4096
FIELD_NAME: Final = 256
FIELD_VALUE: Final = 1024
FOOTER: Final = 2048
EMBED_TOTAL: Final = 6000
"""Characters across every embed of one message."""
EMBED_FIELDS: Final = 25
BUTTON_LABEL: Final = 80
OPTION_TEXT: Final = 100
"""A select option's label, value and description; an autocomplete choice's name."""
THREAD_NAME: Final = 100

ELLIPSIS: Final = "…"
_JOINERS: Final = frozenset("\u200d\ufe0e\ufe0f\u20e3")
"""Zero-width joiner, variation selectors, the keycap: they bind to the character before."""


def _binds(char: str) -> bool:
    """Whether ``char`` belongs to the character before it (a mark, a joiner, a skin tone)."""
    return (
        unicodedata.category(char).startswith("M")
        or char in _JOINERS
        or 0x1F3FB <= ord(char) <= 0x1F3FF
        or 0xE0020 <= ord(char) <= 0xE007F
    )


def shorten(text: str, limit: int) -> str:
    """``text`` whole if it fits ``limit`` characters, else cut with "…" where nothing is split."""
    if len(text) <= limit:
        return text
    cut = max(limit - len(ELLIPSIS), 0)
    while cut > 0 and (_binds(text[cut]) or text[cut - 1] == "\u200d" or _escapes(text[:cut])):
        cut -= 1
    return text[:cut].rstrip() + ELLIPSIS


def _escapes(head: str) -> bool:
    """Whether ``head`` ends in a backslash that escapes the character after it."""
    return (len(head) - len(head.rstrip("\\"))) % 2 == 1


def chunks(lines: Iterable[str], limit: int, *, separator: str = "\n") -> list[str]:
    """``lines`` joined into as few pieces as fit ``limit`` each, in order, none split.

    A single line longer than ``limit`` is shortened (it is one entry: a name, a result).
    """
    pieces: list[str] = []
    current = ""
    for line in lines:
        line = shorten(line, limit)
        joined = f"{current}{separator}{line}" if current else line
        if current and len(joined) > limit:
            pieces.append(current)
            current = line
        else:
            current = joined
    if current:
        pieces.append(current)
    return pieces


More = Callable[[int], str]
"""The line that says how many lines were left out ("… and 12 more: ...")."""


def fit_lines(lines: Sequence[str], limit: int, more: More, *, hidden: int = 0) -> tuple[str, int]:
    """As many of ``lines`` as fit ``limit`` characters, then ``more(left out)`` if any.

    ``hidden``: lines of the list beyond ``lines``, left out whatever fits. The text,
    and how many of ``lines`` it shows (the first ones).
    """
    for shown in range(len(lines), -1, -1):
        left = len(lines) - shown + hidden
        text = "\n".join([*lines[:shown], *([more(left)] if left else [])])
        if len(text) <= limit:
            return text, shown
    return shorten(more(len(lines) + hidden), limit), 0


def fit_fields(
    title: str, lines: Sequence[str], budget: int, more: More, *, most: int = EMBED_FIELDS
) -> tuple[list[tuple[str, str]], int]:
    """Embed fields (name, value) holding the first of ``lines``, in ``budget`` characters.

    The first field is named ``title``, the next ones "``title``, continued"; at most
    ``most`` fields. When not all fit, the last field ends with ``more(left out)``.
    Returns the fields and how many lines they show (no field at all if none fits).
    """

    def fields_of(body: list[str]) -> list[tuple[str, str]]:
        values = chunks(body, FIELD_VALUE)
        return [(title if i == 0 else f"{title}, continued", v) for i, v in enumerate(values)]

    def size(fields: list[tuple[str, str]]) -> int:
        return sum(len(name) + len(value) for name, value in fields)

    for shown in range(len(lines), -1, -1):
        left = len(lines) - shown
        fields = fields_of([*lines[:shown], *([more(left)] if left else [])])
        if len(fields) <= most and size(fields) <= budget:
            return fields, shown
    return [], 0
