"""How strong the bots are: many games between two bots, the seats alternating, each decision
taken from the mover's own view exactly as the server's bot runner takes it.

Targets (docs/bots.md): greedy beats random in at least 80 % of the games (both games);
mcts beats greedy in at least 60 % at no more than 1 s a move (both games).

A Khan & General game of mcts is long (some 300 searched decisions), so that match plays fewer
games (``MATCHES``: its own count, at most ``--games``); its interval is wider, and printed.
The endings column tells how the games ended: by destruction (``annihilation`` or ``routed``)
or after the last round (``max_rounds``); the draws column counts the drawn ones.

Battle Line's mcts is also measured by what its time buys: the playouts it runs per searched decision
(each candidate step played out once per round), counted in the games, and with ``--rollouts N`` on N
fixed positions from greedy games (no games played; ``battleline_mcts_playouts_per_s`` is their
playouts per second of decision time, for ``benchmarks.compare``, which runs this code on the
baseline too). ``--json PATH`` writes the figures: each match's win rate and its 95 % interval as
``check_`` facts, the playouts per decision, and the playouts per second.

Run: python -m benchmarks.bots [--games 200] [--only khan:mcts:greedy] [--workers 2] [--json PATH]
     python -m benchmarks.bots --rollouts 20 [--json PATH]   (mcts's playouts, no games)
     python -m benchmarks.bots --rate   (khan_mcts.STEPS_PER_MS on this machine; one process)
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from chalicelib.bots import bot
from chalicelib.games import ENGINES
from chalicelib.games.base import apply_steps

try:
    from chalicelib.bots.runner import play as play_out
except ImportError:  # the baseline's tree (benchmarks.compare): its runner plays a whole turn
    from chalicelib.bots.runner import bot_steps

    play_out = None
from khan_lab.figures import wilson

# game, first bot, second bot, target win rate of the first, games (None: --games; else at most --games)
MATCHES = [("battleline", "greedy", "random", 0.80, None), ("battleline", "mcts", "greedy", 0.60, None),
           ("khan", "greedy", "random", 0.80, None), ("khan", "mcts", "greedy", 0.60, 40)]
DESTRUCTION = ("annihilation", "routed")


def decisions(engine, state: dict, players: dict, options: dict, rng: random.Random):
    """(seat, seconds) for each decision of the game played out in place by the runner (``runner.play``).
    On the baseline's tree, whose runner plays a turn at a time, (seat, seconds) for each turn."""
    if play_out is not None:
        for decision in play_out(engine, state, players, options, rng):
            yield decision.seat, decision.seconds
        return
    while engine.result(state) is None:
        seat, started = engine.to_move(state), time.perf_counter()
        steps = bot_steps(engine, state, seat, options, players[seat], rng)
        yield seat, time.perf_counter() - started
        state.update(apply_steps(engine, state, seat, steps)[0])


class Playouts:
    """Counts Battle Line mcts's playouts (its module's ``playout``, on either tree)."""

    def __init__(self) -> None:
        from chalicelib.bots import battleline_mcts

        self.module, self.count, self.original = battleline_mcts, 0, battleline_mcts.playout

        def counted(*args, **kwargs):
            self.count += 1
            return self.original(*args, **kwargs)

        battleline_mcts.playout = counted


def play(job: tuple[str, str, str, int]) -> tuple[str | None, list[float], str, list[int]]:
    """One game; the winner's name (None: a draw), the first bot's seconds per decision, how the
    game ended (the result's reason), and (Battle Line mcts first) its playouts per searched decision."""
    game, first, second, number = job
    engine = ENGINES[game]
    rng = random.Random(number)
    names = {1: first, 2: second} if number % 2 == 0 else {1: second, 2: first}
    players = {seat: bot(game, name) for seat, name in names.items()}
    options = engine.options_model.model_validate({}).model_dump(mode="json")
    state = engine.new_game(options, rng)
    counter = Playouts() if (game, first) == ("battleline", "mcts") else None
    timings, playouts, before = [], [], 0
    for seat, seconds in decisions(engine, state, players, options, rng):
        if names[seat] == first:
            timings.append(seconds)
            if counter is not None and counter.count > before:
                playouts.append(counter.count - before)
        before = counter.count if counter is not None else 0
    result = engine.result(state)
    return (names[result["winner"]] if result["winner"] else None), timings, result.get("reason", ""), playouts


def measure_rollouts(positions: int) -> dict[str, float]:
    """Battle Line mcts's playouts per searched decision at its own budget, over ``positions`` fixed
    positions (seat 1's play decisions from seeded greedy games, the same on any tree)."""
    engine = ENGINES["battleline"]
    options = engine.options_model.model_validate({}).model_dump(mode="json")
    views: list[dict] = []
    greedy = bot("battleline", "greedy")

    class Recording:
        """Greedy, keeping some of seat 1's play decisions' views."""
        name = "greedy (recording)"

        def choose(self, view: dict, rng: random.Random) -> dict:
            if (view["you"] == 1 and view["phase"] == "play" and len(view["legal_steps"]) > 2
                    and rng.random() < 0.3 and len(views) < positions):
                views.append(copy.deepcopy(view))  # (the view shares lists with the game, which plays on)
            return greedy.choose(view, rng)

    seed = 0
    while len(views) < positions:
        rng = random.Random(seed)
        for _ in decisions(engine, engine.new_game(options, rng), {1: Recording(), 2: Recording()}, options, rng):
            pass
        seed += 1
    counter, searcher, per, seconds = Playouts(), bot("battleline", "mcts"), [], 0.0
    for number, view in enumerate(views):
        before, started = counter.count, time.perf_counter()
        searcher.choose(view, random.Random(number))
        seconds += time.perf_counter() - started
        if counter.count > before:
            per.append(counter.count - before)
    figures = {"battleline_mcts_playouts_per_s": sum(per) / seconds,
               "check_battleline_mcts_playouts_per_decision": statistics.mean(per) if per else 0.0}
    print(f"Battle Line mcts: {figures['check_battleline_mcts_playouts_per_decision']:.1f} playouts per searched "
          f"decision ({len(per)} of {positions} positions searched), {figures['battleline_mcts_playouts_per_s']:.1f} "
          f"playouts a second of decision time", flush=True)
    return figures


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
        for _decision in decisions(engine, state, {1: Measured(), 2: Measured()}, options, rng):
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
    parser.add_argument("--rollouts", type=int, metavar="N",
                        help="measure Battle Line mcts's playouts per decision on N positions, play no games")
    parser.add_argument("--json", help="also write the figures here (benchmarks.compare)")
    args = parser.parse_args()
    figures: dict[str, float] = {}
    if args.rollouts:
        figures.update(measure_rollouts(args.rollouts))
        if args.json:
            Path(args.json).write_text(json.dumps(figures))
        return
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
        results = []
        with ProcessPoolExecutor(args.workers) as pool:
            for result in pool.map(play, jobs, chunksize=1):
                results.append(result)
                won = sum(1 for winner, *_ in results if winner == first)
                # a running total on stderr: a run stopped before its end still says how far it got
                print(f"{game} {first} v {second}: {len(results)}/{len(jobs)} games, {first} won {won} "
                      f"({won / len(results):.1%})", file=sys.stderr, flush=True)
        wins = sum(1 for winner, *_ in results if winner == first)
        draws = sum(1 for winner, *_ in results if winner is None)
        low, high = wilson(wins, len(results))
        timings = [t for _, ts, *_ in results for t in ts]
        rate = wins / len(results)
        name = f"{game}_{first}_v_{second}"
        figures.update({f"check_{name}_games": len(results), f"check_{name}_win_rate": rate,
                        f"check_{name}_win_low": low, f"check_{name}_win_high": high})
        playouts = [n for *_, counts in results for n in counts]
        if playouts:
            figures[f"check_{name}_playouts_per_decision"] = statistics.mean(playouts)
        print(f"| {game} | {first} v {second} | {len(results)} | {wins} | {draws} | {rate:.1%} ({low:.1%}-{high:.1%}) "
              f"| ≥ {target:.0%} {'met' if rate >= target else 'MISSED'} | {statistics.mean(timings) * 1000:.0f} ms / "
              f"{max(timings) * 1000:.0f} ms | {endings([reason for _, _, reason, _ in results])} |", flush=True)
        if playouts:
            print(f"({name}: {statistics.mean(playouts):.1f} playouts per searched decision, over {len(playouts)})",
                  flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(figures))


if __name__ == "__main__":
    main()
