"""Settings from the environment, and the service wired to its adapters (the composition root).

The service and its adapters are imported and built on first use, not when app.py is
imported: each Lambda function loads only what its first event needs.
"""

from __future__ import annotations

import os
import secrets
from functools import lru_cache
from pathlib import Path

from typing import TYPE_CHECKING

import boto3
from botocore.config import Config

if TYPE_CHECKING:  # pragma: no cover
    from .notify.dispatcher import Dispatcher
    from .notify.inbound import InboundMail
    from .notify.links import Links
    from .service import GameService
    from .store.dynamodb import DynamoStore

ROOT = Path(__file__).resolve().parent.parent


def table_name() -> str:
    return os.environ.get("TABLE_NAME", "battleline")


def dynamodb_config() -> Config:
    """An unreachable or failing DynamoDB must answer 503 in seconds, well inside API Gateway's
    29 s, not after botocore's defaults (60 s timeouts): short timeouts, and 3 attempts in all
    with the standard mode's backoff (throttling and 5xx included). A DynamoDB request takes
    milliseconds; a hung one gives up after 3 x (2 + 3) s at worst, throttling after at most 3 s
    of backoff. ``DYNAMODB_READ_TIMEOUT`` (seconds) is longer under ``make serve`` and the tests,
    where DynamoDB Local on a busy machine can take seconds to answer its first requests."""
    read_timeout = float(os.environ.get("DYNAMODB_READ_TIMEOUT") or 3)
    return Config(connect_timeout=2, read_timeout=read_timeout, retries={"mode": "standard", "total_max_attempts": 3})


def dynamodb_client():
    """A DynamoDB client; ``DYNAMODB_ENDPOINT`` points it at DynamoDB Local."""
    endpoint = os.environ.get("DYNAMODB_ENDPOINT") or None
    region = os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION") or "us-east-1"
    return boto3.client("dynamodb", endpoint_url=endpoint, region_name=region, config=dynamodb_config())


@lru_cache(maxsize=1)
def store() -> "DynamoStore":
    from .store.dynamodb import DynamoStore

    return DynamoStore(dynamodb_client(), table_name())


def allowed_origins() -> str:
    """ALLOWED_ORIGINS: the origins of browser clients on other sites (comma-separated, or "*")."""
    return os.environ.get("ALLOWED_ORIGINS", "")


def public_url() -> str:
    """Where players' browsers reach this API (links in emails)."""
    return os.environ.get("PUBLIC_URL") or f"http://127.0.0.1:{os.environ.get('PORT', '8000')}"


def link_secret() -> str:
    """LINK_SECRET signs email links (make serve keeps one with its data); in AWS it is read from
    Secrets Manager (LINK_SECRET_ARN). Without either, a key is drawn for this process only:
    links in emails it sends stop working when it restarts."""
    if os.environ.get("LINK_SECRET"):
        return os.environ["LINK_SECRET"]
    if os.environ.get("LINK_SECRET_ARN"):
        return _stored_secret(os.environ["LINK_SECRET_ARN"])
    return _process_secret()


@lru_cache(maxsize=4)
def _stored_secret(arn: str) -> str:
    region = os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION") or "us-east-1"
    return boto3.client("secretsmanager", region_name=region).get_secret_value(SecretId=arn)["SecretString"]


@lru_cache(maxsize=1)
def _process_secret() -> str:
    return secrets.token_urlsafe(32)


@lru_cache(maxsize=1)
def links() -> "Links":
    from .notify.links import Links

    return Links(link_secret, public_url(), os.environ.get("MAIL_DOMAIN", "battleline.localhost"))


@lru_cache(maxsize=1)
def mailer():
    from .notify.mail import mailer_from_environment

    return mailer_from_environment(ROOT)


@lru_cache(maxsize=1)
def service() -> "GameService":
    from .notify.dispatcher import Dispatcher
    from .service import GameService

    return GameService(store(), dispatcher=Dispatcher(store(), mailer=mailer(), links=links()),
                       vacation_days=int(os.environ.get("VACATION_DAYS", "14")))


def inbound() -> "InboundMail":
    from .notify.inbound import InboundMail

    return InboundMail(service(), mailer(), links())


def dispatcher() -> "Dispatcher":
    return service().dispatcher
