"""A reply's confirmation, held for the next email (issue 36: at most one email per opponent turn).

A reply that was played (or answered an invitation) is not answered at once: what it did ("Played:
…") is held, one item per player, game and seat (a delivery on the ``confirm-<player_id>`` channel,
pending in the ``due`` index :data:`WINDOW` from now), and the next email of that game to that seat
(its move again, the game's end, a reminder) says it first. Only when no email of the game follows
within :data:`WINDOW` does the sweeper (``Dispatcher.run_due``; the worker under ``make serve``)
send it alone. A refused or unreadable reply is still answered at once (mailplay/inbound.py), and
so is one after which the turn is still the seat's (its answer's reply address plays the rest).

The held text is what the reply played, which the game's events make public once played: never
a card drawn, nor anything else of the seat's hand.
"""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import timedelta

from ..kernel import i18n
from ..kernel.clock import Clock, iso
from ..store.records import Delivery

CONFIRM_CHANNEL = "confirm-"  # a held confirmation's channel: "confirm-<player_id>"
CONFIRMED = "game.confirmed"  # a confirmation sent alone, no other email of the game having followed
WINDOW = timedelta(minutes=10)  # how long a confirmation waits for the next email before it goes alone


def _key(player_id: str, game_id: str, seat: int) -> tuple[str, str]:
    return CONFIRM_CHANNEL + player_id, f"confirm_{game_id}_{seat}"


def hold(store, clock: Clock, player_id: str, game_id: str, seat: int, version: int, headline: str) -> None:
    """Hold ``headline`` (in the player's language) for the next email of the game to the seat; a
    confirmation still held is kept, the new one after it."""
    webhook_id, msg_id = _key(player_id, game_id, seat)
    now = clock.now()
    for _ in range(3):  # a dispatcher may fold the held one meanwhile: read again and retry
        held = store.get_delivery(webhook_id, msg_id, consistent=True)
        earlier = json.loads(held.body)["headline"] if held is not None and held.status == "pending" else ""
        body = json.dumps({"game_id": game_id, "seat": seat, "version": version,
                           "headline": i18n.sentences(earlier, headline) if earlier else headline})
        if held is None:
            if store.create_delivery(Delivery(webhook_id, msg_id, player_id, CONFIRMED, body, "pending", [],
                                              iso(now + WINDOW), iso(now))):
                return
        elif store.update_delivery(replace(held, body=body, status="pending", attempts=[],
                                           next_attempt_at=iso(now + WINDOW), version=held.version + 1),
                                   held.version):
            return


def held(store, player_id: str, game_id: str, seat: int) -> Delivery | None:
    """The seat's confirmation still waiting for an email, or None."""
    found = store.get_delivery(*_key(player_id, game_id, seat), consistent=True)
    return found if found is not None and found.status == "pending" else None


def headline(delivery: Delivery) -> str:
    return json.loads(delivery.body)["headline"]


def is_confirmation(webhook_id: str) -> bool:
    return webhook_id.startswith(CONFIRM_CHANNEL)
