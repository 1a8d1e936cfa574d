"""What a write request brings and what it gets back, independent of HTTP."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Idempotency:
    """An Idempotency-Key and the fingerprint of the request that carried it."""

    key: str
    fingerprint: str


@dataclass(frozen=True)
class Outcome:
    body: dict
    replayed: bool = False
