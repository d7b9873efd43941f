"""One server's settings: :class:`ServerSettings`, and who may change them.

Each setting is one field: its type and default, ``description`` (the words
autocomplete shows) and, through :func:`wording`, the sentence that says what its
value does. A new setting is one field here, one migration adding its column, and
nothing else: the store, the commands and the settings list read the fields.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field
from pydantic.config import JsonDict

from bot.errors import UserFacingError
from bot.rules import HouseRules

__all__ = [
    "SETTING_NAMES",
    "ComputerLevel",
    "Editor",
    "FieldsChange",
    "NotRulesAdminError",
    "ServerSettings",
    "Wording",
    "worded_values",
    "wording",
    "wordings_of",
]

ComputerLevel = Literal["beginner", "basic", "expert"]
"""How well a computer player plays (``bot.players`` levels; people see ``LEVEL_NAMES``)."""


@dataclass(frozen=True, slots=True)
class Wording:
    """The sentence showing a setting's value, and the word a person types for "none".

    A sentence may hold ``{shown}`` (the value as a message shows it) and ``{default}``
    (the bot's configured default, for a setting whose None means "the default").
    """

    value: str
    """The sentence for a value (for True, when the setting is yes or no)."""
    false: str | None = None
    none: str | None = None
    one: str | None = None
    """The sentence for the value 1, when it reads differently."""
    zero: str | None = None
    """The sentence for the value 0, when it reads differently."""
    empty: str = "none"
    """What a person types for None: ``off``, ``default``, ``none``."""
    by_value: Mapping[str, str] | None = None
    """The sentence for each value of a choice, where each reads differently."""

    def sentence(self, value: Any, shown: str, default: str = "") -> str:
        """The sentence for ``value``, with ``shown`` and ``default`` filled in."""
        if self.by_value is not None and str(value) in self.by_value:
            text = self.by_value[str(value)]
        elif value is False and self.false is not None:
            text = self.false
        elif value is None and self.none is not None:
            text = self.none
        elif value == 1 and value is not True and self.one is not None:
            text = self.one
        elif value == 0 and value is not False and self.zero is not None:
            text = self.zero
        else:
            text = self.value
        return text.format(shown=shown, default=default)


def wording(
    value: str,
    *,
    false: str | None = None,
    none: str | None = None,
    one: str | None = None,
    zero: str | None = None,
    empty: str = "none",
    by_value: Mapping[str, str] | None = None,
) -> JsonDict:
    """A setting's ``json_schema_extra``: its :class:`Wording`, kept on its field."""
    words: JsonDict = {"value": value, "empty": empty}
    for key, text in (("false", false), ("none", none), ("one", one), ("zero", zero)):
        if text is not None:
            words[key] = text
    if by_value is not None:
        words["by_value"] = dict(by_value)
    return {"wording": words}


def discord_id(
    what: Literal["role", "channel"], *, description: str, json_schema_extra: JsonDict
) -> Any:
    """An optional setting that holds the id of one of the server's roles or text channels.

    None: unset. ``what`` is read by :mod:`.fields`, which checks it against the server's.
    """
    return Field(
        None,
        ge=1,
        le=2**63 - 1,
        description=description,
        json_schema_extra={**json_schema_extra, "discord_id": what},
    )


class ServerSettings(BaseModel):
    """A server's house rules and settings; a server that never changed one has the defaults.

    A table copies its server's settings when it opens (and again when its game starts
    or it is restored): later changes never reach a game in progress.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    rules: HouseRules = Field(
        default_factory=HouseRules, description="the house rules a new table plays"
    )
    tables_in_threads: bool = Field(
        False,
        description="open each table in a thread of its own, not in the channel",
        json_schema_extra=wording(
            "Each table opens in a thread of its own.",
            false="Tables open in the channel where /euchre new is used.",
        ),
    )
    turn_time_limit_seconds: int | None = Field(
        None,
        ge=10,
        le=86_400,
        description="seconds a player has for a move (off: no limit)",
        examples=[None, 30, 60, 120, 300, 600, 3600],
        json_schema_extra=wording(
            "A turn lasts {shown}.", none="No time limit on a turn.", empty="off"
        ),
    )
    allow_computers: bool = Field(
        True,
        description="computer players may fill empty seats",
        json_schema_extra=wording(
            "Computer players may fill empty seats.",
            false="No computer players: every seat needs a person.",
        ),
    )
    host_may_override_rules: bool = Field(
        True,
        description="a table's host may change the rules at /euchre new (casual game)",
        json_schema_extra=wording(
            "A table's host may change the rules at /euchre new (the game is then casual).",
            false="Every table plays the house rules.",
        ),
    )
    ping_after: float | None = Field(
        8.0,
        ge=0,
        le=3600,
        allow_inf_nan=False,
        description="seconds into a turn before it mentions the player (0: at once, off: never)",
        examples=[None, 0, 5, 8, 15, 30, 60],
        json_schema_extra=wording(
            "A player who has not moved {shown} into their turn is mentioned, once.",
            zero="A player is mentioned as soon as it is their turn.",
            none="Nobody is mentioned when it is their turn.",
            empty="off",
        ),
    )
    computer_move_delay: float | None = Field(
        None,
        ge=0,
        le=60,
        allow_inf_nan=False,
        description="seconds between computer moves (default: the bot's setting)",
        examples=[None, 0, 0.5, 1, 2, 3, 5],
        json_schema_extra=wording(
            "Computer players wait {shown} a move.",
            none="Computer players wait the bot's default {default} a move.",
            empty="default",
        ),
    )
    rules_admin_role_id: int | None = discord_id(
        "role",
        description="a role that may change the rules and settings, besides Manage Server",
        json_schema_extra=wording(
            "Members with Manage Server or the {shown} role may change them.",
            none="Only members with Manage Server may change the rules and settings.",
        ),
    )
    tournament_director_role_id: int | None = discord_id(
        "role",
        description="a role that may direct tournament events, besides the rules-admins",
        json_schema_extra=wording(
            "Members with the {shown} role may direct tournament events, as rules-admins may.",
            none="Tournament events are directed by the rules-admins and each event's creator.",
        ),
    )
    computer_default_level: ComputerLevel = Field(
        "basic",
        description="how well the computer players a host adds play",
        json_schema_extra=wording("Computer players added by a host play at the {shown} level."),
    )
    timeouts_before_computer: int = Field(
        2,
        ge=1,
        le=20,
        description="timed-out turns in a row before a computer keeps a player's seat",
        json_schema_extra=wording(
            "After {shown} timed-out turns in a row, a computer plays the seat until its "
            "player is back.",
            one="After a timed-out turn, a computer plays the seat until its player is back.",
        ),
    )
    allow_seat_takeover: bool = Field(
        True,
        description="members may take over a computer's seat during a game",
        json_schema_extra=wording(
            "A member may take over a computer's seat during a game.",
            false="Nobody may take over a computer's seat during a game.",
        ),
    )
    allow_hints: bool = Field(
        True,
        description="players of casual games may ask for a hint (never in ranked games)",
        json_schema_extra=wording(
            "Players of casual games may ask for a hint (the expert's choice and why); "
            "ranked games never show hints, and a game with a hint is casual.",
            false="Nobody gets hints.",
        ),
    )
    watchers_see_hands: bool = Field(
        True,
        description="anyone may ask, privately, for every hand of a casual game's last deal",
        json_schema_extra=wording(
            "Once a deal of a casual game has ended, anyone may ask, privately, to see "
            "every hand of it (never while a deal is in play, never in ranked games).",
            false="Nobody is shown the other hands of a deal.",
        ),
    )
    web_public: bool = Field(
        False,
        description="anyone may read the standings, players and finished games on the web",
        json_schema_extra=wording(
            "Anyone may read this server's standings, players and finished games on the web "
            "(/euchre web gives the link).",
            false="This server has no web pages.",
        ),
    )
    daily_hour: int = Field(
        0,
        ge=0,
        le=23,
        description="the hour (UTC) at which /euchre daily deals the next day's deal",
        examples=[0, 6, 12],
        json_schema_extra=wording("The daily deal changes at {shown}:00 UTC."),
    )
    daily_channel: int | None = discord_id(
        "channel",
        description="the channel where the week's daily deal leaders are posted (off: none)",
        json_schema_extra=wording(
            "The week's daily deal leaders are posted each Monday in {shown}.",
            none="The daily deal's weekly leaders are not posted.",
            empty="off",
        ),
    )
    updated_at: datetime | None = Field(
        None, description="when a setting last changed; None for a server on the defaults"
    )

    def sentence(self, name: str, shown: str, default: str = "") -> str:
        """One plain sentence saying what setting ``name`` does with the value it has."""
        return WORDINGS[name].sentence(getattr(self, name), shown, default)

    def settings_only(self) -> dict[str, Any]:
        """The settings by name, without the rules and the time of the last change."""
        return worded_values(self)

    def may_change(self, editor: Editor) -> bool:
        """Whether ``editor`` may change the server's rules and settings."""
        role = self.rules_admin_role_id
        return editor.manage_guild or (role is not None and role in editor.role_ids)

    def may_direct(self, editor: Editor) -> bool:
        """Whether ``editor`` may direct tournament events: a rules-admin or the director role."""
        role = self.tournament_director_role_id
        return self.may_change(editor) or (role is not None and role in editor.role_ids)

    def check_editor(self, editor: Editor) -> None:
        """NotRulesAdminError, naming who may, unless ``editor`` may change them."""
        if self.may_change(editor):
            return
        role = self.rules_admin_role_id
        who = "the Manage Server permission" + (
            f" or the {editor.shown_role(role)} role" if role is not None else ""
        )
        raise NotRulesAdminError(
            f"Changing this server's house rules and settings needs {who}. "
            "Anyone may read them with /euchre rules show and /euchre settings show."
        )


def wordings_of(model: type[BaseModel]) -> dict[str, Wording]:
    """The wording of each field of ``model`` that has one (:func:`wording`), by name."""
    found: dict[str, Wording] = {}
    for name, info in model.model_fields.items():
        extra = info.json_schema_extra
        words = extra.get("wording") if isinstance(extra, dict) else None
        if isinstance(words, dict):
            found[name] = Wording(**words)  # type: ignore[arg-type]
    return found


@functools.cache
def _worded_names(model: type[BaseModel]) -> tuple[str, ...]:
    return tuple(wordings_of(model))


def worded_values(model: BaseModel) -> dict[str, Any]:
    """The values of ``model``'s fields that have a wording, by name.

    A server's settings without its house rules, or a person's preferences: never the
    time of the last change.
    """
    return {name: getattr(model, name) for name in _worded_names(type(model))}


M = TypeVar("M", bound=BaseModel)


@dataclass(frozen=True, slots=True)
class FieldsChange(Generic[M]):
    """Settings or preferences before and after a change (``name`` None: all of them reset)."""

    before: M
    after: M
    name: str | None = None

    @property
    def changed(self) -> bool:
        """Whether any of them is different."""
        return worded_values(self.before) != worded_values(self.after)


WORDINGS: Final[dict[str, Wording]] = wordings_of(ServerSettings)
"""Each setting's wording, by name."""

SETTING_NAMES: Final[tuple[str, ...]] = tuple(WORDINGS)
"""Every server setting, in the model's order: the fields that have a wording."""


class NotRulesAdminError(UserFacingError):
    """The member may not change the server's rules or settings."""


@dataclass(frozen=True, slots=True)
class Editor:
    """Who asks for a change: whether they may manage the server, their roles."""

    manage_guild: bool
    role_ids: frozenset[int] = field(default_factory=frozenset)
    shown_role: Callable[[int], str] = str
    """How a refusal names a role to them (the chat's mention of it; its id by default)."""
