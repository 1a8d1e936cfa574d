"""Claim-check speed: the fast proof against the brute-force reference.

A fixed suite (seeded) of random positions around one flag: the claimer's side complete,
the opponent's not (0 to size-1 cards), Fog and Mud at random, wildcards on either side,
and a random part of the other troops face up elsewhere. Each check is timed on its own,
with the proof's caches cleared first. The brute force runs on a subsample of the same
suite, in the same run, and must agree with the fast proof on every position it sees.

Run: make bench (or python -m benchmarks.claims [--positions N] [--brute N])
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path

from chalicelib.games.battleline import claims
from chalicelib.games.battleline.cards import TROOPS

WILDS = ["ALEXANDER", "DARIUS", "COMPANION", "SHIELD"]


def random_position(rng: random.Random, *, worst: bool = False) -> tuple[dict, int]:
    """A flag (seat 1 claims) and the mask of unseen troops."""
    mud = worst or rng.random() < 0.3
    fog = (not worst) and rng.random() < 0.3
    size = 4 if mud else 3
    troops = list(TROOPS)
    rng.shuffle(troops)
    wilds = list(WILDS)
    rng.shuffle(wilds)
    mine_wild = wilds[: rng.choice([0, 0, 1, 2]) if not worst else rng.choice([1, 2])]
    theirs_wild = [] if worst else wilds[len(mine_wild):][: rng.choice([0, 0, 0, 1])]
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


def clear_caches() -> None:
    claims.clear_caches()


def time_fast(flag: dict, pool: int, repeats: int = 3) -> tuple[float, bool]:
    best = float("inf")
    verdict = False
    for _ in range(repeats):
        clear_caches()
        start = time.perf_counter_ns()
        verdict = claims.claimable(flag, 1, pool)
        best = min(best, time.perf_counter_ns() - start)
    return best / 1000, verdict


def brute_verdict(flag: dict, pool: int) -> bool:
    size = claims.side_size(flag)
    fog = "FOG" in flag["environment"]
    mine, theirs = flag["cards"]
    mine_side = claims.Side.of(mine)
    target = claims.brute_force_best(mine_side, 0, len(mine), fog=fog)
    return not claims.brute_force_beats(claims.Side.of(theirs), pool, size, target, fog=fog)


def time_brute(flag: dict, pool: int) -> tuple[float, bool]:
    start = time.perf_counter_ns()
    verdict = brute_verdict(flag, pool)
    return (time.perf_counter_ns() - start) / 1000, verdict


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--positions", type=int, default=10_000)
    parser.add_argument("--brute", type=int, default=200, help="positions of the suite also run by brute force")
    parser.add_argument("--worst", type=int, default=200, help="worst-case positions (Mud, empty opposing side, wildcards)")
    parser.add_argument("--json", help="also write the figures here (benchmarks.compare)")
    args = parser.parse_args()
    rng = random.Random(20261121)
    suite = [random_position(rng) for _ in range(args.positions)]
    fast = [time_fast(flag, pool) for flag, pool in suite]
    fast_us = [t for t, _ in fast]
    claimable = sum(v for _, v in fast)

    sample = suite[: args.brute]
    brute = [time_brute(flag, pool) for flag, pool in sample]
    disagreements = sum(b[1] != f[1] for b, f in zip(brute, fast))
    brute_us = [t for t, _ in brute]
    fast_sample = fast_us[: args.brute]

    worst_rng = random.Random(7)
    worst = [random_position(worst_rng, worst=True) for _ in range(args.worst)]
    worst_us = [time_fast(flag, pool)[0] for flag, pool in worst]
    worst_brute = [time_brute(flag, pool) for flag, pool in worst[:5]]
    worst_agree = all(time_fast(f, p)[1] == b[1] for (f, p), b in zip(worst[:5], worst_brute))

    q = statistics.quantiles(fast_us, n=100)
    print(f"claim checks, claimer complete and opponent not: {len(suite)} positions ({claimable} claimable)")
    print(f"  fast proof: median {statistics.median(fast_us):.1f} us, p90 {q[89]:.1f} us, p99 {q[98]:.1f} us, "
          f"max {max(fast_us):.1f} us")
    print(f"  brute force on {len(sample)} of them: median {statistics.median(brute_us):.0f} us; "
          f"fast median on the same {statistics.median(fast_sample):.1f} us; "
          f"speed-up of the medians {statistics.median(brute_us) / statistics.median(fast_sample):.0f}x; "
          f"disagreements {disagreements}")
    print(f"  worst case (Mud, empty opposing side, wildcards), {len(worst)} positions: fast median "
          f"{statistics.median(worst_us):.1f} us, max {max(worst_us):.1f} us; brute force "
          f"{statistics.median(t for t, _ in worst_brute) / 1000:.0f} ms each; agree: {worst_agree}")
    if args.json:
        worst_q = statistics.quantiles(worst_us, n=100)
        Path(args.json).write_text(json.dumps({
            "median_us": statistics.median(fast_us), "p99_us": q[98],
            "worst_median_us": statistics.median(worst_us), "worst_p99_us": worst_q[98],
            "check_disagreements": disagreements + (not worst_agree)}))
    if disagreements or not worst_agree:
        raise SystemExit("the fast proof disagreed with the brute force")


if __name__ == "__main__":
    main()
