"""Battle Line: the rules engine. Pure functions on JSON-able state; see ``games.base``."""

from __future__ import annotations

import random

from ..base import Event, State, Step
from . import setup, steps, turns, views
from .setup import BattleLineOptions


class BattleLine:
    name = "battleline"
    options_model = BattleLineOptions
    step_schema = steps.BattleLineStep
    view_model = views.BattleLineStateView

    def parse_step(self, raw: object) -> Step:
        return steps.parse_step(raw)

    def seat_count(self, options: dict) -> int:
        return options.get("players", 2)

    def new_game(self, options: dict, rng: random.Random) -> State:
        return setup.new_game(options, rng)

    def legal_steps(self, state: State, seat: int) -> list[Step]:
        return turns.legal_steps(state, seat)

    def apply_step(self, state: State, seat: int, step: Step) -> list[Event]:
        return turns.apply_step(state, seat, step)

    def view(self, state: State, seat: int | None) -> dict:
        return views.view(state, seat)

    def to_move(self, state: State) -> int | None:
        return state["to_move"]

    def phase(self, state: State) -> str:
        return state["phase"]

    def result(self, state: State) -> dict | None:
        return state["result"]


ENGINE = BattleLine()
