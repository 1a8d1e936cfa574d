"""Properties of random legal play, in every variant: cards conserved, nothing hidden leaks,
every game ends."""

import copy
import json
import random
import re
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from chalicelib.games.base import allows
from chalicelib.games.battleline.engine import ENGINE
from chalicelib.games.battleline import claims, tactics, turns
from chalicelib.games.battleline.cards import TACTICS, TROOPS, is_troop

from tests.examples import examples

from .helpers import all_cards

MAX_STEPS = 5000  # far above any real game (a match of three games takes about 550 steps)


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


variants = st.one_of(
    st.fixed_dictionaries({
        "claim_timing": st.sampled_from(["basic", "start", "end"]),
        "auto_claim": st.fixed_dictionaries({"1": st.booleans(), "2": st.booleans()}),
    }),
    st.fixed_dictionaries({"players": st.just(3), "claim_timing": st.sampled_from(["basic", "start", "end"])}),
    st.fixed_dictionaries({"match_games": st.integers(2, 3)}),
    st.fixed_dictionaries({"tactics": st.just(False)}),
)


@settings(max_examples=examples(25, 60), deadline=None)
@given(seed=st.integers(0, 2**63 - 1), choices=st.randoms(use_true_random=False), options=variants)
def test_every_card_is_in_exactly_one_place_and_every_game_ends(seed, choices, options):
    def conserved(state):
        expected = Counter(TROOPS) + (Counter(TACTICS) if state["tactics"] else Counter())
        assert Counter(all_cards(state)) == expected

    final = play_out(seed, choices, options, conserved)
    assert final["result"]["reason"] in {"adjacent_flags", "flag_count", "stall", "match"}


def reshuffle_hidden(state: dict, seat: int, rng: random.Random) -> dict:
    """The same game as ``seat`` sees it, with the other hands and the decks dealt anew
    (troops among troop places, tactics among tactics places)."""
    other = copy.deepcopy(state)
    for kind, deck in (("troop", "troop"), ("tactics", "tactics")):
        places = [(key, i) for key, cards in other["hands"].items() if key != str(seat)
                  for i, card in enumerate(cards) if is_troop(card) == (kind == "troop")]
        hidden = [other["hands"][key][i] for key, i in places] + other["decks"][deck]
        rng.shuffle(hidden)
        for (key, i), card in zip(places, hidden):
            other["hands"][key][i] = card
        other["decks"][deck] = hidden[len(places):]
    return other


@settings(max_examples=examples(8, 40), deadline=None)
@given(seed=st.integers(0, 2**63 - 1), choices=st.randoms(use_true_random=False),
       options=st.sampled_from([{}, {"players": 3}, {"match_games": 2}]))
def test_no_view_shows_another_seats_hand_or_the_deck_order(seed, choices, options):
    rng = random.Random(seed)

    def no_leak(state):
        for seat in range(1, state["players"] + 1):
            shown = ENGINE.view(state, seat)
            twin = reshuffle_hidden(state, seat, rng)
            # What a seat sees must not change when what it cannot see changes.
            assert shown == ENGINE.view(twin, seat)
            assert ENGINE.legal_steps(state, seat) == ENGINE.legal_steps(twin, seat)
            hidden = {c for key, cards in state["hands"].items() if key != str(seat) for c in cards}
            hidden |= {c for deck in state["decks"].values() for c in deck}
            assert not set(re.findall(r'"([^"]*)"', json.dumps(shown))) & hidden
            assert "seed" not in json.dumps(shown)
        assert ENGINE.view(state, None)["hand"] == []

    play_out(seed, choices, options, no_leak)


@settings(max_examples=examples(3, 25), deadline=None)
@given(seed=st.integers(0, 2**63 - 1), choices=st.randoms(use_true_random=False))
def test_legal_plays_are_exactly_the_plays_the_rules_accept(seed, choices):
    """legal_steps lists a play if and only if apply_step would accept it, each once and in its
    one spelling (a REDEPLOY discard as ``"discard": true``, whichever spelling was accepted)."""
    def agree(state):
        seat = state["to_move"]
        if state["phase"] != "play" or seat is None:
            return
        listed = tactics.card_candidates(state, seat)
        accepted = [s for s in tactics.play_superset(state, seat) if allows(tactics.check_play, state, seat, s)]
        key = lambda s: json.dumps(s, sort_keys=True)  # noqa: E731
        assert all(tactics.canonical(s) == s for s in listed)
        assert sorted(map(key, listed)) == sorted(set(key(tactics.canonical(s)) for s in accepted))

    play_out(seed, choices, {}, agree)


def _shares_nothing_mutable(a, b, path="state") -> None:
    if isinstance(a, (dict, list)):
        assert a is not b, f"{path} is shared"
        for key, value in (a.items() if isinstance(a, dict) else enumerate(a)):
            _shares_nothing_mutable(value, b[key], f"{path}/{key}")


@settings(max_examples=examples(3, 20), deadline=None)
@given(seed=st.integers(0, 2**63 - 1), choices=st.randoms(use_true_random=False), options=variants)
def test_issue39_copy_state_is_a_deep_copy_sharing_nothing(seed, choices, options):
    """The engine's fast copy (apply_steps' all-or-nothing copy, the bots' playouts) equals
    copy.deepcopy at every step of a game, and changing the copy never changes the game."""
    def copied(state):
        fast = ENGINE.copy_state(state)
        assert fast == copy.deepcopy(state)
        _shares_nothing_mutable(state, fast)

    play_out(seed, choices, options, copied)


@settings(max_examples=examples(3, 20), deadline=None)
@given(seed=st.integers(0, 2**63 - 1), choices=st.randoms(use_true_random=False), options=variants)
def test_issue39_the_engines_unseen_pool_is_the_proofs(seed, choices, options):
    """The engine's quick sum of the unseen troops (``turns.unseen_pool``) is the pool the claim
    proof defines (every troop not face up on a flag or in a discard area), at every step of games
    in every variant."""
    def agree(state):
        pool = turns.unseen_pool(state)
        assert pool == claims.pool_mask(claims.visible_cards(state["flags"], state["discards"]))

    play_out(seed, choices, options, agree)
