"""The random bot: any legal step, uniformly (it never resigns nor offers a draw)."""

from __future__ import annotations

import random

from . import playing


class RandomBot:
    name = "random"

    def choose(self, view: dict, rng: random.Random) -> dict:
        return rng.choice(playing(view["legal_steps"]))
