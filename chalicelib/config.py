"""Settings from the environment, and the service wired to its adapters."""

from __future__ import annotations

import os
from functools import lru_cache

import boto3

from .notify.dispatcher import Dispatcher
from .service import GameService
from .store.dynamodb import DynamoStore


def table_name() -> str:
    return os.environ.get("TABLE_NAME", "battleline")


def dynamodb_client():
    """A DynamoDB client; ``DYNAMODB_ENDPOINT`` points it at DynamoDB Local."""
    endpoint = os.environ.get("DYNAMODB_ENDPOINT") or None
    region = os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION") or "us-east-1"
    return boto3.client("dynamodb", endpoint_url=endpoint, region_name=region)


@lru_cache(maxsize=1)
def store() -> DynamoStore:
    return DynamoStore(dynamodb_client(), table_name())


@lru_cache(maxsize=1)
def service() -> GameService:
    return GameService(store())


@lru_cache(maxsize=1)
def dispatcher() -> Dispatcher:
    return Dispatcher(store())
