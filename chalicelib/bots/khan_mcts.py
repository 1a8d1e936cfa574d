"""The Monte Carlo Khan & General bot: the greedy bot's best few steps compared by short playouts
on deals of what its seat cannot see.

* The shortlist: every legal step is scored by the greedy bot's one-step judgement
  (``khan_greedy.score``); the best few, and the best way of ending the phase, go on. With one
  sensible step (nothing to do but end the turn, one keyword to use...) there is no search.
* The playouts: from a deal of the hidden cards (``khan_determinize``: the enemy's deck guessed
  from its faction's recommended deck, its face-down units, hand and sequences dealt at random
  from what the seat has not seen), each candidate is played, then both seats play on by the
  greedy policy (now and then a random step) to the end of the next turn, and the field is
  judged (``judge``): units destroyed and wounded on each side, as the game's end counts them,
  then the units each side has standing. Every candidate meets the same deal and the same
  chances, so they are compared on equal terms; the best total is played. A candidate the
  engine refuses on a deal (that deal guessed wrong) scores as a loss there.
* The budget is counted in engine steps (those of the playouts), not in time, so a seed plays
  the same game on any machine; ``for_time_budget`` turns a time budget into steps at the rate
  measured on the reference machine. A round is played only if it fits the budget, as the last
  round cost (the first always). An optional clock cap (``seconds``) bounds a decision.
"""

from __future__ import annotations

import pickle
import random
import time

from ..games.base import IllegalStep, seat_key
from ..games.khan.engine import ENGINE
from ..games.khan.table import card_set
from . import playing
from .khan_determinize import determinize
from .khan_greedy import Field, Greedy, score

CANDIDATES = 4  # the steps the greedy judgement likes best, which the playouts then compare
BUDGET_STEPS = 1000  # engine steps a decision may simulate (the server's bot)
SECONDS = 0.8  # at most, per decision, for the server's bot (its budget in steps stays below this)
TURNS_AHEAD = 2  # a playout plays until this many turns have ended (the current one, then the next)
MAX_PLAYOUT = 120  # steps, at most, in one playout (a turn is never this long)
EPSILON = 0.05  # how often a playout step is random rather than greedy
# Engine steps a searched decision simulates a millisecond here (docs/bots.md): 3.8 before issue 39, times the
# 4.21x that benchmarks.playtest measured at equal steps against that engine (benchmarks.bots --rate measures it).
STEPS_PER_MS = 16.0

KILL, WOUND, STANDING, WIN = 100.0, 40.0, 2.0, 2000.0
ENDINGS = ("end_action", "end_reaction", "end_engagements", "end_turn", "skip", "stay")


def judge(state: dict, seat: int) -> float:
    """The field from ``seat``'s side: a won or lost game first, then units destroyed and wounded
    (the game's count after its last round), then the units each side has standing (a face-down
    one counts half: it cannot take commands yet)."""
    result = state["result"]
    if result is not None and result["winner"] is not None:
        return WIN if result["winner"] == seat else -WIN
    mine, theirs = seat_key(seat), seat_key(3 - seat)
    value = KILL * (len(state["destroyed"][theirs]) - len(state["destroyed"][mine]))
    for unit in state["field"]:
        side = 1 if unit["seat"] == seat else -1
        value -= side * WOUND * unit["wounded"]
        value += side * STANDING * (1 if unit["up"] else 0.5)
    return value


GREEDY = Greedy()


def greedy_step(state: dict, seat: int, steps: list[dict], rng: random.Random) -> dict:
    """The greedy bot's choice, from the seat's view of this (dealt) state."""
    return GREEDY.choose({"you": seat, "state": greedy_view(state, seat), "legal_steps": steps}, rng)


def _top_row_first(unit: dict) -> tuple[int, int]:
    return -unit["y"], unit["x"]


def greedy_view(state: dict, seat: int) -> dict:
    """The part of the seat's view (``ENGINE.view``) that the greedy judgement reads (``khan_greedy.Field``
    and ``score``): the card set, the first seat, the field (what the seat may see of each unit, in the
    view's order) and the seat's sequences' sizes; built alone, as a playout asks it at every step."""
    cards = card_set(state)
    decks = {s: state["seats"][seat_key(s)]["deck"] for s in (1, 2)}
    field = []
    for unit in sorted(state["field"], key=_top_row_first):  # views.by_square's order
        if unit["up"] or unit["seat"] == seat:  # as views.view tells it
            deck = decks[unit["seat"]]
            kind = cards.units[deck[unit["card"]]]
            command = unit["command"]
            field.append({"x": unit["x"], "y": unit["y"], "seat": unit["seat"], "facing": unit["facing"],
                          "wounded": unit["wounded"], "unit": kind.id,
                          "power": kind.base + (cards.commands[deck[command]].power if command is not None else 0)})
        else:
            field.append({"x": unit["x"], "y": unit["y"], "seat": unit["seat"], "facing": unit["facing"],
                          "wounded": unit["wounded"], "unit": None, "power": None})
    return {"card_set": state["card_set"], "first_seat": state["first"], "field": field,
            "sequences": {seat_key(seat): [{"size": len(s)} for s in state["sequences"][seat_key(seat)]]}}


def playout(state: dict, seat: int, rng: random.Random, turns: int = TURNS_AHEAD) -> tuple[float, int]:
    """Both seats play on by the greedy policy until ``turns`` turns have ended (or the game);
    the judgement from ``seat``'s side, and the engine steps it took."""
    ended = 0
    used = 0
    while state["result"] is None and ended < turns and used < MAX_PLAYOUT:
        mover = state["to_move"]
        steps = ENGINE.legal_steps(state, mover)
        step = rng.choice(playing(steps)) if rng.random() < EPSILON else greedy_step(state, mover, steps, rng)
        ENGINE.apply_step(state, mover, step)
        used += 1
        ended += step["type"] == "end_turn"
    return judge(state, seat), used


class KhanMcts:
    name = "mcts"

    def __init__(self, budget_steps: int = BUDGET_STEPS, seconds: float | None = SECONDS,
                 turns_ahead: int = TURNS_AHEAD) -> None:
        self.budget_steps = budget_steps
        self.seconds = seconds
        self.turns_ahead = turns_ahead
        self.simulated = 0  # engine steps the last decision simulated (what the budget counts)

    def candidates(self, view: dict, rng: random.Random) -> list[dict]:
        """The greedy judgement's best few steps, and its best way to end the phase."""
        steps = playing(view["legal_steps"])
        if len(steps) == 1:
            return steps
        field = Field(view)
        ranked = sorted(steps, key=lambda s: (score(field, s), rng.random()), reverse=True)
        chosen = ranked[:CANDIDATES]
        ending = next((s for s in ranked if s["type"] in ENDINGS), None)
        if ending is not None and ending not in chosen:
            chosen.append(ending)
        return chosen

    def choose(self, view: dict, rng: random.Random) -> dict:
        deadline = time.perf_counter() + self.seconds if self.seconds else None
        self.simulated = 0
        options = self.candidates(view, rng)
        if len(options) == 1:
            return options[0]
        seat = view["you"]
        totals = [0.0] * len(options)
        used = last = 0
        # The first round always; another only if it fits the budget, as the last one cost.
        while used == 0 or used + last <= self.budget_steps:
            # One deal and one stream of chance for every candidate: they are compared on equal terms.
            dealt, chance = pickle.dumps(determinize(view, rng), pickle.HIGHEST_PROTOCOL), rng.getrandbits(64)
            values, last = [], 0
            for option in options:
                if deadline is not None and time.perf_counter() > deadline:
                    break  # a round cut short by the clock does not count
                state = pickle.loads(dealt)  # a copy of the deal, of plain JSON data: as deepcopy's, faster
                last += 1
                try:
                    ENGINE.apply_step(state, seat, option)
                except IllegalStep:  # the deal guessed wrong where this step is concerned
                    values.append(-WIN)
                    continue
                value, steps = playout(state, seat, random.Random(chance), self.turns_ahead)
                values.append(value)
                last += steps
            used += last
            if len(values) < len(options):
                break
            totals = [t + v for t, v in zip(totals, values)]
        self.simulated = used
        return options[max(range(len(options)), key=lambda i: totals[i])]


def for_time_budget(ms: float) -> KhanMcts:
    """The bot for a time budget per decision, as engine steps (``STEPS_PER_MS``, measured on the
    reference machine): no clock, so a seed plays the same game on any machine."""
    return KhanMcts(budget_steps=max(1, round(ms * STEPS_PER_MS)), seconds=None)
