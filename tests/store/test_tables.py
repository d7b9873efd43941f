"""Tables: lobby to end, seats, one open table per place, actions in order, restore."""

from __future__ import annotations

import pytest

from bot.rules import HouseRules, game_record, replay
from bot.store import (
    ActionIndexError,
    CorruptDataError,
    Database,
    DuplicateActionError,
    InvalidRecordError,
    NotFoundError,
    OpenTableExistsError,
    Seat,
    TableRepo,
    TableStateError,
)
from tests.kit.games import random_game

from .conftest import CHANNEL, FOUR_SEATS, GUILD, HOST, playing_table, sql


async def lobby(tables: TableRepo, **kwargs: object) -> int:
    fields: dict[str, object] = {
        "guild_id": GUILD,
        "channel_id": CHANNEL,
        "host_id": HOST,
        "rules": HouseRules(),
        "seed": 11,
    }
    fields.update(kwargs)
    table = await tables.create(**fields)  # type: ignore[arg-type]
    return table.id


async def test_a_table_round_trips_with_seats_rules_and_seed(db_url: str) -> None:
    rules = HouseRules.preset_rules("toronto").with_changes(target_score=5)
    async with await Database.open(db_url) as db:
        created = await TableRepo(db).create(
            guild_id=GUILD,
            channel_id=CHANNEL,
            host_id=HOST,
            rules=rules,
            seed=2**62,
            first_dealer=3,
            seats=FOUR_SEATS[:2],
        )
        assert created.status == "lobby"
        assert created.seats == FOUR_SEATS[:2]
        assert created.seat(1) == FOUR_SEATS[1]
        assert created.seat(2) is None
        assert created.finished_at is None
    async with await Database.open(db_url) as db:
        loaded = await TableRepo(db).get(created.id)
    assert loaded == created
    assert loaded.rules == rules
    assert (loaded.seed, loaded.first_dealer, loaded.place_id) == (2**62, 3, CHANNEL)


async def test_one_open_table_per_channel_or_thread(db: Database) -> None:
    tables = TableRepo(db)
    first = await lobby(tables)
    with pytest.raises(OpenTableExistsError, match=f"channel {CHANNEL} already has an open table"):
        await lobby(tables)
    in_thread = await lobby(tables, thread_id=55)
    with pytest.raises(OpenTableExistsError, match="thread 55"):
        await lobby(tables, thread_id=55)
    assert (await tables.find_open(CHANNEL)).id == first  # type: ignore[union-attr]
    assert (await tables.find_open(CHANNEL, 55)).id == in_thread  # type: ignore[union-attr]
    assert await tables.find_open(CHANNEL, 56) is None

    await tables.set_status(first, "aborted")
    again = await lobby(tables)
    assert again > in_thread  # ids are never reused
    assert await tables.find_open(CHANNEL) == await tables.get(again)


async def test_status_moves_forward_only_and_play_needs_every_seat(db: Database) -> None:
    tables = TableRepo(db)
    table_id = await lobby(tables, seats=FOUR_SEATS[:3])
    with pytest.raises(TableStateError, match="3 of 4 seats"):
        await tables.set_status(table_id, "playing")
    with pytest.raises(TableStateError, match="lobby: it cannot become finished"):
        await tables.set_status(table_id, "finished")
    await tables.set_seats(table_id, FOUR_SEATS)
    playing = await tables.set_status(table_id, "playing")
    assert playing.status == "playing"
    finished = await tables.set_status(table_id, "finished")
    assert finished.finished_at is not None
    for status in ("playing", "finished", "aborted", "lobby"):
        with pytest.raises(TableStateError):
            await tables.set_status(table_id, status)
    with pytest.raises(TableStateError, match="seats are final"):
        await tables.set_seats(table_id, FOUR_SEATS)
    with pytest.raises(NotFoundError, match="no table 999"):
        await tables.set_status(999, "playing")


async def test_seats_are_replaced_and_checked(db: Database) -> None:
    tables = TableRepo(db)
    table_id = await lobby(tables, seats=FOUR_SEATS)
    swapped = (Seat.person(1, 77, "Late"), Seat.computer(0, "Hopper"))
    assert (await tables.set_seats(table_id, swapped)).seats == tuple(
        sorted(swapped, key=lambda s: s.seat)
    )
    with pytest.raises(InvalidRecordError, match="seat 4 is not at a 4-seat table"):
        await tables.set_seats(table_id, [Seat.computer(4, "Far")])
    with pytest.raises(InvalidRecordError, match="two seats"):
        await tables.set_seats(table_id, [Seat.person(0, 5, "A"), Seat.person(1, 5, "A")])
    with pytest.raises(InvalidRecordError, match="given twice"):
        await tables.set_seats(table_id, [Seat.person(0, 5, "A"), Seat.person(0, 6, "B")])
    assert len((await tables.get(table_id)).seats) == 2


async def test_message_thread_host_and_lobby_rules(db: Database) -> None:
    tables = TableRepo(db)
    table_id = await lobby(tables, seats=FOUR_SEATS)
    await tables.set_message_ids(table_id, message_id=901)
    await tables.set_message_ids(table_id, thread_id=902)
    await tables.set_host(table_id, HOST + 1)
    table = await tables.get(table_id)
    assert (table.message_id, table.thread_id, table.host_id, table.place_id) == (
        901,
        902,
        HOST + 1,
        902,
    )
    six = HouseRules.preset_rules("six_player")
    assert (await tables.set_rules(table_id, six)).rules == six
    four = await tables.set_rules(table_id, HouseRules())
    assert four.seats == FOUR_SEATS
    await tables.set_rules(table_id, six)
    await tables.set_seats(table_id, [*FOUR_SEATS, Seat.computer(4, "E"), Seat.computer(5, "F")])
    assert len((await tables.set_rules(table_id, HouseRules())).seats) == 4  # seats 4, 5 freed
    await tables.set_status(table_id, "playing")
    with pytest.raises(TableStateError, match="only in the lobby"):
        await tables.set_rules(table_id, six)


async def test_actions_are_appended_in_order_and_never_twice(db: Database) -> None:
    tables = TableRepo(db)
    table_id = await playing_table(db)
    await tables.append_action(table_id, 0, 1, {"do": "pass"})
    stored = await tables.append_action(table_id, 1, 2, {"seat": 2, "do": "order_up"})
    assert stored.action == {"seat": 2, "do": "order_up"}

    with pytest.raises(DuplicateActionError, match="already has action 1") as caught:
        await tables.append_action(table_id, 1, 3, {"do": "pass"})
    assert (caught.value.index, caught.value.expected) == (1, 2)
    with pytest.raises(ActionIndexError, match="gap") as gap:
        await tables.append_action(table_id, 5, 3, {"do": "pass"})
    assert not isinstance(gap.value, DuplicateActionError)
    assert [a.action for a in await tables.load_actions(table_id)] == [
        {"seat": 1, "do": "pass"},
        {"seat": 2, "do": "order_up"},
    ]


@pytest.mark.parametrize(
    ("seat", "action", "message"),
    [
        (1, {"do": "dance"}, "not an action"),
        (1, {"do": "play", "card": "ZZ"}, "play"),
        (1, {"seat": 2, "do": "pass"}, "seat 1 but the action says 2"),
        (8, {"do": "pass"}, "seat 8 does not exist"),
    ],
)
async def test_malformed_actions_are_refused(
    db: Database, seat: int, action: dict[str, object], message: str
) -> None:
    tables = TableRepo(db)
    table_id = await playing_table(db)
    with pytest.raises(InvalidRecordError, match=message):
        await tables.append_action(table_id, 0, seat, action)
    assert await tables.load_actions(table_id) == []


async def test_actions_are_saved_only_while_playing(db: Database) -> None:
    tables = TableRepo(db)
    table_id = await lobby(tables)
    with pytest.raises(TableStateError, match="lobby: actions are saved only while playing"):
        await tables.append_action(table_id, 0, 1, {"do": "pass"})
    with pytest.raises(NotFoundError):
        await tables.append_action(999, 0, 1, {"do": "pass"})
    with pytest.raises(NotFoundError):
        await tables.load_actions(999)


async def test_a_restored_table_replays_to_the_same_game(db_url: str) -> None:
    rules = HouseRules.preset_rules("british").with_changes(target_score=5)
    game = random_game(rules, seed=1234, rng_seed=9)
    async with await Database.open(db_url) as db:
        table_id = await playing_table(db, rules=rules, seed=1234)
        tables = TableRepo(db)
        for idx, (seat, action) in enumerate(game.log):
            await tables.append_action(table_id, idx, seat, action.to_json(seat))
    async with await Database.open(db_url) as db:
        (restored,) = await TableRepo(db).list_open_tables()
    assert restored.id == table_id
    assert restored.next_action_index == len(game.log)
    record = restored.record(meta={"table": table_id})
    assert record["actions"] == game_record(game)["actions"]
    assert record["meta"] == {"table": table_id}
    again = replay(record)
    assert again.error is None
    assert (again.game.score, again.game.winner) == (game.score, game.winner)


async def test_explicit_deals_are_checked_and_kept(db: Database) -> None:
    game = random_game(HouseRules(), seed=5)
    deals = game_record(game, with_deals=True)["deals"][:1]
    tables = TableRepo(db)
    table_id = await lobby(tables, deals=deals, first_dealer=0)
    table = await tables.get(table_id)
    assert [dict(d) for d in table.deals or ()] == deals
    assert table.record()["deals"] == deals
    assert table.record()["dealer"] == 0
    bad = [{**deals[0], "upcard": deals[0]["hands"][0][0]}]
    with pytest.raises(InvalidRecordError, match="deals"):
        await lobby(tables, channel_id=CHANNEL + 1, deals=bad)
    with pytest.raises(InvalidRecordError, match="dealer"):
        await lobby(tables, channel_id=CHANNEL + 1, first_dealer=4)
    with pytest.raises(InvalidRecordError, match="seed"):
        await lobby(tables, channel_id=CHANNEL + 1, seed=-1)


async def test_list_open_tables_restores_lobbies_and_games_of_chosen_guilds(db: Database) -> None:
    tables = TableRepo(db)
    in_lobby = await lobby(tables, seats=FOUR_SEATS[:1])
    playing = await playing_table(db, channel_id=CHANNEL + 1)
    await tables.append_action(playing, 0, 1, {"do": "pass"})
    done = await playing_table(db, channel_id=CHANNEL + 2)
    await tables.set_status(done, "finished")
    elsewhere = await lobby(tables, guild_id=GUILD + 1, channel_id=CHANNEL + 3)

    everything = await tables.list_open_tables()
    assert [t.id for t in everything] == [in_lobby, playing, elsewhere]
    assert everything[0].seats == FOUR_SEATS[:1]
    assert everything[1].seats == FOUR_SEATS
    assert [a.action for a in everything[1].actions] == [{"seat": 1, "do": "pass"}]
    assert everything == [await tables.get(t.id) for t in everything]
    mine = await tables.list_open_tables(guild_filter=lambda guild: guild == GUILD)
    assert [t.id for t in mine] == [in_lobby, playing]


async def test_stored_table_rules_that_no_longer_validate_are_a_clear_error(
    db_url: str,
) -> None:
    async with await Database.open(db_url) as db:
        table_id = await playing_table(db)
    await sql(db_url, 'UPDATE tables SET rules = \'{"preset":"klaberjass"}\'')
    async with await Database.open(db_url) as db:
        with pytest.raises(CorruptDataError, match=f"table {table_id}: .*klaberjass"):
            await TableRepo(db).get(table_id)
        with pytest.raises(CorruptDataError):
            await TableRepo(db).list_open_tables()


async def test_an_eight_seat_table_keeps_its_seats_and_actions(db_url: str) -> None:
    rules = HouseRules.preset_rules("bid_euchre_8")
    seats = [Seat.computer(n, f"Bot {n}", "basic") for n in range(8)]
    async with await Database.open(db_url) as db:
        tables = TableRepo(db)
        table = await tables.create(
            guild_id=GUILD, channel_id=CHANNEL, host_id=HOST, rules=rules, seed=3, seats=seats
        )
        await tables.set_status(table.id, "playing")
        await tables.append_action(table.id, 0, 7, {"do": "bid", "tricks": 3})
    async with await Database.open(db_url) as db:
        (restored,) = await TableRepo(db).list_open_tables()
    assert [s.seat for s in restored.seats] == list(range(8))
    assert [a.action for a in restored.actions] == [{"seat": 7, "do": "bid", "tricks": 3}]


async def test_open_tables_are_listed_with_their_count_of_saved_actions(db: Database) -> None:
    tables = TableRepo(db)
    waiting = await lobby(tables, channel_id=CHANNEL + 1)
    playing = await playing_table(db)
    for idx, (seat, action) in enumerate([(1, {"do": "pass"}), (2, {"do": "pass"})]):
        await tables.append_action(playing, idx, seat, action)
    listed = await tables.list_open_counted(GUILD)
    assert [(t.id, saved) for t, saved in listed] == [(playing, 2), (waiting, 0)]
    for t, _ in listed:
        full = await tables.get(t.id)
        assert full is not None
        assert t.actions == () and t == full.model_copy(update={"actions": ()})
    assert await tables.list_open_counted(GUILD + 1) == []
