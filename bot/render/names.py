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

__all__ = ["shown"]

_INLINE: Final = re.compile(r"[\\*_~|`<>\[\]]|:(?=//)")
"""Emphasis, underline, strike, spoiler, code, mentions and masked links, a link's ``://``."""
_LINE_START: Final = re.compile(r"^(\s*)([#+-]|\d+(?=\.))", re.MULTILINE)
"""A header, a list item or a numbered one, when the name begins a line."""
_MENTION: Final = re.compile(r"@(?=everyone|here)")


def _escape(match: re.Match[str]) -> str:
    return "\\" + match.group()


def _line_start(match: re.Match[str]) -> str:
    indent, mark = match.groups()
    return indent + (f"{mark}\\" if mark[0].isdigit() else f"\\{mark}")


def shown(name: str) -> str:
    """``name`` escaped for Discord's Markdown (it may grow to twice its length).

    Shortened after, by :func:`~bot.render.fitting.shorten`, it keeps each escape whole.
    """
    return _MENTION.sub("@\u200b", _LINE_START.sub(_line_start, _INLINE.sub(_escape, name)))
