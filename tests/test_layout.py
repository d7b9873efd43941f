"""The shape of the tree: imports point down (docs/architecture.md), modules stay small.

Imports are read from the source with ``ast``, so nothing is imported to check them.
An import under ``if TYPE_CHECKING:`` is for the type checker only and does not count
as an arrow.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final

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
    names: tuple[str, ...] = ()
    """What a ``from`` import takes from ``module`` (modules or names in it)."""


def _modules(*folders: str) -> list[Path]:
    found = sorted(p for folder in folders for p in (ROOT / folder).rglob("*.py"))
    assert found, f"no module under {folders}"
    return found


def _name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(test: ast.expr) -> bool:
    return ast.unparse(test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING")


@cache
def imports(path: Path) -> tuple[Import, ...]:
    """Every import in ``path``, wherever it stands (functions and classes too).

    Read once a process: most tests here read every module's imports.
    """
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
            names = tuple(a.name for a in node.names)
            found.append(Import(module, node.lineno, type_only, names))
        for child in ast.iter_child_nodes(node):
            visit(child, type_only)

    visit(ast.parse(path.read_text(encoding="utf-8")), False)
    return tuple(found)


def _within(module: str, *prefixes: str) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def _offences(
    folder: str,
    forbidden: tuple[str, ...],
    *,
    allowed: tuple[str, ...] = (),
    type_only: bool = False,
) -> list[str]:
    """Run-time imports under ``folder`` of anything in ``forbidden`` (``allowed`` apart).

    ``type_only``: imports for the type checker only count too.
    """
    bad = []
    for path in _modules(folder):
        for imp in imports(path):
            if (imp.type_only and not type_only) or _within(imp.module, *allowed):
                continue
            if _within(imp.module, *forbidden):
                bad.append(f"{path.relative_to(ROOT)}:{imp.line} imports {imp.module}")
    return bad


def test_the_import_reader_sees_relative_and_type_only_imports() -> None:
    turns = imports(ROOT / "bot/tables/turns.py")
    assert any(i.module == "bot.tables.errors" and not i.type_only for i in turns)
    assert any(_within(i.module, "bot.rules") for i in turns)
    package = imports(ROOT / "cogs/euchre/__init__.py")
    assert any(i.module == "cogs.euchre.cog" for i in package)
    publisher = imports(ROOT / "bot/discord/publisher.py")
    assert [i.module for i in publisher if i.type_only] == ["bot.discord.app"]


def import_graph(*folders: str) -> dict[str, set[str]]:
    """Each module of ``folders`` and the project's modules it imports, type-only ones too.

    ``from package import name`` points at the submodule ``package.name`` where there is
    one (else at the package), and an import inside a function counts as much as one at
    the top: a cycle that only works because one side imports late is still a cycle.
    """
    paths = {_name(p): p for p in _modules(*folders)}
    graph: dict[str, set[str]] = {name: set() for name in paths}
    for name, path in paths.items():
        for imp in imports(path):
            subs = {f"{imp.module}.{n}" for n in imp.names} & paths.keys()
            graph[name].update(subs)
            if imp.module in paths and (not imp.names or len(subs) < len(imp.names)):
                graph[name].add(imp.module)  # the module itself, or names defined in it
        graph[name].discard(name)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = [stack.pop()]
            while group[-1] != node:
                group.append(stack.pop())
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_cycle_finder_finds_a_type_only_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_module_of_the_project_is_in_an_import_cycle() -> None:
    """Not even through an import for the type checker only, or one inside a function.

    The test kit counts too: its harness is parts of one class, and each part that needs
    the whole names what it needs as a protocol instead of importing it.
    """
    assert cycles(import_graph("bot", "cogs", "lab", "tests/kit")) == []


def test_rules_import_nothing_of_the_project_and_do_no_io() -> None:
    forbidden = ("bot", "cogs", *NO_DISCORD, "asyncio", "aiosqlite", "sqlite3", "socket")
    assert _offences("bot/rules", forbidden, allowed=("bot.rules", "bot.cli")) == []


def test_players_know_only_the_rules() -> None:
    forbidden = ("bot", "cogs", *NO_DISCORD, "aiosqlite", "sqlite3")
    allowed = ("bot.rules", "bot.players", "bot.cli")
    assert _offences("bot/players", forbidden, allowed=allowed) == []


def test_the_search_pool_imports_nothing_of_the_project() -> None:
    assert _offences("bot/search_pool", ("bot", "cogs"), allowed=("bot.search_pool",)) == []


def test_the_command_lines_shared_helper_imports_nothing_of_the_project() -> None:
    found = [i.module for i in imports(ROOT / "bot/cli.py") if _within(i.module, "bot", "cogs")]
    assert found == [], "every layer's command line uses it"


def test_render_is_pure_text_and_pictures() -> None:
    """bot/render imports no discord, not even for the type checker: it draws panels, and
    bot/discord makes them embeds (bot/discord/embeds.py)."""
    assert _offences("bot/render", (*NO_DISCORD, "bot.discord", "cogs"), type_only=True) == []


DOMAIN: Final = (
    "bot/tables",
    "bot/store",
    "bot/server",
    "bot/league",
    "bot/tournaments",
    "bot/daily",
    "bot/review",
    "bot/lesson",
)
"""The domain: the tables, the store, a server's settings, the league and each feature's
package. None of it knows Discord, how things look, or the Discord side."""


@pytest.mark.parametrize("folder", DOMAIN)
def test_the_domain_knows_nothing_of_discord(folder: str) -> None:
    """Not even for the type checker: the domain's types never name Discord's."""
    forbidden = ("cogs", *NO_DISCORD, "bot.render", "bot.discord")
    assert _offences(folder, forbidden, type_only=True) == []


FEATURES: Final = {
    "tournament": ("bot/league", "bot/store", "bot/tables", "bot/server"),
    "champion": ("bot/league", "bot/store", "bot/tables", "bot/server"),
    "daily": ("bot/league", "bot/store", "bot/tables", "bot/server"),
    "lesson": ("bot/league", "bot/store", "bot/tables", "bot/server"),
    "review": ("bot/league", "bot/store"),
}
"""Each feature's domain is one package (bot/tournaments, bot/daily, bot/lesson,
bot/review): no module of these folders is named for it. (The tables keep which of a
table's deals may be reviewed; the players how a decision is judged.)"""


@pytest.mark.parametrize("word", sorted(FEATURES))
def test_each_feature_lives_in_its_own_package(word: str) -> None:
    strays = [
        str(path.relative_to(ROOT))
        for folder in FEATURES[word]
        for path in _modules(folder)
        if word in path.stem or any(word in part for part in path.relative_to(ROOT).parts[:-1])
    ]
    assert strays == []


def test_nothing_in_bot_imports_the_cogs_at_run_time() -> None:
    assert _offences("bot", ("cogs",)) == []


@pytest.mark.parametrize("folder", ["bot", "cogs"])
def test_the_shipped_code_never_imports_the_lab_or_the_tests(folder: str) -> None:
    assert _offences(folder, ("lab", "tests")) == []


LAB_MODULES = (
    "arena",
    "ceiling",
    "best_response",
    "bid_regret",
    "bid_rules",
    "calibrate",
    "ledger",
    "review_deal",
    "review_gap",
    "single_deals",
    "training",
    "parallel",
    "outside",
    "bench",
    "__main__",
)
"""What measures and trains the players: it lives in lab/players, never in bot/players."""


def test_bot_holds_no_lab_module() -> None:
    shipped = {p.stem for p in (ROOT / "bot/players").iterdir()}
    assert sorted(shipped & set(LAB_MODULES)) == []
    assert not (ROOT / "bot/bench").exists()
    assert not (ROOT / "bot/rules/bench.py").exists()


def test_computer_players_are_injected_into_the_tables() -> None:
    assert _offences("bot/tables", ("bot.players",)) == []


def test_the_server_settings_are_a_model_below_the_store_and_the_tables() -> None:
    assert _offences("bot/server", ("bot.store", "bot.tables", "bot.league")) == []


LAYERS: dict[str, int] = {
    "bot.waits": -2,
    "bot.cli": -1,
    "bot.logs": -1,
    "bot.search_pool": -1,
    "bot.settings_errors": -1,
    "bot.rules": 0,
    "bot.errors": 0,
    "bot.compiled": 0,
    "bot.players": 1,
    "bot.server": 1,
    "bot.store": 2,
    "bot.daily": 3,
    "bot.review": 3,
    "bot.lesson": 3,
    "bot.league": 4,
    "bot.settings": 4,
    "bot.heartbeat": 4,
    "bot.runtime": 4,
    "bot.tables": 5,
    "bot.tournaments": 6,
    "bot.render": 7,
    "bot.web": 8,
    "bot.services": 8,
    "bot.discord": 9,
    "bot.maintenance": 9,
    "cogs.euchre": 10,
    "bot.__main__": 10,
    "lab.options": 10,
    "lab.players": 11,
    "lab.bench": 12,
    "lab.engine_floor": 13,
    "lab.__main__": 13,
}
"""Each package (or top module) of bot/, cogs/ and lab/ by height: imports only go lower."""


def _unit(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] not in ("bot", "cogs", "lab") or len(parts) == 1:
        return None
    return ".".join(parts[:2])


def test_every_arrow_of_bot_cogs_and_lab_points_down() -> None:
    """No import points up or sideways between packages, so the graph has no cycle."""
    bad = []
    for path in _modules("bot", "cogs", "lab"):
        unit = _unit(_name(path))
        if unit is None:
            continue
        assert unit in LAYERS, f"{unit} has no height in LAYERS: give it one"
        for imp in imports(path):
            target = _unit(imp.module)
            if imp.type_only or target is None or target == unit:
                continue
            if target not in LAYERS or LAYERS[target] >= LAYERS[unit]:
                bad.append(f"{path.relative_to(ROOT)}:{imp.line} {unit} -> {target}")
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
        if not line.startswith(("bot/web/", "bot/__main__.py", "bot/maintenance.py"))
    ]
    assert _offences("cogs", ("bot.web",)) == [] and bad == []


def test_the_web_pages_only_read() -> None:
    # They read the store, the league, the rules and render's pictures; nothing that acts.
    forbidden = ("cogs", "lab", "bot.tables", "bot.discord", "bot.players", "discord")
    pages = [o for o in _offences("bot/web", forbidden) if not o.startswith("bot/web/activity/")]
    assert pages == []


def test_the_activity_reaches_the_tables_through_its_one_adapter() -> None:
    """Only bot/web/activity/feed.py imports the tables, so a change to them touches it alone."""
    forbidden = ("cogs", "lab", "bot.discord", "bot.players", "discord")
    assert _offences("bot/web/activity", forbidden) == []
    tables = _offences("bot/web/activity", ("bot.tables",))
    assert [o for o in tables if not o.startswith("bot/web/activity/feed.py:")] == []
    assert tables, "the adapter is feed.py"
