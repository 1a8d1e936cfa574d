"""Battle Line over the API: analyzeBattleLine, the variants' options, tactics steps."""

import pytest

from .test_contract import problem_of


def empty_position():
    return {"flags": [{"cards": [[], []]} for _ in range(9)], "discards": []}


def test_analyze_lists_all_nine_flags_with_claimable_and_counterexample(api):
    position = empty_position()
    position["flags"][4] = {"flag": 5, "cards": [["3R", "4R", "5R"], ["8B"]]}
    position["flags"][0] = {"flag": 1, "cards": [["1G", "2G", "3G"], ["6R", "6G"]]}
    reply = api.post("/v1/battleline/analyze", {"position": position, "seat": 1})
    assert reply.status == 200, reply.body
    flags = reply.body["flags"]
    assert [f["flag"] for f in flags] == list(range(1, 10))
    assert flags[0]["claimable"] and flags[0]["counterexample"] is None
    assert not flags[4]["claimable"]
    example = flags[4]["counterexample"]
    assert example["formation"] == "wedge" and "8B" in example["cards"] and len(example["cards"]) == 3
    assert not flags[8]["claimable"] and "0 of the 3" in flags[8]["reason"]


def test_analyze_uses_discards_fog_mud_and_wildcards(api):
    position = empty_position()
    position["flags"][4] = {"cards": [["3R", "4R", "5R"], ["8B"]]}
    position["discards"] = ["7B", "10B"]
    assert api.post("/v1/battleline/analyze", {"position": position, "seat": 1}).body["flags"][4]["claimable"]
    position["flags"][4]["cards"][1].append("ALEXANDER")
    flag = api.post("/v1/battleline/analyze", {"position": position, "seat": 1}).body["flags"][4]
    assert not flag["claimable"] and "ALEXANDER" in flag["counterexample"]["wildcards"]
    position["flags"][4]["environment"] = ["MUD"]
    flag = api.post("/v1/battleline/analyze", {"position": position, "seat": 1}).body["flags"][4]
    assert "3 of the 4" in flag["reason"]


def test_analyze_tie_goes_by_first_complete(api):
    position = empty_position()
    position["flags"][2] = {"cards": [["7Y", "2B", "1G"], ["3Y", "3B", "4G"]], "first_complete": 1}
    assert api.post("/v1/battleline/analyze", {"position": position, "seat": 1}).body["flags"][2]["claimable"]
    position["flags"][2]["first_complete"] = 2
    assert not api.post("/v1/battleline/analyze", {"position": position, "seat": 1}).body["flags"][2]["claimable"]


@pytest.mark.parametrize(
    "change, code, words",
    [
        (lambda p: p["flags"][0]["cards"][0].extend(["1R", "2R", "3R", "4R"]), "invalid_position", "at most 3"),
        (lambda p: (p["flags"][0]["cards"][0].append("1R"), p["discards"].append("1R")), "invalid_position", "more than once"),
        (lambda p: p["flags"][0]["cards"][0].append("FOG"), "invalid_position", "cannot lie in a slot"),
        (lambda p: (p["flags"][0]["cards"][0].append("ALEXANDER"), p["flags"][1]["cards"][0].append("DARIUS")),
         "invalid_position", "two Leaders"),
        (lambda p: p["flags"][0]["cards"][0].append("11R"), "invalid_card", "pattern"),
        (lambda p: p["flags"].pop(), "invalid_request", "9"),
        (lambda p: p["flags"][3].update(flag=1), "invalid_position", "each flag"),
    ],
)
def test_analyze_refuses_impossible_positions(api, change, code, words):
    position = empty_position()
    change(position)
    body = problem_of(api.post("/v1/battleline/analyze", {"position": position, "seat": 1}), 422, code)
    assert words in body["detail"]


def test_three_player_game_over_the_api(api):
    ann, bob, cat = api.signup("Ann"), api.signup("Bob"), api.signup("Cat")
    game = api.new_game(ann, [ann, bob, cat], options={"players": 3, "first_seat": 1})
    assert [s["seat"] for s in game["seats"]] == [1, 2, 3]
    assert game["state"]["decks"] == {"troop": 39, "tactics": 0}
    assert game["state"]["hand_sizes"] == {"1": 7, "2": 7, "3": 7}
    reply = api.post("/v1/games", {"game": "battleline", "options": {"players": 3},
                                   "seats": [{"player_id": ann["id"]}, {"player_id": bob["id"]}]}, key=ann["api_key"])
    problem_of(reply, 422, "invalid_seats")


def test_invalid_option_combination_is_refused_over_the_api(api):
    ann, bob, cat = api.signup("Ann"), api.signup("Bob"), api.signup("Cat")
    reply = api.post("/v1/games", {"game": "battleline", "options": {"players": 3, "tactics": True},
                                   "seats": [{"player_id": p["id"]} for p in (ann, bob, cat)]}, key=ann["api_key"])
    body = problem_of(reply, 422, "invalid_options")
    assert "without tactics" in body["detail"]


def test_playing_a_card_not_held_is_refused_with_a_reason(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = api.new_game(ann, [ann, bob], seed=11, options={"first_seat": 1})
    reply = api.act(ann, game["game_id"], 0, {"type": "play", "card": "TRAITOR", "target": {"flag": 1, "card": "5R"}, "to_flag": 2})
    body = problem_of(reply, 422, "illegal_action")
    assert body["detail"] == "you do not hold TRAITOR"


def test_scout_returns_and_draws_stay_private_in_events(api, services):
    """Random legal play until a Scout is resolved; the other seat never sees its cards."""
    import random

    ann, bob = api.signup("Ann"), api.signup("Bob")
    players = {1: ann, 2: bob}
    for seed in range(40):
        game = api.new_game(ann, [ann, bob], seed=seed)
        gid, view, choose = game["game_id"], game, random.Random(seed)
        while view["status"] == "active":
            player = players[view["to_move"]]
            view = api.view(player, gid)
            steps = [s for s in view["legal_steps"] if s["type"] != "resign"]
            scout = [s for s in steps if s.get("card") == "SCOUT"]
            view = api.act(player, gid, view["version"], scout[0] if scout else choose.choice(steps)).body["view"]
            events = api.get(f"/v1/games/{gid}/events", key=ann["api_key"]).body["events"]
            returned = [e for e in events if e["type"] == "scout_return"]
            if returned:
                scout_seat = returned[0]["seat"]
                mine = api.get(f"/v1/games/{gid}/events", key=players[scout_seat]["api_key"]).body["events"]
                theirs = api.get(f"/v1/games/{gid}/events", key=players[3 - scout_seat]["api_key"]).body["events"]
                assert "cards" in [e for e in mine if e["type"] == "scout_return"][0]["data"]
                other = [e for e in theirs if e["type"] in ("scout_return", "scout_draw")]
                assert other and all("card" not in e["data"] and "cards" not in e["data"] for e in other)
                return
    pytest.fail("no Scout was played in 40 random games")


def test_a_generated_clients_null_fields_are_the_same_as_absent_ones(api):
    """Issue 14: a client generated from openapi.yaml sends every optional field, null when unset;
    the server refused it ('9R is played without target, to_flag'). Two games dealt alike: the
    play with nulls and the play without them leave the same view."""
    ann, bob = api.signup("Ann"), api.signup("Bob")
    views = []
    for nulls in ({}, {"flag": None, "target": None, "to_flag": None, "discard": None}):
        game = api.new_game(ann, [ann, bob], seed=7, options={"first_seat": 1})
        play = next(s for s in game["legal_steps"] if s["type"] == "play")
        step = {**nulls, **play}
        reply = api.act(ann, game["game_id"], game["version"], step, {"type": "claim", "flags": []})
        assert reply.status == 200, reply.body
        view = reply.body["view"]
        views.append((view["state"], view["legal_steps"], view["version"]))
    assert views[0] == views[1]


@pytest.mark.parametrize("extra, words", [
    ({"to_flag": 5, "discard": True}, "not both"),
    ({"discard": False}, "discard"),
], ids=["to_flag and discard true", "discard false"])
def test_to_flag_with_discard_true_is_refused_as_an_invalid_step(api, extra, words):
    """A REDEPLOY that both moves and discards its card (or sends ``discard: false``, which says
    nothing) is refused by its shape, whatever the game: 422 invalid_step."""
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = api.new_game(ann, [ann, bob], seed=7, options={"first_seat": 1})
    step = {"type": "play", "card": "REDEPLOY", "target": {"flag": 3, "card": "9B"}, **extra}
    body = problem_of(api.act(ann, game["game_id"], game["version"], step), 422, "invalid_step")
    assert words in body["detail"] and body["step_index"] == 0
