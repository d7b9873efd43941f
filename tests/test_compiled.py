"""The compiled build and its guard (bot/compiled.py): which one runs, and never a stale one.

The guard's decisions are checked on copies of the package in tmp_path, with
extension files that are not extensions at all: had the guard let Python import
one, the import would fail, so a passing import shows the sources ran.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import bot
from bot.compiled import COMPILED, PURE_VARIABLE, RECORD, SourceFinder, check, digest, source_path

ROOT = Path(bot.__file__).parent.parent
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


def test_the_modules_run_are_the_build_reported() -> None:
    print(f"running the {bot.BUILD.mode} build: {bot.BUILD.reason}")
    for name in COMPILED:
        origin = importlib.import_module(name).__file__ or ""
        assert origin.endswith(".py") == (bot.BUILD.mode != "compiled"), name


def _tree(tmp_path: Path) -> Path:
    """A copy of the package's sources (no compiled files) in tmp_path; returns its root."""
    shutil.copytree(
        ROOT / "bot",
        tmp_path / "bot",
        ignore=shutil.ignore_patterns("*.so", "*.pyd", RECORD, "__pycache__"),
    )
    return tmp_path


def _fake_build(root: Path) -> None:
    """Extension files (not loadable) for every compiled module, and a record of the sources."""
    for name in COMPILED:
        source = source_path(root, name)
        source.with_name(source.stem + SUFFIX).write_bytes(b"not an extension")
    record = {"modules": {m: digest(source_path(root, m)) for m in COMPILED}}
    (root / "bot" / RECORD).write_text(json.dumps(record), encoding="utf-8")


def _edit(root: Path, module: str) -> None:
    with source_path(root, module).open("a", encoding="utf-8") as f:
        f.write("\n# edited after the build\n")


def test_nothing_compiled_runs_the_sources_quietly(tmp_path: Path) -> None:
    assert check(_tree(tmp_path), COMPILED, {}).mode == "pure"


def test_a_build_that_matches_its_sources_is_used(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    _fake_build(root)
    assert check(root, COMPILED, {}).mode == "compiled"
    assert check(root, COMPILED, {PURE_VARIABLE: "1"}).mode == "pure"
    assert check(root, COMPILED, {PURE_VARIABLE: "0"}).mode == "compiled"


def test_an_edited_source_makes_the_build_stale(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    _fake_build(root)
    _edit(root, "bot.rules.cards")
    build = check(root, COMPILED, {})
    assert build.mode == "stale"
    assert "bot/rules/cards.py changed since it was compiled" in build.reason


def test_a_missing_record_or_extension_makes_the_build_stale(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    _fake_build(root)
    source = source_path(root, "bot.players.tracking")
    source.with_name(source.stem + SUFFIX).unlink()
    assert check(root, COMPILED, {}).reason == "bot.players.tracking has no compiled extension"
    _fake_build(root)
    (root / "bot" / RECORD).unlink()
    assert check(root, COMPILED, {}).mode == "stale"


def test_the_finder_gives_the_source_beside_an_extension(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "mod.py").write_text("VALUE = 1\n")
    (package / f"mod{SUFFIX}").write_bytes(b"not an extension")
    spec = SourceFinder(["pkg.mod"]).find_spec("pkg.mod", [str(package)])
    assert spec is not None and spec.origin == str(package / "mod.py")
    assert SourceFinder(["pkg.mod"]).find_spec("pkg.other", [str(package)]) is None


def _import_in(root: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Import the rules core and a player module from ``root`` in a fresh interpreter."""
    code = (
        "import bot, bot.rules.game as g, bot.players.double_dummy as d; "
        "print(bot.BUILD.mode, g.__file__.endswith('.py'), d.__file__.endswith('.py'))"
    )
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=root,
        env={"PATH": "/usr/bin:/bin", **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_a_stale_build_runs_every_source_and_says_so_in_one_line(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    _fake_build(root)
    _edit(root, "bot.rules.game")
    done = _import_in(root, {})
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["stale", "True", "True"]
    [line] = done.stderr.splitlines()
    assert "bot/rules/game.py changed since it was compiled" in line
    assert "pip install -e ." in line and PURE_VARIABLE in line


def test_pure_asked_for_runs_every_source_quietly(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    _fake_build(root)
    done = _import_in(root, {PURE_VARIABLE: "1"})
    assert done.returncode == 0, done.stderr
    assert (done.stdout.split(), done.stderr) == (["pure", "True", "True"], "")


@pytest.mark.skipif(bot.BUILD.mode != "compiled", reason="needs the compiled build")
def test_the_real_build_goes_stale_when_a_source_is_edited(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "bot", tmp_path / "bot", ignore=shutil.ignore_patterns("__pycache__"))
    assert _import_in(tmp_path, {}).stdout.split() == ["compiled", "False", "False"]
    _edit(tmp_path, "bot.rules.ranking")
    done = _import_in(tmp_path, {})
    assert done.stdout.split() == ["stale", "True", "True"]
    assert len(done.stderr.splitlines()) == 1


def test_the_build_is_said_in_words_with_its_reason(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    assert check(root, COMPILED, {PURE_VARIABLE: "1"}).describe() == "pure Python (EUCHRE_PURE=1)"
    assert check(root, COMPILED, {}).describe() == "pure Python (not compiled)"
    _fake_build(root)
    assert (
        check(root, COMPILED, {}).describe()
        == f"compiled ({len(COMPILED)} modules compiled by mypyc)"
    )
    _edit(root, "bot.rules.cards")
    assert check(root, COMPILED, {}).describe() == (
        "pure Python (stale: bot/rules/cards.py changed since it was compiled)"
    )


def _setup_module() -> ModuleType:
    """setup.py, loaded as a module: its functions, without building anything."""
    spec = importlib.util.spec_from_file_location("_euchre_setup", ROOT / "setup.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_fallback_at_install_warns_and_the_build_names_its_reason(
    tmp_path: Path,
) -> None:
    setup = _setup_module()
    root = _tree(tmp_path)
    reason = "no working C compiler (command '/bin/false' failed with exit code 1)"
    with pytest.warns(UserWarning, match="installing the pure-Python sources") as caught:
        setup._fall_back(reason, root)
    [warning] = caught
    assert str(warning.message).startswith(f"euchre-bot build: {reason}; ")
    build = check(root, COMPILED, {})
    assert build.describe() == f"pure Python ({reason} at install)"
    done = subprocess.run(
        [sys.executable, "-m", "bot", "--version"],
        cwd=root,
        env={"PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.endswith(f", pure Python ({reason} at install)\n")
    assert done.stdout.startswith("euchre-bot ")
