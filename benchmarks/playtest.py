"""The lab's mcts playtest (``make playtest BOT=mcts``), timed a few games at a time: bot against bot
on the default card set, at the lab's default budget a decision (issue 39, item 4).

Equal work on every tree: the budget is turned into engine steps at the baseline's rate
(``BASELINE_STEPS_PER_MS``, whatever ``khan_mcts.STEPS_PER_MS`` says today), so each decision
simulates the same number of engine steps; ``check_steps_per_decision`` and ``check_decisions``
and ``check_records`` (a digest of the games' records) show it: the same on both trees, the same
games are played.

The figure is the CPU time a decision (``s_per_decision``); the 500-game playtest's time on one
core is projected from it and the decisions of a full game (``projected_500_games_s``). The games
played here stop after ``--max-rounds`` (fewer than a real game's 40, to keep the run short).

Run: python -m benchmarks.playtest [--games 4] [--max-rounds 8] [--json PATH]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time
from dataclasses import replace
from pathlib import Path

from chalicelib.bots import khan_mcts
from khan_lab import play

BASELINE_STEPS_PER_MS = 3.8  # khan_mcts.STEPS_PER_MS at the baseline (d8daff8)
FULL_GAME_DECISIONS = 550  # an mcts game of the default set at its 40 rounds (game 0 at seed 0)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--max-rounds", type=int, default=8)
    parser.add_argument("--budget-ms", type=float, default=play.DEFAULT_BUDGET_MS)
    parser.add_argument("--json", help="also write the figures here (benchmarks.compare)")
    args = parser.parse_args()
    khan_mcts.STEPS_PER_MS = BASELINE_STEPS_PER_MS
    simulated: list[int] = []
    choose = khan_mcts.KhanMcts.choose

    def counted(self, view, rng):
        step = choose(self, view, rng)
        simulated.append(self.simulated)
        return step

    khan_mcts.KhanMcts.choose = counted
    plan = replace(play.plan_for(play.default_set(), bot="mcts", games=args.games, budget_ms=args.budget_ms),
                   max_rounds=args.max_rounds)
    seconds, decisions, records = 0.0, 0, []
    for game in range(args.games):
        start = time.process_time()
        record = play.play_game(plan, game)
        seconds += time.process_time() - start
        decisions += record["decisions"]
        records.append({k: v for k, v in record.items() if k != "seconds"})
    digest = hashlib.sha256(json.dumps(records, sort_keys=True).encode()).hexdigest()
    per_decision = seconds / decisions
    figures = {
        "s_per_decision": per_decision,
        "projected_500_games_s": per_decision * FULL_GAME_DECISIONS * 500,
        "check_decisions": decisions,
        "check_steps_per_decision": sum(simulated) / decisions,
        "check_records": int(digest[:8], 16),  # the games' records (winners, cards played...): the same games
    }
    print(f"mcts playtest, {args.games} games of at most {args.max_rounds} rounds at {args.budget_ms:g} ms "
          f"({round(args.budget_ms * BASELINE_STEPS_PER_MS)} engine steps) a decision: {decisions} decisions, "
          f"{1000 * per_decision:.1f} ms CPU a decision, {figures['check_steps_per_decision']:.1f} steps simulated "
          f"a decision; a 500-game playtest on one core: {per_decision * FULL_GAME_DECISIONS * 500 / 3600:.2f} h")
    if args.json:
        Path(args.json).write_text(json.dumps(figures))


if __name__ == "__main__":
    main()
