"""The custom_id grammar: one route per component, the table is complete, each id reads back."""

from __future__ import annotations

from datetime import date
from typing import Any

import discord

from bot.discord.buttons import (
    action_button,
    daily_button,
    history_button,
    lesson_button,
    level_select,
    replay_button,
    review_button,
    seat_select,
    standings_button,
    table_button,
    table_review_button,
    tournament_button,
    tournament_history_button,
    tournament_page_button,
)
from bot.discord.routes import DYNAMIC_ITEMS, ROUTES, TEMPLATES, RoutedItem, routed
from bot.render import TABLE_VERBS
from bot.render.tournaments import EVENT_VERBS


def samples() -> list[RoutedItem]:
    return [
        *(table_button(12, verb) for verb in TABLE_VERBS),
        seat_select(12),
        level_select(12),
        action_button(12, 3, (2, 17), "play.10H", 4),
        action_button(12, 0, (1, 0), "pass"),
        standings_button(5, 2, "n", "euchre4", False),
        standings_button(5, 2, "p", "bid_euchre", True),
        replay_button(9, 3, 4, "nd"),
        *(tournament_button(7, verb) for verb in EVENT_VERBS),
        review_button(9, 2, "p"),
        daily_button(date(2024, 5, 1), 3, "play.JH", 1),
        lesson_button("toronto", 2, "order_up.alone", 2),
        table_review_button(12, 3, 2),
        table_review_button(12, 3, 1, "p"),
        tournament_page_button(2**63 - 1, "st", 99999, "n"),
        tournament_page_button(7, "in", 0, "p", disabled=True),
        history_button(2**63 - 1, 99999, "n"),
        tournament_history_button(99999, "p"),
    ]


def test_every_component_has_one_of_the_templates_and_every_template_a_component() -> None:
    items = samples()
    assert {type(item) for item in items} == set(DYNAMIC_ITEMS)
    assert [route.template for route in ROUTES] == list(TEMPLATES)
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
        "euchre:th:1",
        "euchre:th:x:n",
        "x" * 100,
    ):
        assert not routed(custom_id), custom_id


class Recorder:
    """A stand-in for the cog: every click handed to it, as (method, arguments)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[Any, ...]]] = []

    def __getattr__(self, name: str) -> Any:
        async def record(interaction: object, *args: Any) -> None:
            self.calls.append((name, args))

        return record


async def _click(item: RoutedItem, chosen: str = "") -> tuple[str, tuple[Any, ...]]:
    if isinstance(item.item, discord.ui.Select):
        item.item._values = [chosen] if chosen else []  # what discord.py refreshes from a click
    match = item.route.template.fullmatch(item.custom_id)
    assert match is not None
    clicks = Recorder()
    await item.route.go(clicks, object(), match, item.item)  # type: ignore[arg-type]
    [call] = clicks.calls
    return call


async def test_each_drawn_id_reads_back_as_what_it_was_drawn_with() -> None:
    big = 2**63 - 1
    cases: list[tuple[RoutedItem, str, tuple[Any, ...]]] = [
        (table_button(12, "join"), "table_button", (12, "join")),
        (
            action_button(big, 7, (9_999, 99_999), "play.10H", 24),
            "hand_action",
            (big, 7, (9_999, 99_999), "play.10H"),
        ),
        (action_button(12, 0, (1, 0), "claim"), "hand_action", (12, 0, (1, 0), "claim")),
        (standings_button(5, 2, "n", "euchre4", False), "standings_page", (5, 2, "euchre4")),
        (standings_button(5, 2, "p", "bid_euchre", True), "standings_page", (5, 2, "bid_euchre")),
        (standings_button(5, -1, "p", "euchre4", True), "standings_page", (5, 0, "euchre4")),
        (replay_button(9, 3, 4, "nd"), "replay_step", (9, 3, 4)),
        (history_button(big, 99_999, "n"), "history_page", (big, 99_999)),
        (tournament_history_button(99_999, "n"), "tournament_history_page", (99_999,)),
        (tournament_button(7, "join"), "tournament_button", (7, "join")),
        (tournament_page_button(7, "in", 3, "p"), "tournament_page", (7, "in", 3)),
        (tournament_page_button(7, "st", 0, "n"), "tournament_page", (7, "st", 0)),
        (review_button(9, 2, "p"), "review_step", (9, 2)),
        (table_review_button(12, 3, 2), "table_review", (12, 3, 2, False)),
        (table_review_button(12, 3, 1, "n"), "table_review", (12, 3, 1, True)),
        (
            daily_button(date(2024, 5, 1), 3, "play.JH", 1),
            "daily_action",
            (date(2024, 5, 1), 3, "play.JH"),
        ),
        (
            lesson_button("toronto", 2, "order_up.alone", 2),
            "lesson_action",
            ("toronto", 2, "order_up.alone"),
        ),
    ]
    for item, method, args in cases:
        assert await _click(item) == (method, args), item.custom_id
    assert await _click(seat_select(12), "3") == ("seat_chosen", (12, 3))
    assert await _click(seat_select(12), "") == ("seat_chosen", (12, -1))
    assert await _click(level_select(12), "expert") == ("level_chosen", (12, "expert"))


async def test_an_impossible_day_reads_as_day_one() -> None:
    [route] = [r for r in ROUTES if r.what == "daily deal button"]
    match = route.template.fullmatch("euchre:dd:20241399:0:pass")
    assert match is not None
    clicks = Recorder()
    await route.go(clicks, object(), match, discord.ui.Button())  # type: ignore[arg-type]
    assert clicks.calls == [("daily_action", (date.min, 0, "pass"))]


def test_labels_and_styles_are_drawn_as_before() -> None:
    assert table_button(1, "join").item.label == "join"
    assert action_button(1, 0, (1, 0), "pass").item.label == "pass"
    assert [history_button(1, 0, tag).item.label for tag in "pn"] == ["◀ Newer", "Older ▶"]
    assert [standings_button(1, 0, tag, "euchre4", False).item.label for tag in "pn"] == [
        "◀ Previous",
        "Next ▶",
    ]
    move = daily_button(date(2024, 5, 1), 0, "pass", label="x" * 200)
    assert isinstance(move.item, discord.ui.Button)
    assert move.item.style == discord.ButtonStyle.primary and len(move.item.label or "") == 80
    assert table_review_button(1, 2, -3).custom_id == "euchre:tr:1:2:0"
    assert standings_button(5, 0, "n", "euchre4", False).custom_id == "euchre:lg:st:5:0:n"
