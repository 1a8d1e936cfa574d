"""Every key of the single table, built in one place (the layout is in ``schema.py`` and
docs/storage.md).

An item's key is ``{"PK": ..., "SK": ...}`` as plain strings: spread it into an item's values
(``{**keys.head(game_id), "v": 3, ...}``), or hand it to the store's ``_key`` to address the item.
The sparse indexes' key attributes are built here too, so that an item enters an index by one
function. Partitions and sort-key prefixes are named for the queries that read a range.

No hot keys (docs/storage.md): a move writes only its game's partition and, through the outbox
consumer, its seats' players' index entries; what many games share (the clock sweeper's and the
retry worker's ``due`` entries, the leaderboards) is spread over ``SHARDS`` partitions chosen by
hash, and read by querying each of them.
"""

from __future__ import annotations

import hashlib
from typing import Any

from ..kernel.ids import digest
from ..kernel.text import name_key

Key = dict[str, str]

SHARDS = 16  # partitions of each shared index key (DynamoDB's 1,000 writes/s is per partition key value)
OPEN_GAME = "OPEN"  # the open_games index's partitions: OPEN#<game type>#<shard>
NO_DEADLINE = "~"  # sorts after every ISO time: games without a clock come last in "my move" lists

PROFILE_SK = "PROFILE"  # a player's profile, in the player's partition
MEMBERSHIP_PREFIX = "GAME#"  # a player's memberships, in the player's partition
WEBHOOK_PREFIX = "WEBHOOK#"  # a player's webhooks, in the player's partition
RATING_PREFIX = "RATING#"  # a player's ratings, in the player's partition
BLOCK_PREFIX = "BLOCK#"  # the players a player blocked, in the blocker's partition
DELIVERY_PREFIX = "DELIVERY#"  # an endpoint's deliveries, in the webhook's partition

# In a game's partition, versions and settings share a prefix, and the settings sort after every
# version: one query (descending, two items) reads the settings with the latest version.
GAME_PREFIX = "GAME#"
SETTINGS_SK = "GAME#SETTINGS"
FIRST_VERSION_SK = "GAME#0000000000"
LAST_VERSION_SK = "GAME#9999999999"
HEAD_SK = "HEAD"

CLOCK_DUE = "CLOCK"  # the ``due`` index's partitions of games whose clock runs: CLOCK#00 .. CLOCK#15
DELIVERY_DUE = "DELIVERY"  # ... and of deliveries waiting for an attempt: DELIVERY#00 .. DELIVERY#15
DIGEST_DUE = "DIGEST"  # ... and of players' profiles whose daily digest is on: DIGEST#00 .. DIGEST#15

LAYOUT = {"PK": "LAYOUT", "SK": "LAYOUT"}  # the storage layout's version (schema.LAYOUT_VERSION)


def shard(text: str) -> str:
    """One of ``SHARDS`` partitions, by a stable hash of ``text`` (a game or delivery id)."""
    return f"{int(hashlib.sha256(text.encode()).hexdigest()[:8], 16) % SHARDS:02d}"


def shards(prefix: str) -> list[str]:
    """Every partition of a sharded index key, to query them all."""
    return [f"{prefix}#{n:02d}" for n in range(SHARDS)]


# ---------------------------------------------------------------------- partitions

def player_pk(player_id: str) -> str:
    """The player's partition: profile, memberships, webhooks and ratings."""
    return f"PLAYER#{player_id}"


def game_pk(game_id: str) -> str:
    """The game's partition: its settings, versions, head, reminders sent and the rated mark."""
    return f"GAME#{game_id}"


def webhook_pk(webhook_id: str) -> str:
    """The webhook endpoint's partition: its deliveries."""
    return f"WEBHOOK#{webhook_id}"


def webhook_id_of(pk: str) -> str:
    """The endpoint id of an item in an endpoint's partition (the inverse of :func:`webhook_pk`)."""
    return pk.removeprefix("WEBHOOK#")


def player_id_of(pk: str) -> str:
    """The player id of an item in a player's partition (the inverse of :func:`player_pk`)."""
    return pk.removeprefix("PLAYER#")


def game_id_of(pk: str) -> str:
    """The game id of an item in a game's partition (the inverse of :func:`game_pk`)."""
    return pk.removeprefix("GAME#")


def version_of(sk: str) -> int | None:
    """The version a game version's sort key names, or None for any other item."""
    digits = sk.removeprefix(GAME_PREFIX)
    return int(digits) if sk.startswith(GAME_PREFIX) and digits.isdigit() else None


# ---------------------------------------------------------------------- items

def player(player_id: str) -> Key:
    """The player's profile."""
    return {"PK": player_pk(player_id), "SK": PROFILE_SK}


def api_key(key_hash: str) -> Key:
    """The API key (by its SHA-256 hash) that names its player."""
    return {"PK": f"APIKEY#{key_hash}", "SK": "APIKEY"}


def player_email(email_hash: str, player_id: str) -> Key:
    """A player with this address (``ids.hash_email``; addresses are not unique): a partition per
    address, read by account recovery."""
    return {"PK": f"EMAIL#{email_hash}", "SK": f"PLAYER#{player_id}"}


def email_status(email_hash: str) -> Key:
    """Whether mail may go to this address (``records.EmailStop``; a bounce or a complaint stops it,
    setting it again resumes it): in the address's own partition, beside its players' items."""
    return {"PK": f"EMAIL#{email_hash}", "SK": "STATUS"}


def mail_answers(email_hash: str, window: str) -> Key:
    """How many answers play by email sent to this address in ``window`` (an hour, or a day's
    how-to-play answer), with a TTL: the caps on answers to inbound mail (docs/notifications.md)."""
    return {"PK": f"EMAIL#{email_hash}", "SK": f"ANSWERS#{window}"}


def mail_unread(email_hash: str) -> Key:
    """How many messages in a row from this address could not be read (reset by one that could)."""
    return {"PK": f"EMAIL#{email_hash}", "SK": "UNREAD"}


def mail_answered(email_hash: str, message_hash: str) -> Key:
    """A message from this address (its Message-ID's hash) was answered: a redelivery is not again."""
    return {"PK": f"EMAIL#{email_hash}", "SK": f"ANSWERED#{message_hash}"}


def recovery(request_id: str) -> Key:
    """One recovery request by email: the players its links may recover, each used once."""
    return {"PK": f"RECOVERY#{request_id}", "SK": "RECOVERY"}


def membership(player_id: str, game_id: str) -> Key:
    """The player's seat in a game, as the player's game list shows it."""
    return {"PK": player_pk(player_id), "SK": f"{MEMBERSHIP_PREFIX}{game_id}"}


def block(blocker_id: str, blocked_id: str) -> Key:
    """That ``blocker_id`` blocked ``blocked_id`` (in the blocker's partition: listBlocks is one query
    of it, and whether either of two players blocked the other is one BatchGet of two keys)."""
    return {"PK": player_pk(blocker_id), "SK": f"{BLOCK_PREFIX}{blocked_id}"}


def settings(game_id: str) -> Key:
    """What a game is and who plays it: type, seats, options, seed; written when it is made and
    when a seat is taken."""
    return {"PK": game_pk(game_id), "SK": SETTINGS_SK}


def version(game_id: str, number: int) -> Key:
    """The game as version ``number`` left it: state, clock and the events that version added.
    Written once, by the move that made it (10 digits, so that sort keys sort by number)."""
    return {"PK": game_pk(game_id), "SK": f"{GAME_PREFIX}{number:010d}"}


def head(game_id: str) -> Key:
    """The game's latest version in brief, kept by the outbox consumer: it carries the game's
    entries in the ``my_move`` and ``due`` indexes."""
    return {"PK": game_pk(game_id), "SK": HEAD_SK}


def notes(game_id: str, seat: int) -> Key:
    """A seat's private notes on the game (in the game's partition, beside its versions but never
    one of them: saving notes is not a move)."""
    return {"PK": game_pk(game_id), "SK": f"NOTES#{seat}"}


def reminder(game_id: str, mark: str) -> Key:
    """The mark that the reminder ``mark`` (``<seat>@<turn start>~<deadline>#<kind>``) was sent."""
    return {"PK": game_pk(game_id), "SK": f"REMINDER#{mark}"}


def rated(game_id: str) -> Key:
    """The mark that the finished game changed its players' ratings (once)."""
    return {"PK": game_pk(game_id), "SK": "RATED"}


def rating(player_id: str, game_type: str) -> Key:
    """The player's rating in one pool (a game type, or ``khan:<card set>``: ``GameEngine.rating_pool``)."""
    return {"PK": player_pk(player_id), "SK": f"{RATING_PREFIX}{game_type}"}


def tournament(tournament_id: str) -> Key:
    """The tournament: settings, players and pairings."""
    return {"PK": f"TOURNAMENT#{tournament_id}", "SK": "TOURNAMENT"}


def idempotency(scope: str, key: str) -> Key:
    """What Idempotency-Key ``key`` in ``scope`` was used for (the key is stored only as its SHA-256
    hash)."""
    return {"PK": f"IDEMPOTENCY#{scope}#{idempotency_hash(key)}", "SK": "IDEMPOTENCY"}


def idempotency_hash(key: str) -> str:
    """An Idempotency-Key as stored: its SHA-256 (a move's version records it too)."""
    return digest(key)


def webhook(player_id: str, webhook_id: str) -> Key:
    """The player's webhook endpoint: URL, event types and signing salts."""
    return {"PK": player_pk(player_id), "SK": f"{WEBHOOK_PREFIX}{webhook_id}"}


def delivery(webhook_id: str, msg_id: str) -> Key:
    """One message to one webhook endpoint (or email channel), with its attempts."""
    return {"PK": webhook_pk(webhook_id), "SK": f"{DELIVERY_PREFIX}{msg_id}"}


# ---------------------------------------------------------------------- sparse index keys

def clock_due(game_id: str, due_at: str) -> dict[str, str]:
    """A game's entry in the ``due`` index: its clock needs the sweeper at ``due_at``."""
    return {"due": f"{CLOCK_DUE}#{shard(game_id)}", "due_at": due_at}


def delivery_due(webhook_id: str, msg_id: str, next_attempt_at: str) -> dict[str, str]:
    """A delivery's entry in the ``due`` index: its next attempt is at ``next_attempt_at``."""
    return {"due": f"{DELIVERY_DUE}#{shard(webhook_id + '/' + msg_id)}", "due_at": next_attempt_at}


def digest_due(player_id: str, due_at: str) -> dict[str, str]:
    """A player's entry in the ``due`` index (on their profile) while their daily digest is on: it is
    next sent at ``due_at``, in one of ``SHARDS`` partitions by hash of the player id."""
    return {"due": f"{DIGEST_DUE}#{shard(player_id)}", "due_at": due_at}


def digest_sent(player_id: str, local_date: str) -> Key:
    """The mark that the player's digest of ``local_date`` (their own date) was sent, with its message:
    at most one a day, however many sweepers run."""
    return {"PK": player_pk(player_id), "SK": f"DIGEST#{local_date}"}


def invitations(player_id: str, day: str) -> Key:
    """The count of the invitations by email the player sent on ``day`` (UTC), with a TTL: the daily
    cap holds across Lambda instances (services/limits.py)."""
    return {"PK": player_pk(player_id), "SK": f"INVITATIONS#{day}"}


def open_game(game_type: str, game_id: str, created_at: str) -> dict[str, str]:
    """A game's entry in the ``open_games`` index while a seat of it is open to anyone: in one of
    the game type's ``SHARDS`` partitions, newest last."""
    return {"lobby": f"{OPEN_GAME}#{game_type}#{shard(game_id)}", "lobby_at": f"{created_at}#{game_id}"}


def my_move(player_id: str, deadline: str | None) -> dict[str, str]:
    """A game's entry in the ``my_move`` index: it is the player's move, due by ``deadline``."""
    return {"mover": player_id, "move_due": deadline or NO_DEADLINE}


def leaderboard(game_type: str, player_id: str, rating_value: Any) -> dict[str, Any]:
    """A rating's entry in the ``leaderboard`` index (``rating_value`` as the store writes numbers),
    in one of the pool's ``SHARDS`` partitions."""
    return {"lb": f"{game_type}#{shard(player_id)}", "lb_rating": rating_value}


def player_name(name: str) -> dict[str, str]:
    """A player's entry in the ``player_name`` index: one partition per name as a search matches it
    (``text.name_key``), so no partition is shared by players of different names."""
    return {"pname": name_key(name)}


def tournament_list(tournament_id: str, status: str, created_at: str) -> dict[str, str]:
    """A tournament's entry in the ``tournaments`` index: its status and one of ``SHARDS``
    partitions by hash of its id (``open#07``), newest first by ``<created_at>#<id>``."""
    return {"tl": f"{status}#{shard(tournament_id)}", "tl_at": f"{created_at}#{tournament_id}"}


# ---------------------------------------------------------------------- ladders

LADDER_SK = "LADDER"  # a ladder's settings, in the ladder's partition
RUNG_PREFIX = "RUNG#"  # a ladder's rungs by position (``chalicelib.ladders.positions``'s gapped keys): rank order
MEMBER_PREFIX = "MEMBER#"  # a ladder's players by id: their rung's position and open challenges
CHALLENGE_PREFIX = "CHALLENGE#"  # a ladder's open challenges, one per pair of players
LADDER_DUE = "LADDER"  # the ``due`` index's partitions of ladders with work at a time: LADDER#00 .. LADDER#15
LADDER_LIST = "ladder"  # the ``tournaments`` index's partitions of ladders: ladder#00 .. ladder#15


def ladder_pk(ladder_id: str) -> str:
    """The ladder's partition: its settings, rungs, players and open challenges."""
    return f"LADDER#{ladder_id}"


def ladder_id_of(pk: str) -> str:
    """The ladder id of an item in a ladder's partition (the inverse of :func:`ladder_pk`)."""
    return pk.removeprefix("LADDER#")


def ladder(ladder_id: str) -> Key:
    """The ladder's settings: name, game, options and rules."""
    return {"PK": ladder_pk(ladder_id), "SK": LADDER_SK}


def rung(ladder_id: str, position: str) -> Key:
    """The rung at ``position`` (a gapped key, ``chalicelib.ladders.positions``): who stands there. Rank is the
    rungs' order; a result moves one rung (a delete and a put), never the others."""
    return {"PK": ladder_pk(ladder_id), "SK": f"{RUNG_PREFIX}{position}"}


def ladder_member(ladder_id: str, player_id: str) -> Key:
    """The player on the ladder: their rung's position, open challenges, when they last played."""
    return {"PK": ladder_pk(ladder_id), "SK": f"{MEMBER_PREFIX}{player_id}"}


def ladder_challenge(ladder_id: str, player_a: str, player_b: str) -> Key:
    """The open challenge between two players (either way round: one pair, one item)."""
    first, second = sorted((player_a, player_b))
    return {"PK": ladder_pk(ladder_id), "SK": f"{CHALLENGE_PREFIX}{first}|{second}"}


def ladder_result(game_id: str) -> Key:
    """The mark that the finished ladder game moved its ladder (once), with its messages."""
    return {"PK": game_pk(game_id), "SK": "LADDER_RESULT"}


def ladder_due(ladder_id: str, what: str, due_at: str) -> dict[str, str]:
    """A ladder item's entry in the ``due`` index (a challenge's answer, a player's idle time), in one
    of ``SHARDS`` partitions by hash of the ladder and the item."""
    return {"due": f"{LADDER_DUE}#{shard(ladder_id + '/' + what)}", "due_at": due_at}


def ladder_list(ladder_id: str, created_at: str) -> dict[str, str]:
    """A ladder's entry in the ``tournaments`` index (``ladder#07``: never a tournament's status),
    newest first by ``<created_at>#<id>``."""
    return {"tl": f"{LADDER_LIST}#{shard(ladder_id)}", "tl_at": f"{created_at}#{ladder_id}"}
