"""Discord's contract for messages: content, embeds, attachments, and whom text may mention.

Content is at most 2,000 characters and 10 embeds; each embed keeps Discord's limits
(title 256, description 4,096, 25 fields of a 256-character name and a 1,024-character
value, footer 2,048, author 256) and all of a message's embeds together 6,000
characters; a message carries at most 10 files of 10 MiB each. The bot's own rule:
text that can mention says whom (``allowed_mentions``), never everyone or roles by
parsing, so a member's name or typed text never pings a crowd.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from tests.kit import limits
from tests.kit.components import check_components, walk
from tests.kit.violations import Check, Path, Violation

__all__ = ["check_embeds", "check_files", "check_message"]

_COMPONENTS_V2 = 1 << 15


def check_message(
    body: Mapping[str, Any] | None,
    *,
    create: bool,
    files: Sequence[tuple[str, int]] = (),
    prefix: Path = (),
) -> list[Violation]:
    """A message sent (``create``) or edited: content, embeds, components, files, mentions.

    ``files``: each attachment's name and size in bytes.
    """
    check = Check()
    data = body or {}
    check.text((*prefix, "content"), data.get("content"), limits.CONTENT)
    embeds = data.get("embeds")
    check.many((*prefix, "embeds"), embeds, limits.EMBEDS)
    check.found += check_embeds(embeds or (), prefix=(*prefix, "embeds"))
    v2 = bool(int(data.get("flags") or 0) & _COMPONENTS_V2)
    components = data.get("components")
    check.found += check_components(components, v2=v2, path=(*prefix, "components"))
    check.found += check_files(files, prefix=prefix)
    _mentions(check, prefix, data)
    shown = ("content", "embeds", "components", "sticker_ids", "poll")
    if create and not files and not any(data.get(key) for key in shown):
        empty = "Cannot send an empty message"
        check.add(Violation(prefix, "some content", "nothing", "EMPTY", empty, error_code=50006))
    return check.found


def check_embeds(embeds: Sequence[Mapping[str, Any]], *, prefix: Path = ()) -> list[Violation]:
    """Each embed's title, description, fields, footer and author; 6,000 across them all."""
    check = Check()
    total = 0
    for i, embed in enumerate(embeds):
        at = (*prefix, i)
        title, description = embed.get("title"), embed.get("description")
        check.text((*at, "title"), title, limits.EMBED_TITLE)
        check.text((*at, "description"), description, limits.EMBED_DESCRIPTION)
        fields = embed.get("fields") or []
        check.many((*at, "fields"), fields, limits.EMBED_FIELDS)
        for j, field in enumerate(fields):
            name, value = field.get("name"), field.get("value")
            check.text((*at, "fields", j, "name"), name or "", limits.FIELD_NAME, 1)
            check.text((*at, "fields", j, "value"), value or "", limits.FIELD_VALUE, 1)
            total += len(str(name or "")) + len(str(value or ""))
        footer = (embed.get("footer") or {}).get("text")
        author = (embed.get("author") or {}).get("name")
        check.text((*at, "footer", "text"), footer, limits.FOOTER_TEXT)
        check.text((*at, "author", "name"), author, limits.AUTHOR_NAME)
        total += sum(len(str(s or "")) for s in (title, description, footer, author))
    if total > limits.EMBEDS_TOTAL:
        check.add(
            Violation(
                prefix,
                f"{limits.EMBEDS_TOTAL} characters across a message's embeds",
                f"{total} characters",
                "MAX_EMBED_SIZE_EXCEEDED",
                f"Embed size exceeds maximum size of {limits.EMBEDS_TOTAL}",
            )
        )
    return check.found


def check_files(files: Sequence[tuple[str, int]], *, prefix: Path = ()) -> list[Violation]:
    """At most 10 attachments, each within the upload limit (a 413 past it, as Discord)."""
    check = Check()
    check.many((*prefix, "attachments"), files, limits.FILES)
    for i, (name, size) in enumerate(files):
        if size > limits.FILE_BYTES:
            big = Violation(
                (*prefix, f"files[{i}]"),
                f"{limits.FILE_BYTES} bytes a file",
                f"{name}: {size} bytes",
                "FILE_TOO_LARGE",
                "Request entity too large",
                True,
                413,
                40005,
            )
            check.add(big)
    return check.found


_PINGS = re.compile(r"@everyone|@here|<@[!&]?\d+>")


def _mentions(check: Check, prefix: Path, data: Mapping[str, Any]) -> None:
    """The bot's rule: text that can mention says whom, and never everyone or roles by parsing."""
    texts = [str(data.get("content") or "")]
    texts += [str(c.get("content") or "") for c in walk(data.get("components") or ())]
    if not any(texts):
        return
    allowed = data.get("allowed_mentions")
    path = (*prefix, "allowed_mentions")
    if not isinstance(allowed, Mapping):
        check.add(
            Violation(path, "set wherever text appears", "not set", "ALLOWED_MENTIONS", "", False)
        )
        return
    broad = sorted({"everyone", "roles"} & set(allowed.get("parse") or ()))
    if broad and any(_PINGS.search(t) for t in texts):
        found = f"parse {broad} in text that can mention"
        check.add(Violation(path, "no @everyone or roles by parsing", found, "PARSE", "", False))
