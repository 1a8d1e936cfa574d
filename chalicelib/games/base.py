"""What every game engine offers, so that the service can run any of them the same way.

An engine is a set of pure functions on plain, JSON-able state (OpenSpiel's state / legal
actions / apply action / observation; boardgame.io's moves on state plus a player view).
It does no I/O and reads no clock; its only randomness is the seeded RNG handed to
``new_game``.
"""

from __future__ import annotations

import copy
import random
from typing import Any, Protocol

from pydantic import BaseModel

State = dict[str, Any]
Step = dict[str, Any]
Event = dict[str, Any]


class IllegalStep(Exception):
    """A step the rules do not allow now. ``code`` is the stable machine code of the API."""

    def __init__(self, reason: str, *, code: str = "illegal_action", **details: Any) -> None:
        super().__init__(reason)
        self.reason = reason
        self.code = code
        self.details = details


class GameEngine(Protocol):
    name: str
    options_model: type[BaseModel]
    step_schema: Any  # the pydantic type of one step, for validation and the OpenAPI file
    view_model: type[BaseModel]  # the documented shape of view()

    def parse_step(self, raw: object) -> Step:
        """Check a step's shape (raises pydantic.ValidationError) and return it as plain data."""
        ...

    def seat_count(self, options: dict) -> int: ...

    def new_game(self, options: dict, rng: random.Random) -> State: ...

    def legal_steps(self, state: State, seat: int) -> list[Step]: ...

    def apply_step(self, state: State, seat: int, step: Step) -> list[Event]:
        """Apply one step to ``state`` in place and return the events it caused."""
        ...

    def view(self, state: State, seat: int | None) -> dict: ...

    def to_move(self, state: State) -> int | None: ...

    def phase(self, state: State) -> str: ...

    def result(self, state: State) -> dict | None: ...

    def forfeit(self, state: State, seat: int, reason: str) -> list[Event]:
        """The seat loses at once (``reason``: timeout, withdrawn); in place, like apply_step."""
        ...

    def match_points(self, result: dict, options: dict) -> dict[str, float]:
        """Tournament points per seat ("1", "2") of a finished game."""
        ...

    def forfeit_points(self, options: dict) -> float:
        """Tournament points of a pairing won without play."""
        ...


def apply_steps(engine: GameEngine, state: State, seat: int, steps: list[Step]) -> tuple[State, list[Event]]:
    """Apply steps in order, all or nothing: the given state is never changed."""
    working = copy.deepcopy(state)
    events: list[Event] = []
    for index, step in enumerate(steps):
        try:
            events.extend(engine.apply_step(working, seat, step))
        except IllegalStep as error:
            error.details.setdefault("step_index", index)
            raise
    return working, events
