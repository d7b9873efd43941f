"""A name people chose reads as typed in Discord's Markdown, and stays plain where Discord is plain.

:func:`read_as_discord` undoes what Discord undoes (a backslash before punctuation, the
zero-width space that keeps ``@everyone`` from being a mention), so a name shown in
Markdown text must read back as typed; buttons and titles carry it untouched.
"""

from __future__ import annotations

import re

import discord
import pytest

from bot.league.history import HistoryPage
from bot.render.fitting import shorten
from bot.render.league import history_panel
from bot.render.names import shown
from bot.render.table import table_panel
from bot.render.teams import label_name, occupant
from bot.rules import HouseRules
from bot.tables import Place, Player, Table

MARKDOWN_NAMES = (
    "*Sky*",
    "__dan__",
    "a|b||c",
    "`x`",
    "[x](https://e.com)",
    "@everyone",
    "*" * 100,
)
"""Names that would format, link or mention; the last, the longest, doubles once escaped."""

TRICKY = (
    *MARKDOWN_NAMES,
    "<@123>",
    "~~gone~~",
    "> quote",
    "# Big",
    "-# small",
    "1. first",
    "back\\slash",
)


def read_as_discord(text: str) -> str:
    """``text`` as Discord shows it once its escapes are read."""
    return re.sub(r"\\([^0-9A-Za-z\s])", r"\1", text).replace("\u200b", "")


@pytest.mark.parametrize("name", TRICKY)
def test_a_name_reads_as_typed_and_formats_nothing(name: str) -> None:
    text = shown(name)
    assert read_as_discord(text) == name
    unescaped = re.sub(r"\\.", "", text)
    assert not re.search(r"[*_~|`<\[\]]|://|@everyone", unescaped), text
    assert not re.match(r"\s*([#>+-]|\d+\.)", text), "nothing begins a header, quote or list"
    for mark in "*_~|`":
        assert text.count("\\" + mark) == name.count(mark), "each mark escaped, once"


@pytest.mark.parametrize("name", TRICKY)
def test_it_escapes_at_least_what_discord_py_does(name: str) -> None:
    ours = shown(name)
    for mark in re.findall(r"\\(.)", discord.utils.escape_markdown(name)):
        assert ours.count("\\" + mark) >= 1, (mark, ours)


@pytest.mark.parametrize("limit", [1, 2, 3, 10, 31, 32, 33, 99, 100])
def test_a_shortened_name_fits_and_cuts_no_escape(limit: int) -> None:
    for name in ("*" * 100, "a_b" * 40, "\\" * 60):
        text = shorten(shown(name), limit)
        assert len(text) <= limit
        assert text.endswith("…")
        assert not re.search(r"(?<!\\)(\\\\)*\\…$", text), text


def test_a_line_of_escaped_names_is_shortened_on_whole_escapes() -> None:
    line = "with " + shown("*" * 100)
    for limit in range(5, 60):
        cut = shorten(line, limit)
        assert len(cut) <= limit
        assert not re.search(r"(?<!\\)(\\\\)*\\…$", cut), cut


def test_the_lobby_shows_names_as_typed_and_a_button_as_they_are() -> None:
    table = Table(7, Place(1, 2), 101, HouseRules.preset_rules("north_american"), 1)
    table.join(Player(101, "*Sky*"))
    table.join(Player(102, "__dan__"))
    seats = table_panel(table.public()).fields[0].value
    assert "1. 🔵 \\*Sky\\* (host)" in seats
    assert "2. 🟠 \\_\\_dan\\_\\_" in seats
    assert label_name(table.public(), 0) == "*Sky*"
    assert occupant(table.public().seats[1]) == "\\_\\_dan\\_\\_"


def test_a_history_title_is_plain() -> None:
    panel = history_panel("*Sky*", HistoryPage(entries=(), page=0, pages=1, games=0))
    assert panel.title == "🕘 *Sky*'s latest games"
