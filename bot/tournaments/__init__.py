"""Tournament nights: progressive euchre and pairs events, from sign-up to champion.

One package for the feature, as lila keeps one per feature. The pure part (no Discord,
no I/O): rotation schedules and their measure, pairings, standings with tie-breaks, the
event's state machine and its JSON export. Its model is :mod:`.model` (pydantic), kept
in the database by :mod:`.repository` (:class:`TournamentRepo`, with :mod:`.outreach`
for the announcements made and the Discord scheduled event); :mod:`.storage` keeps an
event with it. The service is :mod:`.runner` (:class:`TournamentRunner`: an event's
changes under its lock, saved), with :mod:`.round_tables` (each round's tables through
the table service, and their results) and :mod:`.timers` (the timed steps);
:mod:`.champion_roles` the champion role's life. The Discord side is
:mod:`bot.discord.tournaments`; nothing here knows Discord.

    event = Tournament.create(guild_id=g, channel_id=c, director_id=d, name="Friday", now=now)
    event.join(user_id, "Ada", now)
    event.start(Actor(d), now, fill_with_computers=True)
    event.report(1, 1, [(1, 0), (0, 2)], now, finished=False)
"""

from .announcements import REMINDER_BEFORE, Announcement, due_announcements
from .errors import (
    ChannelBusyError,
    EventStateError,
    NotDirectorError,
    ResultError,
    SignUpError,
    TooFewPlayersError,
    TournamentError,
)
from .event import Actor, Tournament
from .export import export_csv, export_event, export_json
from .measure import (
    RotationFigures,
    RotationRow,
    lower_bound,
    measure,
    random_figures,
    rotation_markdown,
    rotation_table,
)
from .pairings import Pairing, round_robin, round_robin_fits, swiss_round
from .rotation import Schedule, progressive_schedule, random_rotation, whist_design
from .standings import Standing, champions, standings
from .start_time import StartTimeError, event_start
from .storage import champion_roles, create_event, load_event, open_events, save_event

__all__ = [
    "REMINDER_BEFORE",
    "Actor",
    "Announcement",
    "ChannelBusyError",
    "EventStateError",
    "NotDirectorError",
    "Pairing",
    "ResultError",
    "RotationFigures",
    "RotationRow",
    "Schedule",
    "SignUpError",
    "Standing",
    "StartTimeError",
    "TooFewPlayersError",
    "Tournament",
    "TournamentError",
    "champion_roles",
    "champions",
    "create_event",
    "due_announcements",
    "event_start",
    "export_csv",
    "export_event",
    "export_json",
    "load_event",
    "lower_bound",
    "measure",
    "open_events",
    "progressive_schedule",
    "random_figures",
    "random_rotation",
    "rotation_markdown",
    "rotation_table",
    "round_robin",
    "round_robin_fits",
    "save_event",
    "standings",
    "swiss_round",
    "whist_design",
]
