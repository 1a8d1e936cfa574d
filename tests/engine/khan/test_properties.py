"""Khan & General property tests: random legal play to the end with the recommended decks.

After every step: at most one unit a square; each seat's 15 cards each in exactly one place;
nothing hidden from a seat appears in its view; every listed step is accepted and a step that
is not listed is refused. Every game ends by ``max_rounds`` at the latest.
"""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chalicelib.games.base import seat_key
from tests.examples import examples
from chalicelib.games.khan.grid import front
from chalicelib.games.khan.table import SEATS, card_id, card_set, places, units_of

from .helpers import ENGINE, IllegalStep, apply_steps, every_card_once, options

EAGER = {"engage": 6, "command": 5, "deploy": 4, "flip": 4, "advance": 3, "move": 3, "turn": 2, "pay": 2}


def _nearest_enemy(state: dict, seat: int, square: dict) -> int:
    enemies = [(u["x"], u["y"]) for u in state["field"] if u["seat"] != seat]
    return min((abs(x - square["x"]) + abs(y - square["y"]) for x, y in enemies), default=0)


def _faces_enemy(state: dict, seat: int, square: dict, facing: str) -> bool:
    x, y = front((square["x"], square["y"]), facing)
    return any(u["seat"] != seat and (u["x"], u["y"]) == (x, y) for u in state["field"])


def _weight(state: dict, seat: int, step: dict) -> float:
    weight = 1.0
    if step["type"] == "move":  # towards the enemy, so that units meet
        closer = _nearest_enemy(state, seat, step["at"]) - _nearest_enemy(state, seat, step["to"])
        weight *= 4 ** max(-1, min(closer, 3))
        weight *= 8 if _faces_enemy(state, seat, step["to"], step["facing"]) else 1
    if step["type"] == "deploy":
        weight /= 1 + _nearest_enemy(state, seat, step["at"])
    if step["type"] == "command" and card_set(state).commands[step["card"]].kind == "attack":
        weight *= 8 if _nearest_enemy(state, seat, step["at"]) <= 2 else 2
    return weight


def choose(rng: random.Random, state: dict, seat: int, steps: list[dict]) -> dict:
    """A random legal step: first a kind of step, leaning towards fighting so that combat is
    explored, then one of that kind, leaning towards the enemy; rarely a resignation or a draw."""
    playing = [s for s in steps if s["type"] not in ("resign", "offer_draw", "accept_draw", "decline_draw")]
    if not playing or rng.random() < 0.0005:
        return rng.choice(steps)
    kinds = sorted({s["type"] for s in playing})
    kind = rng.choices(kinds, weights=[EAGER.get(k, 1) for k in kinds])[0]
    of_kind = [s for s in playing if s["type"] == kind]
    return rng.choices(of_kind, weights=[_weight(state, seat, s) for s in of_kind])[0]


def public_cards(state: dict, seat: int) -> Counter:
    """The seat's cards anyone may see: face-up units, commands on units, destroyed units."""
    shown = Counter(card_id(state, seat, u["card"]) for u in units_of(state, seat) if u["up"])
    shown += Counter(card_id(state, seat, u["command"]) for u in units_of(state, seat) if u["command"] is not None)
    shown += Counter(card_id(state, seat, n) for n in state["destroyed"][seat_key(seat)])
    return shown


def strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def check_invariants(state: dict) -> None:
    squares = [(u["x"], u["y"]) for u in state["field"]]
    assert len(squares) == len(set(squares)), "two units on one square"
    assert every_card_once(state), {seat: places(state, seat) for seat in SEATS}
    for seat in SEATS:
        opponent = 3 - seat
        theirs = set(state["seats"][seat_key(opponent)]["deck"])
        seen = Counter(s for s in strings(ENGINE.view(state, seat)) if s in theirs)
        allowed = public_cards(state, opponent)
        assert not seen - allowed, f"seat {seat} sees {dict(seen - allowed)} of seat {opponent}'s hidden cards"
        spectator = Counter(s for s in strings(ENGINE.view(state, None)) if s in theirs)
        assert not spectator - allowed


def nudged(step: dict, rng: random.Random) -> dict:
    """The step with one square moved by one, for the negative check."""
    text = json.dumps(step)
    for name in ("to", "at", "target"):
        if name in step:
            moved = json.loads(text)
            moved[name]["x"] += rng.choice((-1, 1))
            return moved
    return step


@settings(max_examples=examples(15, 40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), max_rounds=st.integers(1, 20), advanced=st.booleans())
def test_random_legal_play_keeps_every_invariant_and_ends_by_max_rounds(seed, max_rounds, advanced):
    rng = random.Random(seed)
    state = ENGINE.new_game(options(max_rounds=max_rounds, advanced=advanced, first_seat=None), rng)
    for _ in range(20_000):
        if ENGINE.result(state) is not None:
            break
        seat = ENGINE.to_move(state)
        steps = ENGINE.legal_steps(state, seat)
        step = choose(rng, state, seat, steps)
        wrong = nudged(step, rng)
        if wrong not in steps and wrong["type"] in ("move", "deploy", "engage"):
            try:
                apply_steps(ENGINE, state, seat, [ENGINE.parse_step(wrong)])
            except IllegalStep:
                pass
            else:
                raise AssertionError(f"{wrong} is not listed but was accepted")
        state, _ = apply_steps(ENGINE, state, seat, [step])
        check_invariants(state)
        assert state["round"] <= max_rounds
    result = ENGINE.result(state)
    assert result is not None, "the game did not end"
    assert state["round"] <= max_rounds
    assert result["reason"] in ("annihilation", "routed", "max_rounds", "resign", "draw_agreed")


def test_random_play_meets_fights_and_destroys_units():
    """The random player above is not idle: over ten seeded games, units engage, are wounded,
    destroyed, and attackers advance (so the invariants above are checked through combat too)."""
    seen: Counter = Counter()
    for seed in range(10):
        rng = random.Random(seed)
        state = ENGINE.new_game(options(max_rounds=40, first_seat=None), rng)
        while ENGINE.result(state) is None:
            seat = ENGINE.to_move(state)
            state, events = apply_steps(ENGINE, state, seat, [choose(rng, state, seat, ENGINE.legal_steps(state, seat))])
            seen.update(e["data"].get("outcome", e["type"]) for e in events)
    assert seen["wounded"] and seen["destroyed"] and seen["advance"] and seen["reaction_window"], seen
