"""Issue 39, item 4: the mcts playouts ask the greedy judgement with only the part of the view it reads
(``khan_mcts.greedy_view``); it must choose as it would with the whole view, at every position."""

from __future__ import annotations

import random

from chalicelib.bots.khan_greedy import Greedy
from chalicelib.bots.khan_mcts import greedy_view
from chalicelib.games.khan.engine import ENGINE


def test_item4_playout_view_makes_the_greedy_choice_of_the_whole_view():
    greedy = Greedy()
    compared = 0
    for seed in range(4):
        rng = random.Random(seed)
        options = ENGINE.options_model.model_validate({"max_rounds": 8}).model_dump(mode="json")
        state = ENGINE.new_game(options, rng)
        while ENGINE.result(state) is None:
            seat = ENGINE.to_move(state)
            steps = ENGINE.legal_steps(state, seat)
            whole = greedy.choose({"you": seat, "state": ENGINE.view(state, seat), "legal_steps": steps},
                                  random.Random(compared))
            part = greedy.choose({"you": seat, "state": greedy_view(state, seat), "legal_steps": steps},
                                 random.Random(compared))
            assert part == whole
            compared += 1
            step = whole if rng.random() < 0.8 else rng.choice([s for s in steps if s["type"] != "resign"])
            ENGINE.apply_step(state, seat, step)
    assert compared > 200
