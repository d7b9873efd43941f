"""Bid Euchre's packs follow its players, as the record format says: 4 one, 6 and 8 two."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from bot.rules import HouseRules, RefusedError, replay
from bot.rules.house_rules import BID_EUCHRE_PACKS
from bot.rules.record import RecordError, parse_record, starting_game

from .util import replay_command


def record(rules: dict[str, object]) -> dict[str, object]:
    return {"format": 1, "rules": rules, "dealer": 0, "seed": 3, "actions": []}


def top_bid(doc: dict[str, object]) -> int:
    """The highest bid the first bidder may make: every trick of a hand."""
    turn = replay(doc).to_json()["turn"]
    return max(a["tricks"] for a in turn["legal"] if a["do"] == "bid")


@pytest.mark.parametrize(("players", "packs", "cards"), [(4, 1, 6), (6, 2, 8), (8, 2, 6)])
def test_a_spec_that_changes_players_alone_gets_their_packs(
    players: int, packs: int, cards: int
) -> None:
    assert BID_EUCHRE_PACKS[players] == packs
    for preset in ("bid_euchre", "bid_euchre_6", "bid_euchre_8"):
        rules = HouseRules.from_spec({"preset": preset, "players": players})
        assert (rules.packs, rules.hand_size) == (packs, cards), preset
        assert HouseRules.preset_rules(preset).with_changes(players=players) == rules
    doc = record({"preset": "bid_euchre", "players": players})
    game = starting_game(parse_record(doc))
    assert [len(hand) for hand in game.hands] == [cards] * players
    assert top_bid(doc) == cards


def test_the_presets_agree_with_the_contract() -> None:
    for preset, players in (("bid_euchre", 4), ("bid_euchre_6", 6), ("bid_euchre_8", 8)):
        rules = HouseRules.preset_rules(preset)
        assert (rules.players, rules.packs) == (players, BID_EUCHRE_PACKS[players])


@pytest.mark.parametrize(
    ("spec", "wanted"),
    [
        ({"preset": "bid_euchre", "players": 6, "packs": 1}, 2),
        ({"preset": "bid_euchre", "players": 8, "packs": 1}, 2),
        ({"preset": "bid_euchre", "packs": 2}, 1),
        ({"preset": "bid_euchre_6", "packs": 1}, 2),
    ],
)
def test_packs_that_contradict_the_players_are_refused(
    spec: dict[str, object], wanted: int
) -> None:
    with pytest.raises(RefusedError) as refused:
        HouseRules.from_spec(spec)
    message = str(refused.value)
    assert message.startswith("packs: ") and "players" in message
    assert f"packs {wanted}" in message and f"not packs {spec['packs']}" in message
    base = HouseRules.preset_rules(str(spec["preset"]))
    with pytest.raises(RefusedError, match=r"packs: .*players"):
        base.with_changes(**{k: v for k, v in spec.items() if k != "preset"})
    with pytest.raises(RecordError, match=r"rules: packs: .*players"):
        replay(record(spec))


def test_euchre_keeps_its_packs_when_players_change() -> None:
    rules = HouseRules.from_spec({"preset": "six_player", "players": 6})
    assert rules.packs == 1
    assert HouseRules.from_spec({"preset": "north_american", "packs": 2}).packs == 2


def test_the_replay_command_deals_six_players_eight_cards_and_refuses_a_contradiction(
    tmp_path: Path,
) -> None:
    def run(rules: dict[str, object]) -> subprocess.CompletedProcess[str]:
        path = tmp_path / "game.json"
        path.write_text(json.dumps(record(rules)))
        return replay_command(path)

    played = run({"preset": "bid_euchre", "players": 6})
    assert played.returncode == 0, played.stderr
    legal = json.loads(played.stdout)["turn"]["legal"]
    assert max(a["tricks"] for a in legal if a["do"] == "bid") == 8
    refused = run({"preset": "bid_euchre", "players": 6, "packs": 1})
    assert refused.returncode == 2 and not refused.stdout
    assert "packs" in refused.stderr and "players 6" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1
