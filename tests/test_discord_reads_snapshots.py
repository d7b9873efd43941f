"""The Discord side reads snapshots and sends requests: a live table is only a handle.

docs/architecture.md: the Discord door (``cogs/``, ``bot/discord/``) and the Activity
(``bot/web/activity/``) draw every table from a frozen :class:`~bot.tables.TableSnapshot`
and never read a live table's state. Read from the source with ``ast``:

- none of them names ``LiveTable`` or ``Table`` or imports ``bot.tables.live``,
  ``bot.tables.table`` or the parts of a live table (turns, lobby, absence, timers);
- a table the registry hands them (``service.fetch(...)``, ``tables.at(...)``, a loop
  over ``tables.open_tables``...) is used for what it is known by (its ``id``, ``number``
  and ``place``, fixed when it opens), what it answers with values holding nothing live
  (``snapshot()``, ``watched()``, ``review_of(...)``) and its requests (a method of
  ``turns``, ``lobby`` or ``absence``) only: not read, not passed on whole, not
  returned; compared with ``None`` at most.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Final

ROOT = Path(__file__).resolve().parent.parent
DISCORD_SIDE: Final = ("cogs", "bot/discord", "bot/web/activity")

LIVE_NAMES: Final = frozenset({"LiveTable", "Table"})
LIVE_MODULES: Final = frozenset(
    f"bot.tables.{name}" for name in ("live", "table", "turns", "lobby", "absence", "turn_timers")
)
REGISTRY: Final = frozenset({"service", "tables"})
"""The names the Discord side holds the table registry by (``self.service``, ``bot.tables``)."""
LOOKUPS: Final = frozenset(
    {"at", "find", "get", "get_any", "fetch", "fetch_in_step", "open_one", "open", "play_again"}
)
"""The registry's calls that hand out a live table."""
MANY: Final = frozenset({"tables_of", "hosted_by", "open_tables"})
"""The registry's calls or properties that hand out several."""
HANDLE: Final = frozenset({"id", "number", "place"})
"""What a table is known by, fixed when it opens."""
ASKS: Final = frozenset({"snapshot", "watched", "review_of"})
"""What a live table answers with values that hold nothing live."""
REQUESTS: Final = frozenset({"turns", "lobby", "absence"})
"""A live table's parts that take requests: the Discord side only calls their methods."""


def _registry_call(node: ast.expr, names: frozenset[str]) -> bool:
    """Whether ``node`` is ``<...>.service.<name>(...)`` / ``tables.<name>`` (awaited or not)."""
    if isinstance(node, ast.Await):
        node = node.value
    if isinstance(node, ast.Call):
        node = node.func
    if not isinstance(node, ast.Attribute) or node.attr not in names:
        return False
    holder = node.value
    last = holder.attr if isinstance(holder, ast.Attribute) else getattr(holder, "id", None)
    return last in REGISTRY


def _targets(target: ast.expr, value: ast.expr | None) -> list[str]:
    """The names bound to a live table by ``target = value`` (or a loop's target)."""
    if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple):
        return [n for t, v in zip(target.elts, value.elts, strict=False) for n in _targets(t, v)]
    if isinstance(value, ast.IfExp):
        return _targets(target, value.body) + _targets(target, value.orelse)
    if isinstance(target, ast.Name) and value is not None and _registry_call(value, LOOKUPS):
        return [target.id]
    return []


def _live_names(function: ast.AST) -> set[str]:
    """The names a function binds to a table of the registry."""
    names: set[str] = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                names.update(_targets(target, node.value))
        elif isinstance(node, ast.AnnAssign | ast.NamedExpr) and node.value is not None:
            names.update(_targets(node.target, node.value))
        elif (
            isinstance(node, ast.For | ast.AsyncFor | ast.comprehension)
            and _registry_call(node.iter, MANY)
            and isinstance(node.target, ast.Name)
        ):
            names.add(node.target.id)
    return names


def _called(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    call = parents.get(node)
    return isinstance(call, ast.Call) and call.func is node


def _handled(use: ast.Attribute, parents: dict[ast.AST, ast.AST]) -> bool:
    """Whether ``table.<attr>`` is its id, its snapshot made, or a request made of it."""
    if use.attr in HANDLE:
        return True
    if use.attr in ASKS:
        return _called(use, parents)
    method = parents.get(use)
    return use.attr in REQUESTS and isinstance(method, ast.Attribute) and _called(method, parents)


def _misuses(function: ast.AST, names: set[str]) -> list[int]:
    """The lines where a live table of ``names`` is used for more than a handle."""
    parents = {child: node for node in ast.walk(function) for child in ast.iter_child_nodes(node)}
    lines: list[int] = []
    for node in ast.walk(function):
        if not (isinstance(node, ast.Name) and node.id in names):
            continue
        if isinstance(node.ctx, ast.Store):
            continue
        parent = parents.get(node)
        if isinstance(parent, ast.Attribute) and _handled(parent, parents):
            continue
        if isinstance(parent, ast.Compare) and all(
            isinstance(c, ast.Constant) and c.value is None for c in parent.comparators
        ):
            continue
        lines.append(node.lineno)
    return lines


def offences(path: Path) -> list[str]:
    """Where ``path`` names a live table or reads one."""
    tree = ast.parse(path.read_text(), str(path))
    where = path.relative_to(ROOT)
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module is not None:
            module = node.module
            if module in LIVE_MODULES or (
                module.startswith("bot.tables") and {a.name for a in node.names} & LIVE_NAMES
            ):
                found.append(f"{where}:{node.lineno} imports {module}")
        elif isinstance(node, ast.Import):
            found += [
                f"{where}:{node.lineno} imports {a.name}"
                for a in node.names
                if a.name in LIVE_MODULES
            ]
        elif isinstance(node, ast.Name | ast.Attribute) and (
            (node.id if isinstance(node, ast.Name) else node.attr) in LIVE_NAMES
        ):
            found.append(f"{where}:{node.lineno} names a live table's class")
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found += [
                f"{where}:{line} reads a live table" for line in _misuses(node, _live_names(node))
            ]
    return sorted(set(found))


def _source(text: str) -> list[str]:
    """The lines of ``text`` where a live table is read."""
    found: list[str] = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found += [str(line) for line in _misuses(node, _live_names(node))]
    return sorted(set(found))


def test_the_reader_tells_a_handle_from_a_read() -> None:
    handle = """
async def move(self, table_id):
    table = await self.service.fetch(table_id)
    await table.turns.act(1, 2, 3, 4)
    await table.lobby.leave(4)
    if self.bot.tables.at(5) is None:
        return
    return await table.snapshot(), table.id
"""
    read = """
async def look(self, table_id):
    table, user = await self.service.fetch(table_id), 3
    hosted = [t for t in self.service.tables_of(user) if t.host_id == user]
    for each in self.bot.tables.open_tables:
        draw(each)
    if table.turns.computing or table.snapshot:
        return table.status
"""
    assert _source(handle) == []
    assert _source(read) == ["4", "6", "7", "8"]


def test_the_discord_side_reads_only_snapshots() -> None:
    modules = sorted(p for folder in DISCORD_SIDE for p in (ROOT / folder).rglob("*.py"))
    assert modules
    assert [o for p in modules for o in offences(p)] == []
