"""The DynamoDB Streams consumer of the outbox (AWS): each new outbox item is dispatched and
removed. Records that fail are reported as partial-batch failures, so Lambda retries only
those (with bisect-on-error and an on-failure queue configured in infra/)."""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType, process_partial_response
from aws_lambda_powertools.utilities.data_classes.dynamo_db_stream_event import DynamoDBRecord
from boto3.dynamodb.types import TypeDeserializer

from ..store import keys
from ..store.dynamodb import DynamoStore
from .dispatcher import Dispatcher

_deserializer = TypeDeserializer()


def outbox_message(record: DynamoDBRecord):
    """The outbox message a stream record inserted, or None for any other record."""
    if record.event_name is None or record.event_name.name != "INSERT" or record.dynamodb is None:
        return None
    raw = record.raw_event["dynamodb"].get("NewImage") or {}
    if raw.get("PK", {}).get("S") != keys.OUTBOX_PK:
        return None
    item = {k: _deserializer.deserialize(v) for k, v in raw.items()}
    return item["SK"], DynamoStore.message_from(item)


def handle_batch(event: dict[str, Any], context: Any, dispatcher: Dispatcher) -> dict:
    """Process a stream batch; returns ``{"batchItemFailures": [...]}`` for the failed records."""

    def handle(record: DynamoDBRecord) -> None:
        found = outbox_message(record)
        if found is None:
            return
        sort_key, message = found
        dispatcher.dispatch(message)
        dispatcher.store.delete_outbox(sort_key)

    processor = BatchProcessor(event_type=EventType.DynamoDBStreams)
    return process_partial_response(event=event, record_handler=handle, processor=processor, context=context)
