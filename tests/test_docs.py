"""The repository stands alone: its docs name what they rely on, inside the repository."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from bot.rules import HouseRules

REPO = Path(__file__).resolve().parents[1]
RECORD_FORMAT = REPO / "docs" / "record-format.md"
OUTSIDE = re.compile(r"\.\./" + "shared|shared/" + "(rules-sources|record-format)")


def tracked(*paths: str) -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "--", *paths], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.split()
    return [REPO / name for name in listed]


def test_nothing_points_outside_the_repository() -> None:
    files = tracked("README.md", "docs", "tests", "bot", "cogs")
    assert RECORD_FORMAT in files
    found = [
        f"{path.relative_to(REPO)}: {line.strip()}"
        for path in files
        if path.suffix in {".md", ".py", ".toml", ".txt", ".json", ".sql"} and path.exists()
        for line in path.read_text(encoding="utf-8").splitlines()
        if OUTSIDE.search(line)
    ]
    assert not found, found


def test_every_rule_source_cited_by_the_tests_is_named() -> None:
    table = dict(re.findall(r"^\| (\d{3}) \| (.+) \|$", RECORD_FORMAT.read_text(), re.MULTILINE))
    assert sorted(table) == ["000", "001", "002", "003", "004"]
    cited = set(
        re.findall(r"\b(00\d)\b", (REPO / "tests" / "rules" / "test_rule_fields.py").read_text())
    )
    assert cited <= set(table)
    assert all(title.startswith("*") for title in table.values()), "each by its title"


def test_every_rules_field_is_documented() -> None:
    text = RECORD_FORMAT.read_text(encoding="utf-8")
    documented = set(re.findall(r"^\| `(\w+)` \|", text, re.MULTILINE))
    missing = set(HouseRules.model_fields) - documented - {"preset"}  # see `rules` above
    assert not missing, f"docs/record-format.md lacks the rules fields {sorted(missing)}"


LENGTHS = {"README.md": 250, "docs/players.md": 500}
"""The most lines each page may have: past that it is restructured, its detail moved where
it belongs (never trimmed to the line)."""


def test_the_long_pages_stay_within_their_lengths() -> None:
    over = {
        name: lines
        for name, most in LENGTHS.items()
        if (lines := len((REPO / name).read_text(encoding="utf-8").splitlines())) > most
    }
    assert not over, f"over their lengths {LENGTHS}: {over}"
