"""Euchre for Discord: the rules core, computer players, store, tables and rendering.

``BUILD`` says whether this process runs the modules compiled by mypyc or their
pure-Python sources (``bot/compiled.py`` decides, before anything else is imported);
:func:`about` says the version and the build in words.
"""

import os
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from .compiled import select

BUILD = select(Path(__file__).parent.parent, os.environ)


def about() -> str:
    """``euchre-bot VERSION, BUILD``: what runs, for ``--version`` and the start-up line."""
    try:
        installed = version("euchre-bot")
    except PackageNotFoundError:  # the sources, run without installing them
        installed = "(not installed)"
    return f"euchre-bot {installed}, {BUILD.describe()}"
