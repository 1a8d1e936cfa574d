"""Whole games played at random by the engines alone (no store), kept as their versions would be
stored (benchmarks/records.py), and turned into records: what the property tests of
``chalicelib.gamerecord.verify`` replay, with the choices of tests/engine/test_replay.py (Khan & General's
fighting player, draw offers)."""

from __future__ import annotations

import random

from benchmarks.records import versions_of_random_game
from chalicelib.gamerecord import format as gamerecords


def record_of_random_game(engine, options: dict, seed: int, rng: random.Random, choose, *, quit_rate: float = 0.0,
                          seat: int | None = None) -> dict:
    versions = versions_of_random_game(engine, options, seed, rng, choose, quit_rate=quit_rate)
    return gamerecords.build(versions, engine, seat, full=versions[-1][0].status == "finished")
