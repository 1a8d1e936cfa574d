"""The ten tactics cards (battleline.md, 'Tactics cards'), one named test or more each."""

import pytest

from chalicelib.games.base import IllegalStep
from chalicelib.games.battleline.engine import ENGINE
from chalicelib.games.battleline.turns import claim_checks, legal_steps

from .helpers import build, play


def plays(state, seat, card):
    return [s for s in legal_steps(state, seat) if s.get("card") == card and s["type"] == "play"]


def refused(state, seat, step, match):
    with pytest.raises(IllegalStep, match=match):
        play(state, seat, step)


# ------------------------------------------------------------------ the limit

def test_tactics_at_most_one_ahead_of_the_opponent():
    state = build(hands={1: ["FOG", "MUD", "5R"], 2: ["7G"]})
    play(state, 1, {"type": "play", "card": "FOG", "flag": 1}, {"type": "claim", "flags": []}, {"type": "draw", "deck": "troop"})
    play(state, 2, {"type": "play", "card": "7G", "flag": 2}, {"type": "claim", "flags": []}, {"type": "draw", "deck": "troop"})
    assert plays(state, 1, "MUD") == []
    refused(state, 1, {"type": "play", "card": "MUD", "flag": 3}, "more than one ahead")
    state["tactics_played"]["2"] = 1
    assert [s["flag"] for s in plays(state, 1, "MUD")] == list(range(1, 10))


def test_tactics_cards_may_be_held_beyond_seven():
    state = build(hands={1: ["FOG", "MUD", "SCOUT", "TRAITOR", "DESERTER", "REDEPLOY", "COMPANION", "1R"]}, phase="draw")
    play(state, 1, {"type": "draw", "deck": "tactics"})
    assert len(state["hands"]["1"]) == 9


def test_a_tactics_card_may_be_played_instead_of_passing():
    full = {n: ([f"{n}R", f"{n}O", f"{n}Y"], []) for n in range(1, 10)}
    state = build(flags=full, hands={1: ["FOG", "10G"]})
    steps = legal_steps(state, 1)
    assert {"type": "pass"} in steps and {"type": "play", "card": "FOG", "flag": 4} in steps


def test_a_tactics_card_may_be_played_instead_of_a_troop():
    state = build(hands={1: ["COMPANION", "5R"]})
    assert {"type": "pass"} not in legal_steps(state, 1)
    play(state, 1, {"type": "play", "card": "COMPANION", "flag": 4})
    assert state["flags"][3]["cards"][0] == ["COMPANION"]


# ------------------------------------------------------------------ morale tactics

def test_leader_takes_any_colour_and_value_at_resolution():
    # 8B + ALEXANDER + 10B: the Leader becomes 9B for a wedge of 27.
    state = build(flags={1: (["8B", "ALEXANDER", "10B"], ["1R", "2O", "4Y"])})
    check = claim_checks(state, 1)[1]
    assert check.claimable and "wedge of 27" in check.reason


def test_each_player_plays_only_one_leader_per_game():
    state = build(hands={1: ["ALEXANDER", "DARIUS", "5R"], 2: ["7G"]})
    play(state, 1, {"type": "play", "card": "ALEXANDER", "flag": 1}, {"type": "claim", "flags": []}, {"type": "draw", "deck": "troop"})
    play(state, 2, {"type": "play", "card": "7G", "flag": 1}, {"type": "claim", "flags": []}, {"type": "draw", "deck": "troop"})
    state["tactics_played"]["2"] = 1
    assert plays(state, 1, "DARIUS") == []
    refused(state, 1, {"type": "play", "card": "DARIUS", "flag": 2}, "Leader already")


def test_companion_is_an_eight_of_any_colour():
    state = build(flags={1: (["7Y", "COMPANION", "9Y"], ["1R", "2O", "4Y"])})
    assert "wedge of 24" in claim_checks(state, 1)[1].reason


def test_shield_is_a_one_two_or_three_of_any_colour():
    state = build(flags={1: (["SHIELD", "4G", "5G"], ["1R", "2O", "4Y"])})
    assert "wedge of 12" in claim_checks(state, 1)[1].reason
    state = build(flags={1: (["SHIELD", "7G", "8G"], ["1R", "2O", "4Y"])})
    assert "battalion order of 18" in claim_checks(state, 1)[1].reason


def test_wildcards_on_the_opponents_side_take_their_best_value_in_a_proof():
    # Seat 2 has 9B and a Leader: with one more unseen troop (8B or 10B) the Leader completes
    # a blue wedge, which beats seat 1's phalanx of 10s.
    state = build(flags={1: (["10R", "10O", "10Y"], ["9B", "DARIUS"])})
    check = claim_checks(state, 1)[1]
    assert not check.claimable
    assert check.counterexample["formation"] == "wedge"
    assert "DARIUS" in check.counterexample["wildcards"]


# ------------------------------------------------------------------ environment tactics

def test_fog_only_the_sum_decides():
    # A wedge 1-2-3 (6) loses to a host of 21 under Fog.
    state = build(flags={1: (["1R", "2R", "3R"], ["10G", "9B", "2Y"])}, environment={1: ["FOG"]})
    assert not claim_checks(state, 1)[1].claimable
    assert claim_checks(state, 2)[1].claimable


def test_fog_a_side_still_needs_all_its_cards():
    state = build(flags={1: (["10R", "10O"], [])}, environment={1: ["FOG"]})
    assert "2 of the 3" in claim_checks(state, 1)[1].reason


def test_mud_each_side_needs_four_cards():
    state = build(flags={1: (["5R", "6R", "7R"], [])}, hands={1: ["8R"]}, environment={1: ["MUD"]})
    assert "3 of the 4" in claim_checks(state, 1)[1].reason
    play(state, 1, {"type": "play", "card": "8R", "flag": 1})
    assert state["flags"][0]["completed"][0] is not None


def test_mud_played_on_a_complete_side_makes_it_incomplete():
    state = build(flags={1: (["5R", "6R", "7R"], ["1G"])}, hands={2: ["MUD"]}, to_move=2)
    assert state["flags"][0]["completed"][0] is not None
    play(state, 2, {"type": "play", "card": "MUD", "flag": 1})
    assert state["flags"][0]["completed"][0] is None
    assert state["flags"][0]["environment"] == ["MUD"]


def test_fog_and_mud_may_lie_at_one_flag():
    state = build(hands={1: ["FOG"], 2: ["MUD"]}, environment={})
    play(state, 1, {"type": "play", "card": "FOG", "flag": 5}, {"type": "claim", "flags": []}, {"type": "draw", "deck": "troop"})
    play(state, 2, {"type": "play", "card": "MUD", "flag": 5})
    assert state["flags"][4]["environment"] == ["FOG", "MUD"]
    assert state["flags"][4]["environment_seats"] == {"FOG": 1, "MUD": 2}


def test_environment_cards_cannot_go_to_a_claimed_flag():
    state = build(hands={1: ["FOG"]}, claimed={5: 2})
    refused(state, 1, {"type": "play", "card": "FOG", "flag": 5}, "claimed")


# ------------------------------------------------------------------ Scout

def test_scout_draws_three_one_at_a_time_then_returns_two():
    state = build(hands={1: ["SCOUT", "1R", "2R"]})
    tactics_top, troop_top = state["decks"]["tactics"][-1], state["decks"]["troop"][-1]
    play(state, 1, {"type": "play", "card": "SCOUT"})
    assert state["phase"] == "scout_draw"
    events = play(state, 1, {"type": "scout_draw", "deck": "tactics"})
    assert events[0]["private"] == {"1": {"card": tactics_top}} and events[0]["data"] == {"deck": "tactics"}
    play(state, 1, {"type": "scout_draw", "deck": "troop"}, {"type": "scout_draw", "deck": "troop"})
    assert state["phase"] == "scout_return" and len(state["hands"]["1"]) == 5
    play(state, 1, {"type": "scout_return", "cards": ["1R", troop_top]})
    assert state["decks"]["troop"][-2:] == ["1R", troop_top]  # the second card named is on top
    assert len(state["hands"]["1"]) == 3
    assert "SCOUT" in state["discards"]["1"]


def test_decision_scout_replaces_the_draw_so_the_hand_keeps_its_size():
    state = build(hands={1: ["SCOUT", "1R", "2R", "3R", "4R", "5R", "6R"]})
    play(state, 1, {"type": "play", "card": "SCOUT"},
         {"type": "scout_draw", "deck": "troop"}, {"type": "scout_draw", "deck": "troop"},
         {"type": "scout_draw", "deck": "troop"}, {"type": "scout_return", "cards": ["1R", "2R"]})
    assert state["phase"] == "claim"
    play(state, 1, {"type": "claim", "flags": []})
    assert state["to_move"] == 2 and len(state["hands"]["1"]) == 7


def test_decision_scout_draws_stop_early_when_the_decks_run_out():
    state = build(hands={1: ["SCOUT", "1R"]}, deck=["9G"])
    state["decks"]["tactics"] = []
    play(state, 1, {"type": "play", "card": "SCOUT"}, {"type": "scout_draw", "deck": "troop"})
    # one card drawn, none left anywhere: return one fewer than drawn, i.e. none
    assert state["phase"] == "claim" and sorted(state["hands"]["1"]) == ["1R", "9G"]


def test_scout_needs_a_card_left_in_the_decks():
    state = build(hands={1: ["SCOUT", "1R"]}, deck=[])
    state["decks"]["tactics"] = []
    assert plays(state, 1, "SCOUT") == []
    refused(state, 1, {"type": "play", "card": "SCOUT"}, "at least one card")


def test_scout_returned_cards_stay_private_to_the_returner():
    state = build(hands={1: ["SCOUT", "1R", "2R"]})
    events = play(state, 1, {"type": "play", "card": "SCOUT"}, {"type": "scout_draw", "deck": "troop"},
                  {"type": "scout_draw", "deck": "troop"}, {"type": "scout_draw", "deck": "tactics"},
                  {"type": "scout_return", "cards": ["1R", "2R"]})
    back = next(e for e in events if e["type"] == "scout_return")
    assert back["data"] == {"decks": ["troop", "troop"]}
    assert back["private"] == {"1": {"cards": ["1R", "2R"]}}


# ------------------------------------------------------------------ Redeploy

def test_redeploy_moves_your_card_to_another_flag():
    state = build(flags={1: (["5R", "6R"], [])}, hands={1: ["REDEPLOY"]})
    play(state, 1, {"type": "play", "card": "REDEPLOY", "target": {"flag": 1, "card": "6R"}, "to_flag": 4})
    assert state["flags"][0]["cards"][0] == ["5R"] and state["flags"][3]["cards"][0] == ["6R"]
    assert state["discards"]["1"] == ["REDEPLOY"]


def test_redeploy_may_discard_the_card():
    state = build(flags={1: (["5R", "6R"], [])}, hands={1: ["REDEPLOY"]})
    play(state, 1, {"type": "play", "card": "REDEPLOY", "target": {"flag": 1, "card": "6R"}, "discard": True})
    assert state["discards"]["1"] == ["REDEPLOY", "6R"] and state["flags"][0]["cards"][0] == ["5R"]


def test_redeploy_discard_spelled_discard_true():
    """legal_steps lists the discard as ``"discard": true`` (no to_flag), and the event records it so."""
    state = build(flags={1: (["5R", "6R"], [])}, hands={1: ["REDEPLOY"]})
    target = {"flag": 1, "card": "6R"}
    listed = [s for s in plays(state, 1, "REDEPLOY") if s["target"] == target and "to_flag" not in s]
    assert listed == [{"type": "play", "card": "REDEPLOY", "target": target, "discard": True}]
    assert not any(s.get("to_flag", 0) is None for s in plays(state, 1, "REDEPLOY"))
    events = play(state, 1, listed[0])
    assert events[0]["data"] == {"card": "REDEPLOY", "target": target, "discard": True}


@pytest.mark.parametrize("spelling", [{"to_flag": None}, {}, {"discard": True, "to_flag": None}],
                         ids=["to_flag null", "no to_flag", "discard true and to_flag null"])
def test_redeploy_discards_when_to_flag_is_null_or_absent(spelling):
    """api.md's older spellings of the discard still discard, and are recorded as ``"discard": true``."""
    state = build(flags={1: (["5R", "6R"], [])}, hands={1: ["REDEPLOY"]})
    target = {"flag": 1, "card": "6R"}
    events = play(state, 1, {"type": "play", "card": "REDEPLOY", "target": target, **spelling})
    assert state["discards"]["1"] == ["REDEPLOY", "6R"]
    assert events[0]["data"] == {"card": "REDEPLOY", "target": target, "discard": True}


def test_to_flag_with_discard_true_is_refused():
    """A step that both moves (to_flag) and discards (discard: true) the card says two things."""
    state = build(flags={1: (["5R", "6R"], [])}, hands={1: ["REDEPLOY"]})
    refused(state, 1, {"type": "play", "card": "REDEPLOY", "target": {"flag": 1, "card": "6R"}, "to_flag": 4,
                       "discard": True}, "not both")
    refused(state, 1, {"type": "play", "card": "REDEPLOY", "target": {"flag": 1, "card": "6R"}, "discard": False},
            "discard is true or left out")
    assert state["hands"]["1"] == ["REDEPLOY"]


def test_discard_belongs_to_redeploy_alone():
    state = build(flags={1: (["5G"], ["6R"])}, hands={1: ["DESERTER", "7R"]})
    refused(state, 1, {"type": "play", "card": "DESERTER", "target": {"flag": 1, "card": "6R"}, "discard": True},
            "without discard")
    refused(state, 1, {"type": "play", "card": "7R", "flag": 2, "discard": True}, "without discard")


def test_redeploy_moves_your_environment_card():
    state = build(hands={1: ["REDEPLOY"]}, environment={2: {"FOG": 1}})
    play(state, 1, {"type": "play", "card": "REDEPLOY", "target": {"flag": 2, "card": "FOG"}, "to_flag": 7})
    assert state["flags"][1]["environment"] == [] and state["flags"][6]["environment"] == ["FOG"]


def test_redeploy_only_your_own_cards_on_unclaimed_flags():
    state = build(flags={1: (["5R"], ["6G"]), 2: (["7R"], [])}, hands={1: ["REDEPLOY"]}, claimed={2: 1})
    refused(state, 1, {"type": "play", "card": "REDEPLOY", "target": {"flag": 1, "card": "6G"}, "to_flag": 3},
            "not one of your cards")
    refused(state, 1, {"type": "play", "card": "REDEPLOY", "target": {"flag": 2, "card": "7R"}, "to_flag": 3}, "claimed")
    refused(state, 1, {"type": "play", "card": "REDEPLOY", "target": {"flag": 1, "card": "5R"}, "to_flag": 1},
            "another flag")


# ------------------------------------------------------------------ Deserter

def test_deserter_discards_an_opponents_card():
    state = build(flags={1: ([], ["9G", "ALEXANDER"])}, hands={1: ["DESERTER"]})
    play(state, 1, {"type": "play", "card": "DESERTER", "target": {"flag": 1, "card": "ALEXANDER"}})
    assert state["flags"][0]["cards"][1] == ["9G"]
    assert state["discards"]["2"] == ["ALEXANDER"] and state["discards"]["1"] == ["DESERTER"]


def test_deserter_may_discard_an_opponents_environment_card():
    state = build(hands={1: ["DESERTER"]}, environment={3: {"FOG": 2}})
    play(state, 1, {"type": "play", "card": "DESERTER", "target": {"flag": 3, "card": "FOG"}})
    assert state["flags"][2]["environment"] == [] and state["discards"]["2"] == ["FOG"]


def test_deserter_refuses_your_own_cards():
    state = build(flags={1: (["5R"], [])}, hands={1: ["DESERTER"]})
    refused(state, 1, {"type": "play", "card": "DESERTER", "target": {"flag": 1, "card": "5R"}}, "opponent's cards")


# ------------------------------------------------------------------ Traitor

def test_traitor_takes_an_opponents_troop_into_your_free_slot():
    state = build(flags={1: ([], ["9G", "COMPANION"])}, hands={1: ["TRAITOR"]})
    play(state, 1, {"type": "play", "card": "TRAITOR", "target": {"flag": 1, "card": "9G"}, "to_flag": 6})
    assert state["flags"][0]["cards"][1] == ["COMPANION"] and state["flags"][5]["cards"][0] == ["9G"]


def test_traitor_takes_troops_only():
    state = build(flags={1: ([], ["9G", "COMPANION"])}, hands={1: ["TRAITOR"]})
    refused(state, 1, {"type": "play", "card": "TRAITOR", "target": {"flag": 1, "card": "COMPANION"}, "to_flag": 6},
            "troop cards only")
    assert all(s["target"]["card"] == "9G" for s in plays(state, 1, "TRAITOR"))


def test_decision_a_tactics_card_that_cannot_do_anything_may_not_be_played():
    state = build(hands={1: ["TRAITOR", "DESERTER", "REDEPLOY", "5R"]})
    assert plays(state, 1, "TRAITOR") == plays(state, 1, "DESERTER") == plays(state, 1, "REDEPLOY") == []
    refused(state, 1, {"type": "play", "card": "TRAITOR", "target": {"flag": 1, "card": "9G"}, "to_flag": 2},
            "not on your opponent's side")


# ------------------------------------------------------------------ Mud leaving, completion order

def test_decision_mud_removed_the_owner_of_a_four_card_side_discards_one():
    state = build(flags={2: (["5R", "6R", "7R", "8R"], ["1G", "2G", "3G", "4G"])},
                  environment={2: {"MUD": 2}}, hands={1: ["DESERTER", "9Y"]})
    play(state, 1, {"type": "play", "card": "DESERTER", "target": {"flag": 2, "card": "MUD"}})
    assert state["phase"] == "mud_discard" and state["to_move"] == 1
    assert [p["seat"] for p in state["pending"]] == [1, 2]
    assert legal_steps(state, 2) == [{"type": "resign"}]
    play(state, 1, {"type": "mud_discard", "flag": 2, "card": "5R"})
    assert state["to_move"] == 2
    refused(state, 2, {"type": "mud_discard", "flag": 2, "card": "9Y"}, "not on your side")
    play(state, 2, {"type": "mud_discard", "flag": 2, "card": "4G"})
    assert state["phase"] == "claim" and state["to_move"] == 1 and state["pending"] == []
    assert state["discards"] == {"1": ["DESERTER", "5R"], "2": ["MUD", "4G"]}


def test_decision_completion_order_is_re_tracked_when_a_card_leaves():
    # Seat 1 completed first; Deserter takes a card from seat 1's side, which completes again later.
    state = build(flags={1: (["7Y", "2B", "1G"], ["3Y", "3B", "4G"])}, hands={2: ["DESERTER"], 1: ["2P"]}, to_move=2)
    flag = state["flags"][0]
    assert flag["completed"][0] < flag["completed"][1]
    play(state, 2, {"type": "play", "card": "DESERTER", "target": {"flag": 1, "card": "2B"}},
         {"type": "claim", "flags": []}, {"type": "draw", "deck": "troop"})
    assert flag["completed"][0] is None
    play(state, 1, {"type": "play", "card": "2P", "flag": 1})
    assert flag["completed"][0] > flag["completed"][1]
    assert not claim_checks(state, 1)[1].claimable  # equal hosts: seat 1 now completed last
    assert claim_checks(state, 2)[1].claimable


def test_decision_simultaneous_completion_the_acting_seat_counts_as_completed_last():
    # Both sides have 3 cards under Mud; seat 1 redeploys its Mud away: both complete at once.
    state = build(flags={4: (["7Y", "2B", "1G"], ["3Y", "3B", "4G"])}, environment={4: {"MUD": 1}},
                  hands={1: ["REDEPLOY"]})
    play(state, 1, {"type": "play", "card": "REDEPLOY", "target": {"flag": 4, "card": "MUD"}, "to_flag": 8})
    flag = state["flags"][3]
    assert flag["completed"][1] < flag["completed"][0]
    # Two hosts of 10: the tie goes against seat 1, which acted.
    assert claim_checks(state, 2)[4].claimable and not claim_checks(state, 1)[4].claimable


def test_decision_simultaneous_completion_a_four_card_side_keeps_its_time_through_its_mud_discard():
    # Seat 1's side was complete with 4 cards under Mud; seat 2's 3 cards complete when Mud leaves.
    state = build(flags={2: (["5R", "6R", "7R", "8R"], ["1G", "2G", "3G"])}, environment={2: {"MUD": 1}},
                  hands={2: ["DESERTER"]}, to_move=2)
    flag = state["flags"][1]
    before = flag["completed"][0]
    play(state, 2, {"type": "play", "card": "DESERTER", "target": {"flag": 2, "card": "MUD"}})
    play(state, 1, {"type": "mud_discard", "flag": 2, "card": "8R"})
    assert flag["completed"][0] == before < flag["completed"][1]
    assert ENGINE.view(state, 1)["flags"][1]["first_complete"] == 1


def test_decision_a_wildcard_may_take_the_value_of_a_troop_already_on_the_table():
    # 7B and 10B lie elsewhere, yet the Leader may still be 10B: a wedge 8-9-10 of 27.
    state = build(flags={1: (["8B", "9B", "ALEXANDER"], ["1R", "2O", "4Y"]), 2: (["7B"], ["10B"])})
    assert "wedge of 27" in claim_checks(state, 1)[1].reason


def test_decision_mud_discards_are_owed_by_the_acting_seat_first():
    state = build(flags={2: (["5R", "6R", "7R", "8R"], ["1G", "2G", "3G", "4G"])},
                  environment={2: {"MUD": 1}}, hands={2: ["DESERTER"]}, to_move=2)
    play(state, 2, {"type": "play", "card": "DESERTER", "target": {"flag": 2, "card": "MUD"}})
    assert [p["seat"] for p in state["pending"]] == [2, 1] and state["to_move"] == 2


# ------------------------------------------------------------------ one home per card

def test_every_tactics_card_has_its_rule_plays_and_effect_in_one_entry():
    """A tactics card is one entry of tactics.TACTICS (rule, plays, effect): a card dealt
    without its entry could never be judged."""
    from chalicelib.games.battleline.cards import TACTICS as DEALT
    from chalicelib.games.battleline.tactics import TACTICS

    assert set(TACTICS) == set(DEALT)
    assert all(entry.check.__doc__ for entry in TACTICS.values())
