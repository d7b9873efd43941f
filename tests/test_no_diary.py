"""The project speaks of what it does, not of its own making.

README, the pages under docs/ and the comments and docstrings of the code name no
numbered working session, no issue of this project by its number and no commit by
its hash: git keeps that history (the cases below show what is meant). Only prose
is read: string values in the code (hashed decision traces, say) may be hex, and
words such as a database or gateway "session" are fine on their own.
"""

from __future__ import annotations

import ast
import io
import re
import subprocess
import tokenize
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
CODE_DIRS = ("bot", "cogs", "tests", "lab")

_ORDINALS = (
    "first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|"
    "thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|"
    r"twentieth|\d+(?:st|nd|rd|th)"
)
DIARY = {
    "a numbered session": re.compile(rf"\b(?:{_ORDINALS})(?:'s)?\s+(?:working\s+)?session", re.I),
    "an issue number": re.compile(r"\bissues?\s*#?\d+", re.I),
    "a commit hash": re.compile(
        r"(?<![\w/.#=:-])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}(?![\w/-])"
    ),
}


def tracked(*paths: str) -> list[Path]:
    """The files git tracks under ``paths`` that are still on disk."""
    listed = subprocess.run(
        ["git", "ls-files", "--", *paths], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.split()
    return [REPO / name for name in listed if (REPO / name).is_file()]


def prose_of_python(source: str) -> Iterator[tuple[int, str]]:
    """Each line of a module's comments and docstrings, with its line number."""
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            yield token.start[0], token.string
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstring = body[0].value
                if isinstance(docstring.value, str):
                    for offset, line in enumerate(docstring.value.splitlines()):
                        yield docstring.lineno + offset, line


def prose_of_markdown(text: str) -> Iterator[tuple[int, str]]:
    """Each line of a page, its fenced code included (commands are prose too)."""
    yield from enumerate(text.splitlines(), start=1)


def diary_lines() -> list[str]:
    """``file:line: what: the line`` for every line that tells of the project's making."""
    found = []
    pages = tracked("README.md", "docs")
    modules = tracked(*CODE_DIRS)
    for path in pages + modules:
        if path.suffix not in (".md", ".py"):
            continue
        text = path.read_text(encoding="utf-8")
        if not any(pattern.search(text) for pattern in DIARY.values()):
            continue  # every line read below is a piece of the text: none can match
        lines = prose_of_markdown(text) if path.suffix == ".md" else prose_of_python(text)
        for number, line in lines:
            for what, pattern in DIARY.items():
                if pattern.search(line):
                    found.append(f"{path.relative_to(REPO)}:{number}: {what}: {line.strip()}")
    return found


def test_nothing_speaks_of_its_own_making() -> None:
    found = diary_lines()
    assert not found, "\n".join(["the project's own history belongs in git:", *found])


@pytest.mark.parametrize(
    "line",
    [
        "Measured in the seventeenth session on the 2-core machine.",
        "the fourteenth session's machine",
        "as the 3rd session showed",
        "Fixed in issue 16.",
        "see issue #35",
        "main at 6023d15, compiled",
        "the code as of b7e9239's players",
    ],
)
def test_the_patterns_catch_a_diary(line: str) -> None:
    assert any(pattern.search(line) for pattern in DIARY.values())


@pytest.mark.parametrize(
    "line",
    [
        "A gateway session that got READY and its guild.",
        "End the given-up session on the server first.",
        "The test server lives for the whole pytest session.",
        "https://github.com/Rapptz/discord.py/issues/9999",
        "the permissions integer 17901423741952",
        "a snowflake such as 123456789012345678",
        "the emoji euchre_10H_0123456789",
        "`EUCHRE_PURE=1` and seed 1,000,003",
        "a colour such as #1f8b4c in the embed",
    ],
)
def test_the_patterns_leave_plain_words_alone(line: str) -> None:
    assert not any(pattern.search(line) for pattern in DIARY.values())


def test_only_comments_and_docstrings_of_code_are_read() -> None:
    source = (
        '"""A module."""\n'
        'TRACE = "d580a34a822cbf0d"  # the trace of seed 1\n'
        "def f() -> None:\n"
        '    """Made in issue 9."""\n'
        "    # kept since the fourth session\n"
    )
    lines = dict(prose_of_python(source))
    assert 2 in lines and "d580a34a822cbf0d" not in lines[2]
    assert lines[4] == "Made in issue 9."
    assert "fourth session" in lines[5]
