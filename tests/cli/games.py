"""Games played in-process, seen as the API shows them to a seat (views and events), for the
command line's tests without a server."""

from __future__ import annotations

import random
from collections.abc import Iterator

from chalicelib.games import ENGINES
from chalicelib.store.records import EventRecord

SEATS = [{"seat": 1, "player_id": "p_ann", "name": "Ann", "invited": False, "bot": None},
         {"seat": 2, "player_id": "p_bob", "name": "Bob", "invited": False, "bot": None}]


def view_of(game: str, engine, state, seat: int | None, version: int = 0) -> dict:
    """A seat's view, as getGame answers it."""
    result = engine.result(state)
    return {"game_id": "g_1", "game": game, "version": version, "seats": SEATS, "you": seat,
            "status": "finished" if result else "active", "to_move": None if result else engine.to_move(state),
            "phase": engine.phase(state), "legal_steps": engine.legal_steps(state, seat) if seat else [],
            "state": engine.view(state, seat), "result": result, "clock": None}


def positions(game: str, seed: int, steps: int = 600, options: dict | None = None) -> Iterator[tuple[dict, list]]:
    """Every decision of a random game: the view of the seat to move, and the events it has seen."""
    for view, events, _hidden in secret_positions(game, seed, steps, options):
        yield view, events


def secret_positions(game: str, seed: int, steps: int = 600,
                     options: dict | None = None) -> Iterator[tuple[dict, list, list[str]]]:
    """As ``positions``, with the cards in the other seats' hands (Battle Line): what the seat
    to move must never be shown."""
    engine = ENGINES[game]
    chosen = engine.options_model.model_validate(options or {}).model_dump(mode="json")
    state = engine.new_game(chosen, random.Random(seed))
    rng, records = random.Random(seed), []
    while engine.result(state) is None and len(records) < steps:
        seat = engine.to_move(state)
        hidden = [c for key, held in state.get("hands", {}).items() if key != str(seat) for c in held] \
            if game == "battleline" else []
        view = view_of(game, engine, state, seat, len(records))
        yield view, [r.seen_by(seat) for r in records], hidden
        legal = view["legal_steps"]
        choices = [s for s in legal if s["type"] not in ("resign", "offer_draw")] or legal
        for raw in engine.apply_step(state, seat, rng.choice(choices)):
            records.append(EventRecord("g_1", len(records) + 1, len(records), raw["type"], raw["seat"], raw["data"],
                                       "2026-11-24T00:00:00.000Z", raw.get("private", {})))


def finished(game: str, seed: int, seat: int = 1) -> tuple[dict, list]:
    """A random game played to its end, from ``seat``'s side."""
    engine = ENGINES[game]
    state = engine.new_game(engine.options_model.model_validate({}).model_dump(mode="json"), random.Random(seed))
    rng, records = random.Random(seed), []
    while engine.result(state) is None:
        mover = engine.to_move(state)
        legal = [s for s in engine.legal_steps(state, mover) if s["type"] not in ("resign", "offer_draw")]
        for raw in engine.apply_step(state, mover, rng.choice(legal)):
            records.append(EventRecord("g_1", len(records) + 1, len(records), raw["type"], raw["seat"], raw["data"],
                                       "2026-11-24T00:00:00.000Z", raw.get("private", {})))
    return view_of(game, engine, state, seat, len(records)), [r.seen_by(seat) for r in records]
