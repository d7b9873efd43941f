"""The lab's command-line options that every command writes alike, each default in its help.

Every option of ``python -m lab`` and ``python -m lab bench`` shows its default in its
``--help``: :func:`number` is an int or float option so described, :func:`seed` and
:func:`preset` the two most commands take, :func:`database_url` where a bench may run
on a database of its own.
"""

from __future__ import annotations

import argparse
from typing import Any

__all__ = ["database_url", "number", "preset", "seed", "with_default"]


def with_default(text: str) -> str:
    """An option's help ``text`` followed by its default."""
    return f"{text} (default: %(default)s)"


def number(
    parser: argparse.ArgumentParser, flag: str, default: float, text: str, **more: Any
) -> None:
    """An option of the type of ``default`` (int or float), its default in its help."""
    parser.add_argument(flag, type=type(default), default=default, help=with_default(text), **more)


def seed(parser: argparse.ArgumentParser, text: str = "seed") -> None:
    """``--seed``, 1 unless given."""
    number(parser, "--seed", 1, text)


def preset(parser: argparse.ArgumentParser, text: str = "a preset name") -> None:
    """``--rules``, the North American rules unless given."""
    parser.add_argument("--rules", default="north_american", help=with_default(text))


def database_url(parser: argparse.ArgumentParser, text: str) -> None:
    """``--database-url URL``, a database of the bench's own (none unless given)."""
    parser.add_argument("--database-url", default=None, metavar="URL", help=text)
