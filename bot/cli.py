"""What every command line shares: a quiet exit when its output is closed.

``python -m lab bench rules | head -1`` closes the pipe after one line; the next write
raises BrokenPipeError. :func:`run_main` turns that into a quiet exit with status 141
(128 + SIGPIPE, as a shell reports a tool that SIGPIPE stopped). Every ``__main__`` of
the project ends with ``run_main(main)``. Imports nothing of the project, so that
every layer's command line may use it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import NoReturn

__all__ = ["EXIT_OUTPUT_CLOSED", "run_main"]

EXIT_OUTPUT_CLOSED = 141
"""The exit status when the output was closed before the command finished."""


def run_main(main: Callable[[], int]) -> NoReturn:
    """Exit with ``main()``'s status; quietly, with :data:`EXIT_OUTPUT_CLOSED`, on a closed pipe."""
    try:
        try:
            status = main()
        finally:
            sys.stdout.flush()  # what is still buffered fails here, not at shutdown
    except BrokenPipeError:
        # Python flushes stdout again at exit: point it at nothing so that says nothing.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        sys.exit(EXIT_OUTPUT_CLOSED)
    sys.exit(status)
