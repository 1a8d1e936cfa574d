"""API keys and identifiers (a table's keys are ``store/keys.py``). API keys are shown once and
stored only as a SHA-256 hash: they are 256-bit random secrets, so a fast hash is enough
(nothing to brute-force)."""

from __future__ import annotations

import hashlib
import hmac
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


def idempotency_mark(scope: str, key: str) -> str:
    """An Idempotency-Key as a move's version records it: the digest of the key with its scope (the
    caller's player id), so that another player sending the same key is another request, run as
    its own, never answered with the first one's answer."""
    return digest(f"{scope}\n{key}")


def hash_api_key(key: str) -> str:
    return digest(key)


def hash_email(email: str) -> str:
    """How an address is looked up (account recovery): the SHA-256 of its trimmed, case-folded
    form, so that a key never holds an address in clear."""
    return digest("email:" + email.strip().casefold())


# A recovery code is chosen by its player and may be guessable: it is stored as scrypt (a slow,
# memory-hard hash) with a random salt, never as a fast digest. n=2**14, r=8: about 16 MiB and
# tens of milliseconds a try; recovery by code is rate-limited per player too.
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2 ** 14, 8, 1


def hash_recovery_code(code: str, salt: bytes | None = None) -> str:
    """``scrypt$<n>$<r>$<p>$<salt hex>$<hash hex>``: how a recovery code is stored."""
    salt = salt if salt is not None else secrets.token_bytes(16)
    derived = hashlib.scrypt(code.encode(), salt=salt, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P, dklen=32)
    return f"scrypt${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${salt.hex()}${derived.hex()}"


def recovery_code_matches(code: str, stored: str) -> bool:
    try:
        kind, n, r, p, salt, expected = stored.split("$")
        derived = hashlib.scrypt(code.encode(), salt=bytes.fromhex(salt), n=int(n), r=int(r), p=int(p), dklen=32)
    except ValueError:
        return False
    return kind == "scrypt" and hmac.compare_digest(derived.hex(), expected)


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
