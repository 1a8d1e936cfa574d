"""The Battle Line engine: the interface of ``games.base`` over the rules modules."""

from __future__ import annotations

import random
from operator import itemgetter

from ..base import Event, State, Step, TurnState
from . import setup, steps, turns, views
from .setup import BattleLineOptions

# The rules this engine plays, as a game records them (docs/records.md): a change that would replay a
# stored game differently (another deal, another legal step or result) makes a new version.
RULES_VERSION = "battleline/1"


class BattleLine(TurnState):
    name = "battleline"
    rules_version = RULES_VERSION
    options_model = BattleLineOptions
    step_schema = steps.STEPS.schema
    view_model = views.BattleLineStateView

    def parse_step(self, raw: object) -> Step:
        return steps.STEPS.parse_step(raw)

    def seat_count(self, options: dict) -> int:
        return options.get("players", 2)

    def notation(self, game_id: str, moves: list[dict], seats: list[dict], result: dict | None) -> str:
        """A game's moves (each a seat's steps) in Battle Line's compact notation, with its tags
        (docs/notation.md): a game record's ``notation`` (``result``: None while the game runs)."""
        from . import notation  # (loaded when a record is written)

        return notation.write(moves, notation.tags_for(game_id, seats, result))

    def new_game(self, options: dict, rng: random.Random) -> State:
        return setup.new_game(options, rng)

    def copy_state(self, state: State) -> State:
        """``copy.deepcopy(state)``, faster (``games.base.apply_steps``, the bots' playouts)."""
        return setup.copy_state(state)

    # The rules' own functions, called without a method's frame of their own (a bot's playouts and
    # the benchmarks call these at every decision); the state's keys read by C (TurnState's).
    legal_steps = staticmethod(turns.legal_steps)
    apply_step = staticmethod(turns.apply_step)
    to_move = staticmethod(itemgetter("to_move"))
    phase = staticmethod(itemgetter("phase"))
    result = staticmethod(itemgetter("result"))

    def step_of(self, event: Event) -> Step | None:
        return steps.STEPS.step_of(event)

    def view(self, state: State, seat: int | None) -> dict:
        return views.view(state, seat)

    def public_options(self, options: dict, seat: int | None) -> dict:
        return options

    def forfeit(self, state: State, seat: int, reason: str) -> list[Event]:
        return turns.forfeit(state, seat, reason)

    def match_points(self, result: dict, options: dict) -> dict[str, float]:
        """Tournament points of a finished game (a whole match when ``match_games`` > 1): 5 for
        each game won, the flags held for each game lost or drawn. A match conceded before its
        end (resigned, lost on time, withdrawn) scores like a forfeit: every game to the winner."""
        if "scores" in result:
            if result["reason"] != "match" and result["winner"] is not None:
                return {seat: self.forfeit_points(options) if int(seat) == result["winner"] else 0.0
                        for seat in result["scores"]}
            return {seat: float(points) for seat, points in result["scores"].items()}
        return {seat: 5.0 if int(seat) == result["winner"] else float(flags)
                for seat, flags in result["flags"].items()}

    def flags_won(self, result: dict) -> dict[str, int]:
        """The flags each seat held at the end of each game, over a match's games (a tournament's
        tie-break, ``flags_won``). A game conceded midway counts the flags held when it ended."""
        games = result.get("games") or [result]
        return {seat: sum((game.get("flags") or {}).get(seat, 0) for game in games)
                for seat in result.get("flags") or {}}

    def forfeit_points(self, options: dict) -> float:
        """What a pairing won without play (a bye, an absent opponent) is worth: every game won."""
        return 5.0 * options.get("match_games", 1)


ENGINE = BattleLine()
