"""The shape of the tree: imports point down (docs/architecture.md), modules stay small.

Imports are read from the source with ``ast``, so nothing is imported to check them.
An import under ``if TYPE_CHECKING:`` is for the type checker only and does not count
as an arrow.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MAX_LINES = 450
REASON = "450 lines"
"""What a longer module's docstring says, with its reason ("Longer than 450 lines: ...")."""

NO_DISCORD = ("discord", "aiohttp")
"""What the layers below the cogs and render never import."""


@dataclass(frozen=True)
class Import:
    module: str
    """The imported module, absolute (``bot.rules.game``, ``discord.ext``)."""
    line: int
    type_only: bool


def _modules(*folders: str) -> list[Path]:
    found = sorted(p for folder in folders for p in (ROOT / folder).rglob("*.py"))
    assert found, f"no module under {folders}"
    return found


def _name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(test: ast.expr) -> bool:
    return ast.unparse(test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING")


def imports(path: Path) -> list[Import]:
    """Every import in ``path``, wherever it stands (functions and classes too)."""
    package = _name(path) if path.name == "__init__.py" else _name(path).rpartition(".")[0]
    found: list[Import] = []

    def visit(node: ast.AST, type_only: bool) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.body:
                visit(child, True)
            for child in node.orelse:
                visit(child, type_only)
            return
        if isinstance(node, ast.Import):
            found.extend(Import(a.name, node.lineno, type_only) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            found.append(Import(module, node.lineno, type_only))
        for child in ast.iter_child_nodes(node):
            visit(child, type_only)

    visit(ast.parse(path.read_text(encoding="utf-8")), False)
    return found


def _within(module: str, *prefixes: str) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def _offences(
    folder: str, forbidden: tuple[str, ...], *, allowed: tuple[str, ...] = ()
) -> list[str]:
    """Run-time imports under ``folder`` of anything in ``forbidden`` (``allowed`` apart)."""
    bad = []
    for path in _modules(folder):
        for imp in imports(path):
            if imp.type_only or _within(imp.module, *allowed):
                continue
            if _within(imp.module, *forbidden):
                bad.append(f"{path.relative_to(ROOT)}:{imp.line} imports {imp.module}")
    return bad


def test_the_import_reader_sees_relative_and_type_only_imports() -> None:
    service = imports(ROOT / "bot/tables/service.py")
    assert any(i.module == "bot.tables.errors" and not i.type_only for i in service)
    assert any(_within(i.module, "bot.rules") for i in service)
    app = imports(ROOT / "bot/app.py")
    assert [i.module for i in app if i.type_only] == ["cogs.euchre.routes"]
    package = imports(ROOT / "cogs/euchre/__init__.py")
    assert any(i.module == "cogs.euchre.cog" for i in package)


def test_rules_import_nothing_of_the_project_and_do_no_io() -> None:
    forbidden = ("bot", "cogs", *NO_DISCORD, "asyncio", "aiosqlite", "sqlite3", "socket")
    assert _offences("bot/rules", forbidden, allowed=("bot.rules",)) == []


def test_players_know_only_the_rules() -> None:
    forbidden = ("bot", "cogs", *NO_DISCORD, "aiosqlite", "sqlite3")
    assert _offences("bot/players", forbidden, allowed=("bot.rules", "bot.players")) == []


@pytest.mark.parametrize("folder", ["bot/tables", "bot/store", "bot/server", "bot/league"])
def test_the_layers_below_the_cogs_know_nothing_of_discord(folder: str) -> None:
    forbidden = ("cogs", *NO_DISCORD, "bot.render", "bot.app", "bot.replies", "bot.bench")
    assert _offences(folder, forbidden) == []


def test_nothing_in_bot_imports_the_cogs_at_run_time() -> None:
    assert _offences("bot", ("cogs",)) == []


def test_computer_players_are_injected_into_the_tables() -> None:
    assert _offences("bot/tables", ("bot.players",)) == []


def test_the_store_and_the_server_settings_do_not_go_round_in_a_circle() -> None:
    # The store saves ServerSettings (bot/server/settings.py); only bot/server/sources.py,
    # where the service reads settings, uses the store.
    assert _offences("bot/store", ("bot.server",), allowed=("bot.server.settings",)) == []
    server = [p for p in _modules("bot/server") if p.name != "sources.py"]
    bad = [
        f"{p.relative_to(ROOT)}:{i.line} imports {i.module}"
        for p in server
        for i in imports(p)
        if not i.type_only and _within(i.module, "bot.store", "bot.tables")
    ]
    assert bad == []


def test_long_modules_say_why_at_their_top() -> None:
    """A module of bot/ or cogs/ over 450 lines says why in its docstring ("450 lines")."""
    unexplained = []
    for path in _modules("bot", "cogs"):
        text = path.read_text(encoding="utf-8")
        lines = len(text.splitlines())
        if lines <= MAX_LINES:
            continue
        doc = ast.get_docstring(ast.parse(text)) or ""
        if REASON not in doc:
            unexplained.append(f"{path.relative_to(ROOT)}: {lines} lines")
    assert unexplained == [], (
        f"over {MAX_LINES} lines without a reason at the top: split the module, or say "
        f'in its docstring why it is longer ("Longer than {MAX_LINES} lines: ...")'
    )


def test_only_the_command_line_imports_the_web_pages() -> None:
    bad = [
        line
        for line in _offences("bot", ("bot.web",), allowed=())
        if not line.startswith(("bot/web/", "bot/__main__.py"))
    ]
    assert _offences("cogs", ("bot.web",)) == [] and bad == []


def test_the_web_pages_only_read() -> None:
    # They read the store, the league, the rules and render's pictures; nothing that acts.
    forbidden = ("cogs", "bot.tables", "bot.app", "bot.players", "bot.bench", "discord")
    assert _offences("bot/web", forbidden) == []
