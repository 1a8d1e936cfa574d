"""How a game version's body (state, events and clock) is stored: canonical JSON compressed
with raw DEFLATE and a preset dictionary of typical bodies, in one Binary attribute.

A body is ``{"state": ..., "events": [...], "clock": ...}``. As JSON a Battle Line state is up
to 2 KB, mostly the same keys and card names again and again; DEFLATE with a dictionary that
already holds such text (``body-1.zdict``, made by ``devtools/zdict.py`` from seeded games)
stores a whole version in a few hundred bytes (docs/storage.md gives the measured sizes). The
first byte names the dictionary, so a better one can come later without misreading old items.
"""

from __future__ import annotations

import json
import zlib
from pathlib import Path
from typing import Any

_HERE = Path(__file__).parent
DICTIONARIES = {1: (_HERE / "body-1.zdict")}  # codec byte -> its dictionary (never edited)
CURRENT = 1
_loaded: dict[int, bytes] = {}


class UnknownCodec(ValueError):
    """A stored body names a dictionary this code does not have (data from a newer version)."""


def canonical(value: Any) -> bytes:
    """JSON as it is compressed: no spaces, UTF-8, keys in their order (a replayed answer is byte for byte the first)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


def _dictionary(codec: int) -> bytes:
    if codec not in _loaded:
        if codec not in DICTIONARIES:
            raise UnknownCodec(f"stored with codec {codec}, which this version of the server does not know")
        _loaded[codec] = DICTIONARIES[codec].read_bytes()
    return _loaded[codec]


def pack(value: Any) -> bytes:
    """``value`` as stored: one byte naming the dictionary, then raw DEFLATE of its canonical JSON."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15, 9, zdict=_dictionary(CURRENT))
    return bytes([CURRENT]) + compressor.compress(canonical(value)) + compressor.flush()


def unpack(data: bytes) -> Any:
    """The value :func:`pack` stored."""
    data = bytes(data)
    decompressor = zlib.decompressobj(-15, zdict=_dictionary(data[0]) if data else b"")
    return json.loads(decompressor.decompress(data[1:]) + decompressor.flush())
