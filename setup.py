"""Build: compile the rules core and the search with mypyc where a C compiler is at hand.

pyproject.toml describes the project; this file only adds the compiled modules
(``COMPILED`` in bot/compiled.py) as C extensions made by mypyc, then writes
``bot/compiled.json``, the SHA-256 of each source it compiled, which
``bot/compiled.py`` checks at import. The install is pure Python, and passes the
same tests, when ``EUCHRE_PURE=1`` is set (a pure build also removes compiled
files an earlier build left beside the sources), when mypyc cannot translate
the sources, or when no C compiler works: the build says which, and goes on. A
fallback is a warning, which pip shows even without ``-v``, and its reason goes
into the record, so that ``python -m bot --version`` and the start-up line name it.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import warnings
from pathlib import Path
from types import ModuleType
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CCompilerError, ExecError, PlatformError

ROOT = Path(__file__).resolve().parent
GROUP = "bot.native"
"""mypyc's shared library of the compiled modules: bot/native__mypyc.<abi>.so."""


def _guard() -> ModuleType:
    """bot/compiled.py, loaded on its own (importing ``bot`` would run its import guard)."""
    spec = importlib.util.spec_from_file_location("_euchre_compiled", ROOT / "bot" / "compiled.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


GUARD = _guard()


def _say(message: str) -> None:
    print(f"euchre-bot build: {message}", file=sys.stderr)


class PureFallbackWarning(UserWarning):
    """The install goes on as pure Python because compiling could not be done."""


def _fall_back(reason: str, *targets: Path) -> None:
    """Warn that the install is pure Python and why; record the reason in ``targets``."""
    warnings.warn(
        f"euchre-bot build: {reason}; installing the pure-Python sources "
        "(the same games, two to three times slower)",
        PureFallbackWarning,
        stacklevel=2,
    )
    _write_record({"modules": {}, "pure": f"{reason} at install"}, *targets)


def _write_record(record: dict[str, Any], *targets: Path) -> None:
    for target in targets:
        path = target / "bot" / GUARD.RECORD
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")


def _in_place() -> bool:
    """Whether this build installs the sources where they are (an editable install)."""
    return bool({"editable_wheel", "develop", "--inplace", "-i"}.intersection(sys.argv[1:]))


def _compiled_files(root: Path) -> list[Path]:
    """The compiled files of this project under ``root`` (extensions and the record)."""
    names = [*GUARD.COMPILED, GROUP + "__mypyc"]
    found = [GUARD.extension_path(root, name) for name in names]
    record = root / "bot" / GUARD.RECORD
    return [p for p in [*found, record] if p is not None and p.is_file()]


def _remove_compiled(root: Path) -> None:
    for path in _compiled_files(root):
        path.unlink()


class BuildExt(build_ext):
    """build_ext that falls back to pure Python when compiling fails, and records the sources."""

    def run(self) -> None:
        in_place = bool(self.inplace or getattr(self, "editable_mode", False))
        try:
            super().run()
        except (CCompilerError, ExecError, PlatformError, OSError) as exc:
            self.extensions = []
            _remove_compiled(Path(self.build_lib))  # nothing half-built goes into a wheel
            if in_place:
                _remove_compiled(ROOT)
            targets = [Path(self.build_lib)] + ([ROOT] if in_place else [])
            _fall_back(f"no working C compiler ({exc})", *targets)
            return
        if not self.extensions:
            return
        _write_record({"modules": SOURCES}, ROOT if in_place else Path(self.build_lib))


SOURCES: dict[str, str] = {}
"""The SHA-256 of each compiled source, taken as mypyc is given them (the build's record)."""

BUILDS = frozenset({"build", "build_ext", "bdist_wheel", "editable_wheel", "develop", "install"})
"""The setup.py commands that build extensions (metadata alone needs no mypyc run)."""


def extensions() -> list[Any]:
    """The compiled modules as extensions; none when pure Python is asked for or mypyc fails."""
    if not BUILDS.intersection(sys.argv[1:]):
        return []
    if GUARD.wants_pure(os.environ):
        _say(f"{GUARD.PURE_VARIABLE} is set: installing the pure-Python sources")
        _remove_compiled(ROOT)
        if _in_place():
            _write_record({"modules": {}, "pure": f"{GUARD.PURE_VARIABLE}=1 at install"}, ROOT)
        return []
    paths = [str(GUARD.source_path(ROOT, m).relative_to(ROOT)) for m in GUARD.COMPILED]
    SOURCES.update((m, GUARD.digest(GUARD.source_path(ROOT, m))) for m in GUARD.COMPILED)
    try:
        from mypyc.build import mypycify

        return list(mypycify(paths, group_name=GROUP))
    except (Exception, SystemExit) as exc:  # a type error exits mypy
        _remove_compiled(ROOT)
        _fall_back(
            f"mypyc could not translate the sources ({exc!r})", *([ROOT] if _in_place() else [])
        )
        return []


if __name__ == "__main__":  # as setuptools runs it too; a test may import it without building
    setup(ext_modules=extensions(), cmdclass={"build_ext": BuildExt})
