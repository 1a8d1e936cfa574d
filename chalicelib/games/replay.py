"""Rebuilding a game from its events, for either game: the events are the game's record.

Every accepted step writes at least one event, and one of them records the step itself
(``engine.step_of`` reads it back, with the private parts: a deployed unit, a returned
Scout card, a payment no seat may see). So a game is its options, its seed and its events:
``replay`` deals the game anew from the seed, takes the steps again in order, and checks
that each writes exactly the events stored. Forfeits (a timeout, a withdrawal) are events
of their own, replayed through ``engine.forfeit``. Pure: no I/O.
"""

from __future__ import annotations

import json
import random
from typing import Any, Iterable

from pydantic import ValidationError

from .base import Event, GameEngine, IllegalStep, State

# The reasons the service gives ``engine.forfeit`` (the seat's event is named after it). A
# resignation is a step (``resign``) of its own.
FORFEITS = ("timeout", "withdrawn", "forfeit")  # forfeit: a tournament or ladder game abandoned


class ReplayError(Exception):
    """The events do not replay: a step they record is refused, or it writes other events."""


def full_data(event: Event) -> dict[str, Any]:
    """An event's data with every private part merged in: what the step was, seen by no one seat."""
    data = dict(event["data"])
    for part in (event.get("private") or {}).values():
        data.update(part)
    return data


def comparable(event: Event) -> dict[str, Any]:
    """An event as it is stored (JSON), for comparing what a replay writes with what was written."""
    return json.loads(json.dumps({"type": event["type"], "seat": event["seat"], "data": event["data"],
                                  "private": event.get("private") or {}}, sort_keys=True))


def replay(engine: GameEngine, options: dict, seed: int, events: Iterable[Event]) -> State:
    """The state of a game after ``events``: every event the engine wrote for it, in order (none
    of the service's own, such as ``game_created``). Raises ReplayError when they do not replay."""
    stored = [comparable(e) for e in events]
    state = engine.new_game(options, random.Random(seed))
    position = 0
    while position < len(stored):
        written = _take_next(engine, state, stored, position)
        if not written:
            raise ReplayError(f"event {position} ({stored[position]['type']}): its step wrote no event")
        expected = stored[position:position + len(written)]
        if written != expected:
            raise ReplayError(f"event {position}: the replay writes {written}, the game has {expected}")
        position += len(written)
    return state


def _take_next(engine: GameEngine, state: State, stored: list[dict], position: int) -> list[dict]:
    """Find the step (or forfeit) recorded by the events from ``position`` (its own event may follow
    events it caused first, e.g. a unit revealed before the engagement) and take it again."""
    for index in range(position, len(stored)):
        event = stored[index]
        if event["type"] in FORFEITS:
            return [comparable(e) for e in engine.forfeit(state, event["seat"], event["type"])]
        step = engine.step_of({**event, "data": full_data(event)})
        if step is None:
            continue
        try:
            taken = engine.apply_step(state, event["seat"], engine.parse_step(step))
        except (IllegalStep, ValidationError) as error:
            raise ReplayError(f"event {index} ({event['type']}): step {step} is refused: {error}") from None
        return [comparable(e) for e in taken]
    raise ReplayError(f"events {position}-{len(stored) - 1} record no step")


__all__ = ["FORFEITS", "ReplayError", "comparable", "full_data", "replay"]
