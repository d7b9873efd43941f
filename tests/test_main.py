"""``python -m bot``: command dispatch, one-line configuration errors, clean stops."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import discord
import pytest

import bot.__main__ as cli
from bot.app import EuchreBot
from bot.settings import Settings

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in list(os.environ):
        if name.upper().startswith("EUCHRE_") or name.upper() == "DISCORD_TOKEN":
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def logging_calls(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Record logging set-up instead of adding handlers to the test run's root logger."""
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(discord.utils, "setup_logging", lambda **kw: calls.append(kw))
    return calls


def child_env(**extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not (k.upper().startswith("EUCHRE_") or k.upper() == "DISCORD_TOKEN")
    }
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    env.update(extra)
    return env


def run_bot(cwd: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env=child_env(**env),
        capture_output=True,
        text=True,
        timeout=60,
    )


def assert_one_error_line(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 2
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    return lines[0]


def test_no_token_is_one_line_and_exit_2(tmp_path: Path) -> None:
    line = assert_one_error_line(run_bot(tmp_path))
    assert line == (
        "error: DISCORD_TOKEN is not set: put your bot token in the DISCORD_TOKEN "
        "environment variable (see README)"
    )


def test_empty_token_is_one_line_and_exit_2(tmp_path: Path) -> None:
    line = assert_one_error_line(run_bot(tmp_path, "run", DISCORD_TOKEN=" "))
    assert line.startswith("error: DISCORD_TOKEN is not set")


def test_malformed_config_is_one_line_and_exit_2(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("log_level = \n", encoding="utf-8")
    line = assert_one_error_line(run_bot(tmp_path, DISCORD_TOKEN="x"))
    assert line.startswith("error: config.toml: invalid TOML: ")


def test_wrong_option_in_named_config_is_one_line_and_exit_2(tmp_path: Path) -> None:
    config = tmp_path / "euchre.toml"
    config.write_text("computer_move_delay = -2\ncolour = 'red'\n", encoding="utf-8")
    line = assert_one_error_line(run_bot(tmp_path, "--config", str(config), DISCORD_TOKEN="x"))
    assert line.startswith(f"error: {config}: computer_move_delay = -2: ")
    assert "unknown option 'colour'" in line


def test_missing_named_config_is_one_line_and_exit_2(tmp_path: Path) -> None:
    line = assert_one_error_line(run_bot(tmp_path, "run", "--config", "nope.toml"))
    assert line.startswith("error: config file nope.toml does not exist")


def test_sigterm_stops_the_bot_cleanly(tmp_path: Path) -> None:
    script = textwrap.dedent(
        """
        import asyncio, sys
        from bot.app import EuchreBot
        from bot.__main__ import main

        async def start(self, token, *, reconnect=True):
            print("started", flush=True)
            await asyncio.Event().wait()

        EuchreBot.start = start
        sys.exit(main([]))
        """
    )
    with subprocess.Popen(
        [sys.executable, "-c", script],
        cwd=tmp_path,
        env=child_env(DISCORD_TOKEN="x"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as process:
        assert process.stdout is not None
        assert process.stdout.readline() == "started\n"
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=30)
    assert process.returncode == 0, stderr
    assert "Traceback" not in stderr


@pytest.mark.parametrize(
    ("argv", "sync_global", "config"),
    [
        ([], False, None),
        (["--sync-global"], True, None),
        (["run"], False, None),
        (["run", "--sync-global"], True, None),
        (["--config", "a.toml", "run"], False, "a.toml"),
        (["run", "--config", "a.toml"], False, "a.toml"),
        (["--sync-global", "--config", "a.toml", "run", "--config", "b.toml"], True, "b.toml"),
    ],
)
def test_run_is_the_default_command(argv: list[str], sync_global: bool, config: str | None) -> None:
    args = cli.build_parser().parse_args(argv)
    assert args.handler is cli.run
    assert args.sync_global is sync_global
    assert args.config == (Path(config) if config else None)


def test_main_passes_settings_to_the_command_after_setting_up_logging(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, logging_calls: list[dict[str, Any]]
) -> None:
    (tmp_path / "c.toml").write_text('log_level = "warning"', encoding="utf-8")
    seen: list[Settings] = []

    def handler(settings: Settings) -> int:
        assert logging_calls, "logging is set up before the command runs"
        seen.append(settings)
        return 7

    monkeypatch.setattr(cli, "run", handler)
    assert cli.main(["--config", "c.toml", "run", "--sync-global"]) == 7
    assert [s.sync_global for s in seen] == [True]
    assert logging_calls == [{"level": 30, "root": True}]


def test_refused_token_is_one_line_and_exit_2(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    logging_calls: list[dict[str, Any]],
) -> None:
    async def start(self: EuchreBot, token: str, *, reconnect: bool = True) -> None:
        assert token == "bad-token"
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setattr(EuchreBot, "start", start)
    monkeypatch.setenv("DISCORD_TOKEN", "bad-token")
    assert cli.main([]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("error: Discord refused the token in DISCORD_TOKEN: ")
    assert "bad-token" not in err


def test_bot_stopping_by_itself_exits_0(
    monkeypatch: pytest.MonkeyPatch, logging_calls: list[dict[str, Any]]
) -> None:
    started: list[EuchreBot] = []

    async def start(self: EuchreBot, token: str, *, reconnect: bool = True) -> None:
        started.append(self)

    monkeypatch.setattr(EuchreBot, "start", start)
    monkeypatch.setenv("DISCORD_TOKEN", "t")
    assert cli.main([]) == 0
    assert len(started) == 1
    assert started[0].is_closed()
