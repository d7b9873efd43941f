"""``python -m bot``: command dispatch, one-line configuration errors, clean stops."""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import discord
import pytest

import bot.__main__ as cli
from bot import maintenance
from bot.discord.app import EuchreBot
from bot.logs import PLAIN
from bot.settings import Settings
from tests.bot_env import child_env

pytestmark = pytest.mark.usefixtures("clean_env")


@pytest.fixture
def logging_calls(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Record logging set-up instead of adding handlers to the test run's root logger."""
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(discord.utils, "setup_logging", lambda **kw: calls.append(kw))
    return calls


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


@pytest.mark.slow  # a process of its own; the default run keeps the token's two
def test_empty_token_is_one_line_and_exit_2(tmp_path: Path) -> None:
    line = assert_one_error_line(run_bot(tmp_path, "run", DISCORD_TOKEN=" "))
    assert line.startswith("error: DISCORD_TOKEN is not set")


@pytest.mark.slow  # a process of its own; the default run keeps the token's two
def test_malformed_config_is_one_line_and_exit_2(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("log_level = \n", encoding="utf-8")
    line = assert_one_error_line(run_bot(tmp_path, DISCORD_TOKEN="x"))
    assert line.startswith("error: config.toml: invalid TOML: ")


@pytest.mark.slow  # a process of its own; the default run keeps the token's two
def test_wrong_option_in_named_config_is_one_line_and_exit_2(tmp_path: Path) -> None:
    config = tmp_path / "euchre.toml"
    config.write_text("computer_move_delay = -2\ncolour = 'red'\n", encoding="utf-8")
    line = assert_one_error_line(run_bot(tmp_path, "--config", str(config), DISCORD_TOKEN="x"))
    assert line.startswith(f"error: {config}: computer_move_delay = -2: ")
    assert "unknown option 'colour'" in line


@pytest.mark.slow  # a process of its own; the default run keeps the token's two
def test_missing_named_config_is_one_line_and_exit_2(tmp_path: Path) -> None:
    line = assert_one_error_line(run_bot(tmp_path, "run", "--config", "nope.toml"))
    assert line.startswith("error: config file nope.toml does not exist")


def test_sigterm_stops_the_bot_cleanly(tmp_path: Path) -> None:
    script = textwrap.dedent(
        """
        import asyncio, sys
        import discord
        from bot.discord.app import EuchreBot
        from bot.__main__ import main

        async def login(self, token):  # no HTTP; the setup hook opens the database
            await self.setup_hook()

        async def connect(self, *, reconnect=True):
            print("started", flush=True)
            await asyncio.Event().wait()

        discord.Client.login = login
        EuchreBot.connect = connect
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
    assert "Restored 0 open table(s)" in stderr
    assert "Search pool: " in stderr and " for reviews\n" in stderr  # what its workers run


@pytest.mark.parametrize(
    ("argv", "config"),
    [
        ([], None),
        (["run"], None),
        (["--config", "a.toml", "run"], "a.toml"),
        (["run", "--config", "a.toml"], "a.toml"),
        (["--config", "a.toml", "run", "--config", "b.toml"], "b.toml"),
    ],
)
def test_run_is_the_default_command(argv: list[str], config: str | None) -> None:
    args = cli.build_parser().parse_args(argv)
    assert args.handler is cli.run
    assert args.config == (Path(config) if config else None)


@pytest.mark.parametrize(
    ("argv", "globally", "guilds"),
    [
        (["sync"], False, None),
        (["sync", "--global"], True, None),
        (["sync", "--guild", "12", "--guild", "34"], False, [12, 34]),
    ],
)
def test_sync_command_options(argv: list[str], globally: bool, guilds: list[int] | None) -> None:
    args = cli.build_parser().parse_args(argv)
    assert args.handler is cli.sync
    assert (args.globally, args.guilds) == (globally, guilds)


@pytest.mark.parametrize(
    "argv", [["sync", "--global", "--guild", "1"], ["sync", "--guild", "x"], ["--sync-global"]]
)
def test_sync_command_refuses_what_it_cannot_do(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as info:
        cli.build_parser().parse_args(argv)
    assert info.value.code == 2
    assert "usage: python -m bot" in capsys.readouterr().err


@pytest.mark.slow  # a process of its own; the default run keeps the token's two
def test_sync_without_a_server_says_how(tmp_path: Path) -> None:
    line = assert_one_error_line(run_bot(tmp_path, "sync", DISCORD_TOKEN="x"))
    assert line == (
        "error: nothing to sync to: give --global (every server, up to an hour to appear) "
        "or --guild SERVER_ID (one server, at once), or list servers in dev_guild_ids"
    )


def test_unreachable_discord_is_one_line_exit_2_before_any_database(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    # Nothing listens on the port once the socket is closed: connections are refused.
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(
        f"import discord.http\ndiscord.http.Route.BASE = 'http://127.0.0.1:{port}/api/v10'\n"
    )
    env = child_env(DISCORD_TOKEN="abc")
    env["PYTHONPATH"] = os.pathsep.join([str(site), env["PYTHONPATH"]])
    for command, again in (
        ([], "then start the bot again"),
        (["sync", "--global"], "then run `python -m bot sync` again"),
    ):
        result = subprocess.run(
            [sys.executable, "-m", "bot", *command],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        line = assert_one_error_line(result)
        assert line.startswith("error: could not reach Discord (Cannot connect to host 127.0.0.1")
        assert line.endswith(again)
        assert not (tmp_path / "data").exists()


def test_main_passes_settings_to_the_command_after_setting_up_logging(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, logging_calls: list[dict[str, Any]]
) -> None:
    (tmp_path / "c.toml").write_text('log_level = "warning"', encoding="utf-8")
    seen: list[Settings] = []

    def handler(settings: Settings, args: argparse.Namespace) -> int:
        assert logging_calls, "logging is set up before the command runs"
        seen.append(settings)
        return 7

    monkeypatch.setattr(cli, "run", handler)
    assert cli.main(["--config", "c.toml", "run"]) == 7
    assert [s.log_level for s in seen] == ["WARNING"]
    [call] = logging_calls
    assert (call["level"], call["root"], call["formatter"]) == (30, True, PLAIN)


def test_misspelt_environment_variable_stops_the_start(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    logging_calls: list[dict[str, Any]],
) -> None:
    monkeypatch.setenv("EUCHRE_DATABSE_URL", "sqlite:///elsewhere.sqlite3")
    ran: list[Settings] = []
    monkeypatch.setattr(cli, "migrate_database", lambda settings, args: ran.append(settings))
    assert cli.main(["migrate"]) == 2
    assert capsys.readouterr().err == (
        "error: environment variable EUCHRE_DATABSE_URL names no option "
        "(did you mean EUCHRE_DATABASE_URL?): unset it or fix the spelling\n"
    )
    assert ran == []
    assert list(Path().iterdir()) == [], "nothing is created"


def test_refused_token_is_one_line_and_exit_2(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    logging_calls: list[dict[str, Any]],
) -> None:
    async def login(self: discord.Client, token: str) -> None:
        assert token == "bad-token"
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setattr(discord.Client, "login", login)
    monkeypatch.setenv("DISCORD_TOKEN", "bad-token")
    assert cli.main([]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("error: Discord refused the token in DISCORD_TOKEN: ")
    assert "bad-token" not in err
    assert not Path("data").exists(), "the token is checked before the database is made"


def test_bot_stopping_by_itself_exits_0(
    monkeypatch: pytest.MonkeyPatch, logging_calls: list[dict[str, Any]]
) -> None:
    started: list[EuchreBot] = []

    async def login(self: discord.Client, token: str) -> None:
        pass

    async def connect(self: EuchreBot, *, reconnect: bool = True) -> None:
        started.append(self)

    monkeypatch.setattr(discord.Client, "login", login)
    monkeypatch.setattr(EuchreBot, "connect", connect)
    monkeypatch.setenv("DISCORD_TOKEN", "t")
    assert cli.main([]) == 0
    assert len(started) == 1
    assert started[0].is_closed()


def test_the_activity_without_its_secret_stops_the_bot_before_discord_or_the_store(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    logging_calls: list[dict[str, Any]],
) -> None:
    for name, value in {
        "DISCORD_TOKEN": "t",
        "EUCHRE_ACTIVITY_CLIENT_ID": "42",
        "EUCHRE_WEB_PORT": "8080",
        "EUCHRE_WEB_BASE_URL": "https://euchre.example.org",
    }.items():
        monkeypatch.setenv(name, value)
    started: list[str] = []

    async def serve(settings: Settings, token: str) -> None:
        started.append(token)

    monkeypatch.setattr(cli, "_serve", serve)
    assert cli.main(["run"]) == cli.EXIT_CONFIG
    assert capsys.readouterr().err == (
        "error: activity_client_id is set, so the Activity's sign-in needs the application's "
        "OAuth2 secret in the DISCORD_CLIENT_SECRET environment variable (docs/activity.md)\n"
    )
    assert started == []
    assert list(Path().iterdir()) == [], "nothing is created"

    # The commands that serve no Activity go on without it.
    async def sync(settings: Settings, token: str, *where: object) -> bool:
        started.append(token)
        return True

    monkeypatch.setattr(cli, "_sync", sync)
    assert cli.main(["sync", "--global"]) == 0
    assert cli.main(["migrate"]) == 0
    assert cli.main(["health"]) == cli.EXIT_UNHEALTHY  # no heartbeat: the bot never ran
    monkeypatch.setattr(maintenance, "serve_forever", lambda *args: None)
    assert cli.main(["web"]) == 0  # the pages alone: the Activity is the bot's
    assert "DISCORD_CLIENT_SECRET" not in capsys.readouterr().err
    monkeypatch.setenv("DISCORD_CLIENT_SECRET", "s")
    assert cli.main(["run"]) == 0
    assert started == ["t", "t"]  # sync's, then the bot's
