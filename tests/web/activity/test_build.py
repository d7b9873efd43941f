"""The committed build of the Activity's client is what its sources build to today.

Marked ``node`` (left out of the default run; ``.ci/run`` runs it): it installs the
client's pinned packages from its lockfile into a temporary copy with ``npm ci``, builds
there with the pinned esbuild, and compares each file with the one the package ships.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.node

ACTIVITY = Path(__file__).resolve().parents[3] / "bot" / "web" / "activity"
CLIENT = ACTIVITY / "client"
BUILT = ("activity.js", "activity-mock.js")


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        if os.environ.get("EUCHRE_NODE_REQUIRED"):
            pytest.fail(f"no {name} on PATH: apt-get install npm")
        pytest.skip(f"no {name} on PATH: apt-get install npm (as .ci/run does)")
    return found


def test_the_toolchain_and_the_sdk_are_pinned_exactly() -> None:
    package = json.loads((CLIENT / "package.json").read_text())
    lock = json.loads((CLIENT / "package-lock.json").read_text())
    wanted = {**package["dependencies"], **package["devDependencies"]}
    assert wanted == {"@discord/embedded-app-sdk": "2.5.0", "esbuild": "0.25.12"}
    for name, version in wanted.items():
        assert lock["packages"][f"node_modules/{name}"]["version"] == version


def test_the_committed_build_is_current(tmp_path: Path) -> None:
    npm, node = _tool("npm"), _tool("node")
    work = tmp_path / "client"
    shutil.copytree(CLIENT, work, ignore=shutil.ignore_patterns("node_modules"))
    subprocess.run(
        [npm, "ci", "--no-audit", "--no-fund", "--silent"], cwd=work, check=True, timeout=300
    )
    out = tmp_path / "out"
    subprocess.run([node, "build.mjs", str(out)], cwd=work, check=True, timeout=120)
    for name in BUILT:
        fresh = (out / name).read_bytes()
        shipped = (ACTIVITY / "static" / name).read_bytes()
        assert fresh == shipped, (
            f"bot/web/activity/static/{name} is stale: run `npm ci && npm run build` "
            "in bot/web/activity/client and commit the result"
        )
