"""One person's preferences: :class:`Preferences`, kept per person across every server.

Each preference is one field, in the style of the server's settings
(:mod:`.settings`): its type and default, ``description`` (the words autocomplete
shows) and, through :func:`~.settings.wording`, the sentence that says what its value
does. A new preference is one field here and one migration adding its column: the
store, ``/euchre me`` and its list read the fields.

What the tables read from them: :meth:`Preferences.ping_delay` (when to mention a
person whose turn it is, within what their server allows) and :func:`forced_play`
with :data:`FORCED_CARD_DELAY` (the card that plays itself).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field

from bot.rules import Action

from .settings import Wording, worded_values, wording, wordings_of

__all__ = [
    "FORCED_CARD_DELAY",
    "HIDDEN_NAME",
    "PREFERENCE_NAMES",
    "PREFERENCE_WORDINGS",
    "PingChoice",
    "Preferences",
    "forced_play",
]

PingChoice = Literal["always", "when_away", "never"]
"""When a person's turn mentions them: every turn, when they are slow to move, never."""

FORCED_CARD_DELAY: Final = 1.5
"""Seconds a forced card stays visible as the person's turn before it plays itself."""

HIDDEN_NAME: Final = "a player"
"""How the public pages name a person who hides from them."""


class Preferences(BaseModel):
    """How one person likes to play; a person who never set one has the defaults.

    They follow the person from server to server. A server's settings still bound
    them: ``pings`` never mentions anyone on a server that mentions nobody.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    pings: PingChoice = Field(
        "when_away",
        description="when your turn mentions you: always, when_away or never",
        json_schema_extra=wording(
            "Your turn mentions you {shown}.",
            by_value={
                "always": "Your turn mentions you at once, every time (where the server "
                "mentions players).",
                "when_away": "Your turn mentions you only when you have not moved after "
                "the server's wait (where the server mentions players).",
                "never": "Your turn never mentions you.",
            },
        ),
    )
    play_forced_card: bool = Field(
        False,
        description="when only one card is legal, it plays itself after a moment",
        json_schema_extra=wording(
            "When only one card is legal, it plays itself after a short moment you can see.",
            false="You play every card yourself, even when only one is legal.",
        ),
    )
    four_colour: bool = Field(
        False,
        description="four-colour suits: hearts red, diamonds blue, clubs green, spades black",
        json_schema_extra=wording(
            "Your hand shows four-colour suits: hearts red, diamonds blue, clubs green, "
            "spades black.",
            false="Your hand shows two-colour suits: hearts and diamonds red, clubs and "
            "spades black.",
        ),
    )
    hide_from_web: bool = Field(
        False,
        description="hide your name and page from the league's public web pages",
        json_schema_extra=wording(
            f'The public web pages show you as "{HIDDEN_NAME}" and have no page of yours.',
            false="The public web pages of servers that have them show your name and page.",
        ),
    )
    review_games: bool = Field(
        False,
        description="the expert reviews each game you finish, for your accuracy",
        json_schema_extra=wording(
            "The expert reviews each game you finish, in the background: your accuracy "
            "shows in /euchre stats and on your web page.",
            false="Only the games you ask a review of (their Review button, /euchre review) "
            "are reviewed and count for your accuracy.",
        ),
    )
    updated_at: datetime | None = Field(
        None, description="when a preference last changed; None for a person on the defaults"
    )

    def sentence(self, name: str, shown: str) -> str:
        """One plain sentence saying what preference ``name`` does with the value it has."""
        return PREFERENCE_WORDINGS[name].sentence(getattr(self, name), shown)

    def preferences_only(self) -> dict[str, Any]:
        """The preferences by name, without the time of the last change."""
        return worded_values(self)

    def ping_delay(self, server_wait: float | None) -> float | None:
        """Seconds into this person's turn before it mentions them; None: no mention.

        ``server_wait`` is what their server allows: the seconds it waits before a turn
        ping (0: at once), None when it mentions nobody. ``always`` pings at once,
        ``when_away`` after the server's wait, ``never`` not at all.
        """
        if server_wait is None or self.pings == "never":
            return None
        return 0.0 if self.pings == "always" else server_wait


def forced_play(legal: Sequence[Action]) -> Action | None:
    """The card play that is the only legal action, or None when there is a choice.

    Only a card to the trick: a bid, a call or a discard always waits for its person.
    """
    if len(legal) == 1 and legal[0].do == "play":
        return legal[0]
    return None


PREFERENCE_WORDINGS: Final[dict[str, Wording]] = wordings_of(Preferences)
"""Each preference's wording, by name."""

PREFERENCE_NAMES: Final[tuple[str, ...]] = tuple(PREFERENCE_WORDINGS)
"""Every preference, in the model's order: the fields that have a wording."""
