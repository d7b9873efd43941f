"""The service layer: a table's life from its lobby to its result, without any Discord object.

:class:`TableService` is the registry of the open tables (by id and by channel or
thread); each :class:`LiveTable` owns its lock, game, turn loop and timers and makes
every change to it under its lock, saving it through a :class:`TableStore` before
answering. :class:`Table` holds one table's seats and game and checks requests;
:class:`PublicTable` is all that its public message may show. Everything a user can
get wrong is refused with a :class:`~bot.tables.errors.TableError`, a
:class:`~bot.errors.UserFacingError`.
"""

from .computers import Advice, ClaimCheck, ComputerPlayer, PlayerFactory
from .crew import ComputerPace, Crew, plain_delay
from .errors import (
    ClaimRefusedError,
    ComputersNotAllowedError,
    HintsOffError,
    IllegalMoveError,
    NoTableError,
    NotHostError,
    NotReadyError,
    NotSeatedError,
    NotYourHandError,
    NotYourTurnError,
    SaveFailedError,
    SeatTakenError,
    StaleActionError,
    TableClosedError,
    TableError,
    TableExistsError,
    TableFullError,
    WrongStageError,
    named_table,
)
from .events import (
    ClaimMade,
    DealEnded,
    MoveMade,
    PingDue,
    TableClosed,
    TableEvent,
    TableReloaded,
    TurnPassed,
)
from .live import LiveTable
from .persistence import MemoryTableStore, NewTable, Place, SavedTable, TableStatus, TableStore
from .public import Claim, CompletedTrick, DealSummary, PublicGame, PublicTable
from .reviewing import no_review_kept, review_record, reviewable_deals
from .seats import Player, Seat
from .service import Progress, TableService
from .snapshots import SeatSnapshot, TableSnapshot
from .table import Move, Table
from .watching import DealtHands, dealt_hands

__all__ = [
    "Advice",
    "Claim",
    "ClaimCheck",
    "ClaimMade",
    "ClaimRefusedError",
    "CompletedTrick",
    "ComputerPace",
    "ComputerPlayer",
    "ComputersNotAllowedError",
    "Crew",
    "DealEnded",
    "DealSummary",
    "DealtHands",
    "HintsOffError",
    "IllegalMoveError",
    "LiveTable",
    "MemoryTableStore",
    "Move",
    "MoveMade",
    "NewTable",
    "NoTableError",
    "NotHostError",
    "NotReadyError",
    "NotSeatedError",
    "NotYourHandError",
    "NotYourTurnError",
    "PingDue",
    "Place",
    "Player",
    "PlayerFactory",
    "Progress",
    "PublicGame",
    "PublicTable",
    "SaveFailedError",
    "SavedTable",
    "Seat",
    "SeatSnapshot",
    "SeatTakenError",
    "StaleActionError",
    "Table",
    "TableClosed",
    "TableClosedError",
    "TableError",
    "TableEvent",
    "TableExistsError",
    "TableFullError",
    "TableReloaded",
    "TableService",
    "TableSnapshot",
    "TableStatus",
    "TableStore",
    "TurnPassed",
    "WrongStageError",
    "dealt_hands",
    "named_table",
    "no_review_kept",
    "plain_delay",
    "review_record",
    "reviewable_deals",
]
