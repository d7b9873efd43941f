"""Names people chose (display names, an event's or a season's name) as Discord text shows them.

Discord formats Markdown in message content, embed descriptions and field values, and
makes mentions and links of ``<@id>``, ``@everyone`` and ``https://``. :func:`shown` is
a name as such text takes it: every character that would format, mention or link is
escaped, so the name reads as typed and never becomes a mention or a link. Button
labels, select options, embed titles, footers and thread names are plain text: they
take the name as it is (only :func:`~bot.render.fitting.shorten`-ed), never this.
"""

from __future__ import annotations

import re
from typing import Final

from .fitting import shorten

__all__ = ["shown"]

_INLINE: Final = re.compile(r"[\\*_~|`<>\[\]]|:(?=//)")
"""Emphasis, underline, strike, spoiler, code, mentions and masked links, a link's ``://``."""
_LINE_START: Final = re.compile(r"^(\s*)([#+-]|\d+(?=\.))", re.MULTILINE)
"""A header, a list item or a numbered one, when the name begins a line."""
_MENTION: Final = re.compile(r"@(?=everyone|here)")


def _escaped(text: str) -> str:
    text = _INLINE.sub(lambda m: "\\" + m.group(), text)
    text = _LINE_START.sub(
        lambda m: (
            m.group(1) + (m.group(2) + "\\" if m.group(2)[0].isdigit() else "\\" + m.group(2))
        ),
        text,
    )
    return _MENTION.sub("@\u200b", text)


def shown(name: str, limit: int | None = None) -> str:
    """``name`` escaped for Discord's Markdown, in at most ``limit`` characters.

    A name too long for ``limit`` once escaped is shortened first, with "…", so no escape
    is cut in half.
    """
    text = _escaped(name)
    if limit is None or len(text) <= limit:
        return text
    for keep in range(min(limit, len(name)), -1, -1):
        text = _escaped(shorten(name, keep))
        if len(text) <= limit:
            return text
    return ""
