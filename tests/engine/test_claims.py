"""Claiming a flag: the proof rule (battleline.md, 'Claiming a flag')."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chalicelib.games.base import IllegalStep
from chalicelib.games.battleline.cards import TROOPS, parse_troop
from chalicelib.games.battleline.claims import best_completion, brute_force_best, unseen_troops
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

troop_lists = st.lists(st.sampled_from(TROOPS), unique=True)


@st.composite
def completion_problems(draw):
    size = draw(st.sampled_from([3, 4]))
    existing = draw(st.lists(st.sampled_from(TROOPS), unique=True, max_size=size - 1))
    rest = [c for c in TROOPS if c not in existing]
    pool = draw(st.lists(st.sampled_from(rest), unique=True, max_size=14 if size == 4 else 22))
    fog = draw(st.booleans())
    return [parse_troop(c) for c in existing], [parse_troop(c) for c in pool], size, fog


@settings(max_examples=1500, deadline=None)
@given(completion_problems())
def test_best_completion_agrees_with_brute_force(problem):
    existing, pool, size, fog = problem
    fast = best_completion(existing, pool, size, fog=fog)
    slow = brute_force_best(existing, pool, size, fog=fog)
    assert (fast.strength if fast else None) == slow
    if fast is not None:
        assert len(fast.added) == size - len(existing)
        assert set(fast.added) <= set(pool)


def test_best_completion_on_the_full_unseen_pool_agrees_with_brute_force():
    pool = unseen_troops(["3R", "4R", "5R", "8B", "7B", "10B"])
    existing = [parse_troop("8B")]
    assert best_completion(existing, pool, 3).strength == brute_force_best(existing, pool, 3)
