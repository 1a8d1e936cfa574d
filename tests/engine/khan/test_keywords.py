"""Khan & General: every keyword of the spec, each on a small hand-built position (melee and
ranged are in test_rules.py with the engagements)."""

from __future__ import annotations

from .helpers import ENGINE, act, at, battle, charged, cost, legal, put, refused, unit
from .test_rules import GENERAL_PLUS, KHAN_PLUS, engagement


def engage(state, seat, target, *attackers):
    return engagement(act(state, seat, {"type": "engage", "target": at(*target),
                                        "attackers": [at(*a) for a in attackers]}))


def grappled(state, unit, grappler):
    unit["grappled_by"].append(f"{grappler['seat']}:{grappler['card']}")


# ---------------------------------------------------------------- power

def test_keyword_power_adds_to_the_base_power():
    state = battle()
    put(state, 1, "heavy_cavalry", 0, 0, command="charge")
    put(state, 1, "light_cavalry", 1, 0, command="stand_firm")
    put(state, 1, "horse_archers", 2, 0)
    assert [u["power"] for u in ENGINE.view(state, 1)["field"]] == [6, 5, 2]


def test_keyword_power_splits_the_keywords_into_before_and_after():
    state = battle()
    put(state, 1, "heavy_cavalry", 0, 0)
    put(state, 1, "light_cavalry", 1, 0)
    one, two = cost(state, 1, "lance"), cost(state, 1, "envelop")
    act(state, 1, {"type": "command", "card": "charge", "at": at(0, 0), "sequence": one})  # mobility 2, power +2
    assert ENGINE.view(state, 1)["pending"] == [{"seat": 1, "at": at(0, 0), "keywords": ["mobility 2"]}]
    act(state, 1, {"type": "skip", "at": at(0, 0)},
        {"type": "command", "card": "raid", "at": at(1, 0), "sequence": two - 1})  # power +1 ... mobility 2
    assert ENGINE.view(state, 1)["pending"] == []  # its mobility comes after the engagements


# ---------------------------------------------------------------- flank, coordinate, activate

def test_keyword_flank_adds_when_attacking_in_melee_off_the_defenders_front_square():
    state = battle(phase="engagements")
    put(state, 1, "heavy_cavalry", 1, 1, "W", command="lance")  # beside the spearmen, which face S
    put(state, 2, "spearmen", 0, 1, "S", command="pike_wall")
    assert engage(state, 1, (0, 1), (1, 1))["attack"] == 4 + 3 + 2
    state = battle(phase="engagements")
    put(state, 1, "heavy_cavalry", 0, 0, "N", command="lance")  # on its front square: no flank
    put(state, 2, "spearmen", 0, 1, "S", command="pike_wall")
    assert engage(state, 1, (0, 1), (0, 0))["attack"] == 4 + 3


def test_keyword_coordinate_adds_when_resolved_with_another_attacker():
    def position():
        state = battle(phase="engagements")
        put(state, 1, "heavy_cavalry", 0, 0, "N", command="envelop")  # 4 + 1, and +2 with company
        put(state, 1, "light_cavalry", 1, 1, "W", command="charge")  # 3 + 2
        put(state, 2, "swordsmen", 0, 1, "S", command="shield_wall")
        return state

    assert engage(position(), 1, (0, 1), (0, 0))["attack"] == 5
    assert engage(position(), 1, (0, 1), (0, 0), (1, 1))["attack"] == 5 + 2 + 5


def test_keyword_activate_lets_a_unit_take_part_in_n_engagements():
    state = battle(phase="engagements")
    put(state, 1, "horse_archers", 0, 0, "N", command="arrow_rain")  # activate 2
    put(state, 2, "spearmen", 0, 1, "S")
    put(state, 2, "swordsmen", 1, 2, "S")
    engage(state, 1, (0, 1), (0, 0))
    engage(state, 1, (0, 1), (0, 0))  # the same target again
    assert ENGINE.view(state, 1)["field"][-1]["activations_left"] == 0
    assert "no activation left" in refused(state, 1, {"type": "engage", "target": at(1, 2), "attackers": [at(0, 0)]})


# ---------------------------------------------------------------- mobility and turn

def test_keyword_mobility_moves_up_to_n_orthogonal_steps_through_empty_squares():
    state = battle()
    put(state, 1, "heavy_cavalry", 0, 0)
    put(state, 1, "light_cavalry", 1, 0)
    put(state, 2, "spearmen", 0, 1, "S")
    act(state, 1, {"type": "command", "card": "gallop", "at": at(0, 0)})  # mobility 3
    ends = {(s["to"]["x"], s["to"]["y"]) for s in legal(state, 1, "move")}
    assert (2, -1) in ends and (-3, 0) in ends and (-1, 2) in ends
    assert (2, 0) not in ends  # around the light cavalry it takes 4 steps
    assert (1, 0) not in ends and (0, 1) not in ends  # never onto a unit
    assert "cannot be reached in 3 steps" in refused(state, 1, {"type": "move", "at": at(0, 0), "to": at(2, 0),
                                                               "facing": "N"})
    act(state, 1, {"type": "move", "at": at(0, 0), "to": at(2, -1), "facing": "W"})
    unit = state["field"][0]
    assert (unit["x"], unit["y"], unit["facing"]) == (2, -1, "W")


def test_keyword_mobility_may_change_facing_without_moving():
    state = battle()
    put(state, 1, "heavy_cavalry", 0, 0)
    act(state, 1, {"type": "command", "card": "gallop", "at": at(0, 0)},
        {"type": "move", "at": at(0, 0), "to": at(0, 0), "facing": "S"})
    assert state["field"][0]["facing"] == "S"


def test_decision_an_attack_cards_mobility_must_end_with_an_enemy_in_range():
    state = battle()
    put(state, 1, "heavy_cavalry", 0, -2)
    put(state, 2, "spearmen", 0, 1, "S")
    one = cost(state, 1, "lance")
    act(state, 1, {"type": "command", "card": "charge", "at": at(0, -2), "sequence": one})  # mobility 2
    assert "only to attack" in refused(state, 1, {"type": "move", "at": at(0, -2), "to": at(0, -1), "facing": "N"})
    assert {(s["to"]["x"], s["to"]["y"], s["facing"]) for s in legal(state, 1, "move")} == {(0, 0, "N")}


def test_decision_a_unit_that_moved_with_its_attack_cards_mobility_must_attack_while_it_can():
    state = charged()
    assert "must attack while it can" in refused(state, 1, {"type": "end_engagements"})
    assert "must attack" in refused(state, 1, {"type": "end_turn"})
    act(state, 1, {"type": "engage", "target": at(0, 1), "attackers": [at(0, 0)]}, {"type": "end_turn"})


def test_keyword_mobility_after_power_only_for_a_unit_that_attacked():
    state = battle(phase="engagements")
    put(state, 1, "light_cavalry", 0, 0, "N", command="raid")  # power +1, melee, flank +1, mobility 2
    put(state, 1, "horse_archers", 3, 0, "N", command="parthian_shot")  # power +1, ranged, mobility 2
    put(state, 2, "spearmen", 0, 1, "S")
    act(state, 1, {"type": "engage", "target": at(0, 1), "attackers": [at(0, 0)]}, {"type": "end_engagements"})
    assert state["phase"] == "after"
    assert ENGINE.view(state, 1)["pending"] == [{"seat": 1, "at": at(0, 0), "keywords": ["mobility 2"]}]
    act(state, 1, {"type": "move", "at": at(0, 0), "to": at(-2, 0), "facing": "E"})
    assert state["phase"] == "recovery"


def test_keyword_turn_changes_facing_only():
    state = battle(active=2)
    put(state, 2, "swordsmen", 0, 0, "S")
    act(state, 2, {"type": "command", "card": "about_face", "at": at(0, 0)})
    assert {s["type"] for s in legal(state, 2) if s["type"] not in ("offer_draw", "resign")} == {"turn", "skip"}
    assert sorted(s["facing"] for s in legal(state, 2, "turn")) == ["E", "N", "W"]
    act(state, 2, {"type": "turn", "at": at(0, 0), "facing": "N"})
    unit = state["field"][0]
    assert (unit["x"], unit["y"], unit["facing"]) == (0, 0, "N")


def test_keywords_before_power_come_in_the_cards_order_each_optional():
    state = battle(decks={"1": KHAN_PLUS})
    put(state, 1, "heavy_cavalry", 0, 0)
    act(state, 1, {"type": "command", "card": "wheel", "at": at(0, 0)})  # turn, mobility 1
    assert "next keyword is turn" in refused(state, 1, {"type": "move", "at": at(0, 0), "to": at(1, 0),
                                                        "facing": "N"})
    act(state, 1, {"type": "skip", "at": at(0, 0)}, {"type": "move", "at": at(0, 0), "to": at(1, 0), "facing": "E"})
    assert ENGINE.view(state, 1)["pending"] == []
    assert "first use or skip" not in " ".join(s["type"] for s in legal(state, 1))


def test_a_waiting_keyword_is_used_or_skipped_before_anything_else():
    state = battle()
    put(state, 1, "heavy_cavalry", 0, 0)
    act(state, 1, {"type": "command", "card": "gallop", "at": at(0, 0)})
    assert "first use or skip" in refused(state, 1, {"type": "end_action"})


def test_keyword_turn_on_a_defence_card_played_in_the_reaction_window():
    state = battle(decks={"2": KHAN_PLUS, "1": GENERAL_PLUS}, factions={"1": "general", "2": "khan"})
    put(state, 1, "spearmen", 0, 0, "N")
    put(state, 2, "light_cavalry", 0, 2, "S")
    act(state, 1, {"type": "end_action"})
    act(state, 2, {"type": "command", "card": "screen", "at": at(0, 2)})  # turn, power +1
    assert ENGINE.view(state, 2)["pending"] == [{"seat": 2, "at": at(0, 2), "keywords": ["turn"]}]
    act(state, 2, {"type": "turn", "at": at(0, 2), "facing": "E"}, {"type": "end_reaction"})
    assert state["field"][1]["facing"] == "E" and ENGINE.to_move(state) == 1


# ---------------------------------------------------------------- trigger

def test_decision_trigger_adds_the_card_power_again_from_the_first_engagement_up_to_n_times():
    state = battle(phase="engagements")
    put(state, 1, "horse_archers", 0, 0, "N", command="arrow_rain")  # 3, activate 2
    put(state, 1, "heavy_cavalry", 1, 1, "W", command="charge")
    put(state, 2, "swordsmen", 0, 1, "S", command="shield_wall")  # 3 + 1 = 4, trigger 2
    defence = [engage(state, 1, (0, 1), (0, 0))["defence"], engage(state, 1, (0, 1), (0, 0))["defence"],
               engage(state, 1, (0, 1), (1, 1))["defence"]]
    assert defence == [8, 12, 12]


# ---------------------------------------------------------------- grapple

def general_attacks():
    """General's turn: swordsmen with bind in front of the Khan's heavy cavalry, archers behind."""
    state = battle(active=2, phase="engagements")
    put(state, 1, "heavy_cavalry", 0, 0, "N")
    put(state, 2, "swordsmen", 0, 1, "S", command="bind")  # 4, melee, grapple
    put(state, 2, "archers", 0, 3, "S", command="volley")  # 3, ranged 2-3 ahead
    return state


def test_keyword_grapple_a_grappler_cannot_be_the_only_attacker():
    state = general_attacks()
    assert "cannot be the only attacker" in refused(state, 2, {"type": "engage", "target": at(0, 0),
                                                               "attackers": [at(0, 1)]})
    assert [s["attackers"] for s in legal(state, 2, "engage")] == [[at(0, 3)], [at(0, 1), at(0, 3)]]


def test_keyword_grapple_an_attacking_grappler_grapples_a_defender_that_survives():
    state = general_attacks()
    data = engage(state, 2, (0, 0), (0, 1), (0, 3))  # 7 against 4: wounded, not destroyed
    assert data["outcome"] == "wounded" and data["grappled"] == at(0, 0)
    assert ENGINE.view(state, 1)["field"][-1]["grappled_by"] == [at(0, 1)]


def test_keyword_grapple_a_grappled_unit_cannot_move_but_may_turn():
    state = battle()
    heavy = put(state, 1, "heavy_cavalry", 0, 0, "N")
    swordsmen = put(state, 2, "swordsmen", 0, 1, "S")
    grappled(state, heavy, swordsmen)
    act(state, 1, {"type": "command", "card": "gallop", "at": at(0, 0)})
    assert {(s["to"]["x"], s["to"]["y"]) for s in legal(state, 1, "move")} == {(0, 0)}
    assert "cannot move" in refused(state, 1, {"type": "move", "at": at(0, 0), "to": at(-1, 0), "facing": "N"})
    act(state, 1, {"type": "move", "at": at(0, 0), "to": at(0, 0), "facing": "E"})
    assert unit(state, 0, 0)["facing"] == "E"


def test_keyword_grapple_a_grappled_unit_attacks_only_its_grappler_only_in_melee():
    state = battle(phase="engagements")
    heavy = put(state, 1, "heavy_cavalry", 0, 0, "E", command="charge")
    swordsmen = put(state, 2, "swordsmen", 0, 1, "S")
    put(state, 2, "spearmen", 1, 0, "W")
    grappled(state, heavy, swordsmen)
    assert "may attack only the unit grappling it" in refused(state, 1, {"type": "engage", "target": at(1, 0),
                                                                         "attackers": [at(0, 0)]})
    heavy["facing"] = "N"
    assert engage(state, 1, (0, 1), (0, 0))["outcome"] == "wounded"
    archers = battle(phase="engagements")
    horse = put(archers, 1, "horse_archers", 0, 0, "N", command="parthian_shot")
    grappler = put(archers, 2, "swordsmen", 0, 2, "S")
    grappled(archers, horse, grappler)
    assert "only in melee" in refused(archers, 1, {"type": "engage", "target": at(0, 2), "attackers": [at(0, 0)]})


def test_keyword_grapple_ends_when_the_grappler_is_destroyed():
    state = battle(phase="engagements")
    heavy = put(state, 1, "heavy_cavalry", 0, 0, "N", command="lance")
    swordsmen = put(state, 2, "swordsmen", 0, 1, "S")
    put(state, 2, "archers", 5, 5, "S")  # so that seat 2 is not routed
    grappled(state, heavy, swordsmen)
    engage(state, 1, (0, 1), (0, 0))  # 7 against 3: destroyed outright
    assert unit(state, 0, 0)["grappled_by"] == []
    assert legal(state, 1, "advance") == [{"type": "advance", "at": at(0, 0)}]


def test_keyword_grapple_on_defence_grapples_the_melee_attacker_on_its_front_square_when_it_survives():
    state = battle(phase="engagements", decks={"2": GENERAL_PLUS})
    put(state, 1, "heavy_cavalry", 0, 0, "N", command="charge")  # 6
    put(state, 2, "swordsmen", 0, 1, "S", command="hold_fast")  # 3 + 1 = 4, grapple
    data = engage(state, 1, (0, 1), (0, 0))
    assert data["outcome"] == "wounded" and data["grappled_attacker"] == at(0, 0)
    assert ENGINE.view(state, 1)["field"][-1]["grappled_by"] == [at(0, 1)]


def test_decision_a_grappled_attacker_cannot_advance():
    state = battle(phase="engagements")
    heavy = put(state, 1, "heavy_cavalry", 0, 0, "N", command="lance")  # 7
    swordsmen = put(state, 2, "swordsmen", 0, 1, "S")
    light = put(state, 1, "light_cavalry", 1, 1, "W", command="charge")  # 5
    grappled(state, heavy, put(state, 2, "spearmen", -1, 0, "E"))
    grappled(state, heavy, swordsmen)
    engage(state, 1, (0, 1), (0, 0), (1, 1))  # destroys the swordsmen; the spearmen still grapple the heavy
    assert state["turn"]["advance"]["units"] == [f"1:{light['card']}"]


# ---------------------------------------------------------------- counter

def test_keyword_counter_wounds_the_melee_attacker_on_its_front_square():
    state = battle(phase="engagements")
    put(state, 1, "heavy_cavalry", 0, 0, "N", command="lance")  # 7
    put(state, 2, "spearmen", 0, 1, "S", command="pike_wall")  # 6, counter
    data = engage(state, 1, (0, 1), (0, 0))
    assert data["outcome"] == "wounded" and data["countered"] == at(0, 0)
    assert state["field"][0]["wounded"] is True


def test_keyword_counter_never_destroys_and_needs_a_wound():
    state = battle(phase="engagements")
    put(state, 1, "heavy_cavalry", 0, 0, "N", command="lance", wounded=True)
    put(state, 2, "spearmen", 0, 1, "S", command="pike_wall", wounded=True)
    assert engage(state, 1, (0, 1), (0, 0))["outcome"] == "destroyed"
    assert [u["seat"] for u in state["field"]] == [1] and state["field"][0]["wounded"] is True
    state = battle(phase="engagements")
    put(state, 1, "light_cavalry", 0, 0, "N", command="charge")  # 5 against 6: held, no counter
    put(state, 2, "spearmen", 0, 1, "S", command="pike_wall")
    assert "countered" not in engage(state, 1, (0, 1), (0, 0)) and state["field"][0]["wounded"] is False


def test_keyword_counter_answers_only_melee():
    state = battle(phase="engagements", decks={"1": KHAN_PLUS})
    put(state, 1, "horse_archers", 0, 0, "N", command="arrow_rain")  # 3, ranged
    put(state, 1, "heavy_cavalry", -1, 1, "E", command="lance")  # 9 on the flank
    put(state, 2, "spearmen", 0, 1, "S", command="pike_wall")
    data = engage(state, 1, (0, 1), (0, 0), (-1, 1))  # the archers stand on its front square, but shoot
    assert data["outcome"] == "wounded" and "countered" not in data


def test_decision_ranged_attacks_pass_over_other_units():
    state = general_attacks()  # the archers shoot over their own swordsmen
    assert engage(state, 2, (0, 0), (0, 3))["attack"] == 3


def test_decision_a_move_that_changes_nothing_is_refused():
    state = battle()
    put(state, 1, "heavy_cavalry", 0, 0)
    act(state, 1, {"type": "command", "card": "gallop", "at": at(0, 0)})
    assert "skip the keyword instead" in refused(state, 1, {"type": "move", "at": at(0, 0), "to": at(0, 0),
                                                            "facing": "N"})
