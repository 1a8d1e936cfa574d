"""The single DynamoDB table: its definition and key layout (see docs/storage.md). Every key
is built by one function of ``keys.py`` (last column).

| item          | PK                              | SK                 | built by |
|---------------|---------------------------------|--------------------|----------|
| player        | PLAYER#<player_id>              | PROFILE            | ``keys.player`` |
| API key       | APIKEY#<sha256 of key>          | APIKEY             | ``keys.api_key`` |
| membership    | PLAYER#<player_id>              | GAME#<game_id>     | ``keys.membership`` |
| game          | GAME#<game_id>                  | GAME               | ``keys.game`` |
| event         | GAME#<game_id>                  | EVENT#<seq, 10 digits> | ``keys.event`` |
| idempotency   | IDEMPOTENCY#<scope>#<sha256>    | IDEMPOTENCY        | ``keys.idempotency`` |
| webhook       | PLAYER#<player_id>              | WEBHOOK#<webhook_id> | ``keys.webhook`` |
| outbox        | OUTBOX                          | <created_at>#<msg_id> | ``keys.outbox`` |
| delivery      | WEBHOOK#<webhook_id>            | DELIVERY#<msg_id>  | ``keys.delivery`` |
| reminder sent | GAME#<game_id>                  | REMINDER#<seat>@<turn start>#<kind> | ``keys.reminder`` |
| rating        | PLAYER#<player_id>              | RATING#<game type> | ``keys.rating`` |
| rated game    | GAME#<game_id>                  | RATED              | ``keys.rated`` |
| tournament    | TOURNAMENT#<tournament_id>      | TOURNAMENT         | ``keys.tournament`` |

GSI ``due`` (sparse): work the schedulers must do at a time. Deliveries waiting for an
attempt are keyed ``due = "DUE"``, games whose clock runs ``due = "CLOCK"``; ``due_at`` is
the next attempt, or the game's next reminder or deadline (``keys.delivery_due``,
``keys.clock_due``). The attributes are removed once there is nothing left to do.

GSI ``my_move`` (sparse): a membership while it is that player's move, keyed
``mover = <player_id>``, ``move_due = <deadline, or "~" without a clock>`` (``keys.my_move``).

GSI ``leaderboard`` (sparse): ratings that are no longer provisional, keyed
``lb = <game type>``, ``lb_rating = <rating>`` (a number; ``keys.leaderboard``).
"""

from __future__ import annotations

import time

TTL_ATTRIBUTE = "expires_at"


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
        ],
        "KeySchema": [
            {"AttributeName": "PK", "KeyType": "HASH"},
            {"AttributeName": "SK", "KeyType": "RANGE"},
        ],
        "BillingMode": "PAY_PER_REQUEST",
        "GlobalSecondaryIndexes": [DUE_INDEX, MY_MOVE_INDEX, LEADERBOARD_INDEX],
        "StreamSpecification": {"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"},
    }


DUE_INDEX = {
    "IndexName": "due",
    "KeySchema": [{"AttributeName": "due", "KeyType": "HASH"}, {"AttributeName": "due_at", "KeyType": "RANGE"}],
    "Projection": {"ProjectionType": "ALL"},
}

MY_MOVE_INDEX = {
    "IndexName": "my_move",
    "KeySchema": [{"AttributeName": "mover", "KeyType": "HASH"}, {"AttributeName": "move_due", "KeyType": "RANGE"}],
    "Projection": {"ProjectionType": "ALL"},
}

LEADERBOARD_INDEX = {
    "IndexName": "leaderboard",
    "KeySchema": [{"AttributeName": "lb", "KeyType": "HASH"}, {"AttributeName": "lb_rating", "KeyType": "RANGE"}],
    "Projection": {"ProjectionType": "ALL"},
}


def create_table_if_missing(client, name: str) -> bool:
    """Create the table and wait for it; False when it was already there."""
    try:
        client.create_table(**table_definition(name))
    except client.exceptions.ResourceInUseException:
        _add_missing_indexes(client, name)
        return False
    client.get_waiter("table_exists").wait(TableName=name, WaiterConfig={"Delay": 0.2, "MaxAttempts": 100})
    try:
        client.update_time_to_live(
            TableName=name, TimeToLiveSpecification={"Enabled": True, "AttributeName": TTL_ATTRIBUTE}
        )
    except client.exceptions.ClientError:  # pragma: no cover - TTL is best effort on local engines
        pass
    return True


def _add_missing_indexes(client, name: str) -> None:
    """A table made by an older version (kept under var/) gets the indexes added since."""
    table = client.describe_table(TableName=name)["Table"]
    have = {index["IndexName"] for index in table.get("GlobalSecondaryIndexes", [])}
    definition = table_definition(name)
    for index in definition["GlobalSecondaryIndexes"]:
        if index["IndexName"] not in have:
            client.update_table(TableName=name, AttributeDefinitions=definition["AttributeDefinitions"],
                                GlobalSecondaryIndexUpdates=[{"Create": index}])
            _wait_for_indexes(client, name)  # DynamoDB builds one new index at a time


def _wait_for_indexes(client, name: str, attempts: int = 600) -> None:
    for _ in range(attempts):
        table = client.describe_table(TableName=name)["Table"]
        if all(index.get("IndexStatus", "ACTIVE") == "ACTIVE" for index in table.get("GlobalSecondaryIndexes", [])):
            return
        time.sleep(0.5)
