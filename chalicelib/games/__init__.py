"""The games this server runs, by the name clients use in ``createGame``."""

from __future__ import annotations

from .base import GameEngine, IllegalStep, apply_steps
from .battleline import ENGINE as BATTLELINE
from .khan import ENGINE as KHAN

ENGINES: dict[str, GameEngine] = {BATTLELINE.name: BATTLELINE, KHAN.name: KHAN}

__all__ = ["ENGINES", "GameEngine", "IllegalStep", "apply_steps"]
