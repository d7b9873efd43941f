"""How the web app serves: its public address, the rate per address, how long pages keep.

options = WebOptions(base_url="https://euchre.example.org", requests_per_minute=120)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .shared_rates import SharedRates

__all__ = ["WebOptions"]


@dataclass(frozen=True, slots=True)
class WebOptions:
    """How the app serves: its public address, the rate per address, how long pages keep."""

    base_url: str
    """The pages' public address without a trailing slash (``https://euchre.example.org``)."""
    requests_per_minute: int = 120
    """Pages one address may ask for a minute (its files: ten times as many)."""
    trust_forwarded: int = 0
    """Proxies in front whose X-Forwarded-For entries are believed (0: none)."""
    page_seconds: float = 30.0
    """How long a server's or player's page is kept before it is made again."""
    public_seconds: float = 10.0
    """How long a server's ``web_public`` setting is trusted before it is read again."""
    game_seconds: float = 300.0
    """How long a finished game's page and picture are kept (here and in browsers)."""
    readers: int = 4
    """Connections that only read, one lent to each page being made (``Readers``)."""
    rates: SharedRates | None = None
    """Buckets shared with the other serving processes (``web_processes``); None: this
    process's own."""
    clock: Callable[[], float] = time.monotonic

    def __post_init__(self) -> None:
        if not self.base_url.startswith(("http://", "https://")) or self.base_url.endswith("/"):
            raise ValueError(
                f"base_url {self.base_url!r}: the pages' public address, like "
                "https://euchre.example.org (no slash at the end)"
            )
