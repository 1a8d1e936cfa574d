"""A game's stored events replay it: played through the service, read back from the store,
rebuilt from the options and seed alone, equal to the stored state. And no version of a
game is without an event (issue 13: Khan & General's `end_action` wrote none)."""

from __future__ import annotations

import random

from ..engine.test_replay import ROUT
from . import test_clocks
from .test_clocks import DAY, new_timed_game

clock, timed = test_clocks.clock, test_clocks.timed  # the fixtures: the services on a clock the test moves


def versions_without_an_event(store, game_id: str) -> list[int]:
    game = store.load_game(game_id)
    written = {e.version for e in store.list_events(game_id)}
    return [v for v in range(game.version + 1) if v not in written]


def assert_replays(services, game_id: str) -> None:
    assert versions_without_an_event(services.store, game_id) == []
    assert services.games.replayed_state(game_id) == services.store.load_game(game_id).state


def test_a_khan_game_played_through_the_service_replays_from_its_stored_events(timed):
    ann, bob = timed.signup("Ann"), timed.signup("Bob")
    players = {1: ann, 2: bob}
    game = timed.new_game(ann, [ann, bob], game="khan", options={"first_seat": 1}, seed=9)
    # The Khan's first turn (pay, end_action, end_turn) is one action; every other step is an
    # action of its own, so a lone end_action is a version of its own too.
    actions = [[step for _, step in ROUT[2:5]]] + [[step] for _, step in ROUT[5:]]
    seats = [1] + [seat for seat, _ in ROUT[5:]]
    version = 0
    for seat, steps in [(1, [ROUT[0][1]]), (2, [ROUT[1][1]]), *zip(seats, actions)]:
        reply = timed.act(players[seat], game["game_id"], version, *steps)
        assert reply.status == 200, reply.body
        version = reply.body["version"]
    assert reply.body["view"]["result"]["reason"] == "routed"
    assert_replays(timed.services, game["game_id"])


def test_a_battleline_game_lost_on_time_replays_from_its_stored_events(timed, clock):
    ann, bob, game = new_timed_game(timed, {"per_move_days": 3})
    players = {1: ann, 2: bob}
    rng = random.Random(4)
    for _ in range(24):  # a few turns, then seat to move lets its time run out
        view = timed.view(ann, game["game_id"])
        mover = players[view["to_move"]]
        view = timed.view(mover, game["game_id"])
        step = rng.choice([s for s in view["legal_steps"] if s["type"] != "resign"])
        reply = timed.act(mover, game["game_id"], view["version"], step)
        assert reply.status == 200, reply.body
    clock.advance(4 * DAY)
    assert timed.services.clocks.sweep_clocks()["timeouts"] == 1
    assert timed.view(ann, game["game_id"])["result"]["reason"] == "timeout"
    assert_replays(timed.services, game["game_id"])
