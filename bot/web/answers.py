"""What a handler answers with: a body, its type, its ETag and how long it may be kept.

A text answer over a kilobyte is compressed once, when it is made, and sent compressed
to a client that accepts gzip (most do), so a page kept in the cache costs nothing more
to send. A client whose copy is current (``If-None-Match`` naming the ETag, or ``*``: any copy)
gets 304 without a body. Numbers in paths and queries are ASCII digits only: anything
else (``²``, ``١``, ``-1``, ``1e3``) is no page at all.
"""

from __future__ import annotations

import gzip
import hashlib
import re
from dataclasses import dataclass
from typing import Final

from aiohttp import web

__all__ = [
    "FOREVER",
    "Answer",
    "PageNotFound",
    "answer",
    "etag_of",
    "path_number",
    "query_number",
    "respond",
]

FOREVER: Final = "public, max-age=31536000, immutable"
"""How a file whose name carries its content's hash is kept."""

_COMPRESSED_FROM: Final = 1024
"""Bytes from which a text answer is sent compressed."""
_TEXT: Final = ("text/", "image/svg", "application/json")

_DIGITS: Final = re.compile(r"[0-9]{1,20}")
_QUERY_DIGITS: Final = re.compile(r"[0-9]{1,9}")


class PageNotFound(Exception):  # noqa: N818 (a page's answer, not a fault)
    """No such page: a server without public pages, or an unknown player or game."""


@dataclass(frozen=True, slots=True)
class Answer:
    """A page or file as it is sent, and kept in the page cache."""

    body: bytes
    content_type: str
    etag: str
    cache_control: str
    gzipped: bytes | None = None
    """The body compressed, for clients that accept gzip (None: sent as it is)."""


def etag_of(body: bytes) -> str:
    """A strong ETag of ``body``: the same in every process."""
    return '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


def answer(body: bytes, content_type: str, cache_control: str, *, level: int = 6) -> Answer:
    """An answer of ``body`` with its ETag, compressed at ``level`` if it is text worth it."""
    packed = None
    if content_type.startswith(_TEXT) and len(body) >= _COMPRESSED_FROM:
        packed = gzip.compress(body, compresslevel=level, mtime=0)
    return Answer(body, content_type, etag_of(body), cache_control, packed)


def _gzip_tag(etag: str) -> str:
    """The compressed body's ETag: another representation, another strong tag."""
    return etag[:-1] + '-gz"'


def _current(request: web.Request, etag: str) -> bool:
    wanted = request.headers.get("If-None-Match")
    if wanted is None:
        return False
    tags = {tag.strip().removeprefix("W/") for tag in wanted.split(",")}
    return bool(tags & {"*", etag, _gzip_tag(etag)})


def respond(request: web.Request, found: Answer) -> web.Response:
    """The answer, or 304 when the client's copy (If-None-Match) is this one."""
    packed = found.gzipped is not None and _accepts_gzip(request)
    headers = {
        "ETag": _gzip_tag(found.etag) if packed else found.etag,
        "Cache-Control": found.cache_control,
    }
    if found.gzipped is not None:
        headers["Vary"] = "Accept-Encoding"
    if _current(request, found.etag):
        return web.Response(status=304, headers=headers)
    kind = found.content_type
    charset = "utf-8" if kind.startswith(_TEXT) else None
    body = found.body
    if packed and found.gzipped is not None:
        body = found.gzipped
        headers["Content-Encoding"] = "gzip"
    return web.Response(body=body, content_type=kind, charset=charset, headers=headers)


def _accepts_gzip(request: web.Request) -> bool:
    for item in request.headers.get("Accept-Encoding", "").split(","):
        name, _, params = item.strip().partition(";")
        if name.strip().lower() == "gzip":
            return params.replace(" ", "") not in ("q=0", "q=0.0", "q=0.00", "q=0.000")
    return False


def path_number(request: web.Request, name: str) -> int:
    """The number in the path's ``{name}`` part; PageNotFound unless it is ASCII digits."""
    text = request.match_info[name]
    if not _DIGITS.fullmatch(text):
        raise PageNotFound(f"{name} {text!r} is not a number")
    return int(text)


def query_number(request: web.Request, name: str) -> int | None:
    """The query's ``name`` as a number (None when absent); PageNotFound unless digits."""
    text = request.query.get(name)
    if text is None:
        return None
    if not _QUERY_DIGITS.fullmatch(text):
        raise PageNotFound(f"{name}={text!r} is not a number")
    return int(text)
