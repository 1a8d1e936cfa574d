# ruff: noqa: F811 (the clock tests' fixtures, imported, are the tests' arguments)
"""A tournament game lost on time (issue 22, item 6): abandonment there is a forfeit, and the
tournament may withdraw the player who lost on time (``withdraw_on_timeout``, on by default)."""

from __future__ import annotations

from .test_clocks import DAY, clock, end_turn, timed  # noqa: F401 (fixtures)
from .test_tournaments import create, get, join, resign, start


def four_player_round_robin(api, **settings):
    players = [api.signup(n) for n in ("Ann", "Bob", "Cat", "Dan")]
    t = create(api, players[0], options={"time_control": {"per_move_days": 2}}, **settings)
    join(api, t, *players)
    return players, start(api, players[0], t)


def seated(api, players, game_id):
    """The game's players in seat order."""
    by_id = {p["id"]: p for p in players}
    return [by_id[s["player_id"]] for s in api.view(players[0], game_id)["seats"]]


def round_one_with_a_timeout(api, clock, players, t, *, moved: bool):
    """Round 1: the first board is resigned; on the second, its seat 1 runs out of time (having moved
    once first, or never). Returns the player who ran out of time."""
    first, second = (p for p in t["pairings"] if p["round"] == 1)
    board = seated(api, players, first["game_ids"][0])
    resign(api, api.services, board[0], first["game_ids"][0])
    game_id = second["game_ids"][0]
    seats = seated(api, players, game_id)
    if api.view(seats[0], game_id)["to_move"] == 2:
        end_turn(api, seats, game_id)
    if moved:
        end_turn(api, seats, game_id)
        end_turn(api, seats, game_id)
    clock.advance(2 * DAY)
    assert api.services.clocks.sweep_clocks()["timeouts"] == 1
    api.services.dispatcher.drain_outbox()
    return seats[0], game_id


def pairings_of(t, player):
    return [p for p in t["pairings"] if player["id"] in (p["first"]["player_id"], p["second"]["player_id"])]


def entry(t, player):
    return next(p for p in t["players"] if p["player_id"] == player["id"])


def test_a_player_who_loses_on_time_is_withdrawn_and_forfeits_the_later_pairings(timed, clock):
    players, t = four_player_round_robin(timed)
    assert t["withdraw_on_timeout"] is True  # the default, shown by getTournament
    late, game_id = round_one_with_a_timeout(timed, clock, players, t, moved=True)
    assert timed.view(late, game_id)["result"]["reason"] == "timeout"
    t = get(timed, t)
    assert entry(t, late)["withdrawn"] is True and t["round"] == 2
    later = [p for p in pairings_of(t, late) if p["round"] > 1]
    assert later and all(p["forfeit"] and p["game_ids"] == [] for p in later)
    # The message handled again (at least once) withdraws nothing more and changes nothing.
    before = get(timed, t)
    timed.services.tournaments.settle_game(timed.services.moves.find(game_id))
    assert get(timed, t) == before


def test_a_tournament_game_abandoned_is_a_forfeit_and_withdraws_its_player(timed, clock):
    players, t = four_player_round_robin(timed)
    late, game_id = round_one_with_a_timeout(timed, clock, players, t, moved=False)
    view = timed.view(late, game_id)
    assert view["result"]["reason"] == "forfeit" and view["result"]["winner"] == 2  # not aborted: it counts
    t = get(timed, t)
    assert entry(t, late)["withdrawn"] is True
    round_one = next(p for p in pairings_of(t, late) if p["round"] == 1)
    assert round_one["points"] is not None and max(round_one["points"]) == 5.0  # scored: the other side won


def test_with_withdraw_on_timeout_off_the_player_plays_on(timed, clock):
    players, t = four_player_round_robin(timed, withdraw_on_timeout=False)
    assert t["withdraw_on_timeout"] is False
    late, game_id = round_one_with_a_timeout(timed, clock, players, t, moved=True)
    t = get(timed, t)
    assert entry(t, late)["withdrawn"] is False and t["round"] == 2
    round_two = next(p for p in pairings_of(t, late) if p["round"] == 2)
    assert not round_two["forfeit"] and len(round_two["game_ids"]) == 1
    assert timed.view(late, round_two["game_ids"][0])["status"] == "active"
