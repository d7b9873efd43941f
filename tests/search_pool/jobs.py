"""Jobs a test hands to a pool of worker processes: module-level, so that they pickle."""

from __future__ import annotations

import os
from pathlib import Path


def die_once(marker: str) -> int:
    """Kill the worker the first time (leaving ``marker``), answer its process id after."""
    path = Path(marker)
    if not path.exists():
        path.write_text("died", encoding="utf-8")
        os._exit(3)
    return os.getpid()


def die() -> int:
    """Kill the worker, every time."""
    os._exit(3)


def fail(message: str) -> int:
    """Raise in the worker: the caller gets the error, and the worker lives on."""
    raise ValueError(message)
