"""The leak check of the Activity's sockets, as the harness's is for Discord's messages.

After every event the table tells (a start, a move...), :class:`SocketWatch` reads what the
Activity has just put out for each socket, before anything else runs: the public table
may show no card that is hidden now (in a hand or the kitty, the turned-up card apart),
but the last trick of the deal before, which was played face up; and a seat's own part
holds that seat's hand and no other card.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from bot.rules import card_label
from bot.tables import Table, TableEvent, TableService
from bot.web.activity import Activity

CARD = re.compile(r'"(?:10|[2-9AJKQ])[CDHS]"|"J[KRB]"')


def cards_in(value: Any) -> set[str]:
    """Every card label a JSON value names."""
    return {m.strip('"') for m in CARD.findall(json.dumps(value))}


@dataclass
class SocketWatch:
    activity: Activity
    checked: int = 0
    cards_seen: int = 0
    problems: list[str] = field(default_factory=list)

    def listen(self, service: TableService) -> None:
        # The hidden cards are the live table's: the event fires inside its lock.
        service.listeners.append(
            lambda event: self.on_event(event, service.get_any(event.table_id))
        )

    def on_event(self, event: TableEvent, table: Table) -> None:
        game = table.game
        if game is None:
            return
        hands = [frozenset(card_label(c) for c in hand) for hand in game.hands]
        kitty = {card_label(c) for c in game.kitty}
        upcard = card_label(game.upcard)
        for room in self.activity.hub.rooms.values():
            for s in room.sockets:
                text = s.waiting.get("table")
                if text is None:
                    continue
                message = json.loads(text)
                seat = None if message["you"] is None else message["you"]["seat"]
                hidden = set().union(*(h for i, h in enumerate(hands) if i != seat)) | kitty
                hidden.discard(upcard)
                public = dict(message["table"])
                last = public.pop("last_trick", None)
                if last is not None and last["deal"] < game.deal_number:
                    before = table.last_trick
                    assert before is not None
                    if cards_in(last) != {card_label(c) for c in before.cards}:
                        self.problems.append(f"{event.line()}: a last trick not played")
                elif last is not None:
                    public["last_trick"] = last
                shown = cards_in(public)
                if shown & hidden:
                    self.problems.append(f"{event.line()}: public shows {sorted(shown & hidden)}")
                if message["you"] is not None:
                    mine = cards_in(message["you"])
                    if mine - hands[seat]:
                        self.problems.append(
                            f"{event.line()}: seat {seat} holds {sorted(mine - hands[seat])}"
                        )
                    self.cards_seen += len(mine)
                self.cards_seen += len(shown)
                self.checked += 1
