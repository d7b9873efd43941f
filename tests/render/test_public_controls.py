"""The buttons of the public table message at each stage, as render describes them."""

from __future__ import annotations

from bot.render import (
    TABLE_VERBS,
    PublicButton,
    PublicControls,
    SeatOption,
    played_again_controls,
    public_controls,
)
from bot.rules import HouseRules
from bot.server.settings import ServerSettings
from bot.tables import Place, Player, Table
from tests.render.games import seated_table, steps

ALICE, BOB = Player(101, "Alice"), Player(102, "Bob")


def lobby() -> Table:
    return Table(7, Place(1, 2), ALICE.user_id, HouseRules.preset_rules("north_american"), 1)


def controls_of(table: Table) -> PublicControls:
    controls = public_controls(table.public())
    assert controls is not None
    return controls


def verbs(controls: PublicControls) -> list[str]:
    return [b.verb for b in controls.buttons]


def fits_discord(controls: PublicControls) -> None:
    rows = [b.row for b in controls.buttons] + ([1] if controls.seats else [])
    assert all(0 <= r < 5 and rows.count(r) <= 5 for r in rows)
    assert len(controls.seats) <= 25
    assert set(verbs(controls)) <= set(TABLE_VERBS)


def test_a_new_lobby_lets_people_join_and_the_host_add_computers_but_not_start() -> None:
    table = lobby()
    table.join(ALICE)
    controls = controls_of(table)
    fits_discord(controls)
    assert controls.buttons == (
        PublicButton("join", "Join", "primary"),
        PublicButton("leave", "Leave"),
        PublicButton("cpu", "Add computer"),
        PublicButton("start", "Start", "success", disabled=True),
        PublicButton("rules", "Rules"),
    )
    assert controls.seats == (
        SeatOption(1, "Seat 2", "Partner of seat 4"),
        SeatOption(2, "Seat 3", "Partner of seat 1"),
        SeatOption(3, "Seat 4", "Partner of seat 2"),
    )


def test_a_full_lobby_starts_and_offers_only_the_computers_seats() -> None:
    table = lobby()
    table.join(ALICE)
    table.join(BOB)
    table.add_computer(ALICE.user_id)
    table.join(Player(103, "Carol"))
    controls = controls_of(table)
    fits_discord(controls)
    buttons = {b.verb: b for b in controls.buttons}
    assert not buttons["start"].disabled and buttons["cpu"].disabled
    assert not buttons["join"].disabled
    assert [o.seat for o in controls.seats] == [2]
    assert controls.seats[0].label.startswith("Seat 3 (instead of ")
    assert controls.seats[0].label.endswith(", computer)")


def test_a_lobby_full_of_people_has_no_seat_to_offer() -> None:
    table = lobby()
    for n in range(4):
        table.join(Player(101 + n, f"P{n}"))
    controls = controls_of(table)
    assert controls.seats == ()
    assert next(b for b in controls.buttons if b.verb == "join").disabled


def test_a_game_shows_your_hand_and_the_rules() -> None:
    controls = controls_of(seated_table({"preset": "north_american"}, 3))
    fits_discord(controls)
    assert controls == PublicControls(
        (PublicButton("hand", "Your hand", "primary"), PublicButton("rules", "Rules"))
    )


def test_a_game_offers_a_seat_back_and_a_computers_seat_where_the_server_allows() -> None:
    table = lobby()
    for n in range(3):
        table.join(Player(101 + n, f"P{n}"))
    table.add_computer(ALICE.user_id)
    table.start(ALICE.user_id)
    assert verbs(controls_of(table)) == ["hand", "rules", "join"]
    table.set_away(1)
    controls = controls_of(table)
    fits_discord(controls)
    assert verbs(controls) == ["hand", "rules", "back", "join"]
    assert [o.seat for o in controls.seats] == [3]
    table.settings = ServerSettings(allow_seat_takeover=False)
    assert verbs(controls_of(table)) == ["hand", "rules", "back"]
    assert controls_of(table).seats == ()


def test_a_result_offers_another_game_and_a_closed_table_nothing() -> None:
    *_, finished = steps({"preset": "north_american"}, 8, limit=5000)
    controls = controls_of(finished)
    assert verbs(controls) == ["again", "rules"] and controls.buttons[0].style == "success"
    assert verbs(played_again_controls()) == ["rules"]
    closed = seated_table({"preset": "north_american"}, 1)
    closed.abort(closed.host_id)
    assert public_controls(closed.public()) is None
