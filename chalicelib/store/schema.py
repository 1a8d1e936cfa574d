"""The single DynamoDB table: its definition and key layout (docs/storage.md). Every key is
built by one function of ``keys.py`` (last column).

| item          | PK                              | SK                   | built by |
|---------------|---------------------------------|----------------------|----------|
| player        | PLAYER#<player_id>              | PROFILE              | ``keys.player`` |
| API key       | APIKEY#<sha256 of key>          | APIKEY               | ``keys.api_key`` |
| membership    | PLAYER#<player_id>              | GAME#<game_id>       | ``keys.membership`` |
| game settings | GAME#<game_id>                  | GAME#SETTINGS        | ``keys.settings`` |
| game version  | GAME#<game_id>                  | GAME#<version, 10 digits> | ``keys.version`` |
| game head     | GAME#<game_id>                  | HEAD                 | ``keys.head`` |
| reminder sent | GAME#<game_id>                  | REMINDER#<seat>@<turn start>~<deadline>#<kind> | ``keys.reminder`` |
| rated game    | GAME#<game_id>                  | RATED                | ``keys.rated`` |
| idempotency   | IDEMPOTENCY#<scope>#<sha256>    | IDEMPOTENCY          | ``keys.idempotency`` |
| webhook       | PLAYER#<player_id>              | WEBHOOK#<webhook_id> | ``keys.webhook`` |
| delivery      | WEBHOOK#<webhook_id>            | DELIVERY#<msg_id>    | ``keys.delivery`` |
| rating        | PLAYER#<player_id>              | RATING#<pool>        | ``keys.rating`` |
| tournament    | TOURNAMENT#<tournament_id>      | TOURNAMENT           | ``keys.tournament`` |
| ladder        | LADDER#<ladder_id>              | LADDER               | ``keys.ladder`` |
| rung          | LADDER#<ladder_id>              | RUNG#<position>      | ``keys.rung`` |
| ladder player | LADDER#<ladder_id>              | MEMBER#<player_id>   | ``keys.ladder_member`` |
| ladder challenge | LADDER#<ladder_id>           | CHALLENGE#<a>|<b>    | ``keys.ladder_challenge`` |
| ladder result | GAME#<game_id>                  | LADDER_RESULT        | ``keys.ladder_result`` |
| layout        | LAYOUT                          | LAYOUT               | ``keys.LAYOUT`` |

GSI ``due`` (sparse, keys only): work the schedulers must do at a time, spread over 16
partitions each: games whose clock runs (``due = "CLOCK#<00-15>"``, on the game's head),
deliveries waiting for an attempt (``due = "DELIVERY#<00-15>"``), and ladder challenges waiting
for an answer and ladder players' idle time (``due = "LADDER#<00-15>"``); ``due_at`` is the next
look (``keys.clock_due``, ``keys.delivery_due``, ``keys.ladder_due``). The readers take the item's key and re-read it.

GSI ``my_move`` (sparse): a game's head while it is a player's move, keyed ``mover =
<player_id>``, ``move_due = <deadline, or "~" without a clock>`` (``keys.my_move``), with what
``listGames?to_move=me`` shows (game type, seat to move, version, time).

GSI ``open_games`` (sparse, keys only): a waiting game's head while a seat of it is open to
anyone, keyed ``lobby = "OPEN#<game type>#<00-15>"``, ``lobby_at = <created_at>#<game_id>``
(``keys.open_game``); listOpenGames queries the 16 shards and reads each game listed.

GSI ``leaderboard`` (sparse): ratings no longer provisional, keyed ``lb = <pool>#<00-15>``,
``lb_rating = <rating>`` (a number; ``keys.leaderboard``), with the rating's fields. A pool is a game
type, or ``khan:<card set>``: each Khan & General card set is rated apart (``GameEngine.rating_pool``).

GSI ``player_name`` (sparse): players' profiles, keyed ``pname = <the name as a search matches it>``
(``keys.player_name``: one partition per name), with id, name and creation time (findPlayers).

GSI ``tournaments`` (sparse): tournaments, keyed ``tl = <status>#<00-15>``, ``tl_at = <created_at>#<id>``
(``keys.tournament_list``), with their summary (listTournaments queries the 16 partitions of a
status and merges); and ladders, keyed ``tl = ladder#<00-15>`` (``keys.ladder_list``: never a
tournament's status), for listLadders.

The stream (new images) is the outbox: the outbox consumer reads every new game version and
every item saved with messages (``notify/dispatcher.py``).
"""

from __future__ import annotations

from .errors import StoreError

TTL_ATTRIBUTE = "expires_at"
LAYOUT_VERSION = 2  # 1: one mutable game item, a shared OUTBOX partition (before 2026-11-24)

# The attributes the indexes carry beyond their keys (what their readers use).
MY_MOVE_ATTRIBUTES = ["game", "tm", "v", "at"]
RATING_ATTRIBUTES = ["player_id", "game", "rating", "rd", "volatility", "games", "wins", "losses", "draws",
                     "updated_at", "version"]


class LayoutMismatch(StoreError):
    """The table holds data of another storage layout: never read it as this one."""


def table_definition(name: str) -> dict:
    """Arguments for ``CreateTable``; the CDK app and the local tooling build the same table."""
    return {
        "TableName": name,
        "AttributeDefinitions": [
            {"AttributeName": "PK", "AttributeType": "S"},
            {"AttributeName": "SK", "AttributeType": "S"},
            {"AttributeName": "due", "AttributeType": "S"},
            {"AttributeName": "due_at", "AttributeType": "S"},
            {"AttributeName": "mover", "AttributeType": "S"},
            {"AttributeName": "move_due", "AttributeType": "S"},
            {"AttributeName": "lb", "AttributeType": "S"},
            {"AttributeName": "lb_rating", "AttributeType": "N"},
            {"AttributeName": "lobby", "AttributeType": "S"},
            {"AttributeName": "lobby_at", "AttributeType": "S"},
            {"AttributeName": "pname", "AttributeType": "S"},
            {"AttributeName": "tl", "AttributeType": "S"},
            {"AttributeName": "tl_at", "AttributeType": "S"},
        ],
        "KeySchema": [
            {"AttributeName": "PK", "KeyType": "HASH"},
            {"AttributeName": "SK", "KeyType": "RANGE"},
        ],
        "BillingMode": "PAY_PER_REQUEST",
        "GlobalSecondaryIndexes": [DUE_INDEX, MY_MOVE_INDEX, LEADERBOARD_INDEX, OPEN_GAMES_INDEX, PLAYER_NAME_INDEX,
                                   TOURNAMENTS_INDEX],
        "StreamSpecification": {"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"},
    }


DUE_INDEX = {
    "IndexName": "due",
    "KeySchema": [{"AttributeName": "due", "KeyType": "HASH"}, {"AttributeName": "due_at", "KeyType": "RANGE"}],
    "Projection": {"ProjectionType": "KEYS_ONLY"},
}

MY_MOVE_INDEX = {
    "IndexName": "my_move",
    "KeySchema": [{"AttributeName": "mover", "KeyType": "HASH"}, {"AttributeName": "move_due", "KeyType": "RANGE"}],
    "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": MY_MOVE_ATTRIBUTES},
}

LEADERBOARD_INDEX = {
    "IndexName": "leaderboard",
    "KeySchema": [{"AttributeName": "lb", "KeyType": "HASH"}, {"AttributeName": "lb_rating", "KeyType": "RANGE"}],
    "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": RATING_ATTRIBUTES},
}

OPEN_GAMES_INDEX = {
    "IndexName": "open_games",
    "KeySchema": [{"AttributeName": "lobby", "KeyType": "HASH"}, {"AttributeName": "lobby_at", "KeyType": "RANGE"}],
    "Projection": {"ProjectionType": "KEYS_ONLY"},
}

PLAYER_NAME_INDEX = {
    "IndexName": "player_name",
    "KeySchema": [{"AttributeName": "pname", "KeyType": "HASH"}],
    "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["id", "name", "created_at"]},
}

TOURNAMENTS_INDEX = {
    "IndexName": "tournaments",
    "KeySchema": [{"AttributeName": "tl", "KeyType": "HASH"}, {"AttributeName": "tl_at", "KeyType": "RANGE"}],
    "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["summary"]},
}


def create_table_if_missing(client, name: str) -> bool:
    """Create the table (with its layout mark) and wait for it; False when it was already there."""
    try:
        client.create_table(**table_definition(name))
    except client.exceptions.ResourceInUseException:
        add_missing_indexes(client, name)
        return False
    client.get_waiter("table_exists").wait(TableName=name, WaiterConfig={"Delay": 0.2, "MaxAttempts": 100})
    try:
        client.update_time_to_live(
            TableName=name, TimeToLiveSpecification={"Enabled": True, "AttributeName": TTL_ATTRIBUTE}
        )
    except client.exceptions.ClientError:  # pragma: no cover - TTL is best effort on local engines
        pass
    client.put_item(TableName=name, Item={"PK": {"S": "LAYOUT"}, "SK": {"S": "LAYOUT"},
                                          "version": {"N": str(LAYOUT_VERSION)}})
    return True


def add_missing_indexes(client, name: str) -> list[str]:
    """Add the indexes a table made by an older version lacks (``make serve`` keeps its table across
    versions), one at a time as DynamoDB requires, waiting for each; their names."""
    wanted = table_definition(name)
    described = client.describe_table(TableName=name)["Table"]
    have = {index["IndexName"] for index in described.get("GlobalSecondaryIndexes", [])}
    attributes = {a["AttributeName"]: a for a in wanted["AttributeDefinitions"]}
    added = []
    for index in wanted["GlobalSecondaryIndexes"]:
        if index["IndexName"] in have:
            continue
        used = [attributes[k["AttributeName"]] for k in index["KeySchema"]]
        client.update_table(TableName=name, AttributeDefinitions=used,
                            GlobalSecondaryIndexUpdates=[{"Create": index}])
        client.get_waiter("table_exists").wait(TableName=name, WaiterConfig={"Delay": 0.2, "MaxAttempts": 100})
        added.append(index["IndexName"])
    return added


def check_layout(client, name: str) -> None:
    """Refuse a table written by another storage layout (``make serve`` keeps its data under var/
    across versions): raise LayoutMismatch saying what to do, rather than misread its items."""
    found = client.get_item(TableName=name, Key={"PK": {"S": "LAYOUT"}, "SK": {"S": "LAYOUT"}},
                            ConsistentRead=True).get("Item")
    version = int(found["version"]["N"]) if found else 1
    if version != LAYOUT_VERSION:
        raise LayoutMismatch(
            f"table {name!r} holds data in storage layout {version}, and this version of the server reads "
            f"layout {LAYOUT_VERSION} (docs/storage.md). Its games cannot be read: keep them by moving the data "
            f"directory away (e.g. `mv var var.layout{version}`) and start afresh, or run the version that "
            f"wrote them.")
