"""The Monte Carlo Battle Line bot: every step judged one step ahead, then the best few played
out from many deals that agree with what the bot can see.

* The judgement (``judge``) turns each flag's standing (the greedy bot's reading: the best
  formation each side can still reach; on a deal, from its own hand and the deck only) into a
  chance to win it, and those into a chance to win the game under the rules' two ways to win:
  three adjacent flags, or five. Knowing which flags matter together is what the greedy bot lacks.
* Every step is judged one step ahead (tactics cards too, which the greedy bot leaves aside);
  the best few, and the greedy bot's own choice (the search has to beat it in playouts, not
  find it by the one-step judgement), are compared by playouts: from a deal of the hidden cards drawn among the
  cards the bot has not seen (``battleline_determinize``: it never uses what it cannot see),
  each candidate is played, then a few more steps by the greedy policy (now and then a
  random one), and the table is judged. Every candidate meets the same deal and the same
  chances, so they are compared on equal terms. The best total is played.
* After a few rounds the weaker half of the candidates is dropped: the rest of the budget goes
  to telling the better ones apart.
* A draw follows the greedy bot's rule (troops while any are left), unsearched: playing the deck
  choice out measured no stronger, and it spent half of a game's decision time.
* A budget of rounds, and of time (the shortlist included), bounds a decision.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterable

from ..games.battleline.engine import ENGINE
from . import playing
from .battleline_determinize import determinize
from .battleline_greedy import PROGRESS, Greedy, Table, decide

CANDIDATES = 6  # the steps judged best one step ahead (the greedy bot's choice among them), which the playouts compare
SHORTLIST_DEALS = 3  # deals each step is judged on, one step ahead
ROUNDS = 1000  # at most, per decision: each plays every candidate out once (the time budget binds first)
SECONDS = 0.85  # at most, per decision (the benchmark measures the time per move)
GREEDY_CANDIDATE = True  # the greedy bot's own choice is always among the candidates
PRUNE: tuple[int, ...] = (8,)  # after these many rounds, the weaker half of the candidates is dropped
KEEP = 3  # pruning never leaves fewer candidates than this
HORIZON = 6  # steps a playout plays (about a turn each) before the table is judged
EPSILON = 0.05  # how often a playout step is random rather than greedy
SCALE = 150.0  # standing points per unit of the logistic judgement
SEARCH_DRAWS = False  # search the deck to draw from (measured no stronger than greedy's rule: troops while any are left)


def seat_table(state: dict, seat: int, held_by_others: Iterable[str] = ()) -> Table:
    return Table({"flags": state["flags"], "discards": state["discards"], "hand": state["hands"][str(seat)]}, seat,
                 held_by_others)


def playout(state: dict, seat: int, rng: random.Random) -> float:
    """Play a few turns on with the greedy policy (now and then a random step), then judge the
    table from ``seat``'s side: 1 a win, 0.5 a draw, 0 a loss, or the standing in between."""
    for _ in range(HORIZON):
        if ENGINE.result(state) is not None:
            break
        mover = ENGINE.to_move(state)
        steps = ENGINE.legal_steps(state, mover)
        if rng.random() < EPSILON:
            step = rng.choice(playing(steps))
        else:  # (only a play reads the table: claims, draws and the rest are chosen without it)
            step = decide(steps, seat_table(state, mover) if state["phase"] == "play" else None, rng)
        games = len(state["match"]["results"]) if state["match"] else 0
        ENGINE.apply_step(state, mover, step)
        if state["match"] and len(state["match"]["results"]) > games:
            winner = state["match"]["results"][-1]["winner"]
            return 0.5 if winner is None else float(winner == seat)
    result = ENGINE.result(state)
    if result is not None:
        return 0.5 if result["winner"] is None else float(result["winner"] == seat)
    return judge(state, seat)


def judge(state: dict, seat: int) -> float:
    """The seat's chance to win, from each flag's chance to be its (won flags are certain, the
    others follow the greedy standing there, both sides' cards counted alike), under the rules'
    two ways to win: three adjacent flags, or five. (The greedy bot weighs flags one by one;
    knowing which flags matter together is much of what the search adds.)

    The state is a deal (``battleline_determinize``), so the judgement knows what the other hands
    hold there: those troops are out of the seat's reach (it may still get what it holds and what
    is in the deck), and within the opponent's. Averaged over the deals, a formation that needs a
    card the opponent may well hold counts for less than one that needs only the deck."""
    others = [card for key, hand in state["hands"].items() if key != str(seat) for card in hand]
    table = seat_table(state, seat, held_by_others=others)
    chances = []
    for flag in state["flags"]:
        if flag["claimed_by"] is not None:
            chances.append(1.0 if flag["claimed_by"] == seat else 0.0)
        else:
            # (the greedy standing counts the bot's own cards' progress only; the judgement counts both
            # sides' alike, so that it is zero-sum: what one seat's chance gains, the other's loses)
            standing = table.standing(flag)
            if seat in flag["seats"]:
                standing -= PROGRESS * len(flag["cards"][1 - flag["seats"].index(seat)])
            chances.append(1 / (1 + math.exp(-standing / SCALE)))
    mine = wins_chance(chances)
    theirs = wins_chance([1.0 - c for c in chances])
    return mine / (mine + theirs) if mine + theirs > 0 else 0.5


def wins_chance(chances: list[float], run: int = 3, count: int = 5) -> float:
    """The chance that independent flags, won with these chances, give a run of ``run`` adjacent
    ones or ``count`` in all (a small dynamic programme over the flags)."""
    if run == 3 and count == 5:
        return _wins_chance_3_5(chances)
    # probs[length * count + total]: the chance of a current run of ``length`` and ``total`` flags
    # won so far, without a win yet (length < run, total < count, length <= total)
    probs = [0.0] * (run * count)
    probs[0] = 1.0
    won = 0.0
    states = [(length, total, length * count + total) for length in range(run) for total in range(length, count)]
    for p in chances:
        miss = 1.0 - p
        following = [0.0] * (run * count)
        for length, total, index in states:
            q = probs[index]
            if q == 0.0:
                continue
            if length + 1 >= run or total + 1 >= count:
                won += q * p
            else:
                following[index + count + 1] += q * p
            following[total] += q * miss
        probs = following
    return won


def _wins_chance_3_5(chances: list[float]) -> float:
    """``wins_chance`` for the rules' numbers (3 adjacent, 5 in all), its twelve states unrolled:
    ``sLT`` is the chance of a current run of L won flags and T won in all, without a win yet.
    (A judgement runs it twice, and a playout ends in a judgement.)"""
    s00, s01 = 1.0, 0.0
    s02 = s03 = s04 = s11 = s12 = s13 = s14 = s22 = s23 = s24 = 0.0
    won = 0.0
    for p in chances:
        m = 1.0 - p
        won += p * (s22 + s23 + s24 + s04 + s14)  # a third adjacent flag, or a fifth
        s00, s01, s02, s03, s04, s11, s12, s13, s14, s22, s23, s24 = (
            m * s00, m * (s01 + s11), m * (s02 + s12 + s22), m * (s03 + s13 + s23), m * (s04 + s14 + s24),
            p * s00, p * s01, p * s02, p * s03, p * s11, p * s12, p * s13)
    return won


class Mcts:
    name = "mcts"

    def __init__(self, rounds: int = ROUNDS, seconds: float | None = SECONDS) -> None:
        self.rounds = rounds
        self.seconds = seconds
        self.greedy = Greedy()

    def candidates(self, view: dict, rng: random.Random) -> list[dict]:
        steps = playing(view["legal_steps"])
        kinds = {s["type"] for s in steps}
        if kinds & {"claim", "scout_return", "mud_discard"} or len(steps) == 1 or (
                not SEARCH_DRAWS and kinds & {"draw", "scout_draw"}):
            return [self.greedy.choose(view, rng)]  # claiming every provable flag is never wrong
        plays = [s for s in steps if s["type"] == "play"]
        if not plays:
            return steps
        options = self.shortlist(view, steps, rng)
        if GREEDY_CANDIDATE:
            mine = self.greedy.choose(view, rng)
            if mine not in options:
                options[-1:] = [mine]
        return options

    def shortlist(self, view: dict, steps: list[dict], rng: random.Random) -> list[dict]:
        """Every step judged one step ahead on a few deals (tactics cards included, which the
        greedy bot leaves aside); the best few go on to the playouts."""
        seat = view["you"]
        deals = [determinize(view, rng) for _ in range(SHORTLIST_DEALS)]
        scored = []
        for step in steps:
            total = 0.0
            for dealt in deals:
                state = ENGINE.copy_state(dealt)
                ENGINE.apply_step(state, seat, step)
                total += judge(state, seat)
            scored.append((total, rng.random(), step))
        scored.sort(key=lambda x: (x[0], x[1]), reverse=True)
        return [step for _, _, step in scored[:CANDIDATES]]

    def choose(self, view: dict, rng: random.Random) -> dict:
        deadline = time.perf_counter() + self.seconds if self.seconds else None  # the shortlist counts too
        options = self.candidates(view, rng)
        if len(options) == 1:
            return options[0]
        seat = view["you"]
        won = [0.0] * len(options)
        alive = list(range(len(options)))
        for done in range(self.rounds):
            if deadline is not None and time.perf_counter() > deadline:
                break
            # One deal and one stream of chance for every candidate: they are compared on equal terms.
            dealt, chance = determinize(view, rng), rng.getrandbits(64)
            for index in alive:
                state = ENGINE.copy_state(dealt)
                ENGINE.apply_step(state, seat, options[index])
                won[index] += playout(state, seat, random.Random(chance))
            if done + 1 in PRUNE and len(alive) > KEEP:
                alive.sort(key=lambda i: won[i], reverse=True)  # (every one alive has played as many rounds)
                alive = sorted(alive[:max(KEEP, len(alive) // 2)])
        return options[max(alive, key=lambda i: won[i])]
