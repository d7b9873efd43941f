"""The Dockerfile, read (no Docker engine in the tests): pinned base, layers, health check."""

from __future__ import annotations

import json
import re
from pathlib import Path

import bot.__main__ as cli

REPO = Path(__file__).resolve().parents[1]


def instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) in order, continuation lines joined, comments dropped."""
    text = (REPO / "Dockerfile").read_text(encoding="utf-8")
    joined = re.sub(r"\\\n", " ", text)
    found = []
    for line in joined.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            found.append((word.upper(), " ".join(rest.split())))
    return found


def test_base_image_is_pinned_to_a_patch_release() -> None:
    [base] = [args for word, args in instructions() if word == "FROM"]
    assert re.fullmatch(r"python:3\.11\.\d+-slim-bookworm", base), base


def test_dependencies_are_installed_before_the_code_is_copied() -> None:
    steps = instructions()
    install_deps = next(
        i for i, (w, a) in enumerate(steps) if w == "RUN" and "-r requirements.txt" in a
    )
    copies = [i for i, (w, a) in enumerate(steps) if w == "COPY"]
    assert steps[copies[0]] == ("COPY", "pyproject.toml ./")
    assert copies[0] < install_deps < min(i for i in copies if "bot" in steps[i][1])
    assert any(w == "RUN" and "pip install --no-deps ." in a for w, a in steps)


def test_health_check_runs_the_health_command() -> None:
    [check] = [args for word, args in instructions() if word == "HEALTHCHECK"]
    command = json.loads(check.split(" CMD ", 1)[1])
    assert command == ["python", "-m", "bot", "health"]
    assert cli.build_parser().parse_args(command[3:]).handler is cli.health
    assert [a for w, a in instructions() if w == "USER"] == ["euchre"]
