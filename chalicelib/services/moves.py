"""A game record's options and events as the service keeps them: the engine's options apart from
the time control, the options validated, the service's own events. How a game moves on is
:mod:`.life`'s (:class:`~.life.GameLife`)."""

from __future__ import annotations


from pydantic import TypeAdapter, ValidationError

from ..clocks import timecontrol
from ..kernel.errors import ServiceError, describe_validation
from ..gamerecord.format import SERVICE_KINDS
from ..games import GameEngine
from ..kernel.shapes import DEFERRED
from ..kernel.talk import MESSAGE


TIME_CONTROL = TypeAdapter(timecontrol.TimeControl, config=DEFERRED)
# The service's own events (every other one is the engine's, and replays): a game made, a seat taken
# by an invitation's answer, accepted or joined, a game declined or aborted before its rules began.
SERVICE_EVENTS = (*SERVICE_KINDS, MESSAGE)  # (SERVICE_KINDS: chalicelib/gamerecord/format.py; a message: talk.py)


def engine_options(options: dict) -> dict:
    """A game's options as its engine takes them (the time control is the service's)."""
    return {k: v for k, v in options.items() if k != "time_control"}


def game_options(engine: GameEngine, raw: dict) -> dict:
    """The game's options, validated: the engine's own, and ``time_control``, which the service keeps."""
    raw = dict(raw)
    control = raw.pop("time_control", None)
    try:
        options = engine.options_model.model_validate(raw).model_dump(mode="json")
        if control is not None:
            options["time_control"] = timecontrol.stored_control(TIME_CONTROL.validate_python(control))
    except ValidationError as error:
        special = {problem["type"] for problem in error.errors()} & {"invalid_deck", "unknown_card_set"}
        raise ServiceError(special.pop() if special else "invalid_options", describe_validation(error)) from None
    return options
