"""compose.yaml, read (no Docker engine in the tests): one build, and a password kept out of URLs.

The bots get the database password as ``PGPASSWORD``, which asyncpg reads, and a URL
without one; the PostgreSQL test checks that such an environment, with a password full
of the characters a URL gives meaning to, opens the store on a server that asks for it.
"""

from __future__ import annotations

import re
from pathlib import Path

import asyncpg
import pytest

from bot.store import Database
from tests.kit.postgres_server import PostgresServer

REPO = Path(__file__).resolve().parents[1]
COMPOSE = (REPO / "compose.yaml").read_text(encoding="utf-8")
PASSWORD = "p@ss/w:rd%41#?&="
"""Every character here would change what a URL holding the password means."""

_VARIABLE = re.compile(r"\$\{(\w+)(?::([?-])([^}]*))?\}")

Node = dict[str, "Node | str"] | list[str]


def parse(text: str) -> dict[str, Node | str]:
    """The subset of YAML compose.yaml uses: nested keys, scalars, lists, anchors, ``<<``.

    Each mapping keeps a ``"<<"`` entry naming the anchor it merges (``"*bot"``), so a
    test sees what a service sets itself apart from what it shares.
    """
    root: dict[str, Node | str] = {}
    stack: list[tuple[int, Node]] = [(-1, root)]
    rows = [re.sub(r"\s+#.*$", "", raw).rstrip() for raw in text.splitlines()]
    rows = [row for row in rows if row.strip() and not row.lstrip().startswith("#")]
    for i, line in enumerate(rows):
        indent = len(line) - len(line.lstrip())
        while stack[-1][0] >= indent:
            stack.pop()
        parent = stack[-1][1]
        item = line.strip()
        if item.startswith("- "):
            assert isinstance(parent, list), line
            parent.append(item[2:])
            continue
        key, _, value = item.partition(":")
        value = value.strip()
        assert isinstance(parent, dict), line
        if value and not value.startswith("&"):
            parent[key] = value.strip('"')
            continue
        listed = i + 1 < len(rows) and rows[i + 1].lstrip().startswith("- ")
        child: Node = [] if listed else {}
        parent[key] = child
        stack.append((indent, child))
    return root


COMPOSE_TREE = parse(COMPOSE)


def section(*path: str) -> dict[str, Node | str]:
    """The mapping at ``path`` (``"services", "bot-0"``...)."""
    node: Node | str = COMPOSE_TREE
    for key in path:
        assert isinstance(node, dict), path
        node = node[key]
    assert isinstance(node, dict), path
    return node


def text_values(node: dict[str, Node | str]) -> dict[str, str]:
    """The scalar entries of a mapping."""
    return {k: v for k, v in node.items() if isinstance(v, str)}


def interpolate(value: str, env: dict[str, str]) -> str:
    """What compose makes of ``${VAR}``, ``${VAR:-default}`` and ``${VAR:?message}``."""

    def one(match: re.Match[str]) -> str:
        name, how, arg = match.groups()
        if env.get(name):
            return env[name]
        if how == "?":
            raise LookupError(f"required variable {name} is missing a value: {arg}")
        return arg if how == "-" else ""

    return _VARIABLE.sub(one, value)


def bot_environment() -> dict[str, str]:
    """The environment every bot shares (``x-bot``'s, anchored ``bot-environment``)."""
    return text_values(section("x-bot", "environment"))


def test_the_bot_image_is_built_once_and_run_by_every_bot() -> None:
    shared = text_values(section("x-bot"))
    bots = {n: section("services", n) for n in section("services") if n.startswith("bot-")}
    assert sorted(bots) == ["bot-0", "bot-1"]
    assert all(bot["<<"] == "*bot" for bot in bots.values())
    assert shared["image"] == "euchre-bot", "the build is named, and every bot runs that name"
    assert "build" not in shared
    assert [n for n, bot in bots.items() if "build" in bot] == ["bot-0"]
    assert section("services", "bot-0")["build"] == "."
    assert not any("image" in bot for bot in bots.values())
    assert COMPOSE.count("build:") == 1


def test_the_web_pages_run_the_bots_image_on_the_same_database() -> None:
    web = section("services", "web")
    assert web["image"] == "euchre-bot" and "build" not in web
    assert '"bot", "web"' in str(web["command"]) and '"0.0.0.0"' in str(web["command"])
    given = {"POSTGRES_PASSWORD": PASSWORD}
    env = {
        k: interpolate(v, given)
        for k, v in text_values(section("services", "web", "environment")).items()
    }
    assert env["EUCHRE_DATABASE_URL"] == bot_environment()["EUCHRE_DATABASE_URL"]
    assert env["PGPASSWORD"] == PASSWORD
    assert "DISCORD_TOKEN" not in env, "the pages need no token"
    assert "127.0.0.1:8080" in str(section("services", "web", "healthcheck")["test"])


def test_the_pages_are_published_on_loopback_only_and_trust_one_proxy() -> None:
    web = section("services", "web")
    assert web["ports"] == ['"127.0.0.1:8080:8080"'], "never on every interface"
    env = text_values(section("services", "web", "environment"))
    assert interpolate(env["EUCHRE_WEB_BASE_URL"], {}) == "http://localhost:8080"
    assert interpolate(env["EUCHRE_WEB_BASE_URL"], {"EUCHRE_WEB_BASE_URL": "https://e.org"}) == (
        "https://e.org"
    )
    assert env["EUCHRE_WEB_TRUST_FORWARDED"] == "1"


def test_the_https_profile_puts_caddy_in_front_of_the_pages() -> None:
    caddy = section("services", "caddy")
    assert re.fullmatch(r"caddy:2\.\d+\.\d+", str(caddy["image"])), "pinned"
    assert caddy["profiles"] == '["https"]', "started only with --profile https"
    given = {"EUCHRE_WEB_BASE_URL": "https://euchre.example.org"}
    command = interpolate(str(caddy["command"]), given)
    assert command == (
        '["caddy", "reverse-proxy", "--from", "https://euchre.example.org", "--to", "web:8080"]'
    )
    assert caddy["ports"] == ['"80:80"', '"443:443"', '"443:443/udp"']
    assert "caddy-data:/data" in caddy["volumes"] and "caddy-data" in section("volumes")
    # the pages' base URL and Caddy's site are the one variable: links match the certificate
    web_env = text_values(section("services", "web", "environment"))
    assert interpolate(web_env["EUCHRE_WEB_BASE_URL"], given) == "https://euchre.example.org"
    # and the bots link it; without it they link no page (never the loopback address)
    assert (
        interpolate(bot_environment()["EUCHRE_WEB_BASE_URL"], given) == given["EUCHRE_WEB_BASE_URL"]
    )
    assert interpolate(bot_environment()["EUCHRE_WEB_BASE_URL"], {}) == ""


def test_compose_refuses_to_start_without_a_password() -> None:
    uses = re.findall(r"\$\{POSTGRES_PASSWORD[^}]*\}", COMPOSE)
    assert len(uses) == 3, "the database's password, and PGPASSWORD of the bots and the web"
    for use in uses:
        assert use.startswith("${POSTGRES_PASSWORD:?"), use
        assert len(use) > len("${POSTGRES_PASSWORD:?}") + 10, "the refusal says what to set"
    with pytest.raises(LookupError, match="POSTGRES_PASSWORD"):
        interpolate(bot_environment()["PGPASSWORD"], {"DISCORD_TOKEN": "t"})
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "POSTGRES_PASSWORD=... docker compose up -d --build" in readme


def test_the_password_never_goes_into_a_url() -> None:
    given = {"POSTGRES_PASSWORD": PASSWORD, "DISCORD_TOKEN": "t"}
    env = {k: interpolate(v, given) for k, v in bot_environment().items()}
    assert env["EUCHRE_DATABASE_URL"] == "postgresql://euchre@db:5432/euchre"
    assert env["PGPASSWORD"] == PASSWORD
    db = section("services", "db")
    assert db["image"] == "postgres:16"
    db_env = {
        k: interpolate(v, given)
        for k, v in text_values(section("services", "db", "environment")).items()
    }
    assert db_env == {
        "POSTGRES_USER": "euchre",
        "POSTGRES_PASSWORD": PASSWORD,
        "POSTGRES_DB": "euchre",
    }


def _require_password(server: PostgresServer) -> None:
    """Make the server ask every TCP connection for its password (SCRAM), as compose's does."""
    hba = server.folder / "data" / "pg_hba.conf"
    hba.write_text("host all all 127.0.0.1/32 scram-sha-256\n" + hba.read_text())


async def test_the_bots_environment_opens_the_store_with_any_password(
    own_postgres_server: PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = own_postgres_server
    admin = await asyncpg.connect(server.url)
    try:
        await admin.execute("CREATE DATABASE euchre")
        quoted = await admin.fetchval("SELECT quote_literal($1::text)", PASSWORD)
        await admin.execute(f"ALTER ROLE euchre PASSWORD {quoted}")
        _require_password(server)
        await admin.execute("SELECT pg_reload_conf()")
    finally:
        await admin.close()
    given = {"POSTGRES_PASSWORD": PASSWORD, "DISCORD_TOKEN": "t"}
    env = {name: interpolate(value, given) for name, value in bot_environment().items()}
    url = env["EUCHRE_DATABASE_URL"].replace("@db:5432/", f"@127.0.0.1:{server.port}/")

    monkeypatch.setenv("PGPASSWORD", "not the password")
    with pytest.raises(asyncpg.InvalidPasswordError):
        await asyncpg.connect(url)

    monkeypatch.setenv("PGPASSWORD", env["PGPASSWORD"])
    db = await Database.open(url)
    try:
        row = await db.fetch_one("SELECT current_user AS who")
        assert row is not None and row["who"] == "euchre"
    finally:
        await db.close()
