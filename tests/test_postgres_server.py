"""The tests' PostgreSQL server: found on PATH or in Debian's folders, else a clear failure."""

from __future__ import annotations

import pytest

import tests.postgres_server as server


def test_without_postgresql_the_message_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(server.shutil, "which", lambda name: None)
    monkeypatch.setattr(server.glob, "glob", lambda pattern: [])
    with pytest.raises(server.PostgresMissingError, match="apt-get install postgresql"):
        server.start_server()


def test_the_newest_debian_version_is_preferred(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server.shutil, "which", lambda name: None)
    found = ["/usr/lib/postgresql/9/bin/pg_ctl", "/usr/lib/postgresql/16/bin/pg_ctl"]
    monkeypatch.setattr(server.glob, "glob", lambda pattern: found)
    assert str(server._bin_dir()) == "/usr/lib/postgresql/16/bin"
