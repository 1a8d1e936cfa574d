"""Size of a game item in DynamoDB at mid-game (DynamoDB's item-size rules, in benchmarks.meter), for
docs/storage.md.

Run: make bench-item-size
"""

from __future__ import annotations

import random
import statistics

from benchmarks.meter import item_size
from chalicelib.games.battleline.engine import ENGINE
from chalicelib.records import GameRecord, SeatRecord
from chalicelib.store.dynamodb import game_item


def mid_game_state(seed: int) -> dict:
    """A game after 20 plays by each side (about half of the 54 slots filled)."""
    state = ENGINE.new_game({}, random.Random(seed))
    choose = random.Random(seed)
    plays = 0
    while plays < 40 and ENGINE.result(state) is None:
        seat = ENGINE.to_move(state)
        steps = [s for s in ENGINE.legal_steps(state, seat) if s["type"] != "resign"]
        step = choose.choice(steps)
        plays += step["type"] == "play"
        ENGINE.apply_step(state, seat, step)
    return state


def main() -> None:
    sizes = []
    for seed in range(100):
        game = GameRecord(
            id="g_0123456789abcdef", game="battleline", version=120, status="active",
            seats=[SeatRecord(1, "p_0123456789abcdef", "Alexander"), SeatRecord(2, "p_fedcba9876543210", "Darius")],
            options={"claim_timing": "basic", "auto_claim": {"1": False, "2": False}, "first_seat": None},
            state=mid_game_state(seed), seed=2**62 + seed, seed_public=False, created_by="p_0123456789abcdef",
            created_at="2026-11-21T12:00:00.000Z", updated_at="2026-11-21T12:00:00.000Z", event_count=121, to_move=1,
        )
        sizes.append(item_size(game_item(game)))
    print(f"game item at mid-game over 100 seeded games: median {statistics.median(sizes):.0f} B, "
          f"max {max(sizes)} B (DynamoDB limit 400 KB; 1 WCU per 1 KB written)")


if __name__ == "__main__":
    main()
