"""Which games are ranked: every seat a person, the server's rules, not all casual."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.league import casual_reason, record_rules
from bot.rules import HouseRules
from bot.store import ArchivedGame, GamePlayer, LeagueSettings
from bot.store.league_models import EventGame

from .util import GUILD, RULES, finished_record


def game(ranked: bool = True, computer_at: int | None = None, twice: bool = False) -> ArchivedGame:
    players = []
    for seat in range(4):
        if seat == computer_at:
            players.append(
                GamePlayer(
                    seat=seat,
                    team=seat % 2,
                    is_computer=True,
                    computer_level="basic",
                    display_name="CPU",
                )
            )
        else:
            user = 100 if twice and seat in (0, 2) else 100 + seat
            players.append(GamePlayer(seat=seat, team=seat % 2, user_id=user, display_name="P"))
    return ArchivedGame(
        id=1,
        guild_id=GUILD,
        ranked=ranked,
        winner=0,
        score=(5, 3),
        finished_at=datetime(2025, 1, 1, tzinfo=UTC),
        players=tuple(players),
    )


SETTINGS = LeagueSettings(guild_id=GUILD)


def test_people_only_under_the_servers_rules_is_ranked() -> None:
    assert casual_reason(game(), RULES, RULES, SETTINGS) is None


def test_a_computer_makes_the_game_casual() -> None:
    assert casual_reason(game(ranked=False), RULES, RULES, SETTINGS) == "a computer played a seat"
    reason = casual_reason(game(computer_at=1), RULES, RULES, SETTINGS)
    assert reason == "a computer played a seat"


def test_other_rules_are_casual_unless_the_server_says_otherwise() -> None:
    other = HouseRules.preset_rules("toronto")
    assert "other rules" in (casual_reason(game(), other, RULES, SETTINGS) or "")
    ranks_all = SETTINGS.model_copy(update={"rank_custom_rules": True})
    assert casual_reason(game(), other, RULES, ranks_all) is None
    assert "other rules" in (casual_reason(game(), None, RULES, SETTINGS) or "")


def test_a_server_can_make_every_game_casual() -> None:
    casual = SETTINGS.model_copy(update={"all_casual": True})
    assert casual_reason(game(), RULES, RULES, casual) == "this server plays every game casual"


def test_one_person_in_two_seats_is_never_ranked() -> None:
    assert casual_reason(game(twice=True), RULES, RULES, SETTINGS) == "someone played two seats"


def test_record_rules_read_the_records_rules() -> None:
    assert record_rules(finished_record(1)) == RULES
    assert record_rules({"rules": {"preset": "nope"}}) is None


def test_a_tournament_game_follows_its_event() -> None:
    other = RULES.with_changes(deals_per_game=2)
    rated = EventGame(rated=True, phase="finished")
    assert casual_reason(game(), other, RULES, SETTINGS, event=rated) is None
    unrated = EventGame(rated=False, phase="finished")
    assert casual_reason(game(), RULES, RULES, SETTINGS, event=unrated) == (
        "its tournament is not rated"
    )
    reason = casual_reason(game(computer_at=1), other, RULES, SETTINGS, event=rated)
    assert reason == "a computer played a seat"
    cancelled = EventGame(rated=True, phase="cancelled")
    assert casual_reason(game(), other, RULES, SETTINGS, event=cancelled) == (
        "its tournament was cancelled"
    )


def test_a_rated_event_holds_its_games_until_it_is_over() -> None:
    assert EventGame(rated=True, phase="playing").held
    assert EventGame(rated=True, phase="between_rounds").held
    assert not EventGame(rated=True, phase="finished").held
    assert not EventGame(rated=True, phase="cancelled").held
    assert not EventGame(rated=False, phase="playing").held
