"""Make the preset dictionary with which game versions are compressed (``store/codec.py``).

A preset dictionary holds text a compressor may refer back to before the data begins: here
typical bodies of both games (states early, mid-game and late, their events and a clock), so
that even a short body compresses to a few hundred bytes. The dictionary is part of the stored
format: the committed file must never change, since every stored body names the dictionary it
was made with. A better dictionary is a new codec (``body-2.zdict``), read beside the old one.

Run: python -m devtools.zdict OUT (deterministic: the same file every time)
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from chalicelib.clocks import timecontrol
from chalicelib.games import ENGINES

WINDOW = 32 * 1024 - 262  # what DEFLATE can refer back to


def body(state: dict, events: list[dict], clock: dict | None) -> bytes:
    from chalicelib.store.codec import canonical

    return canonical({"state": state, "events": events, "clock": clock})


def samples(game: str, seed: int) -> list[bytes]:
    """Bodies of one seeded random game, at its start, a third, two thirds and its end."""
    engine = ENGINES[game]
    options = engine.options_model.model_validate({}).model_dump(mode="json")
    rng = random.Random(seed)
    state = engine.new_game(options, random.Random(seed))
    clock = timecontrol.new_clock({"per_move_days": 3}, [1, 2]) if seed % 2 else None
    taken: list[tuple[dict, list[dict]]] = []
    while engine.result(state) is None and len(taken) < 2000:
        seat = engine.to_move(state)
        steps = [s for s in engine.legal_steps(state, seat) if s["type"] not in ("resign", "offer_draw")]
        if not steps:
            break
        events = engine.apply_step(state, seat, rng.choice(steps))
        taken.append((json.loads(json.dumps(state)), events))
    picks = [taken[0], taken[len(taken) // 3], taken[2 * len(taken) // 3], taken[-1]]
    return [body(s, e, clock) for s, e in picks]


def build() -> bytes:
    parts: list[bytes] = []
    for seed in range(2):
        parts += samples("khan", seed)[1:3]
        parts += samples("battleline", seed)[1:]
    found = b"".join(parts)
    return found[-WINDOW:]  # DEFLATE looks back at most WINDOW bytes: the nearest samples count


def main() -> int:
    out = Path(sys.argv[1])
    out.write_bytes(build())
    print(f"wrote {out} ({out.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
