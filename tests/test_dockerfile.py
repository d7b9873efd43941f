"""The Dockerfile, read (no Docker engine in the tests): pinned base, layers, health check.

And the time Docker gives a stopping bot, in README's `docker run` and compose.yaml.

Three stages: ``client`` builds the Activity's client with its pinned npm toolchain,
``build`` compiles the wheel (mypyc needs a C compiler) with that client in it, and the
image installs the wheel.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import bot.__main__ as cli
from bot.discord.app import FLUSH_GRACE, HANDLERS_GRACE
from bot.web.drawing import FONT_PLACES

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


def stages() -> list[list[tuple[str, str]]]:
    """The instructions of each stage, each list starting at its FROM."""
    found: list[list[tuple[str, str]]] = []
    for step in instructions():
        if step[0] == "FROM":
            found.append([])
        if found:
            found[-1].append(step)
    return found


def test_base_images_are_pinned_to_one_patch_release() -> None:
    _, build, image = stages()
    assert build[0] == ("FROM", f"{image[0][1]} AS build")
    assert re.fullmatch(r"python:3\.11\.\d+-slim-bookworm", image[0][1]), image[0]


def test_the_client_is_built_by_its_pinned_toolchain_into_the_wheel() -> None:
    client, build, image = stages()
    assert re.fullmatch(r"node:20\.\d+\.\d+-bookworm-slim AS client", client[0][1]), client[0]
    copied = [a for w, a in client if w == "COPY"]
    assert copied[0].endswith("package.json bot/web/activity/client/package-lock.json ./")
    assert ("RUN", "npm ci --no-audit --no-fund") in client
    assert ("RUN", "node build.mjs /built") in client
    into = ("COPY", "--from=client /built/ ./bot/web/activity/static/")
    assert into in build
    assert build.index(into) < next(i for i, (w, a) in enumerate(build) if "pip wheel" in a)
    assert not any("node" in a or "npm" in a for _, a in image)


def test_the_build_stage_compiles_the_wheel_with_a_c_compiler() -> None:
    _, build, image = stages()
    assert any(w == "RUN" and "install -y --no-install-recommends gcc" in a for w, a in build)
    assert ("COPY", "pyproject.toml setup.py README.md LICENSE ./") in build
    assert any(w == "RUN" and "pip wheel" in a and "--wheel-dir /wheels ." in a for w, a in build)
    assert not any("gcc" in a for _, a in image)
    [install] = [a for w, a in image if w == "RUN" and "/wheels/*.whl" in a]
    assert 'sys.exit(bot.BUILD.mode != "compiled")' in install


def test_dependencies_are_installed_before_the_code_is_copied() -> None:
    steps = stages()[-1]
    install_deps = next(
        i for i, (w, a) in enumerate(steps) if w == "RUN" and "-r requirements.txt" in a
    )
    copies = [i for i, (w, a) in enumerate(steps) if w == "COPY"]
    assert steps[copies[0]] == ("COPY", "pyproject.toml ./")
    assert copies[0] < install_deps < min(i for i in copies if "wheels" in steps[i][1])
    assert any(w == "RUN" and "pip install --no-deps /wheels/*.whl" in a for w, a in steps)


def test_health_check_runs_the_health_command() -> None:
    [check] = [args for word, args in instructions() if word == "HEALTHCHECK"]
    command = json.loads(check.split(" CMD ", 1)[1])
    assert command == ["python", "-m", "bot", "health"]
    assert cli.build_parser().parse_args(command[3:]).handler is cli.health
    assert [a for w, a in instructions() if w == "USER"] == ["euchre"]


def test_docker_gives_a_stopping_bot_the_time_its_stop_takes() -> None:
    takes = HANDLERS_GRACE + FLUSH_GRACE + 2  # and a moment to close the gateway
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    compose = (REPO / "compose.yaml").read_text(encoding="utf-8")
    (timeout,) = re.findall(r"docker run -d .*--stop-timeout (\d+)", readme)
    (grace,) = re.findall(r"stop_grace_period: (\d+)s", compose)
    assert int(timeout) >= takes and int(grace) >= takes


def test_the_dockerfile_runs_the_bot_as_readme_does() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    dockerfile = (REPO / "Dockerfile").read_text(encoding="utf-8")
    (ours,) = re.findall(r"^# +(docker run -d .*)$", dockerfile, re.MULTILINE)
    (theirs,) = re.findall(r"^(docker run -d .*)$", readme, re.MULTILINE)
    assert ours == theirs
    assert "--stop-timeout 20" in ours


def test_the_image_has_the_fonts_the_link_pictures_draw_names_with() -> None:
    image = stages()[-1]
    [fonts] = [a for w, a in image if w == "RUN" and "fonts-noto-color-emoji" in a]
    assert (
        "apt-get install -y --no-install-recommends fonts-dejavu-core fonts-noto-color-emoji"
        in fonts
    )
    assert fonts.endswith("rm -rf /var/lib/apt/lists/*")
    # where those Debian packages put them is where the pictures look first
    assert FONT_PLACES["regular"][0] == "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    assert FONT_PLACES["bold"][0] == "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
    assert FONT_PLACES["emoji"][0] == "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"
