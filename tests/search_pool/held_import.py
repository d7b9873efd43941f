"""A module whose import waits until the file ``$HELD_IMPORT_RELEASE`` exists (a minute at most).

Preloaded by a search pool's fork server, it holds the workers' start until the test's
event loop, running on meanwhile, writes the file.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

_release = Path(os.environ["HELD_IMPORT_RELEASE"])
_deadline = time.monotonic() + 60  # a bound for a failure, not a measure
while not _release.exists():
    if time.monotonic() > _deadline:
        raise TimeoutError(f"{_release} never came: the event loop was blocked")
    time.sleep(0.01)
