"""The pages' static files under names that carry their content's hash, kept for good.

Built once when the app starts, from the package's ``static`` folder and the card sprite
(:func:`~bot.web.sprite.cards_svg`): ``style.css`` is served as ``style.<hash>.css``,
with ``Cache-Control: immutable`` for a year, and the templates name it through
:meth:`Assets.url`. A changed file gets a new name, so a browser never holds a stale one
and never asks twice for a current one. A request for another hash of a known file (a
page made before an upgrade) gets today's file, marked ``no-cache``. Nothing here needs
Node or a build step.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from importlib.resources import files
from typing import Final

from aiohttp import web

from .answers import FOREVER, Answer, PageNotFound, answer, respond
from .sprite import cards_svg

__all__ = ["STATIC_FILES", "Assets"]

STATIC_FILES: Final = {
    "style.css": "text/css",
    "replay.js": "text/javascript",
    "icon.svg": "image/svg+xml",
}
"""The package's static files and their types; ``cards.svg`` is drawn at start."""

_HASHED: Final = re.compile(r"([a-z-]+)\.([0-9a-f]{10})\.([a-z]+)")


@dataclass(frozen=True, slots=True)
class _File:
    url: str
    hashed: Answer
    checked: Answer
    """The same, ``no-cache``: checked against its ETag at each use."""


def _file(name: str, body: bytes, kind: str, prefix: str) -> _File:
    digest = hashlib.sha256(body).hexdigest()[:10]
    stem, ext = name.rsplit(".", 1)
    return _File(
        f"{prefix}{stem}.{digest}.{ext}",
        answer(body, kind, FOREVER),
        answer(body, kind, "no-cache"),
    )


class Assets:
    """The static files by logical name (``style.css``), with their hashed addresses."""

    def __init__(
        self,
        package: str = "bot.web",
        names: Mapping[str, str] = STATIC_FILES,
        drawn: Mapping[str, tuple[bytes, str]] | None = None,
        *,
        prefix: str = "/static/",
    ) -> None:
        """Read ``names`` (and their types) from the package's ``static`` folder.

        ``drawn``: files made in memory, by name (default: the card sprite); ``prefix``:
        what each address starts with (the Activity's files are under a relative one).
        """
        folder = files(package).joinpath("static")
        bodies = {name: folder.joinpath(name).read_bytes() for name in names}
        kinds = dict(names)
        if drawn is None:
            drawn = {"cards.svg": (cards_svg(), "image/svg+xml")}
        for name, (body, kind) in drawn.items():
            bodies[name], kinds[name] = body, kind
        self._files = {
            name: _file(name, body, kinds[name], prefix) for name, body in bodies.items()
        }
        self._by_url = {f.url.removeprefix(prefix): f.hashed for f in self._files.values()}

    def url(self, name: str) -> str:
        """The address of ``name`` (``style.css``): ``/static/style.<hash>.css``."""
        return self._files[name].url

    def find(self, requested: str) -> Answer | None:
        """The file for a requested name under ``/static/``: current, stale-hashed or none."""
        found = self._by_url.get(requested)
        if found is not None:
            return found
        match = _HASHED.fullmatch(requested)
        if match is None:
            return None
        known = self._files.get(f"{match[1]}.{match[3]}")
        return None if known is None else known.checked

    async def serve(self, request: web.Request) -> web.Response:
        """The handler of ``static/{name}``: the file :meth:`find` finds, or no such page."""
        found = self.find(request.match_info["name"])
        if found is None:
            raise PageNotFound(request.path)
        return respond(request, found)

    def file(self, name: str) -> Answer:
        """A file under its plain name (``icon.svg`` at ``/favicon.ico``), checked at each use."""
        return self._files[name].checked
