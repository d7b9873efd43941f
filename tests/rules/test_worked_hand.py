"""The worked hand of rule source 002 ("A hand from start to finish"), replayed from its record."""

from __future__ import annotations

import json
from pathlib import Path

from bot.rules import replay

from .util import replay_command

RECORD = Path(__file__).parent / "records" / "worked_hand_002.json"

# 002: "You took tricks 1, 2 and 4, which makes three, so your side scores 1 point."
REST_OF_THE_HAND = [
    {"seat": 2, "do": "play", "card": "9H"},
    {"seat": 3, "do": "play", "card": "KH"},
    {"seat": 0, "do": "play", "card": "QH"},
    {"seat": 1, "do": "play", "card": "AS"},
    {"seat": 2, "do": "play", "card": "10S"},
    {"seat": 3, "do": "play", "card": "QS"},
    {"seat": 0, "do": "play", "card": "9S"},
    {"seat": 1, "do": "play", "card": "AH"},
    {"seat": 2, "do": "play", "card": "JH"},
    {"seat": 3, "do": "play", "card": "JS"},
    {"seat": 0, "do": "play", "card": "10C"},
    {"seat": 2, "do": "play", "card": "9D"},
    {"seat": 3, "do": "play", "card": "10D"},
    {"seat": 0, "do": "play", "card": "QD"},
    {"seat": 1, "do": "play", "card": "10H"},
    {"seat": 1, "do": "play", "card": "9C"},
    {"seat": 2, "do": "play", "card": "AC"},
    {"seat": 3, "do": "play", "card": "KS"},
    {"seat": 0, "do": "play", "card": "JC"},
]


def test_record_format_example_output_exactly() -> None:
    out = replay(RECORD.read_text()).to_json()
    assert out == {
        "ok": True,
        "error": None,
        "score": [0, 0],
        "winner": None,
        "deals": [
            {
                "dealer": 0,
                "trump": "H",
                "maker": 1,
                "makers": 1,
                "alone": [],
                "tricks": [0, 0],
                "points": [0, 0],
                "result": "in_play",
            }
        ],
        "turn": {
            "seat": 2,
            "phase": "play",
            "legal": [{"do": "play", "card": "9H"}, {"do": "play", "card": "JH"}],
        },
    }


def test_the_whole_hand_gives_seat_one_side_three_tricks_and_one_point() -> None:
    doc = json.loads(RECORD.read_text())
    doc["actions"] += REST_OF_THE_HAND
    out = replay(doc).to_json()
    assert out["ok"], out["error"]
    first = out["deals"][0]
    assert first["tricks"] == [2, 3]
    assert first["points"] == [0, 1]
    assert first["result"] == "made"
    assert out["score"] == [0, 1]
    # the game goes on: the next deal is dealt at once from the seed, by seat 1
    assert out["deals"][1]["result"] == "in_play"
    assert out["deals"][1]["dealer"] == 1
    assert out["turn"]["seat"] == 2 and out["turn"]["phase"] == "bid1"


def test_replay_cli_prints_the_object(tmp_path: Path) -> None:
    proc = replay_command(RECORD)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["turn"]["seat"] == 2


def test_replay_cli_reads_standard_input() -> None:
    proc = replay_command("-", RECORD.read_text())
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["ok"] is True


def test_replay_cli_exits_2_when_not_a_record(tmp_path: Path) -> None:
    cases = {
        "not_json.json": "{nope",
        "unknown_rule.json": json.dumps(
            {"format": 1, "rules": {"preset": "north_american", "stick": True}}
        ),
        "bad_card.json": json.dumps(
            {
                "format": 1,
                "rules": {},
                "deals": [{"hands": [["ZZ", "9S", "QD", "10C", "JC"]] * 4, "upcard": "QH"}],
            }
        ),
        "bad_preset.json": json.dumps({"format": 1, "rules": {"preset": "klondike"}}),
    }
    for name, text in cases.items():
        path = tmp_path / name
        path.write_text(text)
        proc = replay_command(path)
        assert proc.returncode == 2, name
        assert proc.stdout == ""
        assert proc.stderr.startswith("error: ") and "Traceback" not in proc.stderr, proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1


def test_replay_cli_exits_0_on_a_rejected_action(tmp_path: Path) -> None:
    doc = json.loads(RECORD.read_text())
    doc["actions"].append({"seat": 2, "do": "play", "card": "AC"})
    path = tmp_path / "rejected.json"
    path.write_text(json.dumps(doc))
    proc = replay_command(path)
    assert proc.returncode == 0
    out = json.loads(proc.stdout)
    assert out["ok"] is False
    assert out["error"]["index"] == 3
    assert out["error"]["code"] == "must_follow_suit"
    assert out["error"]["message"] == "You must follow hearts: you hold the nine of hearts."
    assert out["turn"]["seat"] == 2
