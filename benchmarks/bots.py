"""How strong the bots are: many games between two bots, the seats alternating, each decision
taken from the mover's own view exactly as the server's bot runner takes it.

Targets (docs/bots.md): greedy beats random in at least 80 % of the games (both games);
mcts beats greedy in at least 60 % at no more than 1 s a move (both games).

A Khan & General game of mcts is long (some 300 searched decisions), so that match plays fewer
games (``MATCHES``: its own count, at most ``--games``); its interval is wider, and printed.
The endings column tells how the games ended: by destruction (``annihilation`` or ``routed``)
or after the last round (``max_rounds``); the draws column counts the drawn ones.

Run: python -m benchmarks.bots [--games 200] [--only khan:mcts:greedy] [--workers 2]
     python -m benchmarks.bots --rate   (khan_mcts.STEPS_PER_MS on this machine; one process)
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from chalicelib.bots import bot
from chalicelib.bots.runner import play as play_out
from chalicelib.games import ENGINES
from khan_lab.figures import wilson

# game, first bot, second bot, target win rate of the first, games (None: --games; else at most --games)
MATCHES = [("battleline", "greedy", "random", 0.80, None), ("battleline", "mcts", "greedy", 0.60, None),
           ("khan", "greedy", "random", 0.80, None), ("khan", "mcts", "greedy", 0.60, 40)]
DESTRUCTION = ("annihilation", "routed")


def play(job: tuple[str, str, str, int]) -> tuple[str | None, list[float], str]:
    """One game; the winner's name (None: a draw), the first bot's seconds per decision, and
    how the game ended (the result's reason)."""
    game, first, second, number = job
    engine = ENGINES[game]
    rng = random.Random(number)
    names = {1: first, 2: second} if number % 2 == 0 else {1: second, 2: first}
    players = {seat: bot(game, name) for seat, name in names.items()}
    options = engine.options_model.model_validate({}).model_dump(mode="json")
    state = engine.new_game(options, rng)
    timings = [d.seconds for d in play_out(engine, state, players, options, rng) if names[d.seat] == first]
    result = engine.result(state)
    return (names[result["winner"]] if result["winner"] else None), timings, result.get("reason", "")


def endings(reasons: list[str]) -> str:
    """How the games ended, as shares: by destruction, after the last round, otherwise."""
    count = len(reasons)
    destroyed = sum(1 for r in reasons if r in DESTRUCTION)
    last_round = sum(1 for r in reasons if r == "max_rounds")
    shares = [f"destruction {destroyed / count:.0%}", f"max_rounds {last_round / count:.0%}"]
    if count - destroyed - last_round:
        shares.append(f"other {(count - destroyed - last_round) / count:.0%}")
    return " · ".join(shares)


def measure_rate(budget_steps: int = 1000, games: int = 2) -> None:
    """Engine steps the Khan & General mcts bot simulates per millisecond of a decision (its
    ``STEPS_PER_MS``), over the searched decisions of positions from greedy games."""
    from chalicelib.bots.khan_mcts import KhanMcts

    engine = ENGINES["khan"]
    options = engine.options_model.model_validate({}).model_dump(mode="json")
    searcher, greedy, rng = KhanMcts(budget_steps=budget_steps, seconds=None), bot("khan", "greedy"), random.Random(5)
    steps, seconds, slowest, searched = 0, 0.0, 0.0, 0
    class Measured:
        """Greedy's step is played; one decision in five is also searched, and the search timed."""
        name = "greedy (searched 1 in 5)"

        def choose(self, view: dict, rng: random.Random) -> dict:
            nonlocal steps, seconds, slowest, searched
            if rng.random() < 0.2:
                started = time.perf_counter()
                searcher.choose(view, random.Random(1))
                took = time.perf_counter() - started
                if searcher.simulated:
                    steps, seconds, slowest = steps + searcher.simulated, seconds + took, max(slowest, took)
                    searched += 1
            return greedy.choose(view, rng)

    for _ in range(games):
        state = engine.new_game(options, rng)
        for _decision in play_out(engine, state, {1: Measured(), 2: Measured()}, options, rng):
            pass
    print(f"{steps / seconds / 1000:.2f} engine steps a millisecond ({steps} steps in {seconds:.1f} s of {searched} "
          f"searched decisions at {budget_steps} steps: {seconds / searched * 1000:.0f} ms each, the slowest "
          f"{slowest * 1000:.0f} ms)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--only", help="game:first:second")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--rate", action="store_true", help="measure khan_mcts.STEPS_PER_MS and stop")
    args = parser.parse_args()
    if args.rate:
        from chalicelib.bots.khan_mcts import BUDGET_STEPS, for_time_budget

        measure_rate(BUDGET_STEPS)  # the server's bot
        measure_rate(for_time_budget(50).budget_steps)  # the playtest lab's
        return
    matches = [m for m in MATCHES if not args.only or ":".join(m[:3]) == args.only]
    print("| game | match | games | first's wins | draws | win rate (95 % interval) | target | first's time per "
          "decision (mean / max) | endings |")
    print("|---|---|---|---|---|---|---|---|---|")
    for game, first, second, target, count in matches:
        jobs = [(game, first, second, number) for number in range(min(args.games, count or args.games))]
        with ProcessPoolExecutor(args.workers) as pool:
            results = list(pool.map(play, jobs, chunksize=1))
        wins = sum(1 for winner, _, _ in results if winner == first)
        draws = sum(1 for winner, _, _ in results if winner is None)
        low, high = wilson(wins, len(results))
        timings = [t for _, ts, _ in results for t in ts]
        rate = wins / len(results)
        print(f"| {game} | {first} v {second} | {len(results)} | {wins} | {draws} | {rate:.1%} ({low:.1%}-{high:.1%}) "
              f"| ≥ {target:.0%} {'met' if rate >= target else 'MISSED'} | {statistics.mean(timings) * 1000:.0f} ms / "
              f"{max(timings) * 1000:.0f} ms | {endings([reason for _, _, reason in results])} |", flush=True)


if __name__ == "__main__":
    main()
