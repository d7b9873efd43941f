"""The arena: duplicate matches, their figures, and basic's strength measured with fixed seeds."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.rules import HouseRules
from lab.players.arena import (
    EndlessGameError,
    IllegalActionError,
    loner_report,
    loner_trials,
    report,
    run_match,
    wilson,
)
from lab.players.ceiling import run_ceiling
from lab.players.cli import main


def test_tiny_match_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "arena",
                "--a",
                "basic",
                "--b",
                "random",
                "--pairs",
                "2",
                "--seed",
                "4",
                "--rules",
                "toronto",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    print(out)
    for words in (
        "games won",
        "95% CI",
        "points/deal",
        "loners A",
        "loners B",
        "p50",
        "p95",
        "max",
    ):
        assert words in out
    assert "4 games" in out
    assert "contracts" not in out and "shoot" not in out


def test_a_bid_euchre_match_counts_contracts_and_shoots(capsys: pytest.CaptureFixture[str]) -> None:
    rules = HouseRules.preset_rules("bid_euchre")
    result = run_match("basic", "random", 3, seed=1, rules=rules)
    text = report(result)
    print(text)
    shoot = rules.shoot_points
    for label, side in zip("AB", result.sides, strict=True):
        assert side.contracts_made + side.contracts_set == side.contracts
        assert side.shoots_made + side.shoots_set == side.shoots <= side.contracts
        # A shoot made wins ``shoot``; one set loses it, and the defenders score their 1+ tricks.
        made, lost = side.shoots_made * shoot, side.shoots_set * shoot
        assert made - lost - side.shoots_set * rules.hand_size <= side.shoot_points
        assert side.shoot_points <= made - lost - side.shoots_set
        assert side.loners == side.made_trump == 0  # euchre's figures stay out
        assert (
            f"contracts {label}   taken {side.contracts} "
            f"({100 * side.contracts / result.deals:.1f}% of deals), "
            f"made {side.contracts_made} " in text
        )
        assert f"set {side.contracts_set}; shoots {side.shoots}, made {side.shoots_made} " in text
    # The dealer must bid when everyone passes: every deal has a contract.
    assert sum(side.contracts for side in result.sides) == result.deals > 0
    assert result.sides[1].shoots > 0  # random shoots as often as it bids a number
    assert result.sides[0].contracts_made > 0 and result.sides[1].contracts_set > 0
    assert "loners" not in text


def test_duplicate_pairs_share_the_cards() -> None:
    # The same player on both sides: every pair is a mirror, so the games split evenly.
    result = run_match(
        "tests.players.outside_player:LastLegal",
        "tests.players.outside_player:LastLegal",
        3,
        seed=2,
    )
    assert result.sides[0].wins == result.sides[1].wins == 3


def test_games_counts_games_and_pairs_count_pairs(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["arena", "--b", "basic", "--games", "2", "--seed", "4"]) == 0
    assert "1 duplicate pairs (2 games), seed 4" in capsys.readouterr().out
    assert main(["arena", "--b", "basic", "--pairs", "1", "--seed", "4"]) == 0
    assert "1 duplicate pairs (2 games), seed 4" in capsys.readouterr().out
    for wrong in (["--games", "5"], ["--games", "2", "--pairs", "1"], ["--pairs", "0"]):
        with pytest.raises(SystemExit) as stopped:
            main(["arena", *wrong])
        assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "5 games: duplicate games come in pairs, so give an even number (or --pairs 5)" in err
    assert "not allowed with argument" in err
    assert "'0' is not a number of at least 1" in err


def test_outside_player_through_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--a", "tests.players.outside_player:LastLegal", "--pairs", "1"]) == 0
    assert "last-legal" in capsys.readouterr().out
    assert main(["arena", "--a", "nobody", "--pairs", "1"]) == 2
    assert main(["arena", "--rules", '{"preset": "nowhere"}', "--pairs", "1"]) == 2


def test_illegal_actions_stop_the_match() -> None:
    with pytest.raises(IllegalActionError, match="cheater"):
        run_match("tests.lab.players.test_arena:Cheater", "random", 1)


def test_endless_games_are_stopped() -> None:
    passer = "tests.players.outside_player:Passer"
    with pytest.raises(EndlessGameError, match="passer"):
        run_match(passer, passer, 1)


class Cheater:
    name = "cheater"

    def choose(self, view: object) -> object:
        from bot.rules import Action

        return Action.play(0)


def test_wilson_interval() -> None:
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.404, abs=0.001) and hi == pytest.approx(0.596, abs=0.001)
    assert wilson(0, 0) == (0.0, 1.0)
    # no wins or no losses: the bound is exactly 0 or 1 (rounding once printed "-0.0%")
    for trials in range(1, 60):
        assert wilson(0, trials)[0] == 0.0
        assert wilson(trials, trials)[1] == 1.0


@pytest.mark.slow
def test_basic_beats_random_decisively() -> None:
    result = run_match("basic", "random", 200, seed=11)
    a, b = result.sides
    lo, _ = wilson(a.wins, a.wins + b.wins)
    print(report(result))
    assert lo > 0.9


@pytest.mark.slow
def test_basic_loners_mostly_sweep() -> None:
    stats = loner_trials("basic", 3000, seed=5, rules=HouseRules.preset_rules("north_american"))
    assert stats.loners >= 40
    assert stats.sweep_rate >= 0.6


def test_the_loner_trials_count_makes_and_net_points() -> None:
    rules = HouseRules.preset_rules("north_american")
    stats = loner_trials("basic", 400, seed=5, rules=rules)
    assert 0 < stats.loners < stats.makes <= stats.deals
    lone_made = stats.made - stats.marches
    assert stats.points == 4 * stats.marches + lone_made - 2 * stats.euchred, "4, 1 and -2 a loner"
    line = loner_report("basic", stats, rules)
    assert f"of {stats.makes} makes" in line and " points a loner, " in line


def test_basic_rarely_defends_alone() -> None:
    result = run_match("basic", "basic", 20, seed=3, rules=HouseRules.preset_rules("british"))
    defences = sum(side.lone_defences for side in result.sides)
    assert defences <= result.deals // 100


def test_the_documented_outside_player_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = (Path(__file__).parents[3] / "docs" / "players.md").read_text()
    code = doc.split("# mybots.py\n", 1)[1].split("```", 1)[0]
    (tmp_path / "mybots.py").write_text(code)
    monkeypatch.syspath_prepend(str(tmp_path))
    assert main(["arena", "--a", "mybots:HighCard", "--b", "basic", "--pairs", "2"]) == 0
    assert "high-card" in capsys.readouterr().out


def test_the_sighted_yardstick_plays_duplicate_games(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ceiling", "--pairs", "2", "--seed", "4", "--rules", "toronto"]) == 0
    out = capsys.readouterr().out
    assert "A = sighted play, B = basic" in out
    assert "2 duplicate pairs (4 games)" in out
    assert "decide" not in out  # it times nothing: it is not a player
    assert main(["ceiling", "--games", "2", "--seed", "4", "--foresee"]) == 0
    assert "A = foreseeing play, B = basic" in capsys.readouterr().out


@pytest.mark.slow
def test_seeing_every_card_beats_basic_at_play_and_more_with_the_bids() -> None:
    play = run_ceiling(6, seed=3)
    bids = run_ceiling(6, seed=3, bids=True)
    for result in (play, bids):
        assert result.sides[0].wins + result.sides[1].wins + result.ties == 12
    assert play.sides[0].points > play.sides[1].points
    assert bids.sides[0].points - bids.sides[1].points > play.sides[0].points - play.sides[1].points
    foreseen = run_ceiling(6, seed=3, foresee=True)
    assert foreseen.sides[0].points - foreseen.sides[1].points > (
        play.sides[0].points - play.sides[1].points
    )


def test_a_run_told_of_its_progress_gives_the_same_figures(
    capsys: pytest.CaptureFixture[str],
) -> None:
    def figures(out: str) -> list[str]:
        return [line for line in out.splitlines() if not line.startswith(("decide", "("))]

    plain = ["arena", "--a", "basic", "--b", "beginner", "--pairs", "12", "--seed", "4"]
    assert main(plain) == 0
    quiet = capsys.readouterr()
    assert quiet.err == ""
    told: list[tuple[int, int]] = []
    for jobs in (1, 2):
        result = run_match(
            "basic",
            "beginner",
            12,
            seed=4,
            jobs=jobs,
            progress=lambda done, total: told.append((done, total)),
        )
        assert figures(report(result)) == figures(quiet.out)
        # one piece per pair here (20 a process at most), each told once, the last of all
        assert sorted(told) == [(n, 12) for n in range(1, 13)] and told[-1] == (12, 12)
        told.clear()

    assert main([*plain, "--jobs", "2", "--progress"]) == 0
    shown = capsys.readouterr()
    assert figures(shown.out) == figures(quiet.out)
    assert shown.err.strip().splitlines()[-1].startswith("12 of 12 pairs, done in ")
