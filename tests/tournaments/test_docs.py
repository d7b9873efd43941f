"""docs/tournaments.md shows the rotation table the code makes, and documents every setting."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.tournaments import rotation_markdown, rotation_table
from bot.tournaments.model import EventSettings

DOC = Path(__file__).resolve().parents[2] / "docs" / "tournaments.md"


def documented_table() -> str:
    text = DOC.read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith("| ") and "|---" not in line]
    return "\n".join(
        line for line in rows if re.match(r"\| (\d+|players) \| (\d+|rounds) \|", line)
    )


def test_every_event_setting_is_documented() -> None:
    text = DOC.read_text(encoding="utf-8")
    documented = set(re.findall(r"^\| `(\w+)` \|", text, re.MULTILINE))
    assert documented == set(EventSettings.model_fields)


def test_the_documented_rows_for_eight_and_forty_players_are_the_codes() -> None:
    made = rotation_markdown(rotation_table(players=[8, 40], rounds=[3, 7, 10]))
    for line in made.splitlines()[2:]:
        assert line in documented_table()


@pytest.mark.slow
def test_the_whole_documented_rotation_table_is_the_codes() -> None:
    made = rotation_markdown(rotation_table())
    assert documented_table() == "\n".join(
        line for line in made.splitlines() if not line.startswith("|---")
    )
