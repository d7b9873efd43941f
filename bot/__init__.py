"""Euchre for Discord: the rules core, computer players, store, tables and rendering.

``BUILD`` says whether this process runs the modules compiled by mypyc or their
pure-Python sources (``bot/compiled.py`` decides, before anything else is imported).
"""

import os
from pathlib import Path

from .compiled import select

BUILD = select(Path(__file__).parent.parent, os.environ)
