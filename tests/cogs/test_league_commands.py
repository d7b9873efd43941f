"""The league through the real bot: a season of scripted games read back from Discord.

Games are played with the rules core and archived through the store, the way the
table service archives them; what /euchre standings, stats and history show is
then checked against figures this test computes itself from the records (OpenSkill
called directly, deals read from replaying each record).
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce

from bot.discord.app import EuchreBot
from bot.discord.pace.pacing import ChannelLimits
from bot.league import LeagueService
from bot.players import make_player
from bot.render import card_text
from bot.rules import HouseRules, parse_record, replay
from bot.settings import Settings
from bot.store import ArchivedGame, Database, GameArchiveRepo, GuildSettingsRepo, Seat
from bot.store.server_settings import StoredSettings
from bot.tables import TableService
from bot.tables.database import DatabaseTableStore
from tests.cogs.euchre_driver import act_through_hand, build_bot, only_table, random_policy
from tests.conftest import MakeHarness
from tests.kit.harness import FakeGuild, FakeMember, Harness, Sent
from tests.league.util import RULES, archive_elsewhere, finished_record
from tests.sqlite_only import db

__all__ = ["db"]

PEOPLE = ["ada", "bob", "cy", "di", "eve", "fay"]
MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}


async def league_harness(
    make_harness: MakeHarness, db: Database, members: Sequence[str] = PEOPLE
) -> tuple[Harness, FakeGuild]:
    bot = build_bot()
    bot.league = LeagueService(db)  # type: ignore[attr-defined]
    h = await make_harness(bot)
    g = h.guild(members=[(members[0], {"manage_guild": True}), *members[1:]])
    await GuildSettingsRepo(db).set_rules(g.id, RULES)
    await archive_elsewhere(db, g.id)
    return h, g


class Season:
    """Scripted games archived for a guild, and what they imply, computed here."""

    def __init__(self, db: Database, g: FakeGuild, rules: HouseRules = RULES) -> None:
        self.db = db
        self.g = g
        self.rules = rules
        self.games: list[tuple[ArchivedGame, dict[str, Any]]] = []

    def member(self, name: str) -> FakeMember:
        return self.g.member(name)

    async def play(
        self, seed: int, names: Sequence[str | None], rules: HouseRules = RULES
    ) -> ArchivedGame:
        record = finished_record(seed, rules)
        seats = [
            Seat.computer(n, f"Computer {n + 1}")
            if name is None
            else Seat.person(n, self.member(name).id, self.member(name).display_name)
            for n, name in enumerate(names)
        ]
        game = await GameArchiveRepo(self.db).archive(
            guild_id=self.g.id,
            record=record,
            players=seats,
            ranked=None not in names,
        )
        self.games.append((game, record))
        return game

    def ranked(self) -> list[tuple[ArchivedGame, dict[str, Any]]]:
        """Every person seated and the server's rules: what this test counts as ranked."""
        return [
            (g, r)
            for g, r in self.games
            if all(not p.is_computer for p in g.players)
            and HouseRules.from_spec(r["rules"]) == self.rules
        ]

    def standings(self, min_games: int) -> list[tuple[str, float, int, int]]:
        """(name, rating, games, wins) of placed players in order, rated here with OpenSkill."""
        model = PlackettLuce()
        ratings: dict[int, Any] = {}
        played: dict[int, list[int]] = {}
        names: dict[int, str] = {}
        for game, _ in self.ranked():
            teams = [[p for p in game.players if p.team == t] for t in (0, 1)]
            before = [[ratings.get(p.user_id) or model.rating() for p in team] for team in teams]
            ranks = (
                [1.0, 1.0] if game.winner is None else [1.0 + (t != game.winner) for t in (0, 1)]
            )
            after = model.rate(before, ranks=ranks)
            for t, team in enumerate(teams):
                for p, new in zip(team, after[t], strict=True):
                    assert p.user_id is not None
                    ratings[p.user_id] = new
                    counts = played.setdefault(p.user_id, [0, 0])
                    counts[0] += 1
                    counts[1] += game.winner == t
                    names[p.user_id] = p.display_name
        rows = [
            (names[u], r.mu - 3 * r.sigma, played[u][0], played[u][1])
            for u, r in ratings.items()
            if played[u][0] >= min_games
        ]
        rows.sort(key=lambda row: (-row[1], -row[2], -row[3], row[0].casefold()))
        return rows


def standings_lines(rows: list[tuple[str, float, int, int]], first_place: int = 1) -> list[str]:
    lines = []
    for place, (name, rating, games, wins) in enumerate(rows, start=first_place):
        mark = MEDALS.get(place, f"**{place}.**")
        g = f"{games} game" + ("s" if games != 1 else "")
        w = f"{wins} win" + ("s" if wins != 1 else "")
        lines.append(f"{mark} {name} — **{rating:.1f}** · {g} · {w} ({round(100 * wins / games)}%)")
    return lines


def description(sent: Sent) -> str:
    return str(sent.embeds[0].get("description") or "")


def fields(sent: Sent) -> dict[str, str]:
    return {f["name"]: f["value"] for f in sent.embeds[0].get("fields") or []}


# --------------------------------------------------------------------------- a season


async def test_a_season_of_games_reads_back_exactly(
    make_harness: MakeHarness, db: Database
) -> None:
    h, g = await league_harness(make_harness, db)
    ada, bob = g.member("ada"), g.member("bob")
    settings = await h.slash(ada, "euchre season settings", {"min_games": 3})
    assert settings.ephemeral and "placed in the standings: **3**" in settings.text

    season = Season(db, g)
    tables = [
        ["ada", "bob", "cy", "di"],
        ["ada", "cy", "bob", "eve"],
        ["bob", "di", "eve", "fay"],
        ["cy", "ada", "fay", "bob"],
        ["di", "eve", "ada", "cy"],
        ["eve", "fay", "bob", "ada"],
        ["fay", "ada", "di", "bob"],
        ["ada", "di", "cy", "fay"],
        ["bob", "cy", "eve", "di"],
        ["cy", "fay", "ada", "eve"],
        ["di", "bob", "fay", "cy"],
        ["eve", "ada", "bob", "fay"],
    ]
    for seed, names in enumerate(tables, start=100):
        await season.play(seed, names)

    shown = await h.slash(bob, "euchre standings")
    assert not shown.ephemeral
    expected = season.standings(3)
    assert len(expected) == 6
    assert description(shown.reply).split("\n")[: len(expected)] == standings_lines(expected)
    assert shown.components == []  # one page: no page buttons

    # Casual games: a computer seated, or other rules than the server's. They do not move
    # any rating, but they are in the players' stats and history.
    await season.play(200, ["ada", None, "bob", None])
    await season.play(201, ["ada", "bob", "cy", "di"], rules=HouseRules())
    again = await h.slash(bob, "euchre standings")
    assert description(again.reply) == description(shown.reply)

    await check_stats(h, season, "bob")
    await check_stats(h, season, "ada")
    await check_history(h, season, "cy")


async def check_stats(h: Harness, season: Season, name: str) -> None:
    member = season.member(name)
    result = await h.slash(season.member("ada"), "euchre stats", {"member": member})
    reply = result.last_reply
    assert not reply.ephemeral
    assert [f for f, _ in reply.files] == ["rating.png"]
    assert reply.files[0][1].startswith(b"\x89PNG")
    mine = [
        (game, record)
        for game, record in season.games
        if member.id in {p.user_id for p in game.players}
    ]
    games = wins = points_for = points_against = marches = made = suffered = 0
    tried = lone_made = 0
    ranked = len([g for g, _ in season.ranked() if member.id in {p.user_id for p in g.players}])
    together: dict[str, list[int]] = {}
    for game, record in mine:
        seat = next(p for p in game.players if p.user_id == member.id)
        team = seat.team
        result_game = replay(record).game
        games += 1
        won = result_game.winner == team
        wins += won
        points_for += result_game.score[team]
        points_against += result_game.score[1 - team]
        for deal in result_game.results:
            if deal.maker is None or deal.result not in ("made", "march", "euchred"):
                continue
            ours = deal.maker % 2 == team
            marches += ours and deal.result == "march"
            made += not ours and deal.result == "euchred"
            suffered += ours and deal.result == "euchred"
            if seat.seat in deal.alone and ours:
                tried += 1
                lone_made += deal.result != "euchred"
        for p in game.players:
            if p.team == team and p.user_id not in (None, member.id) and not p.is_computer:
                record_ = together.setdefault(p.display_name, [0, 0])
                record_[0] += 1
                record_[1] += won
    shown = fields(reply)
    losses = games - wins
    assert shown["Games"] == (
        f"{games} games ({ranked} ranked) · {wins} win{'s' if wins != 1 else ''} · "
        f"{losses} loss{'es' if losses != 1 else ''} · {round(100 * wins / games)}% won"
    )
    assert shown["Points"] == f"{points_for} for · {points_against} against"
    deals = shown["Deals"]
    assert deals.startswith(f"{marches} march")
    assert f"{made} euchre{'s' if made != 1 else ''} made" in deals
    assert f"{suffered} euchre{'s' if suffered != 1 else ''} suffered" in deals
    assert shown["Going alone"].startswith(
        f"{tried} loner{'s' if tried != 1 else ''} tried, {lone_made} made"
    )
    best = sorted(together.items(), key=lambda kv: (-kv[1][1] / kv[1][0], -kv[1][0], kv[0]))[0]
    assert shown["Partners"].startswith(f"Best partner: {best[0]} — won {best[1][1]} of")
    rows = season.standings(3)
    place = next(n for n, row in enumerate(rows, start=1) if row[0] == member.display_name)
    assert shown["Rating"].startswith(f"**{rows[place - 1][1]:.1f}**")
    assert f"#{place}" in shown["Rating"]


async def check_history(h: Harness, season: Season, name: str) -> None:
    member = season.member(name)
    result = await h.slash(member, "euchre history")
    lines = description(result.reply).split("\n")
    mine = [(g, r) for g, r in season.games if member.id in {p.user_id for p in g.players}]
    latest = mine[::-1][:10]
    assert len(lines) == len(latest)
    for line, (game, _) in zip(lines, latest, strict=True):
        team = next(p.team for p in game.players if p.user_id == member.id)
        outcome = "✅ Won" if game.winner == team else "❌ Lost"
        assert line.startswith(
            f"**#{game.number}** · {outcome} {game.score[team]}–{game.score[1 - team]} · "
        )
        partner = next(p for p in game.players if p.team == team and p.user_id != member.id)
        assert f"with {partner.display_name}" in line
        kind = "ranked" if any(game is g for g, _ in season.ranked()) else "casual"
        assert f" · {kind} · " in line


async def test_a_season_end_freezes_the_archive_and_the_next_starts_fresh(
    make_harness: MakeHarness, db: Database
) -> None:
    h, g = await league_harness(make_harness, db)
    ada, bob = g.member("ada"), g.member("bob")
    await h.slash(ada, "euchre season settings", {"min_games": 1})
    season = Season(db, g)
    await season.play(1, ["ada", "bob", "cy", "di"])
    started = await h.slash(ada, "euchre season start", {"name": "Spring"})
    assert "Season **Spring** has started" in started.content
    assert "Open play** are frozen" in started.content

    for seed, names in enumerate([["ada", "bob", "cy", "di"], ["eve", "bob", "fay", "di"]], 2):
        await season.play(seed, names)
    refused = await h.slash(bob, "euchre season end", allow_errors=True)
    assert refused.ephemeral and "Manage Server" in refused.content
    ended = await h.slash(ada, "euchre season end")
    assert not ended.ephemeral and "Spring is over" in ended.text
    spring_lines = standings_lines(_only(season, 1, 3).standings(1))
    assert len(spring_lines) == 6  # the five leaders shown, then how many more
    assert fields(ended.reply) == {
        "🏆 Four-hand euchre": "\n".join([*spring_lines[:5], "…and 1 more placed."])
    }

    frozen = await h.slash(bob, "euchre standings", {"season": "spring"})
    await season.play(9, ["ada", "bob", "cy", "di"])
    await h.slash(ada, "euchre season settings", {"min_games": 4})
    later = await h.slash(bob, "euchre standings", {"season": "Spring"})
    assert description(later.reply) == description(frozen.reply)
    assert "standings frozen" in description(later.reply)

    summer = await h.slash(ada, "euchre season start", {"name": "Summer"})
    assert "Season **Summer** has started" in summer.content
    assert "frozen" in summer.content  # the open season after Spring ended with Summer's start
    fresh = await h.slash(bob, "euchre standings")
    assert "Summer" in fresh.text and "No ranked games yet" in fresh.text

    choices = await h.autocomplete(bob, "euchre standings", {"season": "s"}, focused="season")
    assert [c["value"] for c in choices.choices] == ["Summer", "Spring"]
    unknown = await h.slash(bob, "euchre standings", {"season": "Winter"})
    assert unknown.ephemeral and "no season called “Winter”" in unknown.content


async def test_a_season_end_announces_the_leaders_of_each_family_played(
    make_harness: MakeHarness, db: Database
) -> None:
    h, g = await league_harness(make_harness, db)
    ada = g.member("ada")
    await h.slash(ada, "euchre season settings", {"min_games": 2, "rank_custom_rules": True})
    await h.slash(ada, "euchre season start", {"name": "Autumn"})
    bid_rules = HouseRules.preset_rules("bid_euchre").with_changes(deals_per_game=2)
    four, bid = Season(db, g), Season(db, g, bid_rules)
    await four.play(1, ["ada", "bob", "cy", "di"])
    await bid.play(2, ["eve", "fay", "ada", "bob"], rules=bid_rules)
    await four.play(3, ["ada", "bob", "cy", "di"])
    await bid.play(4, ["eve", "ada", "fay", "bob"], rules=bid_rules)
    await bid.play(5, ["cy", "di", "eve", "fay"], rules=bid_rules)

    ended = await h.slash(ada, "euchre season end")
    shown = fields(ended.reply)
    assert list(shown) == ["🏆 Four-hand euchre", "🏆 Bid Euchre"]  # no six-hand: none played
    assert shown["🏆 Four-hand euchre"] == "\n".join(standings_lines(four.standings(2)))
    bid_lines = standings_lines(bid.standings(2))
    assert len(bid_lines) == 4  # Cy and Di played one Bid Euchre game: not placed
    assert shown["🏆 Bid Euchre"].split("\n") == [
        *bid_lines,
        "2 players had fewer than 2 ranked games, so no place.",
    ]
    assert ended.message.components == []


def _only(season: Season, first: int, last: int) -> Season:
    """The same season object with only its games ``first`` to ``last`` (1-based)."""
    part = Season(season.db, season.g)
    part.games = season.games[first:last]
    return part


async def test_standings_pages_survive_a_restart(make_harness: MakeHarness, db: Database) -> None:
    names = [f"p{n:02d}" for n in range(12)]
    h, g = await league_harness(make_harness, db, names)
    await h.slash(g.member(names[0]), "euchre season settings", {"min_games": 1})
    season = Season(db, g)
    for seed, start in enumerate((0, 4, 8)):
        await season.play(seed, names[start : start + 4])
    first = await h.slash(g.member("p05"), "euchre standings")
    expected = standings_lines(season.standings(1))
    assert description(first.reply).split("\n")[:10] == expected[:10]
    assert "Page 1 of 2" in first.text
    assert first.button("◀ Previous").disabled and not first.button("Next ▶").disabled

    # A new bot on the same database: the old message's buttons still work.
    bot2 = build_bot()
    bot2.league = LeagueService(db)  # type: ignore[attr-defined]
    h2 = await make_harness(bot2)
    g2 = h2.guild(members=names, id=g.id, channel_ids={"table": g.channel.id})
    old = h2.add_message(g2.channel, like=first.message)
    second = await h2.click(g2.member("p01"), old, label="Next ▶")
    assert description(second.reply).split("\n")[:2] == expected[10:12]
    assert "Page 2 of 2" in second.reply.text
    back = await h2.click(g2.member("p01"), h2.message(old.id), label="◀ Previous")
    assert "Page 1 of 2" in back.reply.text


async def test_a_family_option_shows_that_familys_ladder_and_its_pages_keep_it(
    make_harness: MakeHarness, db: Database
) -> None:
    names = [f"p{n:02d}" for n in range(12)]
    h, g = await league_harness(make_harness, db, names)
    bid = HouseRules.preset_rules("bid_euchre").with_changes(deals_per_game=2)
    await GuildSettingsRepo(db).set_rules(g.id, bid)
    await h.slash(g.member(names[0]), "euchre season settings", {"min_games": 1})
    season = Season(db, g, bid)
    for seed, start in enumerate((0, 4, 8)):
        await season.play(seed, names[start : start + 4], rules=bid)

    four_hand = await h.slash(g.member("p05"), "euchre standings")
    assert "Four-hand euchre" in str(four_hand.reply.embeds[0]["title"])
    assert "No ranked games yet" in description(four_hand.reply)

    shown = await h.slash(g.member("p05"), "euchre standings", {"family": "bid_euchre"})
    assert str(shown.reply.embeds[0]["title"]).endswith(" · Bid Euchre")
    expected = standings_lines(season.standings(1))
    assert description(shown.reply).split("\n")[:10] == expected[:10]
    assert str(shown.button("Next ▶")["custom_id"]).endswith(":1:n:bid_euchre")
    second = await h.click(g.member("p01"), shown.message, label="Next ▶")
    assert description(second.reply).split("\n")[:2] == expected[10:12]
    assert "Bid Euchre" in str(second.reply.embeds[0]["title"])

    stats = await h.slash(g.member("p01"), "euchre stats", {"family": "bid_euchre"})
    assert str(stats.last_reply.embeds[0]["title"]).endswith(" · Bid Euchre")
    none = await h.slash(g.member("p01"), "euchre stats", {"family": "euchre6"})
    title = str(none.last_reply.embeds[0]["title"])
    assert title.endswith(" · Six-hand euchre")
    assert "No finished games" in str(none.last_reply.embeds[0].get("description"))


# --------------------------------------------------------------------------- one game


async def test_replay_steps_through_every_card_and_export_gives_the_record_back(
    make_harness: MakeHarness, db: Database, tmp_path: Path
) -> None:
    h, g = await league_harness(make_harness, db)
    season = Season(db, g)
    game = await season.play(7, ["ada", "bob", "cy", "di"])
    record = season.games[-1][1]
    bob = g.member("bob")

    first = await h.slash(bob, "euchre replay", {"game": game.number})
    assert first.ephemeral and f"Game #{game.number} · deal 1 of" in first.text
    assert "Hands as dealt" in first.text
    message = first.message
    played: list[str] = []
    steps = 1
    while True:
        step = h.message(message.id)
        trick = next(
            (
                f["value"]
                for f in step.embeds[0].get("fields", [])
                if f["name"].startswith("Trick ")
            ),
            None,
        )
        if trick is not None:
            plays = trick.split("\n")[0].split(" · ")
            played += [p.rsplit(" ", 1)[1] for p in plays]
        button = step.button("Next trick ▶")
        if button.disabled:
            break
        await h.click(bob, step, label="Next trick ▶")
        steps += 1
    final = h.message(message.id)
    loaded = parse_record(record)
    expected = [
        card_text(a.card) for _, a in loaded.actions if a.do == "play" and a.card is not None
    ]
    assert played == expected  # every card of the record, in order
    assert "Game over" in final.text
    outcome = replay(record).game
    assert f"won {max(outcome.score)} to {min(outcome.score)}" in final.text
    deals = len(outcome.results)
    assert steps == deals + sum(sum(d.tricks) for d in outcome.results)  # bidding + each trick

    back = await h.click(bob, final, label="⏮ Previous deal")
    assert f"deal {deals} of {deals} · bidding" in back.reply.text
    assert h.message(message.id).button("⏮ Previous deal").disabled is False

    exported = await h.slash(bob, "euchre export", {"game": game.number})
    assert exported.ephemeral and "python -m" not in exported.content
    assert f"/euchre replay game:{game.number}" in exported.content
    ((name, data),) = exported.reply.files
    assert name == f"euchre-game-{game.number}.json"
    assert json.loads(data) == record
    path = tmp_path / name
    path.write_bytes(data)
    cli = subprocess.run(
        [sys.executable, "-m", "bot.rules", "replay", str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(cli.stdout) == replay(record).to_json()


async def test_a_game_of_another_server_or_none_is_refused(
    make_harness: MakeHarness, db: Database
) -> None:
    h, g = await league_harness(make_harness, db)
    game = await GameArchiveRepo(db).archive(
        guild_id=g.id + 1,
        record=finished_record(1),
        players=[Seat.person(n, 10 + n, f"X{n}") for n in range(4)],
        ranked=True,
    )
    for command in ("euchre replay", "euchre export"):
        refused = await h.slash(g.member("bob"), command, {"game": game.number})
        assert refused.ephemeral
        assert refused.content == f"There is no finished game #{game.number} on this server."


async def test_everyone_sees_the_league_settings_and_only_admins_change_them(
    make_harness: MakeHarness, db: Database
) -> None:
    h, g = await league_harness(make_harness, db)
    ada, bob = g.member("ada"), g.member("bob")
    seen = await h.slash(bob, "euchre season settings")
    assert seen.ephemeral and "League settings" in seen.text
    refused = await h.slash(bob, "euchre season settings", {"min_games": 7}, allow_errors=True)
    assert refused.ephemeral
    assert refused.content.startswith("Changing the league settings needs a server admin")
    assert "/euchre season settings" in refused.content
    assert (await LeagueService(db).settings(g.id)).min_games != 7
    changed = await h.slash(ada, "euchre season settings", {"min_games": 7})
    assert changed.ephemeral and (await LeagueService(db).settings(g.id)).min_games == 7
    for command in ("season start", "season end"):
        options = {"name": "Autumn"} if command == "season start" else {}
        no = await h.slash(bob, f"euchre {command}", options, allow_errors=True)
        assert no.ephemeral and "needs a server admin" in no.content


async def test_empty_standings_say_how_a_game_gets_ranked(
    make_harness: MakeHarness, db: Database
) -> None:
    h, g = await league_harness(make_harness, db)
    empty = await h.slash(g.member("bob"), "euchre standings")
    assert "A game is ranked when a person plays every seat" in empty.text
    assert "Every seat a person" not in empty.text


async def test_without_a_league_the_commands_say_so(make_harness: MakeHarness) -> None:
    h = await make_harness(build_bot())
    g = h.guild(members=["ada"])
    refused = await h.slash(g.member("ada"), "euchre standings")
    assert refused.ephemeral and "isn't available" in refused.content


# --------------------------------------------------------------------------- from the table


async def test_a_game_played_at_a_table_reaches_the_standings(
    make_harness: MakeHarness, db: Database
) -> None:
    tables = TableService(
        DatabaseTableStore(db), make_player, server_settings=StoredSettings(db), seeds=lambda: 5
    )
    league = LeagueService(db)
    tables.listeners.append(league.on_table_event)
    bot = EuchreBot(
        Settings(computer_move_delay=0), tables=tables, channel_limits=ChannelLimits.unlimited()
    )
    bot.league = league  # type: ignore[attr-defined]
    h = await make_harness(bot)
    names = ["alice", "bob", "carol", "dave"]
    g = h.guild(members=names)
    people = [g.member(n) for n in names]
    await GuildSettingsRepo(db).set_rules(g.id, RULES)

    opened = await h.slash(people[0], "euchre new")
    table_message = opened.message
    for person in people[1:]:
        await h.click(person, table_message, label="Join")
    await h.click(people[0], table_message, label="Start")
    table = only_table(bot)
    policy = random_policy(5)
    while table.status == "playing":
        assert table.game is not None and table.game.turn is not None
        await act_through_hand(h, bot, people[table.game.turn], table_message, policy)

    assert await GameArchiveRepo(db).pending(g.id) == []  # taken in when the game ended
    standings = await h.slash(people[1], "euchre standings")
    assert "4 more players need 5 ranked games" in standings.text
    stats = await h.slash(people[1], "euchre stats")
    assert "1 game (1 ranked)" in stats.last_reply.text
