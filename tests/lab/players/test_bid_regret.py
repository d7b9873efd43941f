"""The bidding rules' regret: collecting searched decisions, and scoring rules on folds of them."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from bot.rules import Action, HouseRules
from lab.players.bid_regret import BLOCK, Decision, _block, collect_game, load
from lab.players.bid_rules import (
    RULES,
    Prior,
    by_errors,
    by_margin,
    by_shrinkage,
    calibration,
    folds,
    priors,
    report,
    score,
    shrunk_gain,
    truth_error,
)
from lab.players.cli import main


def _synthetic(
    game: int, gain: float, shift: float, rng: random.Random, blocks: int = 6
) -> tuple[Decision, list[list[float]]]:
    """Pass (0) against making trump (1): making is worth ``shift`` more on average."""
    values = []
    for _ in range(blocks * BLOCK):
        v = rng.gauss(0, 1)
        values.append([v, v + shift + rng.gauss(0, 1)])
    decision = Decision(
        game=game,
        round=1 + game // 2 % 2,
        klass=0,
        gain=gain,
        options=[json.dumps(Action.pass_().to_json()), json.dumps({"do": "order_up"})],
        fallback=1 if gain > 0 else 0,
        passing=0,
        make=1,
        made=1,
        real=[0.0, shift],
        blocks=[_block(values[i : i + BLOCK]) for i in range(0, len(values), BLOCK)],
    )
    return decision, values


def test_folds_rebuild_the_means_variances_and_held_out_truth_of_the_rollouts() -> None:
    decision, values = _synthetic(0, 0.2, 0.5, random.Random(1))
    cut = folds(decision, 2 * BLOCK)
    assert len(cut) == 3
    first = values[: 2 * BLOCK]
    rest = values[2 * BLOCK :]
    fold = cut[0]
    assert fold.n == 2 * BLOCK
    for a in (0, 1):
        assert fold.mean[a] == pytest.approx(sum(v[a] for v in first) / len(first), abs=1e-5)
        assert fold.truth[a] == pytest.approx(sum(v[a] for v in rest) / len(rest), abs=1e-5)
    diffs = [v[1] - v[0] for v in first]
    mean = sum(diffs) / len(diffs)
    var = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)
    assert fold.var(1, 0) == pytest.approx(var, rel=1e-4)
    assert fold.var(0, 0) == 0.0
    error, noise = truth_error(decision)
    whole = [v[1] - v[0] for v in values]
    assert error == pytest.approx(sum(whole) / len(whole) - 0.2, abs=1e-5)
    assert noise == pytest.approx(1.0 / len(whole), rel=0.5)  # the difference's variance is ~1


def test_shrinkage_weighs_the_model_and_the_rollouts_by_their_variances() -> None:
    prior = Prior(bias=0.0, tau2=0.04)
    # rollouts' variance of the mean 1/100 = 0.01: four times the model's weight
    assert shrunk_gain(0.5, -0.5, 1.0, 100, prior) == pytest.approx((0.5 * 25 - 0.5 * 100) / 125)
    assert shrunk_gain(0.5, -0.5, 1.0, 10**9, prior) == pytest.approx(-0.5, abs=1e-6)
    assert shrunk_gain(0.5, -0.5, 1.0, 100, Prior(0.0, 1e-9)) == pytest.approx(0.5, abs=1e-6)
    assert shrunk_gain(0.5, -0.5, 1.0, 100, Prior(-0.1, 1e-9)) == pytest.approx(0.4, abs=1e-6)


def test_the_rules_decide_from_one_fold() -> None:
    decision, _ = _synthetic(0, -0.1, 0.6, random.Random(2))
    fold = folds(decision, 2 * BLOCK)[0]
    prior = Prior(0.0, 0.04)
    assert by_margin(0.0)(decision, fold, prior) == 1
    assert by_margin(5.0)(decision, fold, prior) == 0  # the fallback passes
    assert by_errors(1.0)(decision, fold, prior) == 1
    assert by_errors(50.0)(decision, fold, prior) == 0
    assert by_shrinkage(False)(decision, fold, prior) == 1
    assert by_shrinkage(False)(decision, fold, Prior(0.0, 1e-9)) == 0  # the model, trusted, passes


def test_the_report_scores_every_rule_and_finds_the_model_error() -> None:
    rng = random.Random(3)
    decisions = []
    for game in range(60):
        shift = rng.uniform(-0.6, 0.6)
        decisions.append(_synthetic(game, shift + rng.gauss(0, 0.3), shift, rng)[0])
    found = priors(decisions)
    for rnd in (1, 2):
        assert 0.1 < math.sqrt(found[rnd].tau2) < 0.6
    scores = score(decisions, 2 * BLOCK)
    assert set(scores) == {name for name, _ in RULES}
    # the truth's own best loses nothing; the rollouts beat a model with an error of 0.3
    assert sum(scores[RULES[-1][0]].regret) == 0.0
    assert sum(scores["search, no margin"].regret) < sum(scores["the model alone"].regret)
    fits = {name: (coef, errors) for name, coef, errors in calibration(decisions)}
    coef, errors = fits["truth"]  # the real gain is the truth's shift exactly
    assert abs(coef[1] - 1.0) < 3 * errors[1] + 0.05
    coef, _ = fits["model"]  # the model's error shrinks its slope below 1
    assert 0.3 < coef[1] < 1.0
    text = report(decisions, [2 * BLOCK])
    assert "60 decisions" in text
    for name, _ in RULES:
        assert name in text


def test_a_collected_game_holds_searched_decisions_of_the_expert_side() -> None:
    rules = HouseRules.preset_rules("north_american")
    found = collect_game(rules.model_dump(), 4, BLOCK, 0)
    assert found
    for d in found:
        assert d.game == 0 and d.round in (1, 2)
        assert len(d.real) == len(d.options) and d.fallback in (d.passing, d.made)
        assert (d.fallback == d.made) == (d.gain > 0)
        assert [b[0] for b in d.blocks] == [BLOCK]
        assert json.loads(d.options[d.passing]) == {"do": "pass"}
    again = collect_game(rules.model_dump(), 4, BLOCK, 0)
    assert [d.to_json() for d in again] == [d.to_json() for d in found]


@pytest.mark.slow
def test_the_command_collects_takes_up_a_stopped_run_and_reports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "regret.jsonl"
    args = ["bid-regret", "--games", "1", "--samples", "50", "--sizes", "25", "--seed", "5"]
    assert main([*args, "--data", str(data)]) == 0
    first = capsys.readouterr().out
    assert "search, margin 0.3 (now)" in first
    lines = data.read_text().splitlines()
    assert len(lines) == 1
    args[2] = "2"
    assert main([*args, "--data", str(data)]) == 0
    assert data.read_text().splitlines()[0] == lines[0]
    assert sorted(json.loads(x)["game"] for x in data.read_text().splitlines()) == [0, 1]
    assert {d.game for d in load(data)} <= {0, 1}
