"""The outbox's DynamoDB Streams consumer (the table's stream is the outbox): it hands the
dispatcher what each record carries, and reports only the failed records of a batch."""

import base64

from boto3.dynamodb.types import TypeSerializer

from chalicelib.notify.dispatcher import Dispatcher
from chalicelib.notify.stream import handle_batch, typed_image
from chalicelib.store import codec, keys

serialize = TypeSerializer().serialize


def record(sequence: str, image: dict, name: str = "INSERT") -> dict:
    """A stream record as Lambda passes it: JSON, so binary values in base64."""
    def typed(value):
        found = serialize(value)
        return {"B": base64.b64encode(value).decode()} if "B" in found else found

    return {"eventID": sequence, "eventName": name, "eventSource": "aws:dynamodb", "awsRegion": "us-east-1",
            "eventSourceARN": "arn:aws:dynamodb:us-east-1:123456789012:table/t/stream/2026",
            "dynamodb": {"SequenceNumber": sequence, "Keys": {k: typed(image[k]) for k in ("PK", "SK")},
                         "NewImage": {k: typed(v) for k, v in image.items()}, "StreamViewType": "NEW_IMAGE"}}


def outbox(msg_id: str, kind: str = "server.test", player_id: str = "") -> dict:
    """An item saved with one message (as a reminder is)."""
    message = {"msg_id": msg_id, "type": kind, "player_id": player_id, "data": {"game_id": "g_1"},
               "created_at": "2026-11-21T00:00:00.000Z"}
    return {**keys.reminder("g_1", f"1@2026#{msg_id}"), "kind": "reminder", "outbox": codec.pack([message])}


def test_a_batch_with_one_bad_record_reports_only_that_record(store):
    handled = []
    dispatcher = Dispatcher(store, handlers={"server.test": lambda message: handled.append(message.id)})
    event = {"Records": [
        record("100", outbox("msg_good")),
        record("200", {**outbox("msg_bad"), "outbox": b"\x01not deflate"}),
        record("300", {**keys.head("g_1"), "v": 3}, name="MODIFY"),  # a head: nothing to do
    ]}
    response = handle_batch(event, None, dispatcher)
    assert response == {"batchItemFailures": [{"itemIdentifier": "200"}]}
    assert handled == ["msg_good"]


def test_binary_values_arrive_in_base64_and_are_read_as_bytes():
    image = record("1", {**keys.head("g_1"), "b": b"\x01\x02"})["dynamodb"]["NewImage"]
    assert image["b"] == {"B": "AQI="} and typed_image(image)["b"] == {"B": b"\x01\x02"}
