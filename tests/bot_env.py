"""The bot's own environment, kept out of the tests of start-up, settings and logs.

A test process may carry a token, ``EUCHRE_*`` variables (the CI run's own among them)
and a ``./config.toml``; a test of how the bot reads them starts from none of these.
:func:`child_env` is that environment for a ``python -m bot`` child process; the
``clean_env`` fixture of ``tests/conftest.py`` clears it in the test's own process.
"""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
"""The checkout the tests run from, on the child's ``PYTHONPATH``."""


def is_bot_variable(name: str) -> bool:
    """Whether the bot reads the environment variable ``name`` (any case, as it does)."""
    return name.upper().startswith("EUCHRE_") or name.upper() == "DISCORD_TOKEN"


def child_env(**extra: str) -> dict[str, str]:
    """This process's environment without the bot's variables, running this checkout."""
    env = {k: v for k, v in os.environ.items() if not is_bot_variable(k)}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    env.update(extra)
    return env
