"""Reading the table's stream by hand, where no Lambda trigger does it: ``make serve``'s worker and
the tests (DynamoDB Local and moto both keep a table's stream). In AWS, Lambda's event source
mapping reads the stream and calls the outbox consumer with the same records.

The tail remembers, per shard, the last record it handed out (in memory, and in a file when
given one, so a restarted worker goes on where it stopped); shards are read parents first, so
each item's records come in the order they were written.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable, TypeVar

import boto3

T = TypeVar("T")


def streams_client(dynamodb_client):
    """A DynamoDB Streams client beside ``dynamodb_client``: the same endpoint when it is DynamoDB
    Local, else the region's streams endpoint (named outright: boto3's account-based endpoints
    are not known to moto)."""
    region = dynamodb_client.meta.region_name
    endpoint = dynamodb_client.meta.endpoint_url
    if endpoint.startswith("https://dynamodb."):
        endpoint = f"https://streams.dynamodb.{region}.amazonaws.com"
    return boto3.client("dynamodbstreams", region_name=region, endpoint_url=endpoint)


class StreamTail:
    def __init__(self, dynamodb_client, table: str, checkpoint: Path | None = None) -> None:
        self.dynamodb = dynamodb_client
        self.table = table
        self.checkpoint = checkpoint
        self._streams = None
        self._arn: str | None = None
        self._after: dict[str, str] = json.loads(checkpoint.read_text()) if checkpoint and checkpoint.exists() else {}

    def each(self, handle: Callable[[dict], T]) -> list[T]:
        """Hand every record written since the last call to ``handle`` (as Lambda would pass it:
        ``eventName``, ``dynamodb`` with ``Keys`` and ``NewImage``), oldest first within each shard,
        and acknowledge each once ``handle`` returns; if it raises, that record and those after it
        are handed out again next time. Returns what ``handle`` returned, in order."""
        if self._streams is None:
            self._streams = streams_client(self.dynamodb)
            self._arn = self.dynamodb.describe_table(TableName=self.table)["Table"]["LatestStreamArn"]
        results: list[T] = []
        try:
            for shard in self._shards():
                for record in self._read(shard):
                    results.append(handle(record))
                    self._after[shard["ShardId"]] = record["dynamodb"]["SequenceNumber"]
        finally:
            self.save()
        return results

    def save(self) -> None:
        """Remember where each shard was read to (for a restarted worker)."""
        if self.checkpoint is not None:
            self.checkpoint.write_text(json.dumps(self._after))

    def _shards(self) -> list[dict]:
        shards: list[dict] = []
        arguments: dict[str, Any] = {"StreamArn": self._arn}
        while True:
            described = self._streams.describe_stream(**arguments)["StreamDescription"]
            shards += described["Shards"]
            if not described.get("LastEvaluatedShardId"):
                break
            arguments["ExclusiveStartShardId"] = described["LastEvaluatedShardId"]
        known = {s["ShardId"] for s in shards}
        ordered: list[dict] = []

        def place(shard: dict) -> None:
            if shard in ordered:
                return
            parent = shard.get("ParentShardId")
            if parent in known:
                place(next(s for s in shards if s["ShardId"] == parent))
            ordered.append(shard)

        for shard in shards:
            place(shard)
        return ordered

    def _read(self, shard: dict) -> list[dict]:
        shard_id = shard["ShardId"]
        start = {"ShardIteratorType": "AFTER_SEQUENCE_NUMBER", "SequenceNumber": self._after[shard_id]} \
            if shard_id in self._after else {"ShardIteratorType": "TRIM_HORIZON"}
        iterator = self._streams.get_shard_iterator(StreamArn=self._arn, ShardId=shard_id, **start)["ShardIterator"]
        found: list[dict] = []
        while iterator:
            response = self._streams.get_records(ShardIterator=iterator, Limit=1000)
            records = response["Records"]
            found += records
            if not records:
                break  # an open shard has nothing more for now (a closed one ends without an iterator)
            iterator = response.get("NextShardIterator")
        return found
