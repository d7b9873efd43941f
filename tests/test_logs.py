"""Log lines for operators: no colour codes off a terminal, JSON lines with guild and table."""

from __future__ import annotations

import asyncio
import contextvars
import io
import json
import logging
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import discord
import pytest

import bot.__main__ as cli
from bot.discord.app import EuchreBot
from bot.logs import GUILD_ID, PLAIN, TABLE_ID, JsonFormatter, TableLock, formatter_for
from bot.settings import Settings
from tests.bot_env import child_env
from tests.discord.test_app import FakeInteraction, make_settings


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def record(message: str = "hello %s", *args: object, **extra: object) -> logging.LogRecord:
    made = logging.LogRecord("bot.tables", logging.WARNING, __file__, 1, message, args, None)
    made.__dict__.update(extra)
    made.created = 1_700_000_000.25
    return made


def test_text_lines_are_coloured_only_on_a_terminal() -> None:
    assert formatter_for("text", Terminal()) is None  # discord.py's colours
    assert formatter_for("text", io.StringIO()) is PLAIN
    assert isinstance(formatter_for("json", Terminal()), JsonFormatter)


@pytest.fixture
def root_handlers() -> Iterator[None]:
    """Whatever main adds to the root logger is taken away again."""
    root = logging.getLogger()
    before, level = list(root.handlers), root.level
    yield
    for handler in root.handlers:
        if handler not in before:
            root.removeHandler(handler)
    root.setLevel(level)


def test_no_colour_codes_off_a_terminal_even_where_discord_would_colour(
    monkeypatch: pytest.MonkeyPatch, root_handlers: None
) -> None:
    # discord.py colours wherever /.dockerenv exists, terminal or not.
    monkeypatch.setattr(discord.utils, "stream_supports_colour", lambda stream: True)
    stderr = io.StringIO()
    monkeypatch.setattr(sys, "stderr", stderr)
    cli._setup_logging(Settings())
    logging.getLogger("bot.test").warning("a plain line")
    [line] = stderr.getvalue().splitlines()
    assert "\x1b[" not in line
    assert line.endswith("] [WARNING ] bot.test: a plain line")


def test_a_json_line_has_time_level_logger_message() -> None:
    doc = json.loads(JsonFormatter().format(record("seat %d", 2)))
    assert doc == {
        "time": "2023-11-14T22:13:20.250+00:00",
        "level": "WARNING",
        "logger": "bot.tables",
        "message": "seat 2",
    }


def test_a_json_line_names_the_guild_and_table_at_hand() -> None:
    def inside() -> dict[str, object]:
        GUILD_ID.set(11)
        TABLE_ID.set(42)
        return dict(json.loads(JsonFormatter().format(record())))

    doc = contextvars.copy_context().run(inside)
    assert (doc["guild"], doc["table"]) == (11, 42)
    one_line = json.loads(JsonFormatter().format(record(guild=5)))
    assert one_line["guild"] == 5 and "table" not in one_line


def test_a_json_line_carries_the_exception() -> None:
    try:
        raise ValueError("bad\nthing")
    except ValueError:
        made = record()
        made.exc_info = sys.exc_info()
    line = JsonFormatter().format(made)
    assert "\n" not in line
    assert json.loads(line)["exception"].endswith("ValueError: bad\nthing")


async def test_a_tables_lock_names_it_while_held() -> None:
    lock = TableLock(11, 42)
    async with lock:
        assert (GUILD_ID.get(), TABLE_ID.get()) == (11, 42)
        assert lock.locked()
    assert (GUILD_ID.get(), TABLE_ID.get()) == (None, None)


async def test_a_taken_interaction_names_its_guild() -> None:
    async def take() -> int | None:
        bot = EuchreBot(make_settings())
        assert await bot.take(FakeInteraction().as_interaction())
        return GUILD_ID.get()

    assert await asyncio.create_task(take()) == 1
    assert GUILD_ID.get() is None, "only in the interaction's own task"


def test_log_format_json_writes_json_lines(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot", "migrate"],
        cwd=tmp_path,
        env=child_env(EUCHRE_LOG_FORMAT="json"),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stderr.splitlines()]
    assert lines and all(set(d) >= {"time", "level", "logger", "message"} for d in lines)
    assert any("migrated to schema" in d["message"] for d in lines)
