"""The service layer: a table's life from its lobby to its result, without any Discord object.

:class:`TableService` owns the open tables (by id and by channel or thread) and makes
every change under the table's lock, saving it through a :class:`TableStore` before
answering. :class:`Table` holds one table's seats and game; :class:`PublicTable` is all
that its public message may show. Everything a user can get wrong is refused with a
:class:`~bot.tables.errors.TableError`, a :class:`~bot.errors.UserFacingError`.
"""

from .computers import Advice, ClaimCheck, ComputerPlayer, PlayerFactory
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
from .persistence import MemoryTableStore, NewTable, Place, SavedTable, TableStatus, TableStore
from .public import Claim, CompletedTrick, DealSummary, PublicGame, PublicTable
from .reviewing import no_review_kept, review_record, reviewable_deals
from .seats import Player, Seat
from .service import Progress, TableService
from .snapshots import SeatSnapshot, TableSnapshot
from .table import Move, Table
from .turns import ComputerPace, plain_delay
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
    "DealEnded",
    "DealSummary",
    "DealtHands",
    "HintsOffError",
    "IllegalMoveError",
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
    "no_review_kept",
    "plain_delay",
    "review_record",
    "reviewable_deals",
]
