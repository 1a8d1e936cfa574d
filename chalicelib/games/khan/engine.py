"""The Khan & General engine: the interface of ``games.base`` over the rules modules. The cards
are data (``cardset.py``): the engine reads them from the game's card set."""

from __future__ import annotations

import random

from ...kernel.i18n import N_
from ..base import Event, State, Step, TurnState
from . import setup, steps, turns, views
from .cardset import DEFAULT_CARD_SET, REGISTRY
from .setup import KhanOptions

# The rules this engine plays, as a game records them (docs/records.md): a change that would replay a
# stored game differently makes a new version. The cards are not in it: a game records its card set.
RULES_VERSION = "khan/1"


class Khan(TurnState):
    name = "khan"
    rules_version = RULES_VERSION
    title = N_("Khan & General")  # translated where shown (the presenter's ``title``)
    options_model = KhanOptions
    step_schema = steps.STEPS.schema
    view_model = views.KhanStateView

    def parse_step(self, raw: object) -> Step:
        return steps.STEPS.parse_step(raw)

    def seat_count(self, options: dict) -> int:
        return 2

    def new_game(self, options: dict, rng: random.Random) -> State:
        return setup.new_game(options, rng)

    def legal_steps(self, state: State, seat: int) -> list[Step]:
        return turns.legal_steps(state, seat)

    def apply_step(self, state: State, seat: int, step: Step) -> list[Event]:
        return turns.apply_step(state, seat, step)

    def step_of(self, event: Event) -> Step | None:
        return steps.STEPS.step_of(event)

    def view(self, state: State, seat: int | None) -> dict:
        return views.view(state, seat)

    def public_options(self, options: dict, seat: int | None) -> dict:
        """The options as a seat may see them: its own deck, never the other seat's."""
        decks = options.get("decks", {})
        return {**options, "decks": {s: deck for s, deck in decks.items() if seat is not None and s == str(seat)}}

    def forfeit(self, state: State, seat: int, reason: str) -> list[Event]:
        return turns.forfeit(state, seat, reason)

    def match_points(self, result: dict, options: dict) -> dict[str, float]:
        """Tournament points: 1 for a win, ½ for a draw, 0 for a loss."""
        return {seat: 0.5 if result["winner"] is None else float(int(seat) == result["winner"]) for seat in ("1", "2")}

    def forfeit_points(self, options: dict) -> float:
        return 1.0

    def rating_pool(self, options: dict) -> str:
        """Each card set is rated apart, as Lichess rates variants apart (docs/khan.md, Ratings): the
        default set's games keep the game type's pool ("khan"), another set's have their own
        ("khan:<set id>", whatever its version). An unknown set raises UnknownCardSet (a LookupError)."""
        card_set = options.get("card_set") or DEFAULT_CARD_SET
        if card_set == DEFAULT_CARD_SET:
            return self.name
        REGISTRY.latest(card_set)
        return f"{self.name}:{card_set}"


ENGINE = Khan()
