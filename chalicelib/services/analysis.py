"""Battle Line's position analysis, for its route: stateless, no service needed."""

from __future__ import annotations

from ..kernel.errors import ServiceError
from ..kernel.i18n import say
from ..games.battleline.analysis import InvalidPosition, analyze
from ..games.battleline.positions import AnalyzeRequest


def analyze_battleline(request: AnalyzeRequest) -> dict:
    """Stateless: every flag's claim check for a seat in a given position."""
    try:
        found = analyze(request)
    except InvalidPosition as error:
        raise ServiceError("invalid_position", str(error)) from None
    # each flag's reason, a sentence for a person, in the language spoken (the request's)
    return {**found, "flags": [{**flag, "reason": say(flag["reason"])} for flag in found["flags"]]}
