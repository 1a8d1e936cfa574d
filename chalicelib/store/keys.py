"""Every key of the single table, built in one place (the layout is in ``schema.py``).

An item's key is ``{"PK": ..., "SK": ...}`` as plain strings: spread it into an item's values
(``{**keys.game(game_id), "kind": "game", ...}``), or hand it to the store's ``_key`` to address
the item. The sparse indexes' key attributes are built here too, so that an item enters an index
by one function. Partitions and sort-key prefixes are named for the queries that read a range.
"""

from __future__ import annotations

import hashlib
from typing import Any

Key = dict[str, str]

NO_DEADLINE = "~"  # sorts after every ISO time: games without a clock come last in "my move" lists

OUTBOX_PK = "OUTBOX"  # the outbox's one partition (the stream consumer filters on it)
PROFILE_SK = "PROFILE"  # a player's profile, in the player's partition
MEMBERSHIP_PREFIX = "GAME#"  # a player's memberships, in the player's partition
WEBHOOK_PREFIX = "WEBHOOK#"  # a player's webhooks, in the player's partition
RATING_PREFIX = "RATING#"  # a player's ratings, in the player's partition
EVENT_PREFIX = "EVENT#"  # a game's events, in the game's partition
DELIVERY_PREFIX = "DELIVERY#"  # an endpoint's deliveries, in the webhook's partition

CLOCK_DUE = "CLOCK"  # the ``due`` index's partition of games whose clock runs
DELIVERY_DUE = "DUE"  # the ``due`` index's partition of deliveries waiting for an attempt


# ---------------------------------------------------------------------- partitions

def player_pk(player_id: str) -> str:
    """The player's partition: profile, memberships, webhooks and ratings."""
    return f"PLAYER#{player_id}"


def game_pk(game_id: str) -> str:
    """The game's partition: the game, its events, reminders sent and the rated mark."""
    return f"GAME#{game_id}"


def webhook_pk(webhook_id: str) -> str:
    """The webhook endpoint's partition: its deliveries."""
    return f"WEBHOOK#{webhook_id}"


def game_id_of(pk: str) -> str:
    """The game id of an item in a game's partition (the inverse of :func:`game_pk`)."""
    return pk.removeprefix("GAME#")


# ---------------------------------------------------------------------- items

def player(player_id: str) -> Key:
    """The player's profile."""
    return {"PK": player_pk(player_id), "SK": PROFILE_SK}


def api_key(key_hash: str) -> Key:
    """The API key (by its SHA-256 hash) that names its player."""
    return {"PK": f"APIKEY#{key_hash}", "SK": "APIKEY"}


def membership(player_id: str, game_id: str) -> Key:
    """The player's seat in a game, as the player's game list shows it."""
    return {"PK": player_pk(player_id), "SK": f"{MEMBERSHIP_PREFIX}{game_id}"}


def game(game_id: str) -> Key:
    """The game: its version, seats, options and engine state."""
    return {"PK": game_pk(game_id), "SK": "GAME"}


def event(game_id: str, seq: int) -> Key:
    """The game's event number ``seq`` (10 digits, so that sort keys sort by number)."""
    return {"PK": game_pk(game_id), "SK": f"{EVENT_PREFIX}{seq:010d}"}


def reminder(game_id: str, mark: str) -> Key:
    """The mark that the reminder ``mark`` (``<seat>@<turn start>#<kind>``) was sent."""
    return {"PK": game_pk(game_id), "SK": f"REMINDER#{mark}"}


def rated(game_id: str) -> Key:
    """The mark that the finished game changed its players' ratings (once)."""
    return {"PK": game_pk(game_id), "SK": "RATED"}


def rating(player_id: str, game_type: str) -> Key:
    """The player's rating at one game type."""
    return {"PK": player_pk(player_id), "SK": f"{RATING_PREFIX}{game_type}"}


def tournament(tournament_id: str) -> Key:
    """The tournament: settings, players and pairings."""
    return {"PK": f"TOURNAMENT#{tournament_id}", "SK": "TOURNAMENT"}


def idempotency(scope: str, key: str) -> Key:
    """The stored response to the request made with Idempotency-Key ``key`` in ``scope`` (the key is
    stored only as its SHA-256 hash)."""
    digest = hashlib.sha256(key.encode()).hexdigest()
    return {"PK": f"IDEMPOTENCY#{scope}#{digest}", "SK": "IDEMPOTENCY"}


def webhook(player_id: str, webhook_id: str) -> Key:
    """The player's webhook endpoint: URL, event types and signing secrets."""
    return {"PK": player_pk(player_id), "SK": f"{WEBHOOK_PREFIX}{webhook_id}"}


def delivery(webhook_id: str, msg_id: str) -> Key:
    """One message to one webhook endpoint, with its attempts."""
    return {"PK": webhook_pk(webhook_id), "SK": f"{DELIVERY_PREFIX}{msg_id}"}


def outbox(created_at: str, msg_id: str) -> Key:
    """A message waiting to be dispatched, in creation order."""
    return {"PK": OUTBOX_PK, "SK": f"{created_at}#{msg_id}"}


def outbox_at(sort_key: str) -> Key:
    """The outbox message whose sort key a listing of the outbox returned."""
    return {"PK": OUTBOX_PK, "SK": sort_key}


# ---------------------------------------------------------------------- sparse index keys

def clock_due(due_at: str) -> dict[str, str]:
    """A game's entry in the ``due`` index: its clock needs the sweeper at ``due_at``."""
    return {"due": CLOCK_DUE, "due_at": due_at}


def delivery_due(next_attempt_at: str) -> dict[str, str]:
    """A delivery's entry in the ``due`` index: its next attempt is at ``next_attempt_at``."""
    return {"due": DELIVERY_DUE, "due_at": next_attempt_at}


def my_move(player_id: str, deadline: str | None) -> dict[str, str]:
    """A membership's entry in the ``my_move`` index: it is the player's move, due by ``deadline``."""
    return {"mover": player_id, "move_due": deadline or NO_DEADLINE}


def leaderboard(game_type: str, rating_value: Any) -> dict[str, Any]:
    """A rating's entry in the ``leaderboard`` index (``rating_value`` as the store writes numbers)."""
    return {"lb": game_type, "lb_rating": rating_value}
