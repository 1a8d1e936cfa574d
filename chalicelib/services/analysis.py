"""Battle Line's position analysis, for its route: stateless, no service needed."""

from __future__ import annotations

from ..errors import ServiceError
from ..games.battleline.analysis import InvalidPosition, analyze
from ..games.battleline.positions import AnalyzeRequest


def analyze_battleline(request: AnalyzeRequest) -> dict:
    """Stateless: every flag's claim check for a seat in a given position."""
    try:
        return analyze(request)
    except InvalidPosition as error:
        raise ServiceError("invalid_position", str(error)) from None
