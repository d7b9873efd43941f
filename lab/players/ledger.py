"""A long run's results kept one line a game or deal, so that a run stopped goes on where it was.

A ledger is a JSON-lines file. Its first line names the run (``key``: the players,
rules, seed and anything else its results depend on); every other line is one
index's result. Opening a ledger for a run reads back the results it has; a file
kept for another run is refused rather than mixed in. Each line is written whole
and flushed, so a run killed at any moment leaves every finished index readable
(a torn last line is dropped when the file is opened again).

    ledger = Ledger(Path("/tmp/gap.jsonl"), {"run": "review-gap", "seed": 1})
    todo = [i for i in range(total) if i not in ledger.results]
    ...                          # ledger.add(i, result) as each index ends
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

__all__ = ["Ledger", "LedgerError"]


class LedgerError(ValueError):
    """A ledger file that belongs to another run, or is not a ledger."""


class Ledger:
    """The results of one run by index, read from ``path`` and appended to it."""

    def __init__(self, path: Path, key: dict[str, Any]) -> None:
        self.path = path
        self.key = key
        self.results: dict[int, Any] = {}
        if path.exists() and path.stat().st_size:
            self._read()
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._write({"key": key})

    def _read(self) -> None:
        text = self.path.read_text(encoding="utf-8")
        if not text.endswith("\n"):  # a run killed while writing its last line
            text = text[: text.rfind("\n") + 1]
            self.path.write_text(text, encoding="utf-8")
        lines = text.splitlines()
        try:
            head = json.loads(lines[0])
        except (json.JSONDecodeError, IndexError):
            raise LedgerError(f"{self.path} is not a results file of the lab") from None
        if head.get("key") != self.key:
            raise LedgerError(
                f"{self.path} keeps another run ({head.get('key')}); "
                "name another file, or remove it to start again"
            )
        for line in lines[1:]:
            row = json.loads(line)
            self.results[int(row["index"])] = row["result"]

    def add(self, index: int, result: Any) -> None:
        """Keep ``index``'s result (JSON-able)."""
        self.results[index] = result
        self._write({"index": index, "result": result})

    def _write(self, row: dict[str, Any]) -> None:
        with self.path.open("a", encoding="utf-8") as out:
            out.write(json.dumps(row, separators=(",", ":")) + "\n")
            out.flush()
            os.fsync(out.fileno())
