"""Reading Discord payloads: components, the text a user can read, query helpers.

Plain functions and classes over JSON: nothing here runs the bot.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, cast

import discord

from tests.kit.payloads import JSON


def walk_components(components: Iterable[Mapping[str, Any]] | None) -> Iterator[JSON]:
    """Yield every component dict, depth first, including rows/containers and accessories."""
    for comp in components or ():
        yield cast(JSON, comp)
        yield from walk_components(comp.get("components"))
        for key in ("component", "accessory"):
            inner = comp.get(key)
            if isinstance(inner, Mapping):
                yield from walk_components([inner])


def find_components(
    components: Iterable[Mapping[str, Any]] | None,
    *,
    custom_id: str | None = None,
    label: str | None = None,
    type: int | Iterable[int] | None = None,
) -> list[ComponentData]:
    """Every component matching all of the given criteria (``label`` also matches placeholders)."""
    types = {type} if isinstance(type, int) else set(type) if type is not None else None
    found: list[ComponentData] = []
    for comp in walk_components(components):
        if types is not None and comp.get("type") not in types:
            continue
        if custom_id is not None and comp.get("custom_id") != custom_id:
            continue
        if label is not None and label not in (comp.get("label"), comp.get("placeholder")):
            continue
        if comp.get("type") in (1, 17, 9, 18) and custom_id is None and label is None:
            continue  # layout components only match on an explicit type
        found.append(ComponentData(comp))
    return found


def find_component(
    components: Iterable[Mapping[str, Any]] | None,
    *,
    custom_id: str | None = None,
    label: str | None = None,
    type: int | Iterable[int] | None = None,
) -> ComponentData:
    """The single matching component; raises :class:`LookupError` listing what exists."""
    comps = list(components or ())
    found = find_components(comps, custom_id=custom_id, label=label, type=type)
    if len(found) == 1:
        return found[0]
    available = [
        f"type={c.get('type')} label={c.get('label')!r} custom_id={c.get('custom_id')!r}"
        for c in walk_components(comps)
        if c.get("type") not in (1, 17)
    ]
    what = f"custom_id={custom_id!r} label={label!r} type={type!r}"
    problem = "no component" if not found else f"{len(found)} components"
    raise LookupError(f"{problem} matching {what}; available: {available}")


def visible_text(data: Mapping[str, Any] | None) -> str:
    """All text a user could read in a message payload: content, embeds and component labels."""
    if not data:
        return ""
    parts: list[str] = []

    def add(value: Any) -> None:
        if isinstance(value, str) and value:
            parts.append(value)

    add(data.get("content"))
    add(data.get("name"))  # thread / channel names
    for embed in data.get("embeds") or ():
        for key in ("title", "description", "url"):
            add(embed.get(key))
        for key in ("author", "footer", "provider"):
            sub = embed.get(key) or {}
            add(sub.get("name"))
            add(sub.get("text"))
        for fld in embed.get("fields") or ():
            add(fld.get("name"))
            add(fld.get("value"))
    for comp in walk_components(data.get("components")):
        for key in ("label", "placeholder", "content", "value", "title", "description"):
            add(comp.get(key))
        emoji = comp.get("emoji") or {}
        add(emoji.get("name"))
        for opt in comp.get("options") or ():
            add(opt.get("label"))
            add(opt.get("description"))
            add((opt.get("emoji") or {}).get("name"))
    for choice in data.get("choices") or ():
        add(choice.get("name"))
    add(data.get("title"))
    return "\n".join(parts)


class ComponentData(Mapping[str, Any]):
    """A component dict from a payload, with attribute access for the common keys."""

    __slots__ = ("raw",)

    def __init__(self, raw: Mapping[str, Any]) -> None:
        self.raw: JSON = cast(JSON, raw)

    def __getitem__(self, key: str) -> Any:
        return self.raw[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.raw)

    def __len__(self) -> int:
        return len(self.raw)

    def __repr__(self) -> str:
        return f"ComponentData({self.raw!r})"

    @property
    def type(self) -> int:
        return int(self.raw["type"])

    @property
    def custom_id(self) -> str | None:
        return self.raw.get("custom_id")

    @property
    def label(self) -> str | None:
        return self.raw.get("label")

    @property
    def disabled(self) -> bool:
        return bool(self.raw.get("disabled", False))

    @property
    def style(self) -> int | None:
        return self.raw.get("style")

    @property
    def url(self) -> str | None:
        return self.raw.get("url")

    @property
    def emoji(self) -> str | None:
        return (self.raw.get("emoji") or {}).get("name")

    @property
    def placeholder(self) -> str | None:
        return self.raw.get("placeholder")

    @property
    def options(self) -> list[JSON]:
        return list(self.raw.get("options") or [])


class _HasComponents:
    """Query helpers shared by recorded payloads and stored messages."""

    @property
    def data(self) -> JSON:
        raise NotImplementedError

    @property
    def content(self) -> str:
        return self.data.get("content") or ""

    @property
    def embeds(self) -> list[JSON]:
        return list(self.data.get("embeds") or [])

    @property
    def embed_objects(self) -> list[discord.Embed]:
        return [discord.Embed.from_dict(e) for e in self.embeds]

    @property
    def components(self) -> list[JSON]:
        return list(self.data.get("components") or [])

    @property
    def flags(self) -> int:
        return int(self.data.get("flags") or 0)

    @property
    def text(self) -> str:
        """All user-readable text (content, embeds, labels): see :func:`visible_text`."""
        return visible_text(self.data)

    def dump(self) -> str:
        """The payload as JSON text, for scanning everything that was sent (custom_ids too)."""
        return json.dumps(self.data, sort_keys=True, default=str)

    @property
    def buttons(self) -> list[ComponentData]:
        return find_components(self.components, type=2)

    def component(
        self,
        *,
        custom_id: str | None = None,
        label: str | None = None,
        type: int | Iterable[int] | None = None,
    ) -> ComponentData:
        return find_component(self.components, custom_id=custom_id, label=label, type=type)

    def button(self, label: str | None = None, *, custom_id: str | None = None) -> ComponentData:
        """The button with this label (or custom_id); raises LookupError listing the others."""
        return find_component(self.components, custom_id=custom_id, label=label, type=2)

    def select(
        self, placeholder: str | None = None, *, custom_id: str | None = None
    ) -> ComponentData:
        return find_component(
            self.components, custom_id=custom_id, label=placeholder, type=(3, 5, 6, 7, 8)
        )
