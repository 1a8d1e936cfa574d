"""The games this server runs, by the name clients use in ``createGame``."""

from __future__ import annotations

from .base import GameEngine, IllegalStep, apply_steps
from .battleline import ENGINE as BATTLELINE

ENGINES: dict[str, GameEngine] = {BATTLELINE.name: BATTLELINE}

__all__ = ["ENGINES", "GameEngine", "IllegalStep", "apply_steps"]
