"""The store's errors: what the rest of the server catches, without knowing botocore.

The store raises only these at its boundary (``dynamodb.py`` turns botocore's errors into
them in one place); the HTTP adapter maps them to answers in one place (``web.py``):
:class:`StoreUnavailable` and :class:`Throttled` to 503 ``service_unavailable`` with
``Retry-After``, an uncaught :class:`Conflict` to 409. Kept apart from ``dynamodb.py`` so
that the HTTP adapter can name them without loading boto3's DynamoDB types at a cold start.
"""

from __future__ import annotations


class StoreError(Exception):
    """Something the store could not do."""


class StoreUnavailable(StoreError):
    """DynamoDB could not be reached, timed out, or failed on its side, after the client's own
    bounded retries. A write is one request or one transaction, so it was applied whole or not
    at all (a timeout can hide which); retry after ``retry_after`` seconds."""

    retry_after = 5


class Throttled(StoreUnavailable):
    """DynamoDB refused the request for now: throttled, out of provisioned capacity, or a
    transaction cancelled because it raced another one. Nothing was written."""

    retry_after = 1


class Conflict(StoreError):
    """A condition on the stored items failed: another write came first."""


class VersionConflict(Conflict):
    def __init__(self, current_version: int | None) -> None:
        super().__init__(f"current version is {current_version}")
        self.current_version = current_version


class IdempotencyRace(Conflict):
    """Another request with the same Idempotency-Key committed first."""


class DuplicateItem(Conflict):
    """An item that must be new exists already."""


class LimitReached(Conflict):
    """A counter's condition failed: the write would take it over its limit. Nothing was written."""
