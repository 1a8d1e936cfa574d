"""Khan & General: every rule of ../shared/specs/khan.md on small hand-built positions.

Seat 1 plays the Khan (cavalry) and is first; seat 2 plays the General (infantry). North is
+y: seat 1's units face N, seat 2's face S, unless a test says otherwise.
"""

from __future__ import annotations

import pytest

from .helpers import ENGINE, act, at, battle, cost, every_card_once, legal, new_game, put, refused

KHAN_PLUS = ["heavy_cavalry", "heavy_cavalry", "light_cavalry", "light_cavalry", "horse_archers",
             "wheel", "screen", "charge", "lance", "raid", "parthian_shot", "arrow_rain", "envelop", "stand_firm",
             "gallop"]
GENERAL_PLUS = ["spearmen", "spearmen", "swordsmen", "swordsmen", "archers",
                "hold_fast", "push_of_pike", "massed_volley", "bind", "pike_wall", "shield_wall", "advance", "march",
                "about_face", "volley"]


def engagement(events):
    return next(e["data"] for e in events if e["type"] == "engagement")


# ---------------------------------------------------------------- set-up

def test_setup_first_seat_places_a_unit_face_up_at_the_origin_facing_north():
    state = new_game()
    assert state["phase"] == "setup" and ENGINE.to_move(state) == 1
    assert sorted(s["unit"] for s in legal(state, 1, "place")) == ["heavy_cavalry", "horse_archers", "light_cavalry"]
    act(state, 1, {"type": "place", "unit": "light_cavalry"})
    unit = state["field"][0]
    assert (unit["x"], unit["y"], unit["facing"], unit["up"]) == (0, 0, "N", True)
    assert ENGINE.to_move(state) == 2


def test_setup_second_seat_places_next_to_it_facing_south_then_each_holds_14_cards():
    state = new_game()
    act(state, 1, {"type": "place", "unit": "heavy_cavalry"})
    act(state, 2, {"type": "place", "unit": "spearmen"})
    spearmen = state["field"][1]
    assert (spearmen["x"], spearmen["y"], spearmen["facing"], spearmen["up"]) == (0, 1, "S", True)
    hands = {seat: ENGINE.view(state, seat)["hand"] for seat in (1, 2)}
    assert all(len(hand) == 14 for hand in hands.values())
    assert sum(card in ("spearmen", "swordsmen", "archers") for card in hands[2]) == 4
    assert state["phase"] == "maintenance" and ENGINE.to_move(state) == 1 and state["round"] == 1


def test_a_random_seat_is_first_unless_the_option_fixes_it():
    import random

    firsts = {ENGINE.new_game(ENGINE.options_model.model_validate({}).model_dump(mode="json"),
                              random.Random(seed))["first"] for seed in range(20)}
    assert firsts == {1, 2}
    assert new_game(first_seat=2)["first"] == 2


# ---------------------------------------------------------------- the card-count marker

def _end_turns(state, count):
    for _ in range(count):
        seat = ENGINE.to_move(state)
        act(state, seat, {"type": "end_action"})
        act(state, ENGINE.to_move(state), {"type": "end_turn"})


def test_card_count_marker_gives_2_3_then_3_4_then_4_5_then_5_5():
    state = new_game()
    act(state, 1, {"type": "place", "unit": "heavy_cavalry"})
    act(state, 2, {"type": "place", "unit": "spearmen"})
    seen = []
    for _ in range(5):
        seen.append((state["round"], state["marker"], ENGINE.view(state, 1)["limits"]))
        _end_turns(state, 2)
    assert [(r, m, (lim["1"], lim["2"])) for r, m, lim in seen] == [
        (1, 2, (2, 3)), (2, 3, (3, 4)), (3, 4, (4, 5)), (4, 5, (5, 5)), (5, 5, (5, 5))]


def test_decision_every_card_from_hand_to_table_counts_against_the_limit():
    state = battle(round=1)  # seat 1 may play 2 cards
    put(state, 1, "heavy_cavalry", 0, 0)
    put(state, 2, "spearmen", 0, 3, "S")
    act(state, 1, {"type": "deploy", "unit": "light_cavalry", "at": at(-1, 0), "facing": "N"},
        {"type": "command", "card": "gallop", "at": at(0, 0)}, {"type": "skip", "at": at(0, 0)})
    assert state["turn"]["played"] == 2
    assert "may play 2 cards" in refused(state, 1, {"type": "pay", "card": "lance"})


def test_the_second_seat_plays_one_card_more():
    state = battle(round=1, active=2)
    assert ENGINE.view(state, 2)["limits"] == {"1": 2, "2": 3}


# ---------------------------------------------------------------- maintenance

def test_maintenance_flips_a_face_down_unit_face_up_keeping_its_facing():
    state = battle(phase="maintenance")
    put(state, 1, "heavy_cavalry", 0, 0)
    put(state, 1, "light_cavalry", 1, 0, "E", up=False)
    act(state, 1, {"type": "flip", "at": at(1, 0)})
    unit = state["field"][1]
    assert unit["up"] and unit["facing"] == "E"


def test_flipping_is_only_done_in_maintenance():
    state = battle(phase="maintenance")
    put(state, 1, "heavy_cavalry", 0, 0)
    put(state, 1, "light_cavalry", 1, 0, up=False)
    act(state, 1, {"type": "pay", "card": "lance"})  # the action phase has begun
    assert refused(state, 1, {"type": "flip", "at": at(1, 0)}).startswith("'flip' cannot be taken in the action phase")


def test_a_step_of_another_phase_is_refused_by_its_command_with_what_the_phase_allows():
    """Named as a player writes it ("end turn", not end_turn), with the steps that can be taken instead."""
    state = battle(phase="maintenance")
    put(state, 1, "heavy_cavalry", 0, 0)
    assert refused(state, 1, {"type": "end_turn"}) == (
        "'end turn' cannot be taken in the maintenance phase; now: 'flip', 'discard defence', 'deploy', 'command', "
        "'pay', or 'end action'")


def test_maintenance_may_discard_a_defence_command_lying_on_your_unit():
    state = battle(phase="maintenance")
    put(state, 1, "heavy_cavalry", 0, 0, command="stand_firm")
    act(state, 1, {"type": "discard_defence", "at": at(0, 0)})
    view = ENGINE.view(state, 1)
    assert view["field"][0]["command"] is None and view["discards"]["1"]["cards"] == ["stand_firm"]


def test_a_face_down_unit_cannot_take_commands():
    state = battle()
    put(state, 1, "heavy_cavalry", 0, 0)
    put(state, 1, "light_cavalry", 1, 0, up=False)
    assert "face-down unit cannot take commands" in refused(state, 1, {"type": "command", "card": "gallop",
                                                                        "at": at(1, 0)})


# ---------------------------------------------------------------- deployment

def test_deploy_around_your_face_up_units_and_not_adjacent_to_any_enemy():
    state = battle()
    put(state, 1, "heavy_cavalry", 0, 0)
    put(state, 1, "light_cavalry", 5, 0, up=False)  # face down: nothing is deployed around it
    put(state, 2, "spearmen", 0, 1, "S")
    squares = {(s["at"]["x"], s["at"]["y"]) for s in legal(state, 1, "deploy")}
    assert squares == {(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0)}
    assert "next to an enemy unit" in refused(state, 1, {"type": "deploy", "unit": "horse_archers", "at": at(1, 1),
                                                         "facing": "N"})
    assert "around one of your face-up units" in refused(state, 1, {"type": "deploy", "unit": "horse_archers",
                                                                    "at": at(5, 1), "facing": "N"})


def test_a_face_down_enemy_also_forbids_the_squares_next_to_it():
    state = battle()
    put(state, 1, "heavy_cavalry", 0, 0)
    put(state, 2, "archers", 2, 0, "W", up=False)
    assert (1, 0) not in {(s["at"]["x"], s["at"]["y"]) for s in legal(state, 1, "deploy")}


def test_a_deployed_unit_lies_face_down_with_the_facing_chosen():
    state = battle()
    put(state, 1, "heavy_cavalry", 0, 0)
    act(state, 1, {"type": "deploy", "unit": "horse_archers", "at": at(1, -1), "facing": "W"})
    unit = state["field"][-1]
    assert (unit["x"], unit["y"], unit["facing"], unit["up"]) == (1, -1, "W", False)
    assert ENGINE.view(state, 2)["field"][-1]["unit"] is None  # an unknown unit to the enemy


def test_deploy_then_command_then_pay_in_that_order():
    state = battle()
    put(state, 1, "heavy_cavalry", 0, 0)
    act(state, 1, {"type": "command", "card": "gallop", "at": at(0, 0)}, {"type": "skip", "at": at(0, 0)})
    assert "before any command" in refused(state, 1, {"type": "deploy", "unit": "horse_archers", "at": at(1, 0),
                                                      "facing": "N"})
    put(state, 1, "light_cavalry", 1, 0)
    act(state, 1, {"type": "pay", "card": "lance"})
    assert "before the cost is paid" in refused(state, 1, {"type": "command", "card": "gallop", "at": at(1, 0)})


# ---------------------------------------------------------------- the command zone

def test_pay_a_cost_into_a_new_sequence_or_at_the_end_of_one():
    state = battle()
    put(state, 1, "heavy_cavalry", 0, 0)
    cost(state, 1, "lance")
    act(state, 1, {"type": "pay", "card": "envelop", "sequence": 1})
    assert [len(s) for s in state["sequences"]["1"]] == [2]
    state = battle()
    act(state, 1, {"type": "pay", "card": "envelop"})
    assert [len(s) for s in state["sequences"]["1"]] == [1]


def test_only_one_cost_is_paid_a_turn():
    state = battle()
    act(state, 1, {"type": "pay", "card": "envelop"})
    assert "one cost a turn" in refused(state, 1, {"type": "pay", "card": "lance"})


def test_decision_dead_payments_a_sequence_grows_only_to_the_highest_cost_in_the_deck():
    state = battle()  # the recommended Khan deck: lance, arrow_rain and envelop cost 2, none more
    two = cost(state, 1, "lance", "envelop")
    one = cost(state, 1, "charge")
    assert "could never be used" in refused(state, 1, {"type": "pay", "card": "raid", "sequence": two})
    assert {"type": "pay", "card": "raid", "sequence": one} in legal(state, 1, "pay")
    assert {"type": "pay", "card": "raid"} in legal(state, 1, "pay")
    cheap = ["heavy_cavalry", "heavy_cavalry", "light_cavalry", "light_cavalry", "horse_archers",
             "gallop", "gallop", "wheel", "wheel", "charge", "charge", "raid", "raid", "screen", "stand_firm"]
    state = battle(decks={"1": cheap})  # nothing costs more than 1: a sequence never holds 2
    one = cost(state, 1, "gallop")
    assert "more than the highest cost of a command in your deck (1)" in refused(
        state, 1, {"type": "pay", "card": "wheel", "sequence": one})
    assert legal(state, 1, "pay") == [{"type": "pay", "card": c} for c in
                                      ["charge", "gallop", "raid", "screen", "stand_firm", "wheel"]]


def test_a_command_is_paid_by_a_sequence_of_exactly_its_cost_which_goes_to_the_discard_pile():
    state = battle()
    put(state, 1, "heavy_cavalry", 0, 0)
    two = cost(state, 1, "lance", "envelop")
    one = cost(state, 1, "arrow_rain")
    assert "costs exactly 1" in refused(state, 1, {"type": "command", "card": "charge", "at": at(0, 0),
                                                   "sequence": two})
    act(state, 1, {"type": "command", "card": "charge", "at": at(0, 0), "sequence": one},
        {"type": "skip", "at": at(0, 0)})
    assert ENGINE.view(state, 1)["discards"]["1"]["cards"] == ["arrow_rain"]
    assert len(state["sequences"]["1"]) == 1 and ENGINE.view(state, 1)["field"][0]["command"] == "charge"
    assert every_card_once(state)


def test_a_command_that_costs_nothing_needs_no_sequence():
    state = battle()
    put(state, 1, "heavy_cavalry", 0, 0)
    act(state, 1, {"type": "command", "card": "gallop", "at": at(0, 0)})
    assert ENGINE.view(state, 1)["field"][0]["command"] == "gallop"


def test_a_command_goes_only_on_a_unit_of_a_type_it_names_that_carries_no_command():
    state = battle()
    put(state, 1, "light_cavalry", 0, 0)
    put(state, 1, "heavy_cavalry", 1, 0, command="gallop")
    one = cost(state, 1, "arrow_rain", "envelop")
    assert "light_cavalry cannot execute lance" in refused(state, 1, {"type": "command", "card": "lance",
                                                                     "at": at(0, 0), "sequence": one})
    assert "carries a command already" in refused(state, 1, {"type": "command", "card": "gallop", "at": at(1, 0)})


def test_cards_in_the_discard_pile_cannot_be_played_again_this_turn():
    state = battle()
    put(state, 1, "heavy_cavalry", 0, 0)
    one = cost(state, 1, "lance")
    act(state, 1, {"type": "command", "card": "charge", "at": at(0, 0), "sequence": one},
        {"type": "skip", "at": at(0, 0)})
    assert "lance" not in ENGINE.view(state, 1)["hand"]
    assert "you hold no lance" in refused(state, 1, {"type": "pay", "card": "lance"})


def test_move_and_attack_commands_only_in_your_own_turn():
    state = battle(active=1)
    put(state, 1, "heavy_cavalry", 0, 0)
    put(state, 2, "spearmen", 0, 1, "S")
    cost(state, 2, "march")
    act(state, 1, {"type": "end_action"})
    assert state["phase"] == "reaction" and ENGINE.to_move(state) == 2
    assert "only defence commands" in refused(state, 2, {"type": "command", "card": "pike_thrust", "at": at(0, 1),
                                                         "sequence": 1})


# ---------------------------------------------------------------- the reaction window

def test_decision_the_reaction_window_is_the_one_moment_for_defence_in_the_opponents_turn():
    state = battle(active=1)
    put(state, 1, "heavy_cavalry", 0, 0, command="charge")
    put(state, 2, "spearmen", 0, 1, "S")
    seq = cost(state, 2, "march")
    assert ENGINE.legal_steps(state, 2) == [{"type": "resign"}]  # the action phase is seat 1's alone
    act(state, 1, {"type": "end_action"})
    assert state["phase"] == "reaction"
    act(state, 2, {"type": "command", "card": "pike_wall", "at": at(0, 1), "sequence": seq},
        {"type": "end_reaction"})
    assert state["phase"] == "engagements" and ENGINE.to_move(state) == 1
    assert ENGINE.view(state, 1)["field"][0]["command"] == "pike_wall"  # the view lists the north row first
    assert ENGINE.legal_steps(state, 2) == [{"type": "resign"}]


def test_defence_played_in_the_reaction_window_counts_against_no_limit():
    state = battle(active=1, round=1)
    put(state, 1, "heavy_cavalry", 0, 0)
    put(state, 2, "spearmen", 0, 1, "S")
    put(state, 2, "swordsmen", 1, 2, "S")
    cost(state, 2, "march")
    cost(state, 2, "advance")
    act(state, 1, {"type": "end_action"})
    act(state, 2, {"type": "command", "card": "pike_wall", "at": at(0, 1), "sequence": 1},
        {"type": "command", "card": "shield_wall", "at": at(1, 2), "sequence": 1},  # the other one, now first
        {"type": "end_reaction"})
    assert state["turn"]["played"] == 0


def test_the_reaction_window_is_skipped_when_the_opponent_can_play_no_defence():
    state = battle(active=1)
    put(state, 1, "heavy_cavalry", 0, 0)
    put(state, 2, "archers", 0, 1, "S")  # no defence card names archers
    act(state, 1, {"type": "end_action"})
    assert state["phase"] == "engagements" and ENGINE.to_move(state) == 1


# ---------------------------------------------------------------- engagements

def duel(attacker_command=None, defender="spearmen", defender_command=None, **kw):
    """Seat 1's heavy cavalry at (0, 0) facing N, seat 2's unit at (0, 1) facing S; seat 1 to engage."""
    state = battle(**kw)
    put(state, 1, "heavy_cavalry", 0, 0, command=attacker_command)
    put(state, 2, defender, 0, 1, "S", command=defender_command)
    state["phase"] = "engagements"
    return state


def test_only_a_unit_carrying_an_attack_command_attacks():
    state = duel("gallop")
    assert legal(state, 1, "engage") == []
    assert "carries no attack command" in refused(state, 1, {"type": "engage", "target": at(0, 1),
                                                             "attackers": [at(0, 0)]})


def test_attackers_sum_greater_than_the_defence_wounds():
    state = duel("charge")  # 4 + 2 = 6 against 3: more than 3, not more than 6
    data = engagement(act(state, 1, {"type": "engage", "target": at(0, 1), "attackers": [at(0, 0)]}))
    assert (data["attack"], data["defence"], data["outcome"]) == (6, 3, "wounded")
    assert ENGINE.view(state, 1)["field"][0]["wounded"] is True


def test_an_attack_equal_to_the_defence_does_nothing():
    state = battle()
    put(state, 1, "horse_archers", 0, 0, command="parthian_shot")  # 2 + 1 = 3, ranged
    put(state, 2, "spearmen", 0, 2, "S")
    state["phase"] = "engagements"
    data = engagement(act(state, 1, {"type": "engage", "target": at(0, 2), "attackers": [at(0, 0)]}))
    assert (data["attack"], data["defence"], data["outcome"]) == (3, 3, "held")


def test_a_wounded_defender_beaten_again_is_destroyed():
    state = duel("charge")
    state["field"][1]["wounded"] = True
    data = engagement(act(state, 1, {"type": "engage", "target": at(0, 1), "attackers": [at(0, 0)]}))
    assert data["outcome"] == "destroyed"


def test_more_than_twice_the_defence_destroys_outright():
    state = battle()
    put(state, 1, "heavy_cavalry", 0, 0, command="lance")  # 4 + 3 = 7 > 2 x 3
    put(state, 2, "spearmen", 0, 1, "S")
    state["phase"] = "engagements"
    data = engagement(act(state, 1, {"type": "engage", "target": at(0, 1), "attackers": [at(0, 0)]}))
    assert (data["attack"], data["outcome"]) == (7, "destroyed")


def test_a_face_down_defender_is_flipped_face_up_before_the_comparison():
    state = duel("charge")
    state["field"][1]["up"] = False
    assert ENGINE.view(state, 1)["field"][0]["unit"] is None
    events = act(state, 1, {"type": "engage", "target": at(0, 1), "attackers": [at(0, 0)]})
    assert [e["type"] for e in events][:2] == ["revealed", "engagement"]
    assert events[0]["data"]["unit"] == "spearmen" and state["field"][1]["facing"] == "S"


def test_a_destroyed_unit_leaves_the_game_and_its_command_goes_to_its_owners_discard_pile():
    state = duel("lance", defender_command="pike_wall")  # 7 against a wounded 3 + 3 = 6
    state["field"][1]["wounded"] = True
    act(state, 1, {"type": "engage", "target": at(0, 1), "attackers": [at(0, 0)]})
    view = ENGINE.view(state, 2)
    assert [u["seat"] for u in view["field"]] == [1]
    assert view["destroyed"] == {"1": [], "2": ["spearmen"]} and view["units_left"]["2"] == 4
    assert view["discards"]["2"]["cards"] == ["pike_wall"]
    assert every_card_once(state)


def test_attackers_are_not_hurt_without_counter():
    state = duel("charge")
    act(state, 1, {"type": "engage", "target": at(0, 1), "attackers": [at(0, 0)]})
    assert state["field"][0]["wounded"] is False


def test_a_melee_attacker_may_advance_into_the_destroyed_units_square_facing_kept():
    state = duel("lance")
    put(state, 2, "archers", 5, 5, "S")  # so that seat 2 is not routed
    act(state, 1, {"type": "engage", "target": at(0, 1), "attackers": [at(0, 0)]})
    assert legal(state, 1) == [{"type": "advance", "at": at(0, 0)}, {"type": "stay"}, {"type": "offer_draw"},
                               {"type": "resign"}]
    act(state, 1, {"type": "advance", "at": at(0, 0)})
    unit = state["field"][0]
    assert (unit["x"], unit["y"], unit["facing"]) == (0, 1, "N")


def test_a_ranged_attacker_does_not_advance():
    state = battle()
    put(state, 1, "horse_archers", 0, 0, command="arrow_rain")  # 3 against a wounded 2: destroyed
    put(state, 2, "archers", 1, 2, "S", wounded=True)
    state["phase"] = "engagements"
    act(state, 1, {"type": "engage", "target": at(1, 2), "attackers": [at(0, 0)]})
    assert state["turn"]["advance"] is None and state["field"][0]["x"] == 0


def test_each_unit_takes_part_in_one_engagement_a_turn():
    state = duel("charge", defender="archers")  # 6 against 2: destroyed outright
    put(state, 2, "spearmen", 1, 0, "W")
    state["field"][0]["facing"] = "N"
    act(state, 1, {"type": "engage", "target": at(0, 1), "attackers": [at(0, 0)]}, {"type": "stay"})
    state["field"][0]["facing"] = "E"
    assert "no activation left" in refused(state, 1, {"type": "engage", "target": at(1, 0), "attackers": [at(0, 0)]})


def test_keyword_melee_reaches_only_the_front_square():
    state = battle()
    put(state, 1, "heavy_cavalry", 0, 0, "E", command="charge")
    put(state, 2, "spearmen", 0, 1, "S")
    put(state, 2, "archers", 1, 0, "W")
    state["phase"] = "engagements"
    assert [s["target"] for s in legal(state, 1, "engage")] == [at(1, 0)]


def test_keyword_ranged_reaches_the_unit_types_area_turned_with_its_facing():
    state = battle()
    put(state, 1, "horse_archers", 0, 0, "N", command="parthian_shot")  # forward 1-2, side 1
    for unit, x, y in (("spearmen", -1, 2), ("spearmen", 1, 1), ("swordsmen", 2, 2), ("swordsmen", 0, 3),
                       ("archers", 1, -1)):
        put(state, 2, unit, x, y, "S")
    state["phase"] = "engagements"
    assert sorted((s["target"]["x"], s["target"]["y"]) for s in legal(state, 1, "engage")) == [(-1, 2), (1, 1)]
    state["field"][0]["facing"] = "E"  # forward is now +x: (1, 1) and (1, -1) and (2, ...) within 1 sideways
    assert sorted((s["target"]["x"], s["target"]["y"]) for s in legal(state, 1, "engage")) == [(1, -1), (1, 1)]


def test_several_attackers_add_their_power():
    state = battle()
    put(state, 1, "heavy_cavalry", 0, 0, "N", command="charge")  # 6
    put(state, 1, "light_cavalry", 1, 1, "W", command="charge")  # 5
    put(state, 2, "swordsmen", 0, 1, "S", command="shield_wall")  # 4, doubled by trigger: 8
    state["phase"] = "engagements"
    data = engagement(act(state, 1, {"type": "engage", "target": at(0, 1), "attackers": [at(0, 0), at(1, 1)]}))
    assert (data["attack"], data["defence"], data["outcome"]) == (11, 8, "wounded")


# ---------------------------------------------------------------- recovery

def test_recovery_discards_move_and_attack_commands_and_the_pile_returns_to_the_hand():
    state = battle(phase="recovery")
    put(state, 1, "heavy_cavalry", 0, 0, command="charge")
    put(state, 1, "light_cavalry", 1, 0, command="gallop")
    put(state, 1, "horse_archers", 2, 0, command="arrow_rain")
    state["discards"]["1"].append(state["hands"]["1"].pop())  # a card paid earlier this turn
    before = len(state["hands"]["1"])
    act(state, 1, {"type": "end_turn"})
    assert all(u["command"] is None for u in state["field"])
    assert len(state["hands"]["1"]) == before + 4 and state["discards"]["1"] == []
    assert ENGINE.to_move(state) == 2 and state["phase"] == "maintenance"


def test_recovery_defence_commands_may_stay_or_go():
    state = battle(phase="recovery")
    put(state, 1, "heavy_cavalry", 0, 0, command="stand_firm")
    put(state, 1, "light_cavalry", 1, 0)
    act(state, 1, {"type": "end_turn"})
    assert ENGINE.view(state, 1)["field"][0]["command"] == "stand_firm"  # kept
    state = battle(phase="recovery")
    put(state, 1, "heavy_cavalry", 0, 0, command="stand_firm")
    act(state, 1, {"type": "discard_defence", "at": at(0, 0)}, {"type": "end_turn"})
    assert ENGINE.view(state, 1)["field"][0]["command"] is None and "stand_firm" in ENGINE.view(state, 1)["hand"]


def test_end_turn_closes_the_engagements_with_nothing_more_to_do():
    state = duel("charge")
    act(state, 1, {"type": "end_turn"})
    assert ENGINE.to_move(state) == 2 and state["field"][0]["command"] is None


# ---------------------------------------------------------------- the end

def test_destroying_all_five_enemy_units_wins():
    state = duel("lance")
    state["destroyed"]["2"] = [n for n in state["hands"]["2"] if state["seats"]["2"]["deck"][n] in
                              ("spearmen", "swordsmen", "archers")]
    for n in state["destroyed"]["2"]:
        state["hands"]["2"].remove(n)
    events = act(state, 1, {"type": "engage", "target": at(0, 1), "attackers": [at(0, 0)]})
    assert events[-1]["type"] == "game_finished"
    assert ENGINE.result(state) == {"winner": 1, "reason": "annihilation", "destroyed": {"1": 5, "2": 0},
                                    "wounded": {"1": 0, "2": 0}}
    assert ENGINE.legal_steps(state, 1) == [] and ENGINE.to_move(state) is None


def test_decision_routed_a_seat_with_no_unit_on_the_field_after_an_engagement_loses_at_once():
    state = duel("lance")  # seat 2's only unit on the field; it holds four more
    events = act(state, 1, {"type": "engage", "target": at(0, 1), "attackers": [at(0, 0)]})
    assert [e["type"] for e in events] == ["engagement", "destroyed", "game_finished"]
    assert ENGINE.result(state) == {"winner": 1, "reason": "routed", "destroyed": {"1": 1, "2": 0},
                                    "wounded": {"1": 0, "2": 0}}
    assert ENGINE.legal_steps(state, 1) == [] and ENGINE.to_move(state) is None


def test_decision_routed_not_while_a_face_down_unit_is_left():
    state = duel("lance")
    put(state, 2, "archers", 5, 5, "S", up=False)
    act(state, 1, {"type": "engage", "target": at(0, 1), "attackers": [at(0, 0)]})
    assert ENGINE.result(state) is None


def test_decision_every_accepted_step_writes_an_event_end_action_included():
    state = battle()
    put(state, 1, "heavy_cavalry", 0, 0)
    put(state, 2, "archers", 0, 1, "S")  # no defence card names archers: no reaction window
    events = act(state, 1, {"type": "end_action"})
    assert events == [{"type": "action_ended", "seat": 1, "data": {}}] and state["phase"] == "engagements"


def test_a_player_may_resign():
    state = battle(active=1)
    act(state, 2, {"type": "resign"})  # at any time, not only in one's turn
    assert ENGINE.result(state)["winner"] == 1 and ENGINE.result(state)["reason"] == "resign"


def test_both_may_agree_a_draw():
    state = battle()
    act(state, 1, {"type": "offer_draw"})
    assert {"type": "accept_draw"} in legal(state, 2)
    act(state, 2, {"type": "accept_draw"})
    assert ENGINE.result(state)["winner"] is None and ENGINE.result(state)["reason"] == "draw_agreed"


def test_decision_a_draw_offer_lapses_when_the_other_seat_plays_on_or_declines():
    state = battle(active=1)
    act(state, 1, {"type": "offer_draw"})
    act(state, 2, {"type": "decline_draw"})
    assert state["draw_offer"] is None and ENGINE.result(state) is None
    act(state, 1, {"type": "offer_draw"}, {"type": "end_action"}, {"type": "end_turn"})
    assert state["draw_offer"] == 1
    events = act(state, 2, {"type": "end_action"})
    assert events[0]["type"] == "draw_declined" and state["draw_offer"] is None


@pytest.mark.parametrize("destroyed, wounded, winner", [
    ((2, 1), (0, 3), 1),  # most enemy units destroyed wins
    ((1, 1), (2, 1), 1),  # then most enemy units wounded
    ((1, 1), (1, 1), None),  # else a draw
])
def test_decision_after_max_rounds_most_destroyed_then_most_wounds_else_a_draw(destroyed, wounded, winner):
    state = battle(active=2, phase="recovery", round=5, max_rounds=5)
    for seat, count in zip((2, 1), destroyed):  # enemy units destroyed by seat 1, then by seat 2
        units = [n for n in state["hands"][str(seat)] if state["seats"][str(seat)]["deck"][n] in
                 ("heavy_cavalry", "light_cavalry", "horse_archers", "spearmen", "swordsmen", "archers")][:count]
        for n in units:
            state["hands"][str(seat)].remove(n)
            state["destroyed"][str(seat)].append(n)
    types = {1: ["heavy_cavalry", "light_cavalry", "light_cavalry"], 2: ["spearmen", "swordsmen", "swordsmen"]}
    for seat, count in ((2, wounded[0]), (1, wounded[1])):
        for i, unit in enumerate(types[seat][:count]):
            put(state, seat, unit, 10 * seat + i, 0, wounded=True)
    act(state, 2, {"type": "end_turn"})
    assert ENGINE.result(state)["reason"] == "max_rounds" and ENGINE.result(state)["winner"] == winner


def test_decision_max_rounds_defaults_to_40():
    assert new_game()["max_rounds"] == 40


def test_the_game_never_goes_past_max_rounds():
    state = new_game(max_rounds=2)
    act(state, 1, {"type": "place", "unit": "heavy_cavalry"})
    act(state, 2, {"type": "place", "unit": "spearmen"})
    _end_turns(state, 4)
    assert ENGINE.result(state)["reason"] == "max_rounds" and state["round"] == 2


# ---------------------------------------------------------------- decks and card sets

def test_each_seat_takes_its_factions_recommended_deck_unless_it_brings_one():
    state = new_game(decks={"1": KHAN_PLUS})
    assert sorted(state["seats"]["1"]["deck"]) == sorted(KHAN_PLUS)
    assert state["seats"]["2"]["deck"][:5] == ["spearmen", "spearmen", "swordsmen", "swordsmen", "archers"]


@pytest.mark.parametrize("deck, reason", [
    (KHAN_PLUS[:14], "exactly 10 command cards, not 9"),
    (["heavy_cavalry"] * 4 + KHAN_PLUS[4:], "at most 3 units of one type: 4 × heavy_cavalry"),
    (KHAN_PLUS[:5] + ["gallop"] * 3 + KHAN_PLUS[8:], "at most 2 copies of a command: 4 × gallop"),
    (KHAN_PLUS[:4] + ["spearmen"] + KHAN_PLUS[5:], "spearmen is not a khan card"),
    (KHAN_PLUS[:4] + KHAN_PLUS[5:] + ["wheel"], "exactly 5 unit cards, not 4"),
    (KHAN_PLUS[:14] + ["trebuchet"], "trebuchet is not a card of this card set"),
])
def test_an_invalid_deck_is_refused_with_the_reason(deck, reason):
    from pydantic import ValidationError

    with pytest.raises(ValidationError) as refused_deck:
        ENGINE.options_model.model_validate({"decks": {"1": deck}})
    error = refused_deck.value.errors()[0]
    assert error["type"] == "invalid_deck" and reason in error["msg"] and "seat 1" in error["msg"]


def test_every_game_records_the_card_set_id_and_version_it_uses():
    state = new_game()
    assert state["card_set"]["id"] == "khan-default" and state["card_set"]["version"] == 1
    assert ENGINE.view(state, 1)["card_set"] == {"id": "khan-default", "version": 1}


def test_factions_may_be_swapped_between_the_seats():
    state = new_game(factions={"1": "general", "2": "khan"})
    assert state["seats"]["1"]["deck"][0] == "spearmen"
    act(state, 1, {"type": "place", "unit": "archers"})
    assert state["field"][0]["facing"] == "N"


def test_every_khan_step_type_is_a_move_of_some_phase_or_a_rule_across_phases():
    """A step type is one entry of steps.STEPS and a move of the phases that allow it: one
    listed with no phase could never be played."""
    from chalicelib.games.khan.steps import STEPS
    from chalicelib.games.khan.turns import ADVANCE, KEYWORD, PHASES

    played = {kind for phase in (*PHASES.values(), KEYWORD, ADVANCE) for kind in phase.moves}
    across = {"offer_draw", "accept_draw", "decline_draw", "resign"}
    assert set(STEPS.names()) == played | across and not played & across
