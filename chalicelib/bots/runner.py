"""The game loop, written once: each decision is chosen from the mover's own view (built here, as
the service builds a person's view) and applied through the engine. The server plays a bot's turn
with it (``bot_steps``: the steps then go to the service as one action, like anyone's); the bots'
benchmark (benchmarks/bots.py) and the playtest lab (khan_lab/play.py) play whole games with it."""

from __future__ import annotations

import copy
import logging
import random
import time
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass

from ..games.base import GameEngine, State
from . import Bot, playing

logger = logging.getLogger("battleline.bots")

MAX_STEPS = 60  # a turn is never longer; a bot that would loop stops here


def seat_view(engine: GameEngine, state: State, seat: int, options: dict) -> dict:
    """What the seat's client would get (the parts a bot uses)."""
    return {"game": engine.name, "you": seat, "to_move": engine.to_move(state), "phase": engine.phase(state),
            "legal_steps": engine.legal_steps(state, seat), "state": engine.view(state, seat),
            "result": engine.result(state), "options": engine.public_options(options, seat)}


@dataclass(frozen=True)
class Decision:
    """One step taken by the loop: who took it, what it was, and how long its bot thought."""
    seat: int
    step: dict
    seconds: float


def play(engine: GameEngine, state: State, bots: Mapping[int, Bot], options: dict, rng: random.Random, *,
         seats: Collection[int] | None = None, max_steps: int | None = None) -> Iterator[Decision]:
    """Move ``state`` on in place, one decision at a time, until the game ends, the decision passes
    to a seat outside ``seats`` (all seats when None), or ``max_steps`` were taken. A bot's choice
    that is not legal now is replaced by a random legal one (logged): a bot's mistake must not
    stall a game."""
    taken = 0
    while engine.result(state) is None and (max_steps is None or taken < max_steps):
        seat = engine.to_move(state)
        if seats is not None and seat not in seats:
            return
        view = seat_view(engine, state, seat, options)
        started = time.perf_counter()
        step = bots[seat].choose(view, rng)
        seconds = time.perf_counter() - started
        if step not in view["legal_steps"]:
            logger.error("bot %s chose a step that is not legal now; a random one is played", bots[seat].name)
            step = rng.choice(playing(view["legal_steps"]))
        engine.apply_step(state, seat, step)
        taken += 1
        yield Decision(seat, step, seconds)


def bot_steps(engine: GameEngine, state: State, seat: int, options: dict, bot: Bot,
              rng: random.Random) -> list[dict]:
    """The bot's steps until the decision passes to another seat (or the game ends), played on a
    working copy of the game."""
    working = copy.deepcopy(state)
    return [d.step for d in play(engine, working, {seat: bot}, options, rng, seats={seat}, max_steps=MAX_STEPS)]
