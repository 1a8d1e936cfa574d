"""Random whole games of both games, kept as their versions would be stored, turned into records
(``chalicelib.gamerecord.format``) and verified (``chalicelib.gamerecord.verify``): the property test of
tests/records/test_verify.py at a larger count, with the time a record takes to build and check.

Run: python -m benchmarks.records [--battleline N] [--khan N]
"""

from __future__ import annotations

import argparse
import copy
import random
import time
from datetime import datetime, timedelta, timezone
from typing import Callable

from chalicelib.gamerecord import format as gamerecords, verify
from chalicelib.kernel import ids
from chalicelib.kernel.clock import iso
from chalicelib.games import ENGINES
from chalicelib.games.replay import FORFEITS
from chalicelib.store.records import EventRecord, GameRecord, SeatRecord

START = datetime(2026, 1, 5, 9, tzinfo=timezone.utc)
MAX_STEPS = 20_000
ENDINGS = ("resign", *FORFEITS)
Choose = Callable[[dict, int, random.Random], tuple[int, dict]]


def any_legal(engine) -> Choose:
    """Uniformly among the seat's legal steps, resigning left out."""
    def choose(state: dict, seat: int, rng: random.Random) -> tuple[int, dict]:
        return seat, rng.choice([s for s in engine.legal_steps(state, seat) if s["type"] != "resign"])
    return choose


def seats_playing(state: dict) -> list[int]:
    if isinstance(state.get("players"), int):
        return [s for s in range(1, state["players"] + 1) if s not in state.get("resigned", [])]
    return [1, 2]


def versions_of_random_game(engine, options: dict, seed: int, rng: random.Random, choose: Choose, *,
                            quit_rate: float = 0.0, game_id: str = "g_property") -> list:
    """Every version of a game played to its end, one step (or a resignation or forfeit, at
    ``quit_rate``) a version, as the store keeps them: (game as the version left it, its events)."""
    state = engine.new_game(options, random.Random(seed))
    seats = [SeatRecord(s, f"p_{s}", f"Player {s}") for s in seats_playing(state)]
    salt = ids.new_deal_salt()

    def version(number: int, at: str, count: int) -> GameRecord:
        return GameRecord(game_id, engine.name, number, "finished" if engine.result(state) else "active", seats,
                          options, copy.deepcopy(state), seed, False, "p_1", iso(START), at, count,
                          engine.to_move(state), deal_salt=salt, rules_version=engine.rules_version)

    versions = [(version(0, iso(START), 1), [EventRecord(game_id, 1, 0, "game_created", None, {}, iso(START))])]
    for number in range(1, MAX_STEPS):
        if engine.result(state) is not None:
            return versions
        seat = engine.to_move(state)
        if rng.random() < quit_rate:
            seat = rng.choice(sorted({seat, *seats_playing(state)}))
            ending = rng.choice(ENDINGS)
            written = (engine.apply_step(state, seat, {"type": "resign"}) if ending == "resign"
                       else engine.forfeit(state, seat, ending))
        else:
            seat, step = choose(state, seat, rng)
            written = engine.apply_step(state, seat, engine.parse_step(step))
        count, at = versions[-1][0].event_count, iso(START + timedelta(minutes=number))
        events = [EventRecord(game_id, count + i, number, e["type"], e["seat"], copy.deepcopy(e["data"]), at,
                              copy.deepcopy(e.get("private", {}))) for i, e in enumerate(written, start=1)]
        versions.append((version(number, at, count + len(events)), events))
    raise AssertionError(f"the game did not end within {MAX_STEPS} steps")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--battleline", type=int, default=1000)
    parser.add_argument("--khan", type=int, default=500)
    args = parser.parse_args()
    for name, count in (("battleline", args.battleline), ("khan", args.khan)):
        engine = ENGINES[name]
        played = checked = 0.0
        moves = 0
        for seed in range(count):
            raw = {"max_rounds": 1 + seed % 10, "advanced": seed % 2 == 0} if name == "khan" else {}
            options = engine.options_model.model_validate(raw).model_dump(mode="json")
            start = time.process_time()
            versions = versions_of_random_game(engine, options, seed, random.Random(seed), any_legal(engine),
                                               quit_rate=0.002)
            played += time.process_time() - start
            start = time.process_time()
            verdict = verify.verify(gamerecords.build(versions, engine, None, full=True))
            checked += time.process_time() - start
            assert verdict.verified, (name, seed, verdict.problems)
            moves += verdict.moves
        print(f"{name}: {count} games verified, {moves / count:.0f} moves a game; "
              f"playing {played / count * 1000:.1f} ms, recording and verifying {checked / count * 1000:.1f} ms a game")


if __name__ == "__main__":
    main()
