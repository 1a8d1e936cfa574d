"""Claim-check speed: the fast proof against the brute-force reference.

Three sets of claim checks, each timed one check at a time with the proof's caches cleared
first (``claims.clear_caches``: the figure is a proof from cold, never a cache hit):

- **synthetic** (``median_us``, ``p99_us``; 10,000 by default): seeded random positions around
  one flag: the claimer's side complete, the opponent's not (0 to size-1 cards), Fog and Mud
  at random, wildcards on either side, and a random part of the other troops face up elsewhere.
- **games** (``games_median_us``, ``games_p99_us``; 8,216 checks): every claim check the
  engine makes in 100 seeded random full games (all tactics, every decision uniform over
  ``legal_steps``): at each claim step, each unclaimed flag where the seat's side is complete,
  with the unseen troops of that moment. They are stored in ``claim_positions.jsonl.gz``
  (``--record`` writes it again) so that every tree times the same checks, whatever its engine
  does with the random numbers.
- **worst** (``worst_median_us``, ``worst_p99_us``; 200 by default): Mud, wildcards on the
  claimer's side, and, in turn, an empty opposing side or an opposing side of wildcards alone
  (the search with the most freedom), 0-12 other troops face up.

The issue's "13,512-check set" (issue 39) is not in the repository: the games set stands in for
it as the checks of real play. The brute force (``brute_force_best``/``brute_force_beats``, which
tries every completion and every wildcard value) runs on a part of each set in the same run
(``--brute``, ``--games-brute``, ``--worst-brute``; ``--brute all`` for every position, minutes
to hours) and must agree with the fast proof on every position it sees
(``check_disagreements``).

Run: make bench (or python -m benchmarks.claims [--positions N] [--brute N|all] ...)
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import statistics
import time
from pathlib import Path

from chalicelib.games.battleline import claims
from chalicelib.games.battleline.cards import TROOPS

WILDS = ["ALEXANDER", "DARIUS", "COMPANION", "SHIELD"]
GAME_POSITIONS = Path(__file__).with_name("claim_positions.jsonl.gz")
RECORD_GAMES = 100


def random_position(rng: random.Random, *, worst: bool = False, wild_opponent: bool = False) -> tuple[dict, int]:
    """A flag (seat 1 claims) and the mask of unseen troops. ``worst``: Mud, wildcards on the
    claimer's side, and an empty opposing side, or one of wildcards alone (``wild_opponent``)."""
    mud = worst or rng.random() < 0.3
    fog = (not worst) and rng.random() < 0.3
    size = 4 if mud else 3
    troops = list(TROOPS)
    rng.shuffle(troops)
    wilds = list(WILDS)
    rng.shuffle(wilds)
    mine_wild = wilds[: rng.choice([0, 0, 1, 2]) if not worst else rng.choice([1, 2])]
    if worst:
        theirs_wild = wilds[len(mine_wild):][:1] if wild_opponent else []
    else:
        theirs_wild = wilds[len(mine_wild):][: rng.choice([0, 0, 0, 1])]
    mine = troops[: size - len(mine_wild)] + mine_wild
    rest = troops[size - len(mine_wild):]
    theirs_troops = 0 if worst else rng.randint(0, size - 1 - len(theirs_wild))
    theirs = rest[:theirs_troops] + theirs_wild
    rest = rest[theirs_troops:]
    elsewhere = rest[: (rng.randint(0, 12) if worst else rng.randint(0, 36))]
    flag = {"flag": 1, "seats": [1, 2], "cards": [mine, theirs], "environment": (["MUD"] if mud else []) + (["FOG"] if fog else []),
            "claimed_by": None, "completed": [1, None]}
    pool = claims.pool_mask(mine + theirs + elsewhere)
    return flag, pool


def worst_positions(count: int) -> list[tuple[dict, int, int]]:
    rng = random.Random(7)
    return [(*random_position(rng, worst=True, wild_opponent=i % 2 == 1), 1) for i in range(count)]


# ---------------------------------------------------------------- checks from random full games

def record_game_positions(games: int = RECORD_GAMES) -> list[tuple[dict, int, int]]:
    """Every claim check of ``games`` seeded random full games: (flag, unseen pool, seat)."""
    from chalicelib.games.battleline.engine import ENGINE

    found = []
    for game in range(games):
        rng = random.Random(39_000 + game)
        state = ENGINE.new_game(ENGINE.options_model().model_dump(), rng)
        while ENGINE.result(state) is None:
            seat = ENGINE.to_move(state)
            legal = [s for s in ENGINE.legal_steps(state, seat) if s["type"] != "resign"]
            if any(s["type"] == "claim" for s in legal):
                pool = claims.pool_mask(claims.visible_cards(state["flags"], state["discards"]))
                for flag in state["flags"]:
                    if flag["claimed_by"] is None and seat in flag["seats"] and \
                            len(flag["cards"][flag["seats"].index(seat)]) >= claims.side_size(flag):
                        found.append((json.loads(json.dumps({key: flag[key] for key in (  # a copy: play goes on
                            "flag", "seats", "cards", "environment", "claimed_by", "completed")})), pool, seat))
            ENGINE.apply_step(state, seat, rng.choice(legal))
    return found


def save_game_positions(positions: list[tuple[dict, int, int]]) -> None:
    lines = (json.dumps([seat, f"{pool:x}", flag]) for flag, pool, seat in positions)
    GAME_POSITIONS.write_bytes(gzip.compress(("\n".join(lines) + "\n").encode(), mtime=0))


def load_game_positions() -> list[tuple[dict, int, int]]:
    positions = []
    for line in gzip.decompress(GAME_POSITIONS.read_bytes()).decode().splitlines():
        seat, pool, flag = json.loads(line)
        positions.append((flag, int(pool, 16), seat))
    return positions


# ---------------------------------------------------------------- timing and the oracle

def clear_caches() -> None:
    claims.clear_caches()


def time_fast(flag: dict, pool: int, seat: int = 1, repeats: int = 3) -> tuple[float, bool]:
    best = float("inf")
    verdict = False
    for _ in range(repeats):
        clear_caches()
        start = time.perf_counter_ns()
        verdict = claims.claimable(flag, seat, pool)
        best = min(best, time.perf_counter_ns() - start)
    return best / 1000, verdict


def brute_verdict(flag: dict, pool: int, seat: int = 1) -> bool:
    """The claim decision by brute force: every completion of the opponent's side from the
    unseen troops, every wildcard value, against the claimer's side at its best."""
    size = claims.side_size(flag)
    fog = "FOG" in flag["environment"]
    side = flag["seats"].index(seat)
    mine, theirs = flag["cards"][side], flag["cards"][1 - side]
    target = claims.brute_force_best(claims.Side.of(mine), 0, len(mine), fog=fog)
    if len(theirs) >= size:  # both complete: a tie goes to the side completed first
        their = claims.brute_force_best(claims.Side.of(theirs), 0, len(theirs), fog=fog)
        return target > their or (target == their and claims.completed_earlier(flag, side))
    return not claims.brute_force_beats(claims.Side.of(theirs), pool, size, target, fog=fog)


def time_brute(flag: dict, pool: int, seat: int = 1) -> tuple[float, bool]:
    start = time.perf_counter_ns()
    verdict = brute_verdict(flag, pool, seat)
    return (time.perf_counter_ns() - start) / 1000, verdict


def run_set(name: str, positions: list[tuple[dict, int, int]], brute: int, spread: bool = True
            ) -> tuple[list[float], int, int, list[float]]:
    """Times every position; the brute force on ``brute`` of them (spread over the set, or the
    first ones). Returns (times in µs, claimable, disagreements, brute times in µs)."""
    fast = [time_fast(flag, pool, seat) for flag, pool, seat in positions]
    step = max(1, len(positions) // brute) if brute and spread else 1
    sample = range(0, len(positions), step)[:brute]
    disagreements, brute_us = 0, []
    for i in sample:
        flag, pool, seat = positions[i]
        took, verdict = time_brute(flag, pool, seat)
        brute_us.append(took)
        if verdict != fast[i][1]:
            disagreements += 1
            print(f"  DISAGREEMENT ({name}): fast {fast[i][1]}, brute force {verdict}: seat {seat}, pool {pool:x}, {flag}")
    return [t for t, _ in fast], sum(v for _, v in fast), disagreements, brute_us


def count(text: str, total: int) -> int:
    return total if text == "all" else min(int(text), total)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--positions", type=int, default=10_000, help="synthetic positions")
    parser.add_argument("--brute", default="200", help="synthetic positions also run by brute force (or 'all')")
    parser.add_argument("--games", type=int, default=None, help="checks of the games set to time (default: all)")
    parser.add_argument("--games-brute", default="200", help="games-set checks also run by brute force (or 'all')")
    parser.add_argument("--worst", type=int, default=200, help="worst-case positions")
    parser.add_argument("--worst-brute", default="3", help="the first worst-case positions also run by brute "
                        "force (seconds each, a minute with a Leader on the opposing side; or 'all')")
    parser.add_argument("--record", action="store_true", help=f"write {GAME_POSITIONS.name} again and stop")
    parser.add_argument("--json", help="also write the figures here (benchmarks.compare)")
    args = parser.parse_args()
    if args.record:
        positions = record_game_positions()
        save_game_positions(positions)
        print(f"{len(positions)} claim checks of {RECORD_GAMES} random games written to {GAME_POSITIONS}")
        return
    rng = random.Random(20261121)
    suite = [(*random_position(rng), 1) for _ in range(args.positions)]
    games = load_game_positions()[: args.games]
    worst = worst_positions(args.worst)
    figures: dict[str, float] = {}
    disagreements = 0
    for name, label, positions, brute in (
            ("", "synthetic: claimer complete and opponent not", suite, args.brute),
            ("games_", "games: every claim check of 100 random full games", games, args.games_brute),
            ("worst_", "worst case: Mud, wildcards on the claimer's side, an empty opposing side or one of "
                       "wildcards alone", worst, args.worst_brute)):
        if not positions:
            continue
        fast_us, claimable, wrong, brute_us = run_set(name or "synthetic", positions, count(brute, len(positions)),
                                                      spread=name != "worst_")
        disagreements += wrong
        q = statistics.quantiles(fast_us, n=100)
        figures[f"{name}median_us"] = statistics.median(fast_us)
        figures[f"{name}p99_us"] = q[98]
        print(f"{label}: {len(positions)} checks ({claimable} claimable)")
        print(f"  fast proof: median {statistics.median(fast_us):.1f} us, p90 {q[89]:.1f} us, p99 {q[98]:.1f} us, "
              f"max {max(fast_us):.1f} us")
        if brute_us:
            print(f"  brute force on {len(brute_us)} of them: median {statistics.median(brute_us) / 1000:.1f} ms, "
                  f"max {max(brute_us) / 1000:.0f} ms; disagreements {wrong}")
    figures["check_disagreements"] = disagreements
    if args.json:
        Path(args.json).write_text(json.dumps(figures))
    if disagreements:
        raise SystemExit("the fast proof disagreed with the brute force")


if __name__ == "__main__":
    main()
