"""The custom_id grammar: one template per component, and the list of them is complete."""

from __future__ import annotations

from datetime import date

import discord

from bot.discord.routes import (
    DYNAMIC_ITEMS,
    TEMPLATES,
    ActionButton,
    DailyButton,
    HistoryButton,
    LessonButton,
    LevelSelect,
    ReplayButton,
    ReviewButton,
    SeatSelect,
    StandingsButton,
    TableButton,
    TableReviewButton,
    TournamentButton,
    TournamentPageButton,
    routed,
)
from bot.render import TABLE_VERBS
from bot.render.tournaments import EVENT_VERBS


def samples() -> list[discord.ui.DynamicItem[discord.ui.Item[discord.ui.View]]]:
    return [
        *(TableButton(12, verb) for verb in TABLE_VERBS),
        SeatSelect(12),
        LevelSelect(12),
        ActionButton(12, 3, (2, 17), "play.10H", 4),
        ActionButton(12, 0, (1, 0), "pass"),
        StandingsButton(5, 2, "n", "euchre4", False),
        StandingsButton(5, 2, "p", "bid_euchre", True),
        ReplayButton(9, 3, 4, "nd"),
        *(TournamentButton(7, verb) for verb in EVENT_VERBS),
        ReviewButton(9, 2, "p"),
        DailyButton(date(2024, 5, 1), 3, "play.JH", 1),
        LessonButton("toronto", 2, "order_up.alone", 2),
        TableReviewButton(12, 3, 2),
        TableReviewButton(12, 3, 1, "p"),
        TournamentPageButton(2**63 - 1, "st", 99999, "n"),
        TournamentPageButton(7, "in", 0, "p", disabled=True),
        HistoryButton(2**63 - 1, 99999, "n"),
    ]


def test_every_component_has_one_of_the_templates_and_every_template_a_component() -> None:
    items = samples()
    assert {type(item) for item in items} == set(DYNAMIC_ITEMS)
    assert {item.template for item in items} == set(TEMPLATES)
    for item in items:
        assert len(item.custom_id) <= 100
        assert routed(item.custom_id)
        assert [t for t in TEMPLATES if t.fullmatch(item.custom_id)] == [item.template]


def test_ids_outside_the_grammar_are_not_routed() -> None:
    for custom_id in (
        "",
        "garbage",
        "euchre:t:1:nope",
        "euchre:a:1:9:1:0:pass",
        "euchre:seat:x",
        "euchre:lg:st:1:2:q",
        "euchre:rv:1:2:x",
        "euchre:rv:1:2",
        "euchre:t:1:join:extra",
        "euchre:tn:1:crown",
        "euchre:tn:x:join",
        "euchre:tp:1:xx:0:n",
        "euchre:tp:1:st:0",
        "x" * 100,
    ):
        assert not routed(custom_id), custom_id
