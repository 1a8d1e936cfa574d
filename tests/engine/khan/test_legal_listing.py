"""Issue 39, item 2: ``legal_steps`` lists each phase's steps without putting every candidate to its
check (``turns.LEGAL``). It must list exactly what the checks allow, in the same order: over random
and greedy games (through combat, keywords, reactions and advances), every position's listing is
compared with the candidates each put to its check (``turns.checked_steps``)."""

from __future__ import annotations

import random
from collections import Counter

from chalicelib.bots.khan_greedy import Greedy
from chalicelib.games.khan import turns

from .helpers import ENGINE, options
from .test_properties import choose


def _same_listing(state: dict, seat: int) -> str:
    phase = turns.phase_of(state, seat)
    assert turns.LEGAL[phase.name](state, seat) == turns.checked_steps(state, seat, phase), (phase.name, state)
    return phase.name


def test_item2_legal_listing_is_the_checked_candidates_in_every_phase():
    phases: Counter = Counter()
    greedy = Greedy()
    for seed in range(12):
        rng = random.Random(seed)
        state = ENGINE.new_game(options(max_rounds=12, advanced=seed % 3 == 0, first_seat=None), rng)
        while ENGINE.result(state) is None:
            seat = ENGINE.to_move(state)
            phases[_same_listing(state, seat)] += 1
            steps = ENGINE.legal_steps(state, seat)
            if seed % 4 == 3:
                step = greedy.choose({"you": seat, "state": ENGINE.view(state, seat), "legal_steps": steps}, rng)
            elif seed % 4 == 2:
                step = rng.choice([s for s in steps if s["type"] != "resign"])
            else:
                step = choose(rng, state, seat, steps)
            ENGINE.apply_step(state, seat, step)
    assert set(phases) == set(turns.LEGAL), phases  # every phase's listing was compared
