"""The load benchmark runs end to end at a tiny size (its figures are for README, not asserts)."""

from __future__ import annotations

import pytest

from lab.bench.cli import main
from lab.bench.tables import BenchOptions, run

pytestmark = pytest.mark.slow


async def test_the_benchmark_drives_stores_and_restores_every_table() -> None:
    report = await run(BenchOptions(tables=5, clicks=8, think=0, seed=2))
    assert report.restored == 5
    assert report.actions_stored == 5 * 8
    assert len(report.setup_latencies) == 5 * 5
    assert len(report.latencies) >= 5 * 8
    assert report.memory_per_table > 0 and report.restore_seconds > 0
    assert report.percentile(50) <= report.percentile(99) <= report.percentile(100)
    text = report.text()
    assert "p99" in text and "per second" in text and "KB" in text


def test_the_command_line_prints_the_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tables", "--tables", "2", "--clicks", "3", "--think", "0"]) == 0
    out = capsys.readouterr().out
    assert "handler latency per click" in out and "restore at start-up: 2 tables" in out
    with pytest.raises(SystemExit):
        main(["tables", "--tables", "0"])


def test_the_benchmark_runs_on_postgresql(
    postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["tables", "--tables", "2", "--clicks", "3", "--think", "0"]
    assert main([*args, "--database-url", postgres_url]) == 0
    out = capsys.readouterr().out
    assert "store: PostgreSQL" in out and "restore at start-up: 2 tables" in out
    # Its tables are still open there: a second run would measure them too, so it is refused.
    assert main([*args, "--database-url", postgres_url]) == 2
    assert "has open tables: give an empty database" in capsys.readouterr().err


@pytest.mark.parametrize("processes", [1, 2])
async def test_the_writes_benchmark_counts_saved_moves(processes: int) -> None:
    from lab.bench.writes import run_writes

    report = await run_writes(None, processes=processes, seconds=0.2)
    assert len(report.saved) == processes and all(n > 0 for n in report.saved)
    assert "per second per connection" in report.text()


def test_the_writes_command_runs_on_postgresql(
    postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["writes", "--seconds", "0.2", "--database-url", postgres_url]) == 0
    assert "store: PostgreSQL, 1 connection(s)" in capsys.readouterr().out
