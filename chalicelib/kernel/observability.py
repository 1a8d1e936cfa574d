"""Logs and metrics, with Powertools for AWS Lambda.

* Logs: every ``battleline.*`` logger writes through the Powertools logger (named after the
  service), as one JSON object a line, with the Lambda request id and, where known, the game
  id and the seat. Nothing else about a game is logged: never a card, a hand, a step's
  content (a Scout's return names hidden cards), a key, a token or a secret.
* Metrics (CloudWatch, embedded metric format, namespace ``Battleline``): ``actions``,
  ``version_conflicts``, ``illegal_actions``, ``deliveries``, ``delivery_failures``. They are
  flushed at the end of each Lambda invocation; outside Lambda they are only counted.
"""

from __future__ import annotations

import os
import sys
from typing import Any, Callable

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.metrics import MetricUnit

SERVICE = os.environ.get("POWERTOOLS_SERVICE_NAME", "battleline")
METRICS = ("actions", "version_conflicts", "illegal_actions", "deliveries", "delivery_failures")

# Powertools' logger is the standard logger named after the service, so the modules' own
# loggers ("battleline.service", ...) hand their records to it and its JSON formatter.
# On standard error: the command-line tools (make mail-in) keep standard output for their answers;
# in Lambda both streams go to the function's log group.
logger = Logger(service=SERVICE, level=os.environ.get("POWERTOOLS_LOG_LEVEL", "INFO"), stream=sys.stderr)
metrics = Metrics(namespace=os.environ.get("POWERTOOLS_METRICS_NAMESPACE", "Battleline"), service=SERVICE)


def in_lambda() -> bool:
    return bool(os.environ.get("AWS_LAMBDA_FUNCTION_NAME"))


def count(name: str, value: int = 1) -> None:
    """Count one of METRICS."""
    if name not in METRICS:
        raise ValueError(f"unknown metric {name}")
    metrics.add_metric(name=name, unit=MetricUnit.Count, value=value)


def tag(**keys: Any) -> None:
    """Add keys (game_id, seat) to every log line of this invocation."""
    logger.append_keys(**{k: v for k, v in keys.items() if v is not None})


def middleware(event: Any, get_response: Callable) -> Any:
    """Chalice middleware for every function: a fresh log state with the Lambda request id, and the
    invocation's metrics flushed when it ends (in Lambda)."""
    logger.clear_state()
    context = getattr(event, "lambda_context", None) or getattr(event, "context", None)
    if context is not None:
        tag(request_id=getattr(context, "aws_request_id", None), function_name=getattr(context, "function_name", None))
    try:
        return get_response(event)
    finally:
        if in_lambda():
            metrics.flush_metrics()
