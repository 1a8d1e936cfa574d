"""Options and variants: the three-player ring, matches, invalid combinations."""

import random

import pytest
from pydantic import ValidationError

from chalicelib.games.battleline.engine import ENGINE
from chalicelib.games.battleline.setup import BattleLineOptions
from chalicelib.games.battleline.turns import claim_checks, legal_steps

from .helpers import build, play


@pytest.mark.parametrize(
    "options, message",
    [
        ({"players": 3, "tactics": True}, "without tactics"),
        ({"first_seat": 3}, "does not exist"),
        ({"auto_claim": {"3": True}}, "seat 3"),
        ({"players": 4}, "players"),
        ({"match_games": 0}, "match_games"),
        ({"claim_timing": "never"}, "claim_timing"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_invalid_option_combinations_are_refused_with_a_reason(options, message):
    with pytest.raises(ValidationError, match=message):
        BattleLineOptions.model_validate(options)


def test_tactics_are_on_by_default_with_two_players_and_off_with_three():
    assert BattleLineOptions().tactics is True
    assert BattleLineOptions(players=3).tactics is False
    assert len(ENGINE.new_game({}, random.Random(1))["decks"]["tactics"]) == 10
    assert ENGINE.new_game({"tactics": False}, random.Random(1))["decks"]["tactics"] == []


# ------------------------------------------------------------------ three players

def test_three_player_ring_seats_face_six_flags_each():
    state = ENGINE.new_game({"players": 3, "first_seat": 1}, random.Random(5))
    assert [f["seats"] for f in state["flags"]] == [[1, 2]] * 3 + [[2, 3]] * 3 + [[3, 1]] * 3
    assert {len(state["hands"][s]) for s in "123"} == {7} and len(state["decks"]["troop"]) == 60 - 21
    flags = {s["flag"] for s in legal_steps(state, 1) if s["type"] == "play"}
    assert flags == {1, 2, 3, 7, 8, 9}


def test_three_player_turn_order_is_one_two_three():
    state = ENGINE.new_game({"players": 3, "first_seat": 1}, random.Random(5))
    order = []
    for _ in range(4):
        seat = state["to_move"]
        order.append(seat)
        play(state, seat, next(s for s in legal_steps(state, seat) if s["type"] == "play"),
             {"type": "claim", "flags": []}, {"type": "draw", "deck": "troop"})
    assert order == [1, 2, 3, 1]


def test_three_player_claims_are_judged_against_the_opponent_across_the_flag():
    state = build(players=3, flags={8: (["3R", "4R", "5R"], ["6R", "6G"])})
    assert state["flags"][7]["seats"] == [3, 1]
    assert claim_checks(state, 3)[8].claimable
    assert not claim_checks(state, 1)[8].claimable
    assert "does not face" in claim_checks(state, 2)[8].reason


def test_three_player_win_with_three_adjacent_flags_around_the_ring():
    flags = {n: ([f"{n}R", f"{n}O", f"{n}Y"], []) for n in (8, 9)}
    flags[1] = (["10G", "9G", "8G"], ["1P"])
    state = build(players=3, flags={8: ([], flags[8][0]), 9: ([], flags[9][0]), 1: flags[1]},
                  claimed={8: 1, 9: 1}, phase="claim")
    play(state, 1, {"type": "claim", "flags": [1]})
    assert state["result"]["winner"] == 1 and state["result"]["reason"] == "adjacent_flags"


def test_three_player_win_with_any_four_flags():
    state = build(players=3, flags={3: (["10G", "9G", "8G"], ["1P"])}, claimed={1: 1, 5: 2, 7: 1, 9: 1}, phase="claim")
    state["flags"][4]["claimed_by"] = None  # flag 5 is between 2 and 3; seat 1 holds 1, 7, 9
    play(state, 1, {"type": "claim", "flags": [3]})
    assert state["result"]["reason"] == "flag_count" and state["result"]["flags"]["1"] == 4


def test_decision_three_player_resignation_leaves_the_others_playing():
    state = ENGINE.new_game({"players": 3, "first_seat": 2}, random.Random(9))
    play(state, 2, {"type": "resign"})
    assert state["result"] is None and state["to_move"] == 3 and state["resigned"] == [2]
    assert legal_steps(state, 2) == []
    play(state, 3, next(s for s in legal_steps(state, 3) if s["type"] == "play"),
         {"type": "claim", "flags": []}, {"type": "draw", "deck": "troop"})
    assert state["to_move"] == 1  # seat 2 is skipped
    play(state, 1, {"type": "resign"})
    assert state["result"]["winner"] == 3 and state["result"]["reason"] == "resign"


# ------------------------------------------------------------------ matches

def win_game(state, winner):
    """Let ``winner`` win the current game at once by claiming three adjacent flags."""
    loser = 2 if winner == 1 else 1
    for n in (1, 2):
        state["flags"][n - 1]["claimed_by"] = winner
    state["flags"][8]["claimed_by"] = loser
    flag = state["flags"][2]
    flag["cards"] = [[], []]
    side = flag["seats"].index(winner)
    flag["cards"][side] = ["8R", "9R", "10R"]
    for hand in state["hands"].values():
        for card in ("8R", "9R", "10R"):
            if card in hand:
                hand.remove(card)
    for deck in state["decks"].values():
        for card in ("8R", "9R", "10R"):
            if card in deck:
                deck.remove(card)
    flag["completed"][side] = 1
    state["turn_seat"] = state["to_move"] = winner
    state["phase"] = "claim"
    return play(state, winner, {"type": "claim", "flags": [3]})


def test_match_scores_five_to_the_winner_and_flags_held_to_the_loser():
    state = ENGINE.new_game({"match_games": 3, "first_seat": 1}, random.Random(3))
    events = win_game(state, 2)
    assert events[-1]["type"] == "match_game_finished" or any(e["type"] == "match_game_finished" for e in events)
    assert state["result"] is None
    assert state["match"]["scores"] == {"1": 1, "2": 5}
    assert state["match"]["number"] == 2


def test_match_winner_starts_the_next_game():
    state = ENGINE.new_game({"match_games": 3, "first_seat": 1}, random.Random(3))
    win_game(state, 2)
    assert state["to_move"] == 2 and state["phase"] == "play"
    assert all(f["claimed_by"] is None for f in state["flags"]) and len(state["hands"]["2"]) == 7


def test_match_highest_total_wins_the_match():
    state = ENGINE.new_game({"match_games": 3, "first_seat": 1}, random.Random(3))
    win_game(state, 2)
    win_game(state, 1)
    events = win_game(state, 1)
    assert state["result"]["reason"] == "match" and state["result"]["winner"] == 1
    assert state["result"]["scores"] == {"1": 1 + 5 + 5, "2": 5 + 1 + 1}
    assert [g["winner"] for g in state["result"]["games"]] == [2, 1, 1]
    assert events[-1]["type"] == "game_finished"


def test_decision_resign_concedes_the_whole_match():
    state = ENGINE.new_game({"match_games": 3, "first_seat": 1}, random.Random(3))
    win_game(state, 1)
    play(state, 1, {"type": "resign"})
    assert state["result"]["winner"] == 2 and state["result"]["reason"] == "resign"
    assert state["result"]["scores"] == {"1": 5 + 0, "2": 1 + 5}


def test_match_deals_each_game_from_the_hidden_match_seed():
    one = ENGINE.new_game({"match_games": 2, "first_seat": 1}, random.Random(3))
    two = ENGINE.new_game({"match_games": 2, "first_seat": 1}, random.Random(3))
    win_game(one, 2)
    win_game(two, 2)
    assert one["hands"] == two["hands"]
    assert "seed" not in ENGINE.view(one, 1)["match"]


# ---------------------------------------------------------------- tournament points

def test_tournament_points_are_5_to_the_winner_and_flags_to_the_loser():
    from chalicelib.games.battleline.engine import ENGINE

    assert ENGINE.match_points({"winner": 2, "reason": "adjacent_flags", "flags": {"1": 2, "2": 3}}, {}) == {
        "1": 2.0, "2": 5.0}
    assert ENGINE.match_points({"winner": None, "reason": "stall", "flags": {"1": 4, "2": 4}}, {}) == {
        "1": 4.0, "2": 4.0}


def test_tournament_points_of_a_match_played_out_are_its_scores():
    from chalicelib.games.battleline.engine import ENGINE

    result = {"winner": 1, "reason": "match", "flags": {"1": 5, "2": 2}, "scores": {"1": 12, "2": 9}, "games": []}
    assert ENGINE.match_points(result, {"match_games": 3}) == {"1": 12.0, "2": 9.0}


def test_a_conceded_match_scores_as_a_forfeit():
    from chalicelib.games.battleline.engine import ENGINE

    result = {"winner": 2, "reason": "resign", "flags": {"1": 0, "2": 0}, "scores": {"1": 10, "2": 2}, "games": []}
    assert ENGINE.match_points(result, {"match_games": 3}) == {"1": 0.0, "2": 15.0}
    assert ENGINE.forfeit_points({"match_games": 3}) == 15.0


# ---------------------------------------------------------------- forfeits (timeouts, withdrawals)

def test_timeout_loses_like_a_resignation():
    import random

    from chalicelib.games.battleline.engine import ENGINE

    state = ENGINE.new_game({"first_seat": 1}, random.Random(3))
    events = ENGINE.forfeit(state, 1, "timeout")
    assert [e["type"] for e in events] == ["timeout", "game_finished"]
    assert ENGINE.result(state)["winner"] == 2 and ENGINE.result(state)["reason"] == "timeout"
    assert ENGINE.forfeit(state, 2, "timeout") == []  # a finished game loses nothing more


def test_three_player_timeout_leaves_the_others_playing():
    import random

    from chalicelib.games.battleline.engine import ENGINE

    state = ENGINE.new_game({"players": 3, "first_seat": 1}, random.Random(3))
    ENGINE.forfeit(state, 1, "timeout")
    assert ENGINE.result(state) is None and ENGINE.to_move(state) == 2
    ENGINE.forfeit(state, 2, "timeout")
    assert ENGINE.result(state)["winner"] == 3 and ENGINE.result(state)["reason"] == "timeout"


def test_flags_won_add_up_the_flags_held_in_every_game_of_a_match():
    state = ENGINE.new_game({"match_games": 3, "first_seat": 1}, random.Random(3))
    win_game(state, 2)
    win_game(state, 1)
    win_game(state, 1)  # each game: the winner holds 3 flags, the loser 1
    assert ENGINE.flags_won(state["result"]) == {"1": 1 + 3 + 3, "2": 3 + 1 + 1}


def test_flags_won_of_a_conceded_match_count_the_flags_held_when_it_ended():
    state = ENGINE.new_game({"match_games": 3, "first_seat": 1}, random.Random(3))
    win_game(state, 1)
    play(state, 1, {"type": "resign"})
    assert ENGINE.flags_won(state["result"]) == {"1": 3, "2": 1}
