"""Every command line's help: plain text, every default shown; and what the tools print."""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import bot.__main__ as bot_cli
import bot.rules.__main__ as rules_cli
import lab.bench.cli as bench_cli
import lab.players.parser as players_parser
from bot.cli import EXIT_OUTPUT_CLOSED
from bot.players import LEVELS
from bot.rules import HouseRules
from lab.players.arena import report, run_match

PARSERS = {
    "bot": bot_cli.build_parser,
    "bot.rules": rules_cli.build_parser,
    "lab": players_parser.build_parser,
    "lab.bench": bench_cli.build_parser,
}
RECORD = Path(__file__).parent / "rules" / "records" / "worked_hand_002.json"


def every_parser(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                yield from every_parser(sub)


def has_a_default(action: argparse.Action) -> bool:
    return action.default not in (None, False, argparse.SUPPRESS) and bool(action.option_strings)


@pytest.mark.parametrize("name", PARSERS)
def test_help_is_plain_text_and_shows_every_default(name: str) -> None:
    parsers = list(every_parser(PARSERS[name]()))
    assert len(parsers) > 1, "the commands are reached"
    for parser in parsers:
        text = " ".join(parser.format_help().split())
        assert "``" not in text, text
        assert ":func:" not in text and ":class:" not in text
        for action in parser._actions:
            if has_a_default(action):
                assert action.help and "%(default)" in action.help, (parser.prog, action.dest)
                shown = {f"(default: {action.default})"}
                if isinstance(action.default, float):
                    shown.add(f"(default: {action.default:g})")
                assert any(s in text for s in shown), (parser.prog, action.dest)


def test_arena_help_lists_the_player_levels() -> None:
    [arena] = [p for p in every_parser(players_parser.build_parser()) if p.prog.endswith("arena")]
    text = " ".join(arena.format_help().split())
    assert f"Player levels: {', '.join(LEVELS)}" in text
    assert (
        "--a A side A: a level (random, beginner, basic, expert) or module:Class (default: basic)"
        in text
    )


def test_replay_help_says_json_seats_count_from_0() -> None:
    [replay] = [p for p in every_parser(rules_cli.build_parser()) if p.prog.endswith("replay")]
    text = " ".join(replay.format_help().split())
    assert "seats count from 0" in text
    assert "--text" in text and "seats counted from 1 as Discord shows them" in text


def test_replay_text_counts_seats_from_1_and_says_results_in_words(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert rules_cli.main(["replay", str(RECORD)]) == 0
    as_json = json.loads(capsys.readouterr().out)
    assert as_json["turn"]["seat"] == 2, "the contract counts from 0"
    assert rules_cli.main(["replay", "--text", str(RECORD)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "Seats are numbered 1-4 as Discord shows them (the JSON output counts from 0): "
        "seats 1 and 3 play against seats 2 and 4.",
        "Deal 1: seat 1 dealt; hearts made trump by seat 2; tricks so far 0-0, still in play.",
        "Score: 0 points for seats 1 and 3, 0 for seats 2 and 4.",
        "Next: seat 3, in play, may play 9♥ or play J♥.",
    ]


def test_replay_text_of_a_finished_game_and_a_refused_action(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = json.loads(RECORD.read_text())
    doc["actions"].append({"seat": 0, "do": "play", "card": "9S"})
    path = tmp_path / "refused.json"
    path.write_text(json.dumps(doc))
    assert rules_cli.main(["replay", "--text", str(path)]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith(
        "The record stops at its action 4 (counting from 1), which was refused: "
    )
    assert last.endswith("(not_your_turn)")


def test_decision_times_print_in_ms() -> None:
    result = run_match("basic", "random", 1, 1, HouseRules.preset_rules("north_american"))
    lines = [line for line in report(result).splitlines() if line.startswith("decide")]
    assert len(lines) == 2
    for line in lines:
        times = re.findall(r"(p50|p95|p99|max) (\d+(?:\.\d+)?) ms", line)
        assert [name for name, _ in times] == ["p50", "p95", "p99", "max"], line
        assert " us" not in line and "µs" not in line


CLOSED_OUTPUT = [
    ["bot", "--version"],
    ["bot.rules", "replay", str(RECORD), "--text"],
    ["lab", "bench", "rules", "--seconds", "0.01"],
    ["lab", "loners", "--level", "random", "--deals", "2"],
    ["lab", "bench", "hints", "--hints", "1"],
]


@pytest.mark.parametrize("argv", CLOSED_OUTPUT, ids=" ".join)
def test_every_command_line_exits_quietly_when_its_output_is_closed(
    argv: list[str], tmp_path: Path
) -> None:
    """As after ``| head -1``: the reader has gone before the command writes."""
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run(
            [sys.executable, "-m", *argv],
            stdout=write,
            stderr=subprocess.PIPE,
            cwd=tmp_path,
            env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])},
            text=True,
            timeout=120,
            check=False,
        )
    finally:
        os.close(write)
    assert (done.returncode, done.stderr) == (EXIT_OUTPUT_CLOSED, "")
