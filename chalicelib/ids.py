"""API keys and identifiers (a table's keys are ``store/keys.py``). API keys are shown once and
stored only as a SHA-256 hash: they are 256-bit random secrets, so a fast hash is enough
(nothing to brute-force)."""

from __future__ import annotations

import hashlib
import re
import secrets

KEY_PREFIX = "bl_live_"
ID = re.compile(r"[A-Za-z0-9_-]{1,64}")  # what a game, tournament or webhook id may look like


def new_api_key() -> str:
    return KEY_PREFIX + secrets.token_urlsafe(32)


def digest(secret: str) -> str:
    """How a secret is stored: its SHA-256, hex (API keys; Idempotency-Keys, so a stored record
    never names the key a client chose)."""
    return hashlib.sha256(secret.encode()).hexdigest()


def hash_api_key(key: str) -> str:
    return digest(key)


def new_id(prefix: str) -> str:
    return f"{prefix}_{secrets.token_hex(8)}"


def new_seed() -> int:
    return secrets.randbits(63)


def new_deal_salt() -> str:
    """A game's deal salt: 128 random bits, hex, secret until the game ends (docs/rules.md,
    "Provably fair deals")."""
    return secrets.token_hex(16)


def deal_commitment(game_id: str, seed: int, salt: str) -> str:
    """What every view shows from version 0 on: the SHA-256 (lowercase hex) of
    ``"{game_id}:{seed}:{salt}"``, which the seed and salt shown once the game ends must hash to."""
    return digest(f"{game_id}:{seed}:{salt}")
