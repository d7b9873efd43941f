"""Names in text that is not HTML: a page's title, a link's preview, a picture.

In a page, a name sits in a ``<bdi>``. Where there is no markup (``<title>``, the Open
Graph tags Discord shows), :func:`isolate` wraps it in Unicode's first-strong isolate
(U+2068) and pop-directional-isolate (U+2069), the same thing in characters, after
taking out any directional formatting character of its own that would escape it.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["BIDI_CONTROLS", "isolate", "without_controls"]

BIDI_CONTROLS: Final = re.compile("[\u200e\u200f\u202a-\u202e\u2066-\u2069\u061c]")
"""Directional marks, embeddings, overrides and isolates."""


def without_controls(name: str) -> str:
    """``name`` without directional formatting characters (for pictures)."""
    return BIDI_CONTROLS.sub("", name)


def isolate(name: str) -> str:
    """``name`` as a directional isolate: nothing in it turns the text around it."""
    return f"\u2068{without_controls(name)}\u2069"
