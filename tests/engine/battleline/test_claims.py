"""Claiming a flag: the proof rule (battleline.md, 'Claiming a flag')."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chalicelib.games.base import IllegalStep
from tests.examples import examples
from chalicelib.games.battleline.cards import TROOPS
from math import comb

from chalicelib.games.battleline.claims import (
    CARD_BIT,
    Side,
    beating_completion,
    best_completion,
    best_strength,
    brute_force_beats,
    brute_force_best,
    pool_mask,
)
from chalicelib.games.battleline.turns import claim_checks, legal_steps, provable_flags

from .helpers import build, play


def check(state, flag, seat=1):
    return claim_checks(state, seat)[flag]


def test_seed_red_345_against_red6_green6_is_claimable():
    # 000: the opponent can at best make a Phalanx of 6s, which cannot beat a Wedge.
    state = build(flags={5: (["3R", "4R", "5R"], ["6R", "6G"])})
    assert check(state, 5).claimable


def test_seed_red_345_against_blue8_with_blue7_and_blue10_visible_is_claimable():
    # 000: with 7B and 10B on other flags the opponent cannot make a blue Wedge any more.
    state = build(flags={5: (["3R", "4R", "5R"], ["8B"]), 1: ([], ["7B"]), 2: (["10B"], [])})
    assert check(state, 5).claimable


def test_seed_red_345_against_blue8_with_blue7_and_blue9_unseen_is_refused():
    # 000: if 7B and 9B are in a hand or the deck, 7B 8B 9B could still beat the red Wedge.
    state = build(flags={5: (["3R", "4R", "5R"], ["8B"])}, hands={2: ["7B", "9B"]})
    result = check(state, 5)
    assert not result.claimable
    assert result.counterexample["formation"] == "wedge"
    assert "8B" in result.counterexample["cards"]


def test_claim_proof_counts_the_claimers_own_hand_as_unseen():
    # 002: "you may not use the cards in your own hand in the proof". The claimer holds 9B
    # and 10B, so 8B 9B 10B cannot really happen, yet the proof must assume it can.
    state = build(flags={5: (["3R", "4R", "5R"], ["8B"]), 1: ([], ["7B"])}, hands={1: ["9B", "10B"]})
    result = check(state, 5)
    assert not result.claimable
    assert sorted(result.counterexample["cards"]) == ["10B", "8B", "9B"]


def test_cards_on_claimed_flags_count_as_visible():
    state = build(flags={5: (["3R", "4R", "5R"], ["8B"]), 1: (["7B", "1G", "2G"], ["10B", "1Y", "2Y"])},
                  claimed={1: 2})
    assert check(state, 5).claimable


def test_claim_needs_a_complete_side():
    state = build(flags={5: (["3R", "4R"], [])})
    result = check(state, 5)
    assert not result.claimable
    assert "2 of the 3" in result.reason


def test_claim_compares_directly_when_both_sides_are_complete():
    state = build(flags={5: (["3R", "4R", "6R"], ["1B", "2B", "4B"])})
    assert check(state, 5, seat=1).claimable
    assert not check(state, 5, seat=2).claimable
    assert check(state, 5, seat=2).counterexample["cards"] == ["3R", "4R", "6R"]


def test_tie_with_both_complete_goes_to_the_side_completed_first():
    # Seat 1's side is completed first by build(); equal Hosts: the later one (seat 2) loses.
    state = build(flags={5: (["7Y", "2B", "1G"], ["3Y", "3B", "4G"])})
    assert check(state, 5, seat=1).claimable
    assert not check(state, 5, seat=2).claimable


def test_opponent_must_beat_the_claimer_strictly():
    # Seat 2 can at best tie 10-9-8 in a Skirmish Line (27): completing later, it would lose.
    colours_left = {"10R", "9O", "8Y"}
    deck = [c for c in TROOPS if c in colours_left]
    state = build(flags={5: (["10B", "9G", "8P"], [])}, deck=deck)
    # Everything but 10R 9O 8Y is on the table somewhere else or discarded: simulate via discards.
    state["discards"]["1"] = [c for c in TROOPS if c not in colours_left | {"10B", "9G", "8P"}]
    assert check(state, 5).claimable


def test_opponent_who_cannot_complete_cannot_stop_a_claim():
    state = build(flags={5: (["1R", "2B", "4G"], ["5Y"])}, deck=["9Y"])
    state["discards"]["2"] = [c for c in TROOPS if c not in {"1R", "2B", "4G", "5Y", "9Y"}]
    assert check(state, 5).claimable


def test_refused_claim_answers_with_a_counterexample():
    state = build(flags={5: (["1R", "2B", "4G"], ["5Y"])}, phase="claim")
    with pytest.raises(IllegalStep) as refused:
        play(state, 1, {"type": "claim", "flags": [5]})
    assert refused.value.details["flag"] == 5
    example = refused.value.details["counterexample"]
    assert len(example["cards"]) == 3 and "5Y" in example["cards"]
    assert example["formation"] == "wedge"  # 5Y 6Y 7Y beats a Host
    assert state["flags"][4]["claimed_by"] is None


def test_claimed_flag_is_frozen():
    state = build(flags={5: (["3R", "4R", "5R"], ["6R", "6G"])}, hands={1: ["9Y"]}, claimed={5: 1})
    assert not any(step.get("flag") == 5 for step in legal_steps(state, 1))
    with pytest.raises(IllegalStep, match="claimed"):
        play(state, 1, {"type": "play", "card": "9Y", "flag": 5})
    assert not check(state, 5).claimable


def test_provable_flags_lists_every_claimable_flag():
    state = build(flags={1: (["3R", "4R", "5R"], ["6R", "6G"]), 2: (["10G", "9G", "8G"], ["1B"]), 3: (["1Y", "2O", "5P"], [])})
    assert provable_flags(state, 1) == [1, 2]


# ------------------------------------------------------------------ fast proof == brute force

WILD_OPTIONS = {"ALEXANDER": 60, "DARIUS": 60, "COMPANION": 6, "SHIELD": 18}


@st.composite
def proof_problems(draw):
    """A complete claimer side and an incomplete opponent side, wildcards on both, Fog and/or
    Mud, and a pool of unseen troops small enough for the brute force."""
    mud, fog = draw(st.booleans()), draw(st.booleans())
    size = 4 if mud else 3
    wilds = draw(st.permutations(["ALEXANDER", "DARIUS", "COMPANION", "SHIELD"]))
    mine_wild = wilds[:draw(st.integers(0, 2))]
    theirs_wild = wilds[len(mine_wild):][:draw(st.integers(0, min(2, size - 1)))]
    troops = draw(st.permutations(TROOPS))
    mine = list(troops[: size - len(mine_wild)]) + list(mine_wild)
    theirs_troops = draw(st.integers(0, size - 1 - len(theirs_wild)))
    theirs = list(troops[size: size + theirs_troops]) + list(theirs_wild)
    needed = size - len(theirs)
    options = 1
    for w in theirs_wild:
        options *= WILD_OPTIONS[w]
    budget = 60_000 // options
    pool_size = 0
    while pool_size < 24 and comb(pool_size + 1, needed) <= budget:
        pool_size += 1
    rest = troops[size + theirs_troops:]
    pool_cards = rest[: draw(st.integers(0, pool_size))]
    pool = sum(CARD_BIT[c] for c in pool_cards)
    return mine, theirs, pool, size, fog


@settings(max_examples=examples(400, 2500), deadline=None)
@given(proof_problems())
def test_fast_proof_never_disagrees_with_brute_force(problem):
    mine, theirs, pool, size, fog = problem
    target = best_strength(mine, fog=fog)
    assert target == brute_force_best(Side.of(mine), 0, len(mine), fog=fog)
    opponent = Side.of(theirs)
    best = best_completion(opponent, pool, size, fog=fog)
    assert (best.strength if best else None) == brute_force_best(opponent, pool, size, fog=fog)
    beating = beating_completion(opponent, pool, size, target, fog=fog)
    assert (beating is not None) == brute_force_beats(opponent, pool, size, target, fog=fog)
    if beating is not None:
        assert len(beating.added) == size - len(theirs)
        assert all(pool & CARD_BIT[str(t)] for t in beating.added)
        assert beating.strength > target


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(TROOPS), unique=True, max_size=2), st.lists(st.sampled_from(TROOPS), unique=True, max_size=20),
       st.booleans())
def test_best_completion_of_plain_troops_agrees_with_brute_force(existing, pool_cards, fog):
    existing = [c for c in existing]
    pool = sum(CARD_BIT[c] for c in pool_cards if c not in existing)
    side = Side.of(existing)
    best = best_completion(side, pool, 3, fog=fog)
    assert (best.strength if best else None) == brute_force_best(side, pool, 3, fog=fog)


def test_best_completion_on_the_full_unseen_pool_agrees_with_brute_force():
    pool = pool_mask(["3R", "4R", "5R", "8B", "7B", "10B"])
    side = Side.of(["8B"])
    assert best_completion(side, pool, 3).strength == brute_force_best(side, pool, 3)
