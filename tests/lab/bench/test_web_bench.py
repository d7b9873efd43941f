"""The web bench runs end to end at a tiny size and prints every figure (no timing asserts).

It runs at the shipped rate limit: every request comes from a visitor's own loopback
address, and none is refused.
"""

from __future__ import annotations

import re

import pytest

from lab.bench.cli import main

ARGS = ["web", "--players", "20", "--games", "50", "--samples", "10", "--load", "60"]
ARGS += ["--fresh", "24", "--fresh-clients", "4"]


def _check(out: str) -> None:
    for kind in ("server", "player", "game"):
        assert f"{kind} page: cold p50" in out and f"{kind} page weight:" in out
    assert "20 rated players, 50 archived games" in out
    assert (
        "requests a second (95% interval " in out
        and "(60 requests, " in out
        and "statuses {'200': 60}" in out
    )
    assert "at the shipped rate limit" in out
    statuses = re.findall(r"statuses (\{[^}]*\})", out)
    assert statuses and all(found.startswith("{'200': ") for found in statuses)
    assert all(found.count(":") == 1 for found in statuses)
    for kind in ("server, player and game pages in turn", "server pages", "player pages"):
        assert f"pages made fresh, {kind}: " in out
    assert out.count("(24 requests, 4 at once") == 4 and "statuses {'200': 24}" in out
    assert "the loads: python -m bot web, 2 page processes" in out


def test_the_loads_go_to_as_many_page_processes_as_asked(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main([*ARGS, "--web-processes", "1"]) == 0
    assert "the loads: python -m bot web, 1 page process\n" in capsys.readouterr().out


def test_the_command_line_seeds_a_league_and_prints_the_figures(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main([*ARGS, "--web-processes", "2"]) == 0
    out = capsys.readouterr().out
    assert "store: SQLite" in out
    _check(out)
    with pytest.raises(SystemExit):
        main(["web", "--players", "3"])


def test_the_benchmark_runs_on_postgresql(
    postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*ARGS, "--web-processes", "2", "--database-url", postgres_url]) == 0
    out = capsys.readouterr().out
    assert "store: PostgreSQL" in out
    _check(out)
