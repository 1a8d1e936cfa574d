"""Set-up, the turn, the end of the game (battleline.md, 'Set-up', 'A turn', 'End of game')."""

import random

import pytest

from chalicelib.games.base import IllegalStep, apply_steps
from chalicelib.games.battleline.engine import ENGINE
from chalicelib.games.battleline.turns import adjacent_run, legal_steps

from .helpers import build, play


def test_deal_is_seeded_seven_troops_each():
    one = ENGINE.new_game({}, random.Random(42))
    two = ENGINE.new_game({}, random.Random(42))
    other = ENGINE.new_game({}, random.Random(43))
    assert one == two
    assert one["hands"] != other["hands"]
    assert [len(one["hands"][s]) for s in ("1", "2")] == [7, 7]
    assert len(one["decks"]["troop"]) == 60 - 14


def test_random_starting_seat_unless_first_seat_is_given():
    starters = {ENGINE.new_game({}, random.Random(seed))["to_move"] for seed in range(40)}
    assert starters == {1, 2}
    assert {ENGINE.new_game({"first_seat": 2}, random.Random(s))["to_move"] for s in range(10)} == {2}


def test_turn_is_play_then_claim_then_draw():
    state = build(hands={1: ["5R"], 2: ["6R"]})
    play(state, 1, {"type": "play", "card": "5R", "flag": 1})
    assert (state["to_move"], state["phase"]) == (1, "claim")
    play(state, 1, {"type": "claim", "flags": []})
    assert state["phase"] == "draw"
    top = state["decks"]["troop"][-1]
    play(state, 1, {"type": "draw", "deck": "troop"})
    assert state["hands"]["1"] == [top]
    assert (state["to_move"], state["phase"]) == (2, "play")


def test_claim_timing_start_claims_before_playing():
    state = build(hands={1: ["5R"]}, claim_timing="start", phase="claim")
    with pytest.raises(IllegalStep, match="claim step"):
        play(state, 1, {"type": "play", "card": "5R", "flag": 1})
    play(state, 1, {"type": "claim", "flags": []}, {"type": "play", "card": "5R", "flag": 1})
    assert state["phase"] == "draw"


def test_claim_timing_end_draws_before_claiming():
    state = build(hands={1: ["5R"]}, claim_timing="end")
    play(state, 1, {"type": "play", "card": "5R", "flag": 1})
    assert state["phase"] == "draw"
    play(state, 1, {"type": "draw", "deck": "troop"})
    assert state["phase"] == "claim"
    play(state, 1, {"type": "claim", "flags": []})
    assert state["to_move"] == 2


def test_an_empty_deck_cannot_be_chosen():
    state = build(hands={1: ["5R"]}, phase="draw", tactics=False)
    assert {"type": "draw", "deck": "tactics"} not in legal_steps(state, 1)
    with pytest.raises(IllegalStep, match="tactics deck is empty"):
        play(state, 1, {"type": "draw", "deck": "tactics"})


def test_with_both_decks_empty_there_is_no_draw():
    state = build(hands={1: ["5R"], 2: ["6R"]}, deck=[], tactics=False)
    play(state, 1, {"type": "play", "card": "5R", "flag": 1}, {"type": "claim", "flags": []})
    assert (state["to_move"], state["phase"]) == (2, "play")


def test_must_play_while_holding_a_troop_with_a_free_slot():
    state = build(hands={1: ["5R"]})
    assert {"type": "pass"} not in legal_steps(state, 1)
    with pytest.raises(IllegalStep, match="must play"):
        play(state, 1, {"type": "pass"})


def test_pass_only_when_no_troop_can_be_played():
    full = {n: ([f"{n}R", f"{n}O", f"{n}Y"], []) for n in range(1, 10)}
    state = build(flags=full, hands={1: ["10G"]})
    assert legal_steps(state, 1) == [{"type": "pass"}, {"type": "resign"}]
    play(state, 1, {"type": "pass"})
    assert state["phase"] == "claim"


def test_decision_claim_after_a_pass_the_seat_still_claims_and_draws():
    # Seat 1's side of every flag is full: it cannot play, yet its 10-9-8 red wedge at flag 1 is proven.
    full = {n: ([f"{n}R", f"{n}O", f"{n}Y"], []) for n in range(2, 8)}
    full.update({1: (["10R", "9R", "8R"], []), 8: (["8O", "8Y", "8G"], []), 9: (["9O", "9Y", "9G"], [])})
    state = build(flags=full, hands={1: []})
    play(state, 1, {"type": "pass"})
    assert state["phase"] == "claim" and legal_steps(state, 1)[0] == {"type": "claim", "flags": [1]}
    play(state, 1, {"type": "claim", "flags": [1]})
    assert state["flags"][0]["claimed_by"] == 1 and state["phase"] == "draw"
    play(state, 1, {"type": "draw", "deck": "troop"})
    assert len(state["hands"]["1"]) == 1 and state["to_move"] == 2


def stalled(**chosen) -> dict:
    """No seat holds a card and the decks are empty: each may only pass."""
    return build(deck=[], tactics=False, **chosen)


def test_decision_stall_ends_the_game_most_flags_wins():
    state = stalled(claimed={1: 1, 4: 2, 6: 2})
    play(state, 1, {"type": "pass"}, {"type": "claim", "flags": []})
    assert state["result"] is None
    events = play(state, 2, {"type": "pass"}, {"type": "claim", "flags": []})
    assert state["result"] == {"winner": 2, "reason": "stall", "flags": {"1": 1, "2": 2}}
    assert events[-1]["type"] == "game_finished"


def test_decision_stall_with_equal_flags_is_a_draw():
    state = stalled(claimed={1: 1, 4: 2})
    play(state, 1, {"type": "pass"}, {"type": "claim", "flags": []})
    play(state, 2, {"type": "pass"}, {"type": "claim", "flags": []})
    assert state["result"]["winner"] is None and state["result"]["reason"] == "stall"


def test_decision_stall_a_claim_in_between_restarts_the_count():
    state = stalled(flags={1: (["10R", "9R", "8R"], [])})  # seat 1 can prove flag 1
    play(state, 1, {"type": "pass"}, {"type": "claim", "flags": [1]})
    play(state, 2, {"type": "pass"}, {"type": "claim", "flags": []})
    assert state["result"] is None
    play(state, 1, {"type": "pass"}, {"type": "claim", "flags": []})
    assert state["result"] == {"winner": 1, "reason": "stall", "flags": {"1": 1, "2": 0}}


def test_decision_stall_provable_flags_are_claimed_before_the_stall_ends_the_game():
    # Seat 2 could prove flag 5 but does not claim it; when both have passed, it is claimed for it.
    state = stalled(flags={5: ([], ["10R", "9R", "8R"])})
    play(state, 1, {"type": "pass"}, {"type": "claim", "flags": []})
    events = play(state, 2, {"type": "pass"}, {"type": "claim", "flags": []})
    assert {"type": "claim", "seat": 2, "data": {"flags": [5], "auto": True, "stall": True}} in events
    assert state["result"] is None and state["flags"][4]["claimed_by"] == 2
    assert (state["to_move"], state["passes_in_a_row"]) == (1, 0)
    play(state, 1, {"type": "pass"}, {"type": "claim", "flags": []})
    play(state, 2, {"type": "pass"}, {"type": "claim", "flags": []})  # nothing left to prove: the stall ends it
    assert state["result"] == {"winner": 2, "reason": "stall", "flags": {"1": 0, "2": 1}}


def test_decision_stall_provable_flags_may_win_the_game():
    state = stalled(flags={1: (["10R", "9R", "8R"], []), 2: (["10O", "9O", "8O"], []), 3: (["10Y", "9Y", "8Y"], [])})
    play(state, 1, {"type": "pass"}, {"type": "claim", "flags": []})
    play(state, 2, {"type": "pass"}, {"type": "claim", "flags": []})
    assert state["result"] == {"winner": 1, "reason": "adjacent_flags", "flags": {"1": 3, "2": 0}}


def test_decision_auto_claim_claims_every_provable_flag():
    state = build(flags={1: (["3R", "4R"], ["6R", "6G"])}, hands={1: ["5R"]}, auto_claim={"1": True})
    events = play(state, 1, {"type": "play", "card": "5R", "flag": 1})
    assert state["flags"][0]["claimed_by"] == 1
    assert {"type": "claim", "seat": 1, "data": {"flags": [1], "auto": True}} in events
    assert state["phase"] == "draw"


def test_decision_auto_claim_is_off_by_default():
    state = build(flags={1: (["3R", "4R"], ["6R", "6G"])}, hands={1: ["5R"]})
    play(state, 1, {"type": "play", "card": "5R", "flag": 1})
    assert state["flags"][0]["claimed_by"] is None and state["phase"] == "claim"


def test_win_by_three_adjacent_flags():
    flags = {n: ([f"{n}R", f"{n}O", f"{n}Y"], []) for n in (4, 5)}
    flags[6] = (["10G", "9G", "8G"], ["1P"])
    state = build(flags=flags, claimed={4: 1, 5: 1}, phase="claim")
    play(state, 1, {"type": "claim", "flags": [6]})
    assert state["result"]["winner"] == 1 and state["result"]["reason"] == "adjacent_flags"
    assert state["to_move"] is None


def test_win_by_any_five_flags():
    flags = {n: ([f"{n}R", f"{n}O", f"{n}Y"], []) for n in (1, 3, 5, 7)}
    flags[9] = (["10G", "9G", "8G"], ["1P"])
    state = build(flags=flags, claimed={1: 1, 3: 1, 5: 1, 7: 1}, phase="claim")
    play(state, 1, {"type": "claim", "flags": [9]})
    assert state["result"]["reason"] == "flag_count" and state["result"]["flags"]["1"] == 5


def test_four_scattered_flags_do_not_win():
    flags = {n: ([f"{n}R", f"{n}O", f"{n}Y"], []) for n in (1, 3, 5)}
    flags[7] = (["10G", "9G", "8G"], ["1P"])
    state = build(flags=flags, claimed={1: 1, 3: 1, 5: 1}, phase="claim")
    play(state, 1, {"type": "claim", "flags": [7]})
    assert state["result"] is None


def test_adjacent_flags_wrap_only_on_the_three_player_ring():
    assert adjacent_run([9, 1, 2], 9, ring=False) == 2
    assert adjacent_run([9, 1, 2], 9, ring=True) == 3


def test_nothing_after_the_game_is_over():
    state = build(hands={1: ["5R"]})
    play(state, 2, {"type": "resign"})
    assert state["result"] == {"winner": 1, "reason": "resign", "flags": {"1": 0, "2": 0}}
    assert legal_steps(state, 1) == []
    with pytest.raises(IllegalStep) as refused:
        play(state, 1, {"type": "play", "card": "5R", "flag": 1})
    assert refused.value.code == "game_finished"


def test_resign_is_allowed_out_of_turn():
    state = build(hands={1: ["5R"]})
    assert legal_steps(state, 2) == [{"type": "resign"}]
    play(state, 2, {"type": "resign"})
    assert state["result"]["winner"] == 1


def test_not_your_turn():
    state = build(hands={1: ["5R"], 2: ["6R"]})
    with pytest.raises(IllegalStep) as refused:
        play(state, 2, {"type": "play", "card": "6R", "flag": 1})
    assert refused.value.code == "not_your_turn"


@pytest.mark.parametrize(
    "step, message",
    [
        ({"type": "play", "card": "9Y", "flag": 1}, "do not hold 9Y"),
        ({"type": "play", "card": "5R", "flag": 10}, "name a flag from 1 to 9"),
        ({"type": "play", "card": "5R", "flag": 2}, "side of flag 2 is full"),
        ({"type": "claim", "flags": []}, "not allowed now"),
        ({"type": "draw", "deck": "troop"}, "not allowed now"),
    ],
)
def test_illegal_steps_are_refused_with_a_reason(step, message):
    state = build(flags={2: (["1R", "1O", "1Y"], [])}, hands={1: ["5R"]})
    with pytest.raises(IllegalStep, match=message):
        play(state, 1, step)


def test_steps_apply_all_or_nothing():
    state = build(hands={1: ["5R"]})
    before = repr(state)
    with pytest.raises(IllegalStep) as refused:
        apply_steps(ENGINE, state, 1, [{"type": "play", "card": "5R", "flag": 1}, {"type": "draw", "deck": "troop"}])
    assert refused.value.details["step_index"] == 1
    assert repr(state) == before


def test_completion_order_is_tracked_per_side():
    state = build(flags={1: (["1R", "2R"], ["5B", "6B", "7B"])}, hands={1: ["3R"]})
    play(state, 1, {"type": "play", "card": "3R", "flag": 1})
    flag = state["flags"][0]
    assert flag["completed"][1] < flag["completed"][0]


def test_every_battleline_step_type_is_a_move_of_some_phase_or_resign():
    """A step type is one entry of steps.STEPS and a move of the phase that allows it: one
    listed with no phase could never be played."""
    from chalicelib.games.battleline.steps import STEPS
    from chalicelib.games.battleline.turns import PHASES

    played = {kind for phase in PHASES.values() for kind in phase.moves}
    assert set(STEPS.names()) == played | {"resign"} and "resign" not in played
