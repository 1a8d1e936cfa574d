"""The single DynamoDB table: its definition and key layout (see docs/storage.md).

| item          | PK                              | SK                 |
|---------------|---------------------------------|--------------------|
| player        | PLAYER#<player_id>              | PROFILE            |
| API key       | APIKEY#<sha256 of key>          | APIKEY             |
| membership    | PLAYER#<player_id>              | GAME#<game_id>     |
| game          | GAME#<game_id>                  | GAME               |
| event         | GAME#<game_id>                  | EVENT#<seq, 10 digits> |
| idempotency   | IDEMPOTENCY#<scope>#<sha256>    | IDEMPOTENCY        |
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
        ],
        "KeySchema": [
            {"AttributeName": "PK", "KeyType": "HASH"},
            {"AttributeName": "SK", "KeyType": "RANGE"},
        ],
        "BillingMode": "PAY_PER_REQUEST",
    }


def create_table_if_missing(client, name: str) -> bool:
    """Create the table and wait for it; False when it was already there."""
    try:
        client.create_table(**table_definition(name))
    except client.exceptions.ResourceInUseException:
        return False
    client.get_waiter("table_exists").wait(TableName=name, WaiterConfig={"Delay": 0.2, "MaxAttempts": 100})
    try:
        client.update_time_to_live(
            TableName=name, TimeToLiveSpecification={"Enabled": True, "AttributeName": TTL_ATTRIBUTE}
        )
    except client.exceptions.ClientError:  # pragma: no cover - TTL is best effort on local engines
        pass
    return True
