"""Whole games played at random by the engines alone (no store), kept as their versions would be
stored, and turned into records: what the property tests of ``chalicelib.verify`` replay."""

from __future__ import annotations

import copy
import random
from datetime import datetime, timedelta, timezone

from chalicelib import gamerecords, ids
from chalicelib.clock import iso
from chalicelib.records import EventRecord, GameRecord, SeatRecord
from tests.engine.test_replay import ENDINGS, MAX_STEPS, engine_seats

START = datetime(2026, 1, 5, 9, tzinfo=timezone.utc)


def versions_of_random_game(engine, options: dict, seed: int, rng: random.Random, choose, *,
                            quit_rate: float = 0.0, game_id: str = "g_property") -> list:
    """Every version of a game played to its end, one step (or forfeit) a version, as the store keeps
    them: (game as the version left it, the events it added)."""
    state = engine.new_game(options, random.Random(seed))
    players = state.get("players", 2) if isinstance(state.get("players"), int) else 2
    seats = [SeatRecord(s, f"p_{s}", f"Player {s}") for s in range(1, players + 1)]
    salt = ids.new_deal_salt()
    game = GameRecord(game_id, engine.name, 0, "active", seats, options, copy.deepcopy(state), seed, False, "p_1",
                      iso(START), iso(START), 1, engine.to_move(state), deal_salt=salt,
                      rules_version=engine.rules_version)
    versions = [(game, [EventRecord(game_id, 1, 0, "game_created", None, {"game": engine.name}, iso(START))])]
    for number in range(1, MAX_STEPS):
        if engine.result(state) is not None:
            return versions
        seat = engine.to_move(state)
        if rng.random() < quit_rate:
            seat = rng.choice(sorted({seat, *engine_seats(state)}))
            ending = rng.choice(ENDINGS)
            written = (engine.apply_step(state, seat, {"type": "resign"}) if ending == "resign"
                       else engine.forfeit(state, seat, ending))
        else:
            seat, step = choose(state, seat, rng)
            written = engine.apply_step(state, seat, engine.parse_step(step))
        before = versions[-1][0]
        at = iso(START + timedelta(minutes=number))
        events = [EventRecord(game_id, before.event_count + i, number, e["type"], e["seat"], copy.deepcopy(e["data"]),
                              at, copy.deepcopy(e.get("private", {}))) for i, e in enumerate(written, start=1)]
        after = GameRecord(game_id, engine.name, number, "finished" if engine.result(state) else "active", seats,
                           options, copy.deepcopy(state), seed, False, "p_1", iso(START), at,
                           before.event_count + len(events), engine.to_move(state), deal_salt=salt,
                           rules_version=engine.rules_version)
        versions.append((after, events))
    raise AssertionError("the game did not end")


def record_of_random_game(engine, options: dict, seed: int, rng: random.Random, choose, *, quit_rate: float = 0.0,
                          seat: int | None = None) -> dict:
    return gamerecords.build(versions_of_random_game(engine, options, seed, rng, choose, quit_rate=quit_rate),
                             engine, seat)
