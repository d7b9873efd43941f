"""A throwaway PostgreSQL server for the tests: initdb and pg_ctl in a temp folder, on loopback.

Found on PATH, else in Debian's ``/usr/lib/postgresql/*/bin`` (``apt-get install
postgresql``). PostgreSQL refuses to run as root, so as root the server runs as the
``postgres`` user the package creates (through ``runuser``). Durability is off
(``fsync``, ``full_page_writes``): the data lives only as long as the test session.

Without PostgreSQL, :func:`start_server` raises :class:`PostgresMissingError` saying
how to install it; the tests that need it fail with that message (never skipped).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

INSTALL_HINT = (
    "PostgreSQL is needed for the PostgreSQL half of the store tests: install it "
    "(Debian/Ubuntu: apt-get install postgresql; macOS: brew install postgresql) "
    "so that initdb and pg_ctl are on PATH or in /usr/lib/postgresql/*/bin"
)
USER = "euchre"


class PostgresMissingError(RuntimeError):
    """No PostgreSQL server binaries on this machine."""


def _bin_dir() -> Path:
    found = shutil.which("pg_ctl")
    if found is not None and shutil.which("initdb") is not None:
        return Path(found).resolve().parent
    versions = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"),
        key=lambda p: (
            int(Path(p).parent.parent.name) if Path(p).parent.parent.name.isdigit() else 0
        ),
    )
    if versions:
        return Path(versions[-1]).parent
    raise PostgresMissingError(INSTALL_HINT)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class PostgresServer:
    """A running server: connect as ``url`` (database ``postgres``) or to a new database."""

    folder: Path
    port: int
    bin_dir: Path
    run_as: str | None

    @property
    def url(self) -> str:
        """The URL of the server's maintenance database."""
        return self.url_of("postgres")

    def url_of(self, database: str) -> str:
        """The URL of one database of the server."""
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    def stop(self) -> None:
        """Stop the server at once and delete its folder."""
        try:
            _run(self, "pg_ctl", "-D", str(self.folder / "data"), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)


def _command(server: PostgresServer, tool: str, *args: str) -> list[str]:
    command = [str(server.bin_dir / tool), *args]
    if server.run_as is not None:
        command = ["runuser", "-u", server.run_as, "--", *command]
    return command


def _run(server: PostgresServer, tool: str, *args: str) -> None:
    result = subprocess.run(
        _command(server, tool, *args), capture_output=True, text=True, timeout=120, check=False
    )
    if result.returncode != 0:
        raise RuntimeError(
            f"{tool} failed ({result.returncode}): {result.stderr.strip() or result.stdout.strip()}"
        )


def start_server() -> PostgresServer:
    """initdb in a fresh temp folder and start the server on a free loopback port."""
    bin_dir = _bin_dir()
    run_as = None
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            raise PostgresMissingError(
                "running as root, PostgreSQL needs another user to run as: the postgres "
                "user that Debian's postgresql package creates is missing"
            ) from None
        run_as = "postgres"
    folder = Path(tempfile.mkdtemp(prefix="euchre-pg-"))
    if run_as is not None:
        shutil.chown(folder, user=run_as)
    server = PostgresServer(folder, _free_port(), bin_dir, run_as)
    try:
        _run(
            server,
            "initdb",
            "-D",
            str(folder / "data"),
            "-A",
            "trust",
            "-U",
            USER,
            "-E",
            "UTF8",
            "--no-sync",
            "--locale=C",
        )
        options = (
            f"-h 127.0.0.1 -p {server.port} -k {folder} -c fsync=off "
            "-c full_page_writes=off -c synchronous_commit=off -c max_connections=200"
        )
        _run(
            server,
            "pg_ctl",
            "-D",
            str(folder / "data"),
            "-l",
            str(folder / "log"),
            "-o",
            options,
            "-w",
            "-t",
            "60",
            "start",
        )
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return server
