"""The outbox's DynamoDB Streams consumer reports only the failed records of a batch."""

from boto3.dynamodb.types import TypeSerializer

from chalicelib.notify.dispatcher import Dispatcher
from chalicelib.notify.stream import handle_batch
from chalicelib.store import keys

serialize = TypeSerializer().serialize


def record(sequence: str, image: dict, name: str = "INSERT") -> dict:
    return {"eventID": sequence, "eventName": name, "eventSource": "aws:dynamodb", "awsRegion": "us-east-1",
            "eventSourceARN": "arn:aws:dynamodb:us-east-1:123456789012:table/t/stream/2026",
            "dynamodb": {"SequenceNumber": sequence, "Keys": {k: serialize(image[k]) for k in ("PK", "SK")},
                         "NewImage": {k: serialize(v) for k, v in image.items()}, "StreamViewType": "NEW_IMAGE"}}


def outbox(msg_id: str, data: str) -> dict:
    return {**keys.outbox("2026-11-21T00:00:00.000Z", msg_id), "kind": "outbox", "msg_id": msg_id,
            "type": "game.action", "player_id": "p_nobody", "data": data, "created_at": "2026-11-21T00:00:00.000Z"}


def test_a_batch_with_one_bad_record_reports_only_that_record(store):
    store.client.put_item(TableName=store.table, Item={k: serialize(v) for k, v in outbox("msg_good", "{}").items()})
    event = {"Records": [
        record("100", outbox("msg_good", "{}")),
        record("200", outbox("msg_bad", "{not json")),
        record("300", {**keys.game("g_1"), "version": 3}, name="MODIFY"),
    ]}
    response = handle_batch(event, None, Dispatcher(store))
    assert response == {"batchItemFailures": [{"itemIdentifier": "200"}]}
    assert store.list_outbox() == []  # the good record's outbox item was dispatched and removed
