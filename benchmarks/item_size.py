"""Sizes of a game's items by DynamoDB's item-size rules (``benchmarks.meter``), for docs/storage.md:
every version item of whole random games (the item a move writes: state, clock and the events it
added, compressed), and the settings item (read with the latest version by every move).

Each version is measured as the server writes it, with a running clock and an Idempotency-Key's
mark on it: the largest a move writes.

Run: make bench (or python -m benchmarks.item_size)
"""

from __future__ import annotations

import random
import statistics

from benchmarks.meter import item_size
from chalicelib.clocks import timecontrol
from chalicelib.games import ENGINES
from chalicelib.store.records import EventRecord, GameRecord, IdempotencyRecord, SeatRecord
from chalicelib.store.items import settings_item, version_item

GAME_ID = "g_0123456789abcdef"
SEATS = [SeatRecord(1, "p_0123456789abcdef", "Ann"), SeatRecord(2, "p_fedcba9876543210", "Bob")]
NOW = "2026-11-24T00:00:00.000Z"
MARK = IdempotencyRecord("p_0123456789abcdef", "an-idempotency-key-of-forty-characters-00", "f" * 64, None, NOW)


def record(game: str, version: int, state: dict, options: dict, events: int, seats=SEATS) -> GameRecord:
    engine = ENGINES[game]
    return GameRecord(GAME_ID, game, version, "active", seats, options, state, 2**62, False, seats[0].player_id,
                      NOW, NOW, events, engine.to_move(state), timecontrol.new_clock({"per_move_days": 3}, [1, 2]),
                      "2026-11-27T00:00:00.000Z", "2026-11-26T10:00:00.000Z", previous_to_move=1)


def version_sizes(game: str, seed: int) -> list[int]:
    """The size of every version item of one random game, one step a version (never resign)."""
    engine = ENGINES[game]
    options = engine.options_model.model_validate({}).model_dump(mode="json")
    state = engine.new_game(options, random.Random(seed))
    rng, sizes, count = random.Random(seed), [], 1
    while engine.result(state) is None and len(sizes) < 3000:
        seat = engine.to_move(state)
        step = rng.choice([s for s in engine.legal_steps(state, seat) if s["type"] not in ("resign", "offer_draw")])
        raw = engine.apply_step(state, seat, step)
        events = [EventRecord(GAME_ID, count + i, len(sizes) + 1, e["type"], e["seat"], e["data"], NOW,
                              e.get("private", {})) for i, e in enumerate(raw, 1)]
        count += len(events)
        sizes.append(item_size(version_item(record(game, len(sizes) + 1, state, options, count), events, MARK)))
    return sizes


def settings_size(game: str, name: str) -> int:
    """The settings item of a game between two players called ``name`` (the longest names take most)."""
    engine = ENGINES[game]
    options = engine.options_model.model_validate({}).model_dump(mode="json")
    seats = [SeatRecord(1, "p_0123456789abcdef", name, vacation={"year": 2026, "days_used": 14, "periods": [
        ["2026-01-01T00:00:00.000Z", "2026-01-15T00:00:00.000Z"]]}), SeatRecord(2, "p_fedcba9876543210", name)]
    game_record = record(game, 0, engine.new_game(options, random.Random(1)), options, 1, seats)
    return item_size(settings_item(game_record))


def main() -> None:
    print("| game | games | versions | version item: median | largest | settings item (64-character CJK names) |")
    print("|---|---|---|---|---|---|")
    for game, count in (("battleline", 100), ("khan", 20)):
        sizes = [size for seed in range(count) for size in version_sizes(game, seed)]
        print(f"| {game} | {count} | {len(sizes)} | {statistics.median(sizes):.0f} B | {max(sizes)} B | "
              f"{settings_size(game, '龍' * 64)} B |")


if __name__ == "__main__":
    main()
