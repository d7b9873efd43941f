"""Log lines for operators: plain text, coloured only on a terminal, or one JSON object a line.

``log_format = "text"`` (the default) writes discord.py's plain lines, with its colours
only where stderr is a terminal: ``docker logs`` and files get no escape codes.
``log_format = "json"`` writes one JSON object a line for log collectors: ``time``
(UTC, ISO 8601), ``level``, ``logger``, ``message``, and ``guild`` and ``table`` where
the line is about one, and ``exception`` with its traceback where there is one.

Where a line is about a server or a table comes from context: :data:`GUILD_ID` is
set where an interaction is taken in, and a table's lock (:class:`TableLock`) sets
both while it is held; ``extra={"guild": ..., "table": ...}`` on a call says it
for one line.
"""

from __future__ import annotations

import json
import logging
from contextvars import ContextVar, Token
from datetime import UTC, datetime
from types import TracebackType
from typing import IO, Any, Literal

from bot.waits import WaitingLock

__all__ = [
    "GUILD_ID",
    "TABLE_ID",
    "JsonFormatter",
    "LogFormat",
    "TableLock",
    "formatter_for",
]

LogFormat = Literal["text", "json"]

GUILD_ID: ContextVar[int | None] = ContextVar("guild_id", default=None)
"""The server the code at hand works for, where known."""
TABLE_ID: ContextVar[int | None] = ContextVar("table_id", default=None)
"""The table the code at hand works on, where known."""

PLAIN = logging.Formatter(
    "[{asctime}] [{levelname:<8}] {name}: {message}", "%Y-%m-%d %H:%M:%S", style="{"
)
"""discord.py's line without its colours."""


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message; guild and table where known."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as one line of JSON."""
        doc: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, var in (("guild", GUILD_ID), ("table", TABLE_ID)):
            value = getattr(record, key, None)
            if value is None:
                value = var.get()
            if value is not None:
                doc[key] = value
        if record.exc_info:
            doc["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            doc["stack"] = self.formatStack(record.stack_info)
        return json.dumps(doc, ensure_ascii=False, default=str)


def formatter_for(log_format: LogFormat, stream: IO[str]) -> logging.Formatter | None:
    """The formatter of the log lines; None: discord.py's coloured one (a terminal's)."""
    if log_format == "json":
        return JsonFormatter()
    isatty = getattr(stream, "isatty", None)
    return None if isatty is not None and isatty() else PLAIN


class TableLock(WaitingLock):
    """A table's lock; while it is held, log lines name the table and its server.

    A click that finds it held answers first (:class:`~bot.waits.WaitingLock`).
    """

    def __init__(self, guild_id: int, table_id: int) -> None:
        super().__init__()
        self._ids = (guild_id, table_id)
        self._tokens: list[tuple[Token[int | None], Token[int | None]]] = []

    async def __aenter__(self) -> None:
        """Acquire the lock; the holder's log lines name the table."""
        await super().__aenter__()
        guild_id, table_id = self._ids
        self._tokens.append((GUILD_ID.set(guild_id), TABLE_ID.set(table_id)))

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Release the lock and the names."""
        guild, table = self._tokens.pop()
        TABLE_ID.reset(table)
        GUILD_ID.reset(guild)
        await super().__aexit__(exc_type, exc, tb)
