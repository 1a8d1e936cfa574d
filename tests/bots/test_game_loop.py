"""One game loop (chalicelib/bots/runner.py:play) for the server's bot turns, the bots' benchmark
and the playtest lab."""

from __future__ import annotations

import logging
import random
from pathlib import Path

from chalicelib.bots import bot
from chalicelib.bots.runner import MAX_STEPS, bot_steps, play
from chalicelib.games import ENGINES

ROOT = Path(__file__).resolve().parents[2]


def new(game: str, seed: int = 3):
    engine = ENGINES[game]
    options = engine.options_model.model_validate({}).model_dump(mode="json")
    return engine, engine.new_game(options, random.Random(seed)), options


def test_the_loop_plays_a_whole_game_to_its_result():
    for game in ("battleline", "khan"):
        engine, state, options = new(game)
        decisions = list(play(engine, state, {1: bot(game, "random"), 2: bot(game, "random")}, options,
                              random.Random(1)))
        assert engine.result(state) is not None
        assert {d.seat for d in decisions} == {1, 2}


def test_the_loop_stops_when_the_decision_passes_to_another_seat():
    engine, state, options = new("khan")
    seat = engine.to_move(state)
    decisions = list(play(engine, state, {seat: bot("khan", "greedy")}, options, random.Random(1), seats={seat}))
    assert decisions and all(d.seat == seat for d in decisions)
    assert engine.result(state) is not None or engine.to_move(state) != seat


def test_a_bots_illegal_choice_is_replaced_by_a_legal_one_and_logged(caplog):
    class Confused:
        name = "confused"

        def choose(self, view, rng):
            return {"type": "no such step"}

    engine, state, options = new("battleline")
    seat = engine.to_move(state)
    with caplog.at_level(logging.ERROR, logger="battleline.bots"):
        steps = bot_steps(engine, state, seat, options, Confused(), random.Random(2))
    assert steps and all(s["type"] != "no such step" for s in steps)
    assert len(steps) <= MAX_STEPS
    assert "not legal now" in caplog.text


def test_bot_turns_leave_the_game_they_were_given_untouched():
    engine, state, options = new("battleline")
    before = repr(state)
    bot_steps(engine, state, engine.to_move(state), options, bot("battleline", "greedy"), random.Random(2))
    assert repr(state) == before


def test_the_benchmark_and_the_lab_play_through_the_one_loop():
    """Neither writes a loop of its own: no engine step is applied outside the runner."""
    for path in ("benchmarks/bots.py", "khan_lab/play.py"):
        source = (ROOT / path).read_text()
        assert "apply_step(" not in source, path
        assert "runner import play" in source, path
