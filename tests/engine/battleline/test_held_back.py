"""Why a card in hand has no play now (``tactics.held_back``): the rule that keeps it in hand, as a player
is told it under the moves of an email and on the board page."""

from __future__ import annotations

import random

from chalicelib.games.battleline.engine import ENGINE
from chalicelib.games.battleline.tactics import card_candidates, held_back
from chalicelib.kernel.i18n import say, speaking

from .helpers import build, play

TURN_END = ({"type": "claim", "flags": []}, {"type": "draw", "deck": "troop"})


def reason(state, seat, card, language="en"):
    with speaking(language):
        return say(held_back(state, seat, card))


def test_a_tactics_card_held_back_by_the_tactics_count_says_the_counts_in_the_singular():
    state = build(hands={1: ["FOG", "MUD", "5R"], 2: ["7G"]})
    play(state, 1, {"type": "play", "card": "FOG", "flag": 1}, *TURN_END)
    play(state, 2, {"type": "play", "card": "7G", "flag": 2}, *TURN_END)
    assert "MUD" not in {s["card"] for s in card_candidates(state, 1)}
    assert reason(state, 1, "MUD") == ("you have played 1 tactics card and your opponent 0: "
                                       "you may not be more than one ahead")
    state["tactics_played"].update({"1": 3, "2": 2})
    assert reason(state, 1, "MUD").startswith("you have played 3 tactics cards and your opponent 2")
    assert reason(state, 1, "MUD", "ja") == ("あなたは戦略カードを3枚、相手は2枚出しています："
                                             "相手より2枚以上多く出すことはできません")


def test_a_second_leader_is_held_back_by_the_one_leader_rule():
    state = build(hands={1: ["DARIUS", "5R"], 2: ["7G"]})
    state["leaders_played"]["1"] = 1
    state["tactics_played"].update({"1": 1, "2": 1})
    assert reason(state, 1, "DARIUS") == "you have played a Leader already: a second one stays in your hand to the end"
    state["tactics_played"].update({"1": 2, "2": 1})  # ahead too: the Leader rule, which holds for good, is said
    assert reason(state, 1, "DARIUS") == "you have played a Leader already: a second one stays in your hand to the end"


def test_a_card_whose_plays_need_what_the_table_lacks_says_what_it_lacks():
    state = build(hands={1: ["SCOUT", "DESERTER", "REDEPLOY", "TRAITOR", "5R"], 2: ["7G"]}, deck=[])
    state["decks"]["tactics"] = []
    assert not [s for s in card_candidates(state, 1) if s["card"] != "5R"]
    assert reason(state, 1, "SCOUT") == "both decks are empty"
    assert reason(state, 1, "DESERTER") == "your opponent has no card at an unclaimed flag"
    assert reason(state, 1, "REDEPLOY") == "you have no card at an unclaimed flag to move"
    assert reason(state, 1, "TRAITOR").startswith("your opponent has no troop at an unclaimed flag")
    assert reason(state, 1, "5R", "vi") == "phía bạn ở mọi chốt chưa bị chiếm đều đã đầy"


def test_every_card_without_a_play_has_the_same_reason_in_the_seats_view_as_in_the_whole_state():
    """held_back reads only what the seat sees: over random games, each card that a play decision offers
    no play of gets a reason, and the seat's view of the state gives the very same one."""
    told = 0
    for seed in range(30):
        rng = random.Random(seed)
        state = ENGINE.new_game(ENGINE.options_model().model_dump(), rng)
        while ENGINE.result(state) is None:
            seat = ENGINE.to_move(state)
            steps = [s for s in ENGINE.legal_steps(state, seat) if s["type"] != "resign"]
            if ENGINE.phase(state) == "play":
                offered = {s["card"] for s in steps if s["type"] == "play"}
                seen = ENGINE.view(state, seat)
                for card in set(state["hands"][str(seat)]) - offered:
                    assert held_back(seen, seat, card) == held_back(state, seat, card)
                    told += 1
            ENGINE.apply_step(state, seat, rng.choice(steps))
    assert told > 100
