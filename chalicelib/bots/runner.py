"""Playing a bot's turn: each step is chosen from the seat's view of a working copy of the game
(built here, as the service builds a person's view) and applied through the engine; the
steps then go to the service as one action, like anyone's."""

from __future__ import annotations

import copy
import logging
import random

from ..games.base import GameEngine, State
from . import Bot, playing

logger = logging.getLogger("battleline.bots")

MAX_STEPS = 60  # a turn is never longer; a bot that would loop stops here


def seat_view(engine: GameEngine, state: State, seat: int, options: dict) -> dict:
    """What the seat's client would get (the parts a bot uses)."""
    return {"game": engine.name, "you": seat, "to_move": engine.to_move(state), "phase": engine.phase(state),
            "legal_steps": engine.legal_steps(state, seat), "state": engine.view(state, seat),
            "result": engine.result(state), "options": engine.public_options(options, seat)}


def bot_steps(engine: GameEngine, state: State, seat: int, options: dict, bot: Bot,
              rng: random.Random) -> list[dict]:
    """The bot's steps until the decision passes to another seat (or the game ends)."""
    working = copy.deepcopy(state)
    steps: list[dict] = []
    while engine.result(working) is None and engine.to_move(working) == seat and len(steps) < MAX_STEPS:
        view = seat_view(engine, working, seat, options)
        step = bot.choose(view, rng)
        if step not in view["legal_steps"]:  # a bot's mistake must not stall the game
            logger.error("bot %s chose a step that is not legal now; a random one is played", bot.name)
            step = rng.choice(playing(view["legal_steps"]))
        engine.apply_step(working, seat, step)
        steps.append(step)
    return steps
