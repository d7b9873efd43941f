"""Which modules ship compiled by mypyc, and the guard that runs their sources when it must.

``setup.py`` compiles ``COMPILED`` (the rules core and the search the computer
players run) into C extensions when a C compiler is at hand, and writes
``compiled.json`` beside them: a SHA-256 of every source as it was compiled.
An extension file shadows the ``.py`` of the same name, and an editable install
builds them beside the sources, so an edited source could silently not run.

At ``import bot`` this module decides, once, which the process runs:

- ``compiled``: every extension is there and every source matches its record;
- ``pure``: nothing is compiled (the reason the install gave, such as no C
  compiler, is in the record), or ``EUCHRE_PURE=1`` asks for the sources;
- ``stale``: some extension is there, but a source changed since the build (or
  an extension or the record is missing); one line on stderr says so and how to
  rebuild.

Anything but ``compiled`` loads every module of ``COMPILED`` from its ``.py``,
all or nothing: compiled classes cannot subclass pure ones. ``bot.BUILD``
holds the decision, and :meth:`Build.describe` says it in words (the start-up
line, ``python -m bot --version``).
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Final, Literal

COMPILED: Final = (
    "bot.rules.actions",
    "bot.rules.bid_bidding",
    "bot.rules.bidding",
    "bot.rules.cards",
    "bot.rules.dealing",
    "bot.rules.deals",
    "bot.rules.euchre_bidding",
    "bot.rules.euchre_checks",
    "bot.rules.game",
    "bot.rules.play",
    "bot.rules.ranking",
    "bot.rules.results",
    "bot.rules.scoring",
    "bot.rules.state",
    "bot.rules.view",
    "bot.players.basic",
    "bot.players.cardplay",
    "bot.players.deck",
    "bot.players.double_dummy",
    "bot.players.evaluation",
    "bot.players.inference",
    "bot.players.sampling",
    "bot.players.tracking",
)
"""The modules setup.py compiles (the rest of the project is always pure Python)."""

PURE_VARIABLE: Final = "EUCHRE_PURE"
"""Set to 1 (at install or at run time) for the pure-Python sources."""
RECORD: Final = "compiled.json"
"""The build's record, in the ``bot`` package folder: ``{"modules": {name: sha256}}``.

An install that fell back to pure Python records why instead: ``{"modules": {},
"pure": reason}``.
"""
REBUILD: Final = "pip install -e ."

Mode = Literal["compiled", "pure", "stale"]


@dataclass(frozen=True)
class Build:
    """What this process runs: ``mode``, and why, in words."""

    mode: Mode
    reason: str

    def describe(self) -> str:
        """The build in words: ``compiled (...)``, or ``pure Python (why)``."""
        if self.mode == "compiled":
            return f"compiled ({self.reason})"
        if self.mode == "stale":
            return f"pure Python (stale: {self.reason})"
        return f"pure Python ({self.reason})"


def wants_pure(environ: Mapping[str, str]) -> bool:
    """Whether the environment asks for the pure-Python sources."""
    return environ.get(PURE_VARIABLE, "").strip().lower() in ("1", "true", "yes", "on")


def digest(path: Path) -> str:
    """The SHA-256 of a source file, as the record keeps it."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def source_path(root: Path, module: str) -> Path:
    """Where ``module``'s ``.py`` is, ``root`` being the folder that holds ``bot``."""
    return root.joinpath(*module.split(".")).with_suffix(".py")


def extension_path(root: Path, module: str) -> Path | None:
    """The compiled extension of ``module`` this Python would import; None when there is none."""
    base = root.joinpath(*module.split("."))
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        candidate = base.with_name(base.name + suffix)
        if candidate.is_file():
            return candidate
    return None


def check(root: Path, modules: Sequence[str], environ: Mapping[str, str]) -> Build:
    """Decide between the compiled modules and their sources (see the module's docstring)."""
    if wants_pure(environ):
        return Build("pure", f"{PURE_VARIABLE}={environ[PURE_VARIABLE].strip()}")
    present = [m for m in modules if extension_path(root, m) is not None]
    if not present:
        return Build("pure", _pure_reason(root))
    missing = [m for m in modules if m not in present]
    if missing:
        return Build("stale", f"{missing[0]} has no compiled extension")
    try:
        recorded = json.loads((root / "bot" / RECORD).read_text(encoding="utf-8"))["modules"]
    except (OSError, ValueError, KeyError, TypeError):
        return Build("stale", f"bot/{RECORD}, the build's record, is missing or unreadable")
    for module in modules:
        path = source_path(root, module)
        if not path.is_file() or recorded.get(module) != digest(path):
            return Build("stale", f"{path.relative_to(root)} changed since it was compiled")
    return Build("compiled", f"{len(modules)} modules compiled by mypyc")


def _pure_reason(root: Path) -> str:
    """Why nothing is compiled: the install's recorded reason, or "not compiled"."""
    try:
        reason = json.loads((root / "bot" / RECORD).read_text(encoding="utf-8"))["pure"]
    except (OSError, ValueError, KeyError, TypeError):
        return "not compiled"
    return str(reason) if reason else "not compiled"


class SourceFinder(importlib.abc.MetaPathFinder):
    """Finds ``names`` as their ``.py`` files, ahead of any extension beside them."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = frozenset(names)

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        """The source's spec for one of ``names``; None (ask the next finder) otherwise."""
        if fullname not in self.names:
            return None
        leaf = fullname.rpartition(".")[2] + ".py"
        for folder in path or ():
            candidate = os.path.join(folder, leaf)
            if os.path.isfile(candidate):
                return importlib.util.spec_from_file_location(fullname, candidate)
        return None


def run_sources(modules: Sequence[str]) -> None:
    """Make every later import of ``modules`` load the ``.py`` (once per process)."""
    if not any(isinstance(f, SourceFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, SourceFinder(modules))


def select(root: Path, environ: Mapping[str, str]) -> Build:
    """Decide for this process; on anything but compiled, run the sources (stale: say so)."""
    build = check(root, COMPILED, environ)
    if build.mode != "compiled":
        run_sources(COMPILED)
    if build.mode == "stale":
        print(
            f"euchre-bot: running the pure-Python sources, {build.reason}; "
            f"rebuild the compiled modules with `{REBUILD}` (or set {PURE_VARIABLE}=1)",
            file=sys.stderr,
        )
    return build
