"""Properties of random legal play: cards conserved, nothing hidden leaks, every game ends."""

import copy
import json
import random
import re
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from chalicelib.games.battleline import ENGINE
from chalicelib.games.battleline.cards import TROOPS

from .helpers import all_cards

MAX_STEPS = 1500  # far above any real game: 54 slots, a claim and a draw per play, passes


def play_out(seed: int, choices: random.Random, options: dict, check) -> dict:
    state = ENGINE.new_game(options, random.Random(seed))
    for _ in range(MAX_STEPS):
        if ENGINE.result(state) is not None:
            return state
        seat = ENGINE.to_move(state)
        steps = [s for s in ENGINE.legal_steps(state, seat) if s["type"] != "resign"]
        assert steps, "a seat to move always has a step other than resigning"
        ENGINE.apply_step(state, seat, choices.choice(steps))
        check(state)
    raise AssertionError(f"game did not end within {MAX_STEPS} steps")


options = st.fixed_dictionaries({
    "claim_timing": st.sampled_from(["basic", "start", "end"]),
    "auto_claim": st.fixed_dictionaries({"1": st.booleans(), "2": st.booleans()}),
})


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**63 - 1), choices=st.randoms(use_true_random=False), opts=options)
def test_every_troop_is_in_exactly_one_place_and_every_game_ends(seed, choices, opts):
    def conserved(state):
        assert Counter(all_cards(state)) == Counter(TROOPS)

    final = play_out(seed, choices, opts, conserved)
    assert final["result"]["reason"] in {"adjacent_flags", "flag_count", "stall"}


def reshuffle_hidden(state: dict, seat: int, rng: random.Random) -> dict:
    """The same game as ``seat`` sees it, with the other hand and the deck dealt anew."""
    other = copy.deepcopy(state)
    opponent = "2" if seat == 1 else "1"
    hidden = other["hands"][opponent] + other["decks"]["troop"]
    rng.shuffle(hidden)
    size = len(other["hands"][opponent])
    other["hands"][opponent], other["decks"]["troop"] = hidden[:size], hidden[size:]
    return other


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**63 - 1), choices=st.randoms(use_true_random=False))
def test_no_view_shows_another_seats_hand_or_the_deck_order(seed, choices):
    rng = random.Random(seed)

    def no_leak(state):
        for seat in (1, 2):
            shown = ENGINE.view(state, seat)
            twin = reshuffle_hidden(state, seat, rng)
            # What a seat sees must not change when what it cannot see changes.
            assert shown == ENGINE.view(twin, seat)
            assert ENGINE.legal_steps(state, seat) == ENGINE.legal_steps(twin, seat)
            hidden = set(state["hands"]["2" if seat == 1 else "1"]) | set(state["decks"]["troop"])
            assert not set(re.findall(r'"([^"]*)"', json.dumps(shown))) & hidden
        spectator = ENGINE.view(state, None)
        assert spectator["hand"] == []

    play_out(seed, choices, {}, no_leak)
