"""What a write request brings and what it gets back, independent of HTTP."""

from __future__ import annotations

from dataclasses import dataclass

from .ids import idempotency_mark


@dataclass(frozen=True)
class Idempotency:
    """An Idempotency-Key and the fingerprint of the request that carried it."""

    key: str
    fingerprint: str

    def mark(self, scope: str) -> tuple[str, str]:
        """What a move's version records of the request that made it, in ``scope`` (the caller's
        player id): the key as stored (its digest with the scope) and the request's fingerprint."""
        return idempotency_mark(scope, self.key), self.fingerprint


@dataclass(frozen=True)
class Outcome:
    body: dict
    replayed: bool = False


SECRETS = frozenset({"api_key", "secret"})  # response fields shown once and never stored


def withheld(body: dict) -> dict:
    """A response as an idempotency record keeps it: every secret field null. A replay answers
    this, so a replayed sign-up never hands over an API key."""
    return {k: None if k in SECRETS else withheld(v) if isinstance(v, dict) else v for k, v in body.items()}
