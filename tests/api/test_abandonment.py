# ruff: noqa: F811 (the clock tests' fixtures, imported, are the tests' arguments)
"""Abandonment (issue 22, item 6): a seat whose clock runs out before it ever moved aborts the game
(unrated, counting for nothing), except in a tournament or a ladder, where it forfeits."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timezone

from chalicelib.clocks import timecontrol
from chalicelib.notify import messages
from chalicelib.store.records import SeatRecord
from chalicelib.services.clocks import never_moved

from .test_clocks import DAY, clock, end_turn, new_timed_game, timed  # noqa: F401 (fixtures)


def sweep_one_timeout(api):
    assert api.services.clocks.sweep_clocks()["timeouts"] == 1


def ratings(api, player):
    return api.get("/v1/players/me", key=player["api_key"]).body["ratings"]


def test_a_seat_that_never_moved_aborts_the_game_when_its_time_runs_out(timed, clock):
    ann, bob, game = new_timed_game(timed, {"per_move_days": 2})
    assert game["rated"] is True
    clock.advance(2 * DAY)
    sweep_one_timeout(timed)
    view = timed.view(bob, game["game_id"])
    assert view["status"] == "finished" and view["rated"] is False
    assert view["result"] == {"winner": None, "reason": "aborted", "seat": 1, "abandoned": True}
    events = timed.get(f"/v1/games/{game['game_id']}/events", key=bob["api_key"]).body["events"]
    assert [e["type"] for e in events] == ["game_created", "game_aborted"]
    timed.services.dispatcher.drain_outbox()
    assert ratings(timed, ann) == {} and ratings(timed, bob) == {}  # it counts for nothing
    assert timed.services.games.replayed_state(game["game_id"]) == timed.services.moves.find(game["game_id"]).state


def test_the_second_seat_never_moving_aborts_the_game_too(timed, clock):
    ann, bob, game = new_timed_game(timed, {"per_move_days": 2})
    end_turn(timed, [ann, bob], game["game_id"])  # Ann moved; Bob never does
    clock.advance(2 * DAY)
    sweep_one_timeout(timed)
    view = timed.view(ann, game["game_id"])
    assert view["result"]["reason"] == "aborted" and view["result"]["seat"] == 2 and view["rated"] is False


def test_a_seat_that_has_moved_loses_on_time_as_before(timed, clock):
    ann, bob, game = new_timed_game(timed, {"per_move_days": 2})
    end_turn(timed, [ann, bob], game["game_id"])
    end_turn(timed, [ann, bob], game["game_id"])
    clock.advance(2 * DAY)
    sweep_one_timeout(timed)
    view = timed.view(ann, game["game_id"])
    assert view["result"]["winner"] == 2 and view["result"]["reason"] == "timeout" and view["rated"] is True


def test_a_move_posted_after_the_deadline_by_a_seat_that_never_moved_finds_the_game_aborted(timed, clock):
    ann, bob, game = new_timed_game(timed, {"per_move_days": 2})
    clock.advance(2 * DAY)
    step = next(s for s in game["legal_steps"] if s["type"] == "play")
    reply = timed.act(ann, game["game_id"], 0, step)
    assert reply.status == 409 and reply.body["code"] == "time_expired"
    assert timed.view(ann, game["game_id"])["result"]["reason"] == "aborted"


def test_three_player_battle_line_is_aborted_when_a_seat_never_moved(timed, clock):
    """Two seats moved, the third never did: the game is aborted (three-player games are never rated)."""
    ann, bob, cat = (timed.signup(n) for n in ("Ann", "Bob", "Cat"))
    game = timed.new_game(ann, [ann, bob, cat], options={"players": 3, "time_control": {"per_move_days": 1}})
    end_turn(timed, [ann, bob, cat], game["game_id"])
    end_turn(timed, [ann, bob, cat], game["game_id"])
    last = timed.view(ann, game["game_id"])["to_move"]
    clock.advance(DAY)
    sweep_one_timeout(timed)
    view = timed.view(cat, game["game_id"])
    assert view["status"] == "finished" and view["result"]["reason"] == "aborted" and view["result"]["seat"] == last


def test_khan_a_seat_that_never_moved_aborts_the_game(timed, clock):
    ann, bob = timed.signup("Ann"), timed.signup("Bob")
    game = timed.new_game(ann, [ann, bob], game="khan", options={"time_control": {"per_move_days": 1}})
    first = timed.view(ann, game["game_id"])["to_move"]  # who starts comes from the deal's seed
    end_turn(timed, [ann, bob], game["game_id"])  # the first seat places its unit; the second never does
    clock.advance(DAY)
    sweep_one_timeout(timed)
    view = timed.view(ann, game["game_id"])
    assert view["result"] == {"winner": None, "reason": "aborted", "seat": 3 - first, "abandoned": True}


def test_decision_an_answer_in_the_reaction_window_counts_as_having_moved():
    """Khan & General's reaction window hands the clock to the other seat for its answer: answering
    ends a turn, so that seat has moved, and running out of time later is a loss, not an abort."""
    at = datetime(2026, 3, 2, tzinfo=timezone.utc)
    clock = timecontrol.pass_turn(timecontrol.new_clock({"per_move_days": 1}, [1, 2]), at, 1, [])
    assert never_moved(clock, 1) and never_moved(clock, 2)
    clock = timecontrol.pass_turn(clock, at, 2, [])  # seat 1's action opens the window: seat 2 answers
    clock = timecontrol.pass_turn(clock, at, 1, [])  # its answer given, the turn is seat 1's again
    assert not never_moved(clock, 2) and not never_moved(clock, 1)


def test_a_ladder_game_abandoned_is_a_forfeit_not_an_abort(timed, clock):
    """A game with ``ladder_id`` (issue 21's ladders make them) counts: the seat that never moved loses."""
    ann, bob = timed.signup("Ann"), timed.signup("Bob")
    services = timed.services
    engine = services.games.engines["battleline"]
    seats = [SeatRecord(1, ann["id"], "Ann"), SeatRecord(2, bob["id"], "Bob")]
    options = services.moves.game_options(engine, {"first_seat": 1, "time_control": {"per_move_days": 3}})
    game, created = services.moves.new_game_record(engine, "g_ladder1", options, seats, 5, ann["id"], rated=True)
    game = replace(game, ladder_id="l_spring")
    services.store.create_game(game, [created], None, messages.for_new_game(game))
    assert services.moves.find(game.id).ladder_id == "l_spring"  # stored and loaded with the game
    clock.advance(3 * DAY)
    sweep_one_timeout(timed)
    view = timed.view(bob, game.id)
    assert view["result"]["reason"] == "forfeit" and view["result"]["winner"] == 2 and view["rated"] is True
