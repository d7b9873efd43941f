"""``python -m bot.rules replay`` on records of every preset, finished and unfinished."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from bot.rules import PRESETS, HouseRules, game_record, new_game, replay

from .util import calm_choice, replay_command


# One process a record: the default run replays one euchre and one Bid Euchre preset.
@pytest.mark.parametrize(
    "preset",
    [
        pytest.param(p, marks=() if p in ("north_american", "bid_euchre") else pytest.mark.slow)
        for p in PRESETS
    ],
)
@pytest.mark.parametrize("finish", [False, True])
def test_cli_replays_a_record_of_every_preset(preset: str, finish: bool, tmp_path: Path) -> None:
    rng = random.Random(preset)
    game = new_game(HouseRules.preset_rules(preset), seed=11)
    steps = 0
    while not game.over and (finish or steps < 40):
        game.apply(game.turn, calm_choice(game, rng))  # type: ignore[arg-type]
        steps += 1
    doc = game_record(game, with_deals=True)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc))
    proc = replay_command(path)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out == replay(doc).to_json()
    assert out["ok"] is True and out["score"] == game.score
    assert (out["turn"] is None) is finish
    if finish:
        assert out["winner"] == game.winner
