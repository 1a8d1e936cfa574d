"""The single DynamoDB table: its definition and key layout (see docs/storage.md).

| item          | PK                              | SK                 |
|---------------|---------------------------------|--------------------|
| player        | PLAYER#<player_id>              | PROFILE            |
| API key       | APIKEY#<sha256 of key>          | APIKEY             |
| membership    | PLAYER#<player_id>              | GAME#<game_id>     |
| game          | GAME#<game_id>                  | GAME               |
| event         | GAME#<game_id>                  | EVENT#<seq, 10 digits> |
| idempotency   | IDEMPOTENCY#<scope>#<sha256>    | IDEMPOTENCY        |
| webhook       | PLAYER#<player_id>              | WEBHOOK#<webhook_id> |
| outbox        | OUTBOX                          | <created_at>#<msg_id> |
| delivery      | WEBHOOK#<webhook_id>            | DELIVERY#<msg_id>  |

GSI ``due`` (sparse): deliveries waiting for an attempt, keyed ``due = "DUE"``,
``due_at = <next attempt time>``; the attributes are removed once a delivery is settled.
"""

from __future__ import annotations

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
        ],
        "KeySchema": [
            {"AttributeName": "PK", "KeyType": "HASH"},
            {"AttributeName": "SK", "KeyType": "RANGE"},
        ],
        "BillingMode": "PAY_PER_REQUEST",
        "GlobalSecondaryIndexes": [DUE_INDEX],
        "StreamSpecification": {"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"},
    }


DUE_INDEX = {
    "IndexName": "due",
    "KeySchema": [{"AttributeName": "due", "KeyType": "HASH"}, {"AttributeName": "due_at", "KeyType": "RANGE"}],
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
