"""Storage: the ``Store`` protocol the services depend on, its DynamoDB implementation
(``dynamodb.DynamoStore``) over one table (``schema.py``, keys built by ``keys.py``), and its
in-memory one (``memory.store.MemoryStore``, the unit tests' store)."""

from .protocol import Store

__all__ = ["Store"]
