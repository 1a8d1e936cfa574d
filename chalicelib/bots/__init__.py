"""Computer players, seated with ``{"bot": name}``.

A bot chooses one step at a time from its seat's view of the game, the very dict a person's
client gets (``legal_steps``, ``state``, ``to_move``...): never the game's state, so it cannot
see another seat's hand or the order of the decks. Its moves go through the same engine and
the same checks as anyone's (``runner.py``).
"""

from __future__ import annotations

import importlib
import random
from typing import Protocol

# game -> bot name -> "module:Class" under chalicelib.bots (imported on first use)
BOTS: dict[str, dict[str, str]] = {
    "battleline": {"random": "random_bot:RandomBot", "greedy": "battleline_greedy:Greedy",
                   "mcts": "battleline_mcts:Mcts"},
    "khan": {"random": "random_bot:RandomBot", "greedy": "khan_greedy:Greedy", "mcts": "khan_mcts:KhanMcts"},
}


class Bot(Protocol):
    name: str

    def choose(self, view: dict, rng: random.Random) -> dict:
        """One of ``view["legal_steps"]``."""
        ...


def bot(game: str, name: str) -> Bot:
    module, cls = BOTS[game][name].split(":")
    return getattr(importlib.import_module(f"{__name__}.{module}"), cls)()


def playing(steps: list[dict]) -> list[dict]:
    """The steps a bot considers: never resigning, offering or answering a draw."""
    chosen = [s for s in steps if s["type"] not in ("resign", "offer_draw", "accept_draw", "decline_draw")]
    return chosen or [s for s in steps if s["type"] == "decline_draw"] or steps
