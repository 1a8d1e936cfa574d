"""The games this server runs, by the name clients use in ``createGame``.

Each game's engine (and presenter) is imported when first asked for: a function that only
plays Battle Line never loads Khan & General, and the schedules load neither until a game
needs them (a Lambda cold start pays for what it uses).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from typing import Generic, TypeVar

from .base import GameEngine, IllegalStep, apply_steps

GAMES = ("battleline", "khan")
T = TypeVar("T")


class OnFirstUse(Mapping[str, T], Generic[T]):
    """``chalicelib.games.<game>.<module>.<attribute>`` for each game, imported on first use."""

    def __init__(self, module: str, attribute: str) -> None:
        self._module = module
        self._attribute = attribute
        self._loaded: dict[str, T] = {}

    def __getitem__(self, game: str) -> T:
        if game not in GAMES:
            raise KeyError(game)
        if game not in self._loaded:
            module = importlib.import_module(f"{__name__}.{game}.{self._module}")
            self._loaded[game] = getattr(module, self._attribute)
        return self._loaded[game]

    def __iter__(self) -> Iterator[str]:
        return iter(GAMES)

    def __len__(self) -> int:
        return len(GAMES)


ENGINES: OnFirstUse[GameEngine] = OnFirstUse("engine", "ENGINE")

__all__ = ["ENGINES", "GAMES", "GameEngine", "IllegalStep", "OnFirstUse", "apply_steps"]
