"""Storage: the ``Store`` protocol the services depend on, and its DynamoDB implementation
(``dynamodb.DynamoStore``) over one table (``schema.py``, keys built by ``keys.py``)."""

from .protocol import Store

__all__ = ["Store"]
