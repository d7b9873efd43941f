"""A person's preferences: the model, what the tables read from it, and a typed change."""

from __future__ import annotations

import pytest

from bot.rules import Action
from bot.server.fields import PREFERENCE_FIELDS, BadValueError, UnknownFieldError
from bot.server.preference_sources import (
    KEEP_FOR,
    KeptPreferences,
    MemoryPreferences,
    change_preference,
    reset_preferences,
    set_preference,
)
from bot.server.preferences import PREFERENCE_NAMES, Preferences, forced_play

ADA = 11


def test_every_preference_is_a_described_field_with_a_sentence() -> None:
    assert PREFERENCE_NAMES == (
        "pings",
        "play_forced_card",
        "four_colour",
        "hide_from_web",
        "review_games",
    )
    prefs = Preferences()
    for name, values in PREFERENCE_FIELDS.items():
        assert values.description
        assert prefs.sentence(name, values.text(getattr(prefs, name))).endswith(".")
    assert PREFERENCE_FIELDS["pings"].choices == ("always", "when_away", "never")
    assert Preferences(pings="never").sentence("pings", "never") == "Your turn never mentions you."


@pytest.mark.parametrize(
    ("pings", "server_wait", "delay"),
    [
        ("always", 8.0, 0.0),
        ("when_away", 8.0, 8.0),
        ("never", 8.0, None),
        ("always", None, None),
        ("when_away", None, None),
        ("when_away", 0.0, 0.0),
    ],
)
def test_the_ping_delay_stays_within_what_the_server_allows(
    pings: str, server_wait: float | None, delay: float | None
) -> None:
    assert Preferences.model_validate({"pings": pings}).ping_delay(server_wait) == delay


def test_only_a_lone_legal_card_is_forced() -> None:
    assert forced_play([Action.play("AS")]) == Action.play("AS")
    assert forced_play([Action.play("AS"), Action.play("KS")]) is None
    assert forced_play([Action.discard("AS")]) is None
    assert forced_play([]) is None


def test_a_choice_may_be_typed_with_spaces() -> None:
    assert PREFERENCE_FIELDS["pings"].parse("When away") == "when_away"
    assert PREFERENCE_FIELDS["pings"].parse("when-away") == "when_away"


async def test_a_typed_change_and_a_reset() -> None:
    source = MemoryPreferences()
    change = await change_preference(source, ADA, "four colour", "yes")
    assert change.changed and change.name == "four_colour"
    assert (await source.get(ADA)).four_colour
    again = await change_preference(source, ADA, "four_colour", "on")
    assert not again.changed
    hide = await set_preference(source, ADA, "hide_from_web", True)
    assert hide.after.hide_from_web and hide.after.four_colour
    reset = await reset_preferences(source, ADA)
    assert reset.changed and await source.get(ADA) == Preferences()


async def test_a_bad_value_or_name_is_one_sentence_and_changes_nothing() -> None:
    source = MemoryPreferences()
    with pytest.raises(BadValueError) as bad:
        await change_preference(source, ADA, "pings", "sometimes")
    assert str(bad.value) == (
        "Can't set pings to 'sometimes': that's not one of its values. "
        "pings takes one of always, when_away, never. Nothing was changed."
    )
    with pytest.raises(UnknownFieldError, match="Did you mean pings"):
        await change_preference(source, ADA, "pingz", "never")
    assert await source.get(ADA) == Preferences()


class CountedPreferences(MemoryPreferences):
    """Preferences in memory that count their reads."""

    def __init__(self) -> None:
        super().__init__()
        self.reads = 0

    async def get(self, user_id: int) -> Preferences:
        self.reads += 1
        return await super().get(user_id)


async def test_kept_preferences_read_the_source_once_and_keep_changes_made_through_them() -> None:
    source, now = CountedPreferences(), [0.0]
    kept = KeptPreferences(source, clock=lambda: now[0])
    assert KeptPreferences.around(kept) is kept
    assert (await kept.get(1)).four_colour is False
    assert (await kept.get(1)).four_colour is False and source.reads == 1
    await kept.update(1, four_colour=True)
    assert (await kept.get(1)).four_colour is True
    await kept.reset(1)
    assert await kept.get(1) == Preferences()


async def test_kept_preferences_read_again_what_another_process_changed() -> None:
    source, now = CountedPreferences(), [0.0]
    kept = KeptPreferences(source, clock=lambda: now[0])
    await kept.get(1)
    await source.update(1, pings="never")  # changed elsewhere
    assert (await kept.get(1)).pings != "never"
    now[0] = KEEP_FOR
    assert (await kept.get(1)).pings == "never"
