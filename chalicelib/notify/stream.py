"""The DynamoDB Streams consumer in AWS: the table's stream is the outbox. Each record of a new
game version, or of an item saved with messages, is handed to the dispatcher (which brings the
game's head up to date and dispatches the messages). Records that fail are reported as
partial-batch failures, so Lambda retries only those (with bisect-on-error and an on-failure
queue configured in infra/); Lambda's filter (infra/stack.py) passes only those records."""

from __future__ import annotations

import base64
from typing import Any

from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType, process_partial_response
from aws_lambda_powertools.utilities.data_classes.dynamo_db_stream_event import DynamoDBRecord

from .dispatcher import Dispatcher

# Seconds of the invocation kept for recording what a batch did (25 changes' reads and writes, its
# emails) once no more webhook first attempts are made inline: the consumer's timeout is 60 s
# (infra/stack.py), so its first attempts have about 40 s in all, each change's at most 5 s.
RESERVE_SECONDS = 20.0


def typed_image(raw: dict) -> dict:
    """A stream record's new image as DynamoDB types it, with binary values as bytes (Lambda's
    event carries them in base64, as JSON must)."""
    def value(typed: dict) -> dict:
        (kind, found), = typed.items()
        if kind == "B" and isinstance(found, str):
            return {"B": base64.b64decode(found)}
        if kind == "L":
            return {"L": [value(v) for v in found]}
        if kind == "M":
            return {"M": {k: value(v) for k, v in found.items()}}
        return typed

    return {name: value(typed) for name, typed in raw.items()}


def handle_batch(event: dict[str, Any], context: Any, dispatcher: Dispatcher) -> dict:
    """Process a stream batch; returns ``{"batchItemFailures": [...]}`` for the failed records."""

    def handle(record: DynamoDBRecord) -> None:
        name = record.event_name.name if record.event_name is not None else ""
        change = dispatcher.store.change_of(name, typed_image(record.raw_event["dynamodb"].get("NewImage") or {}))
        if change is not None:
            dispatcher.handle(change)

    left = context.get_remaining_time_in_millis() / 1000 if hasattr(context, "get_remaining_time_in_millis") else None
    # First attempts stop being made inline when only RESERVE_SECONDS are left: the rest of the batch
    # is then recorded (its webhooks pending, on the retry schedule) well before Lambda's timeout.
    dispatcher.first_attempts_until = None if left is None else dispatcher.lanes.ticks() + left - RESERVE_SECONDS
    processor = BatchProcessor(event_type=EventType.DynamoDBStreams)
    return process_partial_response(event=event, record_handler=handle, processor=processor, context=context)
