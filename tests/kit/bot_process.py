"""Run the unmodified bot (``python -m bot``) as a child process against a :class:`FakeDiscord`.

Nothing in the bot is changed or patched for the tests (but its commits, when a test
slows them). The child process gets:

* a directory of its own first on ``PYTHONPATH`` holding a ``sitecustomize.py`` (Python
  imports it at start-up) that points discord.py at the fake:
  ``discord.http.Route.BASE`` for REST and webhooks, and
  ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY``, the URL discord.py falls back
  to when it reconnects without resuming (the first connection uses the URL that
  ``GET /gateway/bot`` answers). If that fails, the process exits at once with status
  :data:`REDIRECT_FAILED` rather than reach the real Discord. With ``slow_commits``
  (``EUCHRE_TEST_SLOW_DB``), each SQLite commit of the bot waits that long first. It also makes name
  lookups of anything but loopback fail, so a stray request to the internet shows up
  as an error in the bot's log instead of leaving the machine;
* a ``config.toml``: ``data_dir`` in the test's directory, ``dev_guild_ids`` = the fake's
  guild (so commands sync at start-up), ``computer_move_delay = 0`` unless told otherwise;
* ``DISCORD_TOKEN`` = the fake's token, and no other ``EUCHRE_*`` variable.

Readiness is observed on the fake, never slept for: the commands were synced and a
gateway session got READY and its guild. Output goes to a log file per process
(:meth:`BotProcess.log_text`), shown in failure messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import sys
from collections.abc import AsyncIterator, Mapping
from pathlib import Path

from tests.kit.fake_discord import FakeDiscord
from tests.kit.slow_database import SLOW_DB
from tests.kit.waiting import BOUND

__all__ = ["REDIRECT_FAILED", "REPO_ROOT", "BotProcess", "BotProcessError"]

REPO_ROOT = Path(__file__).resolve().parents[2]
REDIRECT_FAILED = 97

_SITECUSTOMIZE = '''\
"""Written by tests/kit/bot_process.py: send discord.py to the fake Discord on loopback.

The bot itself runs unmodified. If discord.py cannot be redirected, the process stops
at once rather than reach the real Discord.
"""

import os
import socket
import sys

_getaddrinfo = socket.getaddrinfo


def _loopback_only(host, *args, **kwargs):
    if host not in ("127.0.0.1", "localhost", "::1"):
        raise OSError(f"e2e: no network in this test, not even for {{host!r}}")
    return _getaddrinfo(host, *args, **kwargs)


socket.getaddrinfo = _loopback_only

try:
    import yarl

    import discord.gateway
    import discord.http

    discord.http.Route.BASE = {api_base!r}
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL({gateway!r})
except BaseException as exc:
    sys.stderr.write(f"e2e sitecustomize: cannot redirect discord.py: {{exc!r}}\\n")
    sys.stderr.flush()
    os._exit({status})

if {slow_commits!r} > 0:  # the slow-commit hook: each SQLite COMMIT waits first
    import asyncio

    from bot.store.sqlite import SqliteDatabase

    _control = SqliteDatabase._control

    async def _slow_control(self, sql):
        if sql == "COMMIT":
            await asyncio.sleep({slow_commits!r})
        await _control(self, sql)

    SqliteDatabase._control = _slow_control
'''

# Log lines that mean the bot hit a fault. discord.utils.setup_logging writes
# "[2025-01-01 12:00:00] [ERROR   ] name: message", or in colour (in Docker, say)
# "2025-01-01 12:00:00 ERROR    name message": colours are stripped first.
_FAULT = re.compile(r"\[?\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\]? \[?(ERROR|CRITICAL)\b|Traceback ")
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


class BotProcessError(AssertionError):
    """The bot process did not start, or died, or logged a fault."""


class BotProcess:
    """One bot installation (config, data directory, log) that can be started many times.

    ``workdir`` holds the config, sitecustomize and log; ``data_dir`` (default
    ``workdir/data``) the SQLite database, kept across restarts.
    """

    def __init__(
        self,
        fake: FakeDiscord,
        workdir: Path,
        *,
        data_dir: Path | None = None,
        start_timeout: float = BOUND,
        options: Mapping[str, object] | None = None,
        slow_commits: float = SLOW_DB,
        secrets: Mapping[str, str] | None = None,
    ) -> None:
        """Prepare a bot for ``fake``; nothing runs until :meth:`start`.

        ``options``: more config.toml options (``database_url``, ``shard_ids``...).
        ``slow_commits``: seconds each SQLite commit of the bot waits first (default:
        ``EUCHRE_TEST_SLOW_DB``, tests/kit/slow_database.py).
        ``secrets``: environment variables besides the token (``DISCORD_CLIENT_SECRET``).
        """
        self.options = dict(options or {})
        self.slow_commits = slow_commits
        self.secrets = dict(secrets or {})
        self.fake = fake
        self.workdir = workdir
        self.data_dir = data_dir if data_dir is not None else workdir / "data"
        self.config_path = workdir / "config.toml"
        self.site_dir = workdir / "site"
        self.log_path = workdir / "bot.log"
        self.start_timeout = start_timeout
        self.proc: asyncio.subprocess.Process | None = None
        self.starts = 0
        self.kills = 0
        self.killed = False
        """The last process was killed (not stopped): it left Discord's windows unknown."""

    @property
    def database_path(self) -> Path:
        """The bot's SQLite file (the default name in bot.settings)."""
        return self.data_dir / "euchre.sqlite3"

    @property
    def database_url(self) -> str:
        """Where the bot's data is: the ``database_url`` option, else its SQLite file."""
        return str(self.options.get("database_url") or f"sqlite:///{self.database_path}")

    @property
    def running(self) -> bool:
        """The process was started and has not exited yet."""
        return self.proc is not None and self.proc.returncode is None

    def _write_files(self) -> None:
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.site_dir.mkdir(exist_ok=True)
        (self.site_dir / "sitecustomize.py").write_text(
            _SITECUSTOMIZE.format(
                api_base=self.fake.api_base,
                gateway=self.fake.gateway_url,
                status=REDIRECT_FAILED,
                slow_commits=self.slow_commits,
            )
        )
        self.config_path.write_text(
            "# Written by tests/kit/bot_process.py\n"
            f"data_dir = {json.dumps(str(self.data_dir))}\n"
            f"dev_guild_ids = [{self.fake.guild_id}]\n"
            'log_level = "INFO"\n'
            + "".join(
                f"{name} = {json.dumps(value)}\n"
                for name, value in {"computer_move_delay": 0, **self.options}.items()
            )
        )

    def _environment(self) -> dict[str, str]:
        env = {
            key: value
            for key, value in os.environ.items()
            if not key.upper().startswith("EUCHRE_")
            and key not in ("DISCORD_TOKEN", "PYTHONPATH", "PYTHONSTARTUP", "PYTHONHOME")
        }
        env["PYTHONPATH"] = os.pathsep.join([str(self.site_dir), str(REPO_ROOT)])
        env["DISCORD_TOKEN"] = self.fake.token
        env.pop("DISCORD_CLIENT_SECRET", None)
        env.update(self.secrets)
        env["PYTHONUNBUFFERED"] = "1"
        return env

    async def start(self) -> None:
        """Start the process and wait until it synced its commands and got READY."""
        if self.running:
            raise BotProcessError("the bot is already running")
        self._write_files()
        if self.killed:  # the killed process's windows: the new one may meet them once each
            for resets_at in self.fake.windows_left_open():
                self.fake.limits.expect(429, until=resets_at)
        self.killed = False
        syncs, readies = len(self.fake.command_syncs), self.fake.readies
        self.starts += 1
        with self.log_path.open("ab") as log:
            log.write(f"===== e2e: start {self.starts} =====\n".encode())
            log.flush()
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bot",
                "--config",
                str(self.config_path),
                "run",
                cwd=self.workdir,
                env=self._environment(),
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log,
                stderr=asyncio.subprocess.STDOUT,
            )

        def ready() -> bool:
            synced = len(self.fake.command_syncs) > syncs
            return not self.running or (synced and self.fake.readies > readies)

        try:
            await self.fake.wait_for(
                ready, timeout=self.start_timeout, what="the bot to log in", poll=0.1
            )
        except TimeoutError as exc:
            await self.kill()
            raise BotProcessError(f"{exc}\n{self.tail()}") from None
        if not self.running:
            assert self.proc is not None
            raise BotProcessError(
                f"the bot exited with status {self.proc.returncode} while starting\n{self.tail()}"
            )

    async def command(
        self, *args: str, token: str | None = None, timeout: float = BOUND
    ) -> tuple[int, str, str]:
        """Run ``python -m bot --config ... ARGS`` to its end: (exit status, stdout, stderr).

        The same installation as :meth:`start` (config, data, redirection to the fake);
        ``token`` replaces the fake's own token.
        """
        self._write_files()
        env = self._environment()
        if token is not None:
            env["DISCORD_TOKEN"] = token
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            "--config",
            str(self.config_path),
            *args,
            cwd=self.workdir,
            env=env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        try:
            out, err = await asyncio.wait_for(proc.communicate(), timeout)
        except TimeoutError:
            proc.kill()
            await proc.wait()
            raise BotProcessError(f"python -m bot {' '.join(args)} ran over {timeout} s") from None
        assert proc.returncode is not None
        return proc.returncode, out.decode(), _ANSI.sub("", err.decode())

    async def kill(self) -> None:
        """``kill -9`` the process (if it runs) and reap it."""
        proc = self.proc
        if proc is None or proc.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            proc.send_signal(signal.SIGKILL)
        await asyncio.wait_for(proc.wait(), 10.0)
        self.kills += 1
        self.killed = True
        self._note(f"killed with SIGKILL (pid {proc.pid})")

    @contextlib.asynccontextmanager
    async def killed_at_the_end(self, *, show: int = 0) -> AsyncIterator[BotProcess]:
        """This process for the block; killed when the block ends, however it ends.

        ``show``: print the log's last lines then (pytest shows them when the test failed).
        """
        try:
            yield self
        finally:
            with contextlib.suppress(Exception):
                await self.kill()
            if show:
                print(self.tail(show))

    async def stop(self, timeout: float = BOUND) -> int:
        """Stop the process with SIGTERM (SIGKILL after ``timeout`` s); its exit status."""
        proc = self.proc
        if proc is None:
            return 0
        if proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(proc.wait(), timeout)
            except TimeoutError:
                await self.kill()
                raise BotProcessError(
                    f"the bot ignored SIGTERM for {timeout}s\n{self.tail()}"
                ) from None
        assert proc.returncode is not None
        return proc.returncode

    async def stop_clean(self, *, kills: int = 0) -> None:
        """Stop the process and check its run: it exits 0, was killed ``kills`` times and
        started once more than that, the fake saw no problem and the log shows no fault."""
        assert await self.stop() == 0
        assert (self.starts, self.kills) == (kills + 1, kills)
        assert not self.fake.problems, self.fake.problems
        assert not self.faults(), self.tail()

    def _note(self, line: str) -> None:
        with self.log_path.open("ab") as log:
            log.write(f"===== e2e: {line} =====\n".encode())

    def log_text(self) -> str:
        """Everything the bot printed, over all its starts."""
        try:
            return _ANSI.sub("", self.log_path.read_text(errors="replace"))
        except FileNotFoundError:
            return ""

    def tail(self, lines: int = 60) -> str:
        """The end of the log, for failure messages."""
        text = self.log_text().splitlines()[-lines:]
        return f"--- {self.log_path} (last {len(text)} lines) ---\n" + "\n".join(text)

    def faults(self) -> list[str]:
        """ERROR and CRITICAL log lines and tracebacks the bot printed."""
        return [line for line in self.log_text().splitlines() if _FAULT.match(line)]
